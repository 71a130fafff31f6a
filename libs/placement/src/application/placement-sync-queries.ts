import type { SqlDatabase } from '@ledger/processing';
import { type HostSyncState, type HostSyncStatus, noHostsByState } from './host-sync-status';
import { PlacementSyncStore } from './placement-sync-store';

/** The fleet at a glance: hosts per state, and a page of the hosts not in sync (by name). */
export interface PlacementFleetSync {
  readonly counts: Readonly<Record<HostSyncState, number>>;
  readonly items: readonly HostSyncStatus[];
  /** The last host name of this page, to pass as `cursor` for the next; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * Reads of the reconciler's per-host sync statuses for operators (the API,
 * /readyz), from the read-model database: any replica answers, whether or
 * not it runs the reconciler. The table is made on first use, so a ledger
 * whose reconciler never ran answers with an empty fleet.
 */
export class PlacementSyncQueries {
  private readonly store: PlacementSyncStore;
  private ready: Promise<void> | undefined;

  constructor(db: SqlDatabase) {
    this.store = new PlacementSyncStore(db);
  }

  async host(hostname: string): Promise<HostSyncStatus | undefined> {
    await this.setup();
    return this.store.status(hostname);
  }

  /** Hosts per state, every state present. */
  async counts(): Promise<Record<HostSyncState, number>> {
    await this.setup();
    const counts = noHostsByState();
    for (const { state, hosts } of await this.store.countsByState()) counts[state] = hosts;
    return counts;
  }

  async fleet(page: { readonly limit: number; readonly cursor?: string }): Promise<PlacementFleetSync> {
    const counts = await this.counts();
    const rows = await this.store.notInSync(page.cursor || undefined, page.limit + 1);
    const items = rows.slice(0, page.limit);
    return { counts, items, nextCursor: rows.length > page.limit ? items[items.length - 1].hostname : null };
  }

  private setup(): Promise<void> {
    this.ready ??= this.store.setup().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }
}
