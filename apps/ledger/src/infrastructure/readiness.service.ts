import { Inject, Injectable, Optional } from '@nestjs/common';
import { KEYSTONE_SESSION, type KeystoneSession } from '@ledger/auth';
import type { LedgerConfig } from '@ledger/config';
import { EVENT_STORE, type EventStore, type LogCut, LogCutBelowSignedHeadError } from '@ledger/eventstore';
import { HOST_SYNC_STATES, type PlacementReconciler, PlacementSyncQueries } from '@ledger/placement';
import { PLACEMENT_RECONCILER } from '@ledger/placement/nest';
import type { ProcessorRuntime, ProcessorStatus, ReactorRuntime, ReactorStatus, SqlDatabase } from '@ledger/processing';
import type { WorkflowRuntime } from '@ledger/workflows';
import { HeadCheckpointsService } from './head-checkpoints.service';
import { READ_MODELS_PREPARATION, type ReadModelsPreparation } from './read-models-preparation';
import { LEDGER_CONFIG, PROCESSOR_RUNTIME, REACTOR_RUNTIME, READ_MODEL_DB, WORKFLOW_RUNTIME } from './tokens';

/** One check of /readyz; a failed one may name a stable error code and the facts behind it. */
export interface ReadinessCheck {
  readonly ok: boolean;
  readonly detail?: string;
  readonly code?: string;
  readonly [fact: string]: unknown;
}

export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: Record<string, ReadinessCheck>;
  readonly headPosition?: number;
  readonly processors?: unknown;
  readonly reactors?: readonly ReactorStatus[];
  readonly workflows?: readonly ProcessorStatus[];
}

/**
 * Ready = the event store and read models answer (in a replica without
 * the processors role: and another replica has prepared them), and no
 * processor has failed, and (on a conductor) the store is not cut below its
 * signed head unless an operator accepted that rollback. Reactors, the Placement sync and Keystone are reported, never
 * unready: an outside that is down or an event parked for an operator does
 * not stop the ledger serving (requests Keystone must check get 503 on their
 * own, while agents' ledger tokens still work).
 */
@Injectable()
export class ReadinessService {
  private readonly placementSync: PlacementSyncQueries;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODEL_DB) private readonly readModels: SqlDatabase,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    @Optional() @Inject(PROCESSOR_RUNTIME) private readonly runtime?: ProcessorRuntime,
    @Optional() @Inject(REACTOR_RUNTIME) private readonly reactorRuntime?: ReactorRuntime,
    @Optional() @Inject(PLACEMENT_RECONCILER) private readonly placementReconciler?: PlacementReconciler | null,
    @Optional() @Inject(WORKFLOW_RUNTIME) private readonly workflowRuntime?: WorkflowRuntime,
    @Optional() @Inject(KEYSTONE_SESSION) private readonly keystone?: KeystoneSession | null,
    @Optional() @Inject(READ_MODELS_PREPARATION) private readonly preparation?: ReadModelsPreparation | null,
    @Optional() @Inject(HeadCheckpointsService) private readonly headCheckpoints?: HeadCheckpointsService,
  ) {
    this.placementSync = new PlacementSyncQueries(readModels);
  }

  async check(): Promise<ReadinessReport> {
    const checks: ReadinessReport['checks'] = {};
    let headPosition: number | undefined;
    try {
      headPosition = await this.store.headPosition();
      checks.eventStore = { ok: true };
    } catch (error) {
      checks.eventStore = { ok: false, detail: (error as Error).message };
    }
    try {
      await this.readModels.get('SELECT 1 AS one');
      const missing = (await this.preparation?.missing()) ?? [];
      checks.readModels = missing.length === 0 ? { ok: true } : { ok: false, detail: `waiting for a processors replica to prepare: ${missing.join(', ')}` };
    } catch (error) {
      checks.readModels = { ok: false, detail: (error as Error).message };
    }
    if (checks.readModels.ok) checks.placement = { ok: true, ...(await this.describePlacement()) };
    if (this.keystone) checks.identity = { ok: true, detail: await describeKeystone(this.keystone) };
    const processors = await this.runtime?.status();
    if (processors) {
      const failed = processors.filter((processor) => processor.state === 'failed').map((processor) => processor.name);
      const restored = processors.filter((processor) => processor.restored).map((processor) => `${processor.name}: ${processor.restored}`);
      checks.processors =
        failed.length === 0 ? { ok: true, ...(restored.length > 0 ? { detail: restored.join('; ') } : {}) } : { ok: false, detail: `failed: ${failed.join(', ')}` };
    }
    // A store that does not answer is the eventStore check's to report.
    const cut = await this.headCheckpoints?.cut().catch(() => undefined);
    if (cut) checks.signedHead = describeCut(cut);
    const reactors = await this.reactorRuntime?.status();
    if (reactors) checks.reactors = { ok: true, ...describeReactors(reactors) };
    const workflows = await this.workflowRuntime?.status();
    if (workflows) checks.workflows = { ok: true, ...describeWorkflows(workflows) };
    return { ready: Object.values(checks).every((check) => check.ok), checks, headPosition, processors, reactors, workflows };
  }

  /** "off: …", or "Placement unavailable since …; not in sync: 1 blocked-by-allocations", or nothing when every host is in sync. */
  private async describePlacement(): Promise<{ detail?: string }> {
    if (this.config.placement.endpoint === undefined) return { detail: 'off: neither LEDGER_PLACEMENT_URL nor LEDGER_KEYSTONE_URL is set' };
    const counts = await this.placementSync.counts();
    const since = this.placementReconciler?.status().placementUnavailableSince;
    const notInSync = HOST_SYNC_STATES.filter((state) => state !== 'in-sync' && counts[state] > 0).map((state) => `${counts[state]} ${state}`);
    const notes = [...(since ? [`Placement unavailable since ${since}`] : []), ...(notInSync.length > 0 ? [`not in sync: ${notInSync.join(', ')}`] : [])];
    return notes.length > 0 ? { detail: notes.join('; ') } : {};
  }
}

/** A store cut below its signed head: unready with the error's code and facts, or ready with who accepted the rollback. */
function describeCut(cut: LogCut): ReadinessCheck {
  if (!cut.accepted) {
    const refused = new LogCutBelowSignedHeadError(cut);
    return { ok: false, code: refused.code, detail: refused.message, ...refused.facts };
  }
  const { to, by, at, reason } = cut.accepted;
  return {
    ok: true,
    detail: `rollback to position ${to} accepted by ${by} at ${at} (${reason}); no checkpoint is signed until the head passes the signed head ${cut.signedHead}`,
  };
}

/** Whether the ledger holds a Keystone token of its own (getting one when it has none): without one no user token can be checked. */
async function describeKeystone(session: KeystoneSession): Promise<string> {
  try {
    await session.token();
    return `Keystone at ${session.authUrl}: the ledger is signed in`;
  } catch (error) {
    return `Keystone at ${session.authUrl}: ${(error as Error).message}`;
  }
}

/** "nova-notifier: unavailable since …; kafka-relay: a call outstanding since … (position 12); placement: 2 parked", or nothing when all is well. */
function describeReactors(reactors: readonly ReactorStatus[]): { detail?: string } {
  const notes = reactors.flatMap((reactor) => {
    const parts = [
      ...(reactor.restored ? [reactor.restored] : []),
      ...(reactor.unavailableSince ? [`unavailable since ${reactor.unavailableSince}`] : []),
      ...(reactor.stalled ? [`a call outstanding since ${reactor.stalled.since} (position ${reactor.stalled.position})`] : []),
      ...(reactor.state === 'retrying' ? [`retrying position ${reactor.retrying?.position}`] : []),
      ...(reactor.parked > 0 ? [`${reactor.parked} parked`] : []),
    ];
    return parts.length > 0 ? [`${reactor.name}: ${parts.join(', ')}`] : [];
  });
  return notes.length > 0 ? { detail: notes.join('; ') } : {};
}

/**
 * "bind: 3 failed sends (no handler for …)", or nothing when every workflow
 * keeps up. Reported, never unready: a workflow waiting on its outside (a
 * send the runtime retries with backoff) does not stop the ledger serving.
 */
function describeWorkflows(workflows: readonly ProcessorStatus[]): { detail?: string } {
  const notes = workflows
    .filter((workflow) => workflow.failures > 0)
    .map((workflow) => `${workflow.name}: ${workflow.failures} failed attempt(s)${workflow.lastError ? ` (${workflow.lastError})` : ''}`);
  return notes.length > 0 ? { detail: notes.join('; ') } : {};
}
