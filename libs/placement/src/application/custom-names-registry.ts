import type { CustomNames } from '../domain/placement-names';
import { PlacementInUseError } from './placement-api.errors';
import type { PlacementApi } from './placement-api.port';
import type { CustomNameKind, PlacementSyncStore } from './placement-sync-store';

/**
 * The custom resource classes and traits the ledger's providers need:
 * created before first use (once per process per name), remembered when the
 * reconciler was the one that created them, and deleted only then, once no
 * desired provider needs them and Placement agrees nothing uses them (it
 * refuses while any provider, including another service's, does).
 */
export class CustomNamesRegistry {
  private readonly ensured = new Map<string, Promise<void>>();

  constructor(
    private readonly api: PlacementApi,
    private readonly store: PlacementSyncStore,
  ) {}

  async ensure(names: CustomNames): Promise<void> {
    const pending: Promise<void>[] = [];
    for (const name of names.resourceClasses) pending.push(this.ensureOnce('resource-class', name));
    for (const name of names.traits) pending.push(this.ensureOnce('trait', name));
    await Promise.all(pending);
  }

  /** Placement lost a name this process thought existed (deleted by hand): ensure everything again. */
  forgetEnsured(): void {
    this.ensured.clear();
  }

  /** Deletes the names this reconciler created that `stillWanted` does not list; resolves to those deleted. */
  async removeUnused(stillWanted: CustomNames): Promise<string[]> {
    const removed: string[] = [];
    for (const { kind, name } of await this.store.created()) {
      const wanted = kind === 'trait' ? stillWanted.traits : stillWanted.resourceClasses;
      if (wanted.has(name)) continue;
      try {
        if (kind === 'trait') await this.api.deleteTrait(name);
        else await this.api.deleteResourceClass(name);
      } catch (error) {
        // Still on some provider (perhaps another service's): a later compare tries again.
        if (error instanceof PlacementInUseError) continue;
        throw error;
      }
      this.ensured.delete(key(kind, name));
      await this.store.forgetCreated(kind, name);
      removed.push(name);
    }
    return removed;
  }

  private ensureOnce(kind: CustomNameKind, name: string): Promise<void> {
    const id = key(kind, name);
    let ensuring = this.ensured.get(id);
    if (ensuring === undefined) {
      ensuring = this.create(kind, name);
      this.ensured.set(id, ensuring);
      ensuring.catch(() => this.ensured.delete(id));
    }
    return ensuring;
  }

  private async create(kind: CustomNameKind, name: string): Promise<void> {
    const created = kind === 'trait' ? await this.api.ensureTrait(name) : await this.api.ensureResourceClass(name);
    // Recorded only after Placement said 201: a crash in between leaks a name
    // (harmless) rather than ever claiming one another service made.
    if (created) await this.store.recordCreated(kind, name);
  }
}

const key = (kind: CustomNameKind, name: string): string => `${kind}:${name}`;
