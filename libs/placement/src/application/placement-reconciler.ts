import { forEachConcurrently, LedgerError, NAMESPACE_DNS, uuidV3 } from '@ledger/kernel';
import { acquireLease, type Clock, consoleProcessorLogger, ensureProcessingTables, type ProcessorLogger, releaseLease, type SqlDatabase, systemClock } from '@ledger/processing';
import type { ActualHostPlacement } from '../domain/actual-placement';
import { type DesiredHostPlacement, type DesiredPlacementSource, type DesiredProvider, OWNER_TRAIT } from '../domain/desired-placement';
import { customNamesOf } from '../domain/placement-names';
import type { HostPlacementPlan, PlacementStep } from '../domain/placement-steps';
import { planHostPlacement } from '../domain/plan-host-placement';
import { CustomNamesRegistry } from './custom-names-registry';
import { executeHostPlan } from './execute-host-plan';
import { continueStatus, type HostSyncStatus, noHostsByState } from './host-sync-status';
import {
  PlacementDuplicateError,
  PlacementGenerationConflictError,
  PlacementInUseError,
  PlacementNotFoundError,
  PlacementRequestError,
  PlacementUnavailableError,
} from './placement-api.errors';
import type { PlacementApi, PlacementProvider } from './placement-api.port';
import { PlacementSyncStore } from './placement-sync-store';
import { readActualHost } from './read-actual-host';

export interface PlacementReconcilerOptions {
  readonly api: PlacementApi;
  readonly source: DesiredPlacementSource;
  /** The read-model database: sync statuses, created names and the lease live there. */
  readonly db: SqlDatabase;
  /** Hosts reconciled at once (LEDGER_PLACEMENT_CONCURRENCY). */
  readonly concurrency: number;
  /** Between periodic compares (LEDGER_PLACEMENT_RESYNC_SECONDS). */
  readonly resyncMs: number;
  /** LEDGER_PLACEMENT_CREATE_COMPUTE_NODES. */
  readonly createComputeNodes: boolean;
  /** Owner of the lease (LEDGER_INSTANCE_ID). */
  readonly instanceId: string;
  /** The lease outlives a silent holder this long (LEDGER_PROCESSOR_LEASE_MS), at least three compares. */
  readonly leaseMs: number;
  readonly logger?: ProcessorLogger;
  readonly clock?: Clock;
  /** Re-reads after a conflicting write before a host is reported failed (default 5). */
  readonly maxAttempts?: number;
}

/** What one full compare found. */
export interface CompareSummary {
  readonly hosts: number;
  /** Hosts whose compare wrote to Placement. */
  readonly changed: number;
  readonly byState: Readonly<Record<HostSyncStatus['state'], number>>;
  /** Custom resource classes and traits deleted because nothing needs them any more. */
  readonly removedNames: readonly string[];
}

export interface PlacementReconcilerStatus {
  readonly running: boolean;
  readonly holdsLease: boolean;
  readonly lastCompareAt?: string;
  readonly placementUnavailableSince?: string;
}

/** After every attempt, a host's compare still conflicted with other writers. */
export class PlacementNotConvergedError extends LedgerError {
  constructor(hostname: string, attempts: number, last: string) {
    super('PLACEMENT.NOT_CONVERGED', 409, `${hostname}: Placement kept changing under ${attempts} attempts (last: ${last})`, { hostname, attempts, last });
  }
}

type Converged = { readonly kind: 'waiting' } | { readonly kind: 'done'; readonly plan: HostPlacementPlan; readonly written: readonly PlacementStep[] };

const LEASE = 'placement-reconciler';

/**
 * Keeps Placement holding what the ledger wants for every host's
 * accelerators (docs/placement.md "Reconciler"): a child provider per
 * deployable under Nova's compute-node provider, with Cyborg's names, uuids,
 * inventories and traits. Driven two ways: `reconcileHosts` when the
 * desired state of some hosts changed, and `reconcileAll`, the full compare
 * that repairs drift — at start and every `resyncMs` under a lease while
 * `start()`ed, so one replica reconciles.
 */
export class PlacementReconciler {
  private readonly store: PlacementSyncStore;
  private readonly names: CustomNamesRegistry;
  private readonly logger: ProcessorLogger;
  private readonly clock: Clock;
  private readonly maxAttempts: number;
  /** What Placement held after the last read or write, per host: a compare reads again only where generations moved. */
  private readonly known = new Map<string, ActualHostPlacement>();
  private readonly computeNodes = new Map<string, string>();
  private readonly statuses = new Map<string, HostSyncStatus>();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private ready: Promise<void> | undefined;
  private namesCleaned = false;
  private unavailableSince: string | undefined;
  private lastCompareAt: string | undefined;
  private holdsLease = false;
  private leaseRenewedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** Set by stop(): a compare in progress leaves the hosts it has not reached for the next one. */
  private stopRequested = false;

  constructor(private readonly options: PlacementReconcilerOptions) {
    this.store = new PlacementSyncStore(options.db);
    this.names = new CustomNamesRegistry(options.api, this.store);
    this.logger = options.logger ?? consoleProcessorLogger;
    this.clock = options.clock ?? systemClock;
    this.maxAttempts = options.maxAttempts ?? 5;
  }

  /** Reconciles these hosts now (their desired state changed); resolves to their statuses. */
  async reconcileHosts(hostnames: readonly string[]): Promise<HostSyncStatus[]> {
    await this.setup();
    const statuses: HostSyncStatus[] = [];
    await forEachConcurrently([...new Set(hostnames)], this.options.concurrency, async (hostname) => {
      statuses.push((await this.exclusive(hostname, () => this.syncHost(hostname, undefined))).status);
    });
    return statuses;
  }

  /**
   * The full compare: one listing of every provider carrying the owner
   * trait, deep reads only where a generation moved or a provider is
   * missing, writes only where Placement differs; then the custom names the
   * reconciler created and nothing needs any more are deleted.
   */
  async reconcileAll(): Promise<CompareSummary> {
    await this.setup();
    const hostnames = await this.options.source.hostnames();
    const byState = noHostsByState();
    let listing: Map<string, PlacementProvider[]>;
    try {
      listing = groupByParent(await this.options.api.listProviders({ required: [OWNER_TRAIT] }));
      this.placementAnswered();
    } catch (error) {
      if (!(error instanceof PlacementUnavailableError)) throw error;
      this.placementFailed(error);
      for (const hostname of hostnames) byState[(await this.saveStatus(this.unavailableStatus(hostname, error))).state] += 1;
      return { hosts: hostnames.length, changed: 0, byState, removedNames: [] };
    }
    const wanted: DesiredProvider[] = [];
    let changed = 0;
    await forEachConcurrently(hostnames, this.options.concurrency, async (hostname) => {
      if (this.stopRequested) return;
      await this.keepLease();
      const { status, desired, wrote } = await this.exclusive(hostname, () => this.syncHost(hostname, listing));
      byState[status.state] += 1;
      if (wrote) changed += 1;
      wanted.push(...(desired?.providers ?? []));
    });
    let removedNames: string[] = [];
    const complete = !this.stopRequested && byState['placement-unavailable'] === 0 && byState.failed === 0;
    if ((changed > 0 || !this.namesCleaned) && complete) {
      removedNames = await this.names.removeUnused(customNamesOf(wanted));
      this.namesCleaned = true;
      if (removedNames.length > 0) this.logger.log(`placement: deleted ${removedNames.join(', ')}, which no provider needs any more`);
    }
    this.lastCompareAt = this.now();
    return { hosts: hostnames.length, changed, byState, removedNames };
  }

  async hostStatus(hostname: string): Promise<HostSyncStatus | undefined> {
    await this.setup();
    return this.store.status(hostname);
  }

  async hostStatuses(): Promise<HostSyncStatus[]> {
    await this.setup();
    return this.store.statuses();
  }

  status(): PlacementReconcilerStatus {
    return { running: !this.stopped, holdsLease: this.holdsLease, lastCompareAt: this.lastCompareAt, placementUnavailableSince: this.unavailableSince };
  }

  /** Compares at once, then every `resyncMs`, while this instance holds the lease. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopRequested = false;
    const tick = (): void => {
      this.running = this.compareUnderLease().finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        this.timer = setTimeout(tick, this.options.resyncMs);
        this.timer.unref();
      });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopRequested = true;
    clearTimeout(this.timer);
    await this.running;
    if (this.holdsLease) await releaseLease(this.options.db, LEASE, this.options.instanceId).catch(() => undefined);
    this.holdsLease = false;
  }

  private async compareUnderLease(): Promise<void> {
    try {
      await this.setup();
      if (!(await this.renewLease())) return;
      await this.reconcileAll();
    } catch (error) {
      this.logger.error(`placement: compare failed: ${messageOf(error)}`, (error as Error)?.stack);
    }
  }

  private leaseTtlMs(): number {
    return Math.max(this.options.leaseMs, 3 * this.options.resyncMs);
  }

  private async renewLease(): Promise<boolean> {
    const now = this.clock();
    const held = await acquireLease(this.options.db, { name: LEASE, owner: this.options.instanceId, now, ttlMs: this.leaseTtlMs() });
    if (held && !this.holdsLease) this.logger.log(`placement: ${this.options.instanceId} reconciles (lease taken)`);
    if (!held && this.holdsLease) {
      // Another instance reconciles now; what this one knew goes stale meanwhile.
      this.known.clear();
      this.logger.log(`placement: ${this.options.instanceId} stands by (lease held elsewhere)`);
    }
    this.holdsLease = held;
    this.leaseRenewedAt = now;
    return held;
  }

  /** A long compare (a large fleet converging) renews the lease as it goes, and stops if it was lost. */
  private async keepLease(): Promise<void> {
    if (!this.holdsLease || this.clock() - this.leaseRenewedAt < this.leaseTtlMs() / 3) return;
    if (!(await this.renewLease())) throw new Error('the lease was lost during the compare');
  }

  private setup(): Promise<void> {
    this.ready ??= (async () => {
      await ensureProcessingTables(this.options.db);
      await this.store.setup();
      for (const status of await this.store.statuses()) this.statuses.set(status.hostname, status);
    })().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  /** One host at a time: a change and a compare of the same host never write concurrently. */
  private exclusive<T>(hostname: string, work: () => Promise<T>): Promise<T> {
    const previous = this.inFlight.get(hostname) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.inFlight.set(hostname, next);
    void next.finally(() => {
      if (this.inFlight.get(hostname) === next) this.inFlight.delete(hostname);
    }).catch(() => undefined);
    return next;
  }

  private async syncHost(
    hostname: string,
    listing: Map<string, PlacementProvider[]> | undefined,
  ): Promise<{ status: HostSyncStatus; desired?: DesiredHostPlacement; wrote: boolean }> {
    const previous = this.statuses.get(hostname);
    let desired: DesiredHostPlacement | undefined;
    try {
      desired = (await this.options.source.host(hostname)) ?? { hostname, providers: [], position: previous?.position ?? 0 };
      const converged = await this.converge(desired, listing);
      this.placementAnswered();
      const status = await this.saveStatus(this.statusAfter(previous, desired, converged));
      return { status, desired, wrote: converged.kind === 'done' && converged.written.length > 0 };
    } catch (error) {
      this.known.delete(hostname);
      this.computeNodes.delete(hostname);
      if (error instanceof PlacementUnavailableError) {
        this.placementFailed(error);
        return { status: await this.saveStatus(this.unavailableStatus(hostname, error)), desired, wrote: false };
      }
      const status: HostSyncStatus = { hostname, state: 'failed', since: this.now(), position: previous?.position ?? 0, detail: messageOf(error), lastRepair: previous?.lastRepair };
      return { status: await this.saveStatus(status), desired, wrote: false };
    }
  }

  private async converge(desired: DesiredHostPlacement, listing: Map<string, PlacementProvider[]> | undefined): Promise<Converged> {
    const hostname = desired.hostname;
    const wanted = new Set(desired.providers.map((provider) => provider.uuid));
    const reserving = new Set(desired.providers.filter((provider) => provider.reserved > 0).map((provider) => provider.uuid));
    let useListing = listing;
    let lookUp: string[] | undefined;
    let last = '';
    for (let attempt = 1; attempt <= this.maxAttempts; attempt += 1) {
      const computeNodeUuid = await this.computeNode(hostname, desired.providers.length > 0);
      if (computeNodeUuid === undefined) {
        return desired.providers.length === 0 ? { kind: 'done', plan: { steps: [], blocked: [] }, written: [] } : { kind: 'waiting' };
      }
      const actual = await readActualHost(this.options.api, {
        computeNodeUuid,
        listed: useListing && (useListing.get(computeNodeUuid) ?? []),
        known: this.known.get(hostname),
        wanted,
        reserving,
        lookUp,
      });
      const plan = planHostPlacement(desired, actual);
      if (plan.steps.length === 0) {
        this.known.set(hostname, actual);
        return { kind: 'done', plan, written: [] };
      }
      try {
        await this.names.ensure(customNamesOf(desired.providers));
        this.known.set(hostname, await executeHostPlan(this.options.api, actual, plan.steps));
        return { kind: 'done', plan, written: plan.steps };
      } catch (error) {
        if (!isRetryable(error)) throw error;
        // Placement changed under us (or lost something we counted on): read it all again and re-plan.
        last = messageOf(error);
        this.known.delete(hostname);
        useListing = undefined;
        if (error instanceof PlacementDuplicateError) lookUp = desired.providers.map((provider) => provider.uuid).filter((uuid) => !actual.providers.some((held) => held.uuid === uuid));
        if (error instanceof PlacementRequestError) {
          this.names.forgetEnsured();
          this.computeNodes.delete(hostname);
        }
      }
    }
    throw new PlacementNotConvergedError(hostname, this.maxAttempts, last);
  }

  /**
   * The uuid of Nova's compute-node provider (named after the host), or
   * undefined while there is none. With createComputeNodes a standalone
   * deployment gets one with uuid3(NAMESPACE_DNS, hostname): Nova's own uuid
   * is unknown to the ledger, and a derived one lets every replica and
   * restart agree.
   */
  private async computeNode(hostname: string, needed: boolean): Promise<string | undefined> {
    const cached = this.computeNodes.get(hostname);
    if (cached !== undefined) return cached;
    let found = (await this.options.api.listProviders({ name: hostname }))[0];
    if (found === undefined && needed && this.options.createComputeNodes) {
      try {
        found = await this.options.api.createProvider({ uuid: uuidV3(NAMESPACE_DNS, hostname), name: hostname });
        this.logger.log(`placement: created the compute-node provider of ${hostname} (${found.uuid})`);
      } catch (error) {
        if (!(error instanceof PlacementDuplicateError)) throw error;
        found = (await this.options.api.listProviders({ name: hostname }))[0];
      }
    }
    if (found !== undefined) this.computeNodes.set(hostname, found.uuid);
    return found?.uuid;
  }

  private statusAfter(previous: HostSyncStatus | undefined, desired: DesiredHostPlacement, converged: Converged): HostSyncStatus {
    const base = { hostname: desired.hostname, since: this.now(), lastRepair: previous?.lastRepair };
    if (converged.kind === 'waiting') {
      return {
        ...base,
        state: 'waiting-for-compute-node',
        position: previous?.position ?? 0,
        detail: `Placement has no provider named ${desired.hostname}; Nova creates it when nova-compute starts there (LEDGER_PLACEMENT_CREATE_COMPUTE_NODES=true creates it instead)`,
      };
    }
    const { plan, written } = converged;
    // Writes for a state already in place are repairs of drift; unblocking a provider the ledger was waiting to delete is not.
    const wasInPlace = previous !== undefined && previous.position === desired.position && (previous.state === 'in-sync' || previous.state === 'blocked-by-allocations');
    const repairs = written.filter((step) => !(step.kind === 'delete-provider' && previous?.blocked?.some((blocked) => blocked.uuid === step.uuid)));
    const lastRepair = wasInPlace && repairs.length > 0 ? { at: this.now(), what: repairs.map((step) => step.why) } : previous?.lastRepair;
    if (lastRepair !== previous?.lastRepair) this.logger.log(`placement: ${desired.hostname}: drift repaired: ${lastRepair!.what.join('; ')}`);
    if (plan.blocked.length > 0) {
      return {
        ...base,
        lastRepair,
        state: 'blocked-by-allocations',
        position: desired.position,
        blocked: plan.blocked,
        detail: `${plan.blocked.map((provider) => provider.name).join(', ')}: reserved and kept until their allocations go`,
      };
    }
    return { ...base, lastRepair, state: 'in-sync', position: desired.position };
  }

  private unavailableStatus(hostname: string, error: PlacementUnavailableError): HostSyncStatus {
    const previous = this.statuses.get(hostname);
    return { hostname, state: 'placement-unavailable', since: this.unavailableSince ?? this.now(), position: previous?.position ?? 0, detail: error.message, lastRepair: previous?.lastRepair };
  }

  /** Writes a status only when it changed (apart from since), so a quiet compare writes nothing. */
  private async saveStatus(next: HostSyncStatus): Promise<HostSyncStatus> {
    const previous = this.statuses.get(next.hostname);
    const status = continueStatus(previous, next);
    if (previous !== undefined && JSON.stringify({ ...previous, since: '', detail: '' }) === JSON.stringify({ ...status, since: '', detail: '' })) return previous;
    this.statuses.set(status.hostname, status);
    await this.store.saveStatus(status);
    if (status.state !== previous?.state && status.state !== 'in-sync' && status.state !== 'placement-unavailable') {
      this.logger.warn(`placement: ${status.hostname} is ${status.state}: ${status.detail ?? ''}`);
    }
    return status;
  }

  private placementFailed(error: PlacementUnavailableError): void {
    if (this.unavailableSince !== undefined) return;
    this.unavailableSince = this.now();
    this.logger.warn(`placement: unavailable since ${this.unavailableSince}: ${error.message}; retrying every compare`);
  }

  private placementAnswered(): void {
    if (this.unavailableSince === undefined) return;
    this.logger.log(`placement: available again (unavailable since ${this.unavailableSince})`);
    this.unavailableSince = undefined;
  }

  private now(): string {
    return new Date(this.clock()).toISOString();
  }
}

function isRetryable(error: unknown): boolean {
  return (
    error instanceof PlacementGenerationConflictError ||
    error instanceof PlacementInUseError ||
    error instanceof PlacementDuplicateError ||
    error instanceof PlacementNotFoundError ||
    error instanceof PlacementRequestError
  );
}

function groupByParent(providers: readonly PlacementProvider[]): Map<string, PlacementProvider[]> {
  const byParent = new Map<string, PlacementProvider[]>();
  for (const provider of providers) {
    if (provider.parentUuid === undefined) continue;
    const siblings = byParent.get(provider.parentUuid);
    if (siblings) siblings.push(provider);
    else byParent.set(provider.parentUuid, [provider]);
  }
  return byParent;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
