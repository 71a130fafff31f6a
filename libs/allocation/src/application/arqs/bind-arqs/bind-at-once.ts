import { type AggregateCache, type CommandContext, EVENT_STORE, type EventStore, handleMultiStreamCommand, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import { DEVICE_CACHE, deviceDecider, type DeviceState, deviceStream, INVENTORY_EVENT_SCHEMA_VERSIONS } from '@ledger/inventory';
import { foldEvents, isLedgerError, type LedgerError } from '@ledger/kernel';
import { QUOTA_CACHE, QUOTA_EVENT_SCHEMA_VERSIONS, quotaDecider, type QuotaState, quotaStream } from '@ledger/quota';
import { Inject, Injectable } from '@nestjs/common';
import { arqDecider } from '../../../domain/arq.decider';
import type { ArqEvent } from '../../../domain/arq.events';
import type { ArqState, LiveArq } from '../../../domain/arq.state';
import { ALLOCATION_DIRECTORY, type AllocationDirectory } from '../allocation-directory.port';
import { ArqStore, assertAccepted, liveOrThrow } from '../arq-store';
import { type BindAtOnce, type BindAtOnceStates, decideBindAtOnce } from './bind-at-once.decision';

export type { BindAtOnce };

const SCHEMA_VERSIONS = { ...INVENTORY_EVENT_SCHEMA_VERSIONS, ...QUOTA_EVENT_SCHEMA_VERSIONS };

/**
 * A bind with nothing to program waits on nothing outside the ledger, so it
 * is no workflow: one decision over the request (started and bound), the
 * device (a free attach handle claimed) and, when the device charges
 * capacity, the project's quota, appended to their streams in one atomic
 * append with each stream's expected version checked (shared/DESIGN.md,
 * "Consistency boundaries"). A crash leaves all of it or none. When the
 * device or the quota refuses, the request alone records the bind as started
 * and failed with the refusal's code, as a workflow's compensation would, and
 * Nova hears `failed` from that.
 */
@Injectable()
export class BindAtOnceDecision {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(ALLOCATION_DIRECTORY) private readonly directory: AllocationDirectory,
    // The device and quota commands' own caches: one folded state per aggregate in the process, not a second copy that lags it.
    @Inject(DEVICE_CACHE) private readonly devices: AggregateCache<DeviceState>,
    @Inject(QUOTA_CACHE) private readonly quotas: AggregateCache<QuotaState>,
    // The locks the device and quota commands queue on: a bind and a device command on one device wait for each other.
    @Inject(STREAM_LOCKS) private readonly locks: StreamLocks,
  ) {}

  /** Whether this store can append one decision to several streams atomically (not on EventStoreDB: binds run as workflows there). */
  get available(): boolean {
    return this.store.multiStreamAppend;
  }

  async bind(bind: BindAtOnce, context: CommandContext): Promise<LiveArq> {
    const { start, bindId } = bind;
    // The deployable's handles, free ones first per the read model; the device's stream decides which is free.
    const handles = await this.directory.attachHandlesOf(start.deployableUuid);
    try {
      const result = await handleMultiStreamCommand(
        this.store,
        {
          arq: this.arqs.participant(start.uuid),
          device: { stream: deviceStream(start.deviceUuid.toLowerCase()), decider: deviceDecider, cache: this.devices },
          quota: { stream: quotaStream(bind.projectId), decider: quotaDecider, cache: this.quotas },
        },
        (states) => decideBindAtOnce(bind, handles, states as BindAtOnceStates),
        context,
        { schemaVersions: SCHEMA_VERSIONS, locks: this.locks },
      );
      return liveOrThrow(result.states.arq as ArqState, start.uuid);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return this.recordFailure(bind, error, context);
    }
  }

  /**
   * A refusal by the request itself (it changed since it was checked) is
   * the caller's answer, as the check's would have been. One by the device
   * or the quota is recorded on the request, BindStarted then BindFailed with
   * the refusal, as a workflow's compensation would: Nova is told `failed`.
   */
  private async recordFailure({ start, bindId }: BindAtOnce, refusal: LedgerError, context: CommandContext): Promise<LiveArq> {
    assertAccepted(await this.arqs.load(start.uuid), { ...start, bindId });
    // Started and failed in one append: a crash between two would leave the request BindStarted with no workflow to finish it.
    const result = await handleMultiStreamCommand(
      this.store,
      { arq: this.arqs.participant(start.uuid) },
      ({ arq }) => {
        const started = arqDecider.decide({ ...start, bindId }, arq);
        const failed = arqDecider.decide(
          { type: 'FailBind', uuid: start.uuid, bindId, code: refusal.code, reason: refusal.message, at: start.at },
          foldEvents(arqDecider, arq, started as ArqEvent[]),
        );
        return { arq: [...started, ...failed] };
      },
      context,
      { locks: this.locks },
    );
    return liveOrThrow(result.states.arq as ArqState, start.uuid);
  }
}

/** A decider's refusal (no free handle, over quota, a device that cannot be claimed), not a fault of the store or the code. */
const isRefusal = (error: unknown): error is LedgerError =>
  isLedgerError(error) && error.status >= 400 && error.status < 500 && error.code !== 'EVENTSTORE.WRONG_EXPECTED_VERSION';
