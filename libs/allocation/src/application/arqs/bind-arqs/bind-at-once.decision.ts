import { claimOf, deviceDecider, type DeviceEvent, type DeviceState } from '@ledger/inventory';
import { foldEvents } from '@ledger/kernel';
import { quotaDecider, type QuotaEvent, type QuotaState } from '@ledger/quota';
import { arqDecider, type StartBind } from '../../../domain/arq.decider';
import type { ArqEvent } from '../../../domain/arq.events';
import type { ArqState } from '../../../domain/arq.state';
import { boundAttachHandle, type InventoryAttachHandle } from '../../../domain/attach-handle-info';
import { capacityConsumer } from '../capacity-quota';

/** What a bind that needs no hardware decides over: the request, its provider's deployable, and the capacity it charges. */
export interface BindAtOnce {
  readonly start: StartBind;
  readonly bindId: string;
  readonly projectId: string;
  readonly capacity: Readonly<Record<string, number>>;
}

/** The three aggregates the decision reads, as their streams fold them. */
export interface BindAtOnceStates {
  readonly arq: ArqState;
  readonly device: DeviceState;
  readonly quota: QuotaState;
}

/** What the decision appends to each stream (the quota's empty when the device charges nothing). */
export interface BindAtOnceEvents {
  readonly arq: readonly ArqEvent[];
  readonly device: readonly DeviceEvent[];
  readonly quota: readonly QuotaEvent[];
}

/**
 * The bind at once as one pure decision: the request started and bound, a
 * free attach handle of `handles` (the deployable's, in order of
 * preference) claimed on the device's own state, and the capacity charged.
 * A refusal by any of the three deciders throws, and nothing is appended;
 * BindAtOnceDecision runs it over the streams, the device-life property
 * test over folded states.
 */
export function decideBindAtOnce(bind: BindAtOnce, handles: readonly InventoryAttachHandle[], states: BindAtOnceStates): BindAtOnceEvents {
  const { start, bindId } = bind;
  const started = arqDecider.decide({ ...start, bindId }, states.arq);
  const claimed = deviceDecider.decide(
    { type: 'ClaimAttachHandle', deviceUuid: start.deviceUuid, deployableUuid: start.deployableUuid, arqUuid: start.uuid, bindId, projectId: bind.projectId, candidates: handles.map((h) => h.uuid) },
    states.device,
  );
  const claim = claimOf(foldEvents(deviceDecider, states.device, claimed), start.uuid.toLowerCase());
  const handle = handles.find((candidate) => candidate.uuid === claim?.handleUuid);
  if (!handle) throw new Error(`claimed handle ${claim?.handleUuid} is not among deployable ${start.deployableUuid}'s handles`);
  // Read, not appended to (so not version-checked), when the device charges nothing.
  const quota =
    Object.keys(bind.capacity).length > 0
      ? quotaDecider.decide({ type: 'ReserveQuota', project: bind.projectId, consumers: [{ consumerId: capacityConsumer(start.uuid), resources: bind.capacity }] }, states.quota)
      : [];
  const bound = arqDecider.decide({ type: 'CompleteBind', uuid: start.uuid, bindId, attachHandle: boundAttachHandle(handle), at: start.at }, foldEvents(arqDecider, states.arq, started));
  return { arq: [...started, ...bound], device: claimed, quota };
}
