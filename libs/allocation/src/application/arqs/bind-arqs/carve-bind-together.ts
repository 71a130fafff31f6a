import { type AggregateCache, type CommandContext, EVENT_STORE, type EventStore, handleMultiStreamCommand, type MultiStreamCommandResult, STREAM_LOCKS, type StreamLocks } from '@ledger/eventstore';
import {
  carvedPartitionIdentity,
  carveReservationOf,
  DEVICE_CACHE,
  deviceDecider,
  type DeviceState,
  deviceStream,
  findDeployableOnHost,
  HOST_INVENTORY_CACHE,
  type HostInventoryState,
  INVENTORY_EVENT_SCHEMA_VERSIONS,
  type ReservedCarve,
} from '@ledger/inventory';
import { ConflictError, isLedgerError, type LedgerError } from '@ledger/kernel';
import { QUOTA_CACHE, QUOTA_EVENT_SCHEMA_VERSIONS, quotaDecider, type QuotaState, quotaStream } from '@ledger/quota';
import { Inject, Injectable } from '@nestjs/common';
import { boundAttachHandle } from '../../../domain/attach-handle-info';
import { ArqStore } from '../arq-store';
import type { CarvedPartitionClaim, ClaimEvidence } from './bind-workflow';
import {
  type CarveBindStartInput,
  type CarveBindUndo,
  decideCarveBindRefused,
  decideCarveBindStart,
  decideCarveBindUndo,
  decideCarvedClaimAndBound,
} from './carve-bind-together.decision';

const SCHEMA_VERSIONS = { ...INVENTORY_EVENT_SCHEMA_VERSIONS, ...QUOTA_EVENT_SCHEMA_VERSIONS };

/**
 * Runs the carving bind's decisions that need no outside party
 * (carve-bind-together.decision.ts) as one atomic append each, on the
 * stores that append to several streams at once (the bind handler starts
 * such binds only there), sharing the device and quota commands' caches and
 * stream locks. Each is idempotent by the bind id: sent again after a
 * crash, it appends nothing and answers as the first time.
 */
@Injectable()
export class CarveBindTogether {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ArqStore) private readonly arqs: ArqStore,
    @Inject(HOST_INVENTORY_CACHE) private readonly hosts: AggregateCache<HostInventoryState>,
    @Inject(DEVICE_CACHE) private readonly devices: AggregateCache<DeviceState>,
    @Inject(QUOTA_CACHE) private readonly quotas: AggregateCache<QuotaState>,
    @Inject(STREAM_LOCKS) private readonly locks: StreamLocks,
  ) {}

  /**
   * The bind started, charged and its slices set aside; answers the span.
   * A refusal by the device or the quota records the request started and
   * failed with the refusal, then rejects with it: the step fails, and with
   * nothing of it done the workflow ends with the request BindFailed, as the
   * separate steps' compensations would leave it.
   */
  async start(input: CarveBindStartInput, context: CommandContext): Promise<ReservedCarve> {
    const { uuid, bindId, binding, projectId, capacity } = input;
    const start = { type: 'StartBind' as const, uuid, bindId, ...binding, at: new Date().toISOString() };
    const target = { hostname: binding.hostname, deviceUuid: binding.deviceUuid, deployableUuid: binding.deployableUuid };
    const before = await this.arqs.load(start.uuid);
    // Sent again after its refusal was recorded: the request holds the refusal.
    if (before.status === 'live' && before.state === 'BindFailed' && before.binding?.bindId === start.bindId && before.failure) {
      throw new ConflictError(before.failure.code, before.failure.reason, { uuid: start.uuid });
    }
    try {
      const reservation = carveReservationOf(await findDeployableOnHost(this.store, this.hosts, target), { ...target, bindId: start.bindId, arqUuid: start.uuid }, start.at);
      const { states } = await this.run(this.participants(start.uuid, start.deviceUuid, projectId), (all) => decideCarveBindStart({ start, projectId, capacity, reserve: reservation.command }, all), context);
      return reservation.reservedIn(states.device);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      await this.run({ arq: this.arqs.participant(start.uuid) }, ({ arq }) => ({ arq: decideCarveBindRefused(start, error, arq) }), context);
      throw error;
    }
  }

  async undo(input: CarveBindUndo, context: CommandContext): Promise<void> {
    await this.run(this.participants(input.arqUuid, input.deviceUuid, input.projectId), (states) => decideCarveBindUndo(input, states), context);
  }

  /** Claims the partition the bind carved and marks the request bound to it; answers the claim's evidence. */
  async claimAndBind(data: CarvedPartitionClaim, context: CommandContext): Promise<ClaimEvidence> {
    const { reserved, carved } = data;
    const partition = { profile: reserved.profile, handle: carved.handle, start: reserved.start, slices: reserved.slices };
    const identity = carvedPartitionIdentity(data.hostname, data.deviceUuid, reserved.pciAddress, reserved.kind, partition);
    const { kind, address, mdevType, slot } = identity.handle;
    const attachHandle = boundAttachHandle({ uuid: identity.handleUuid, kind, address, physicalNetwork: null, mdevType: mdevType ?? null, slot: slot ?? null, partition: carved.handle });
    const claim = {
      arqUuid: data.arqUuid,
      bindId: data.bindId,
      deviceUuid: data.deviceUuid,
      ...(data.projectId === undefined ? {} : { projectId: data.projectId }),
      deployableUuid: identity.deployableUuid,
      handleUuid: identity.handleUuid,
      partition: { handle: carved.handle, hostname: data.hostname, pciAddress: reserved.pciAddress },
      attachHandle,
      at: new Date().toISOString(),
    };
    await this.run({ arq: this.arqs.participant(data.arqUuid), device: this.device(data.deviceUuid) }, (states) => decideCarvedClaimAndBound(claim, states), context);
    return { attachHandle };
  }

  private participants(arqUuid: string, deviceUuid: string, projectId: string) {
    return { arq: this.arqs.participant(arqUuid), device: this.device(deviceUuid), quota: { stream: quotaStream(projectId), decider: quotaDecider, cache: this.quotas } };
  }

  private device(deviceUuid: string) {
    return { stream: deviceStream(deviceUuid.toLowerCase()), decider: deviceDecider, cache: this.devices };
  }

  private run<P extends Parameters<typeof handleMultiStreamCommand>[1]>(
    participants: P,
    decide: Parameters<typeof handleMultiStreamCommand<P>>[2],
    context: CommandContext,
  ): Promise<MultiStreamCommandResult<P>> {
    return handleMultiStreamCommand(this.store, participants, decide, context, { schemaVersions: SCHEMA_VERSIONS, locks: this.locks });
  }
}

/** A decider's refusal (no room, over quota, a device that cannot be claimed), not a fault of the store or the code. */
const isRefusal = (error: unknown): error is LedgerError =>
  isLedgerError(error) && error.status >= 400 && error.status < 500 && error.code !== 'EVENTSTORE.WRONG_EXPECTED_VERSION';
