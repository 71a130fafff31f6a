import { type CarveReservation, deviceDecider } from '@ledger/inventory';
import { foldEvents, type LedgerError } from '@ledger/kernel';
import { quotaDecider } from '@ledger/quota';
import type { Failure } from '@ledger/workflows';
import { arqDecider, type StartBind } from '../../../domain/arq.decider';
import type { ArqEvent, BoundAttachHandle } from '../../../domain/arq.events';
import type { ArqBinding, ArqState } from '../../../domain/arq.state';
import { capacityConsumer } from '../capacity-quota';
// The same three aggregates, and what is appended to each, as a bind at once decides over.
import type { BindAtOnceEvents, BindAtOnceStates } from './bind-at-once.decision';

/*
 * The steps of a carving bind that need no outside party, each group
 * decided as one append over the request, the device and the project's
 * quota (docs/workflows.md, "Decided together"): the start (the bind
 * started, its capacity charged, its slices set aside), its undo, and the
 * claim of the carved partition with the bind marked bound. Each is what
 * the separate steps would decide in turn, so a refusal by any decider
 * appends nothing.
 */

/** A carving bind's start as its workflow sends it: what the separate StartBind, quota.Reserve and ReserveCarve carried. */
export interface CarveBindStartInput {
  readonly uuid: string;
  readonly bindId: string;
  readonly binding: Omit<ArqBinding, 'bindId'>;
  readonly projectId: string;
  readonly capacity: Readonly<Record<string, number>>;
}

export interface CarveBindStart {
  readonly start: StartBind & { readonly bindId: string };
  readonly projectId: string;
  readonly capacity: Readonly<Record<string, number>>;
  readonly reserve: CarveReservation['command'];
}

export function decideCarveBindStart({ start, projectId, capacity, reserve }: CarveBindStart, states: BindAtOnceStates): BindAtOnceEvents {
  const started = arqDecider.decide(start, states.arq);
  const quota =
    Object.keys(capacity).length > 0
      ? quotaDecider.decide({ type: 'ReserveQuota', project: projectId, consumers: [{ consumerId: capacityConsumer(start.uuid), resources: capacity }] }, states.quota)
      : [];
  return { arq: started, device: deviceDecider.decide(reserve, states.device), quota };
}

/**
 * The start's refusal by the device or the quota, recorded as the separate
 * steps would leave it once undone: the request started and failed with the
 * refusal's code (Nova hears `failed`), nothing set aside or charged.
 */
export function decideCarveBindRefused(start: CarveBindStart['start'], refusal: LedgerError, arq: ArqState): readonly ArqEvent[] {
  const started = arqDecider.decide(start, arq);
  const failed = arqDecider.decide(
    { type: 'FailBind', uuid: start.uuid, bindId: start.bindId, code: refusal.code, reason: refusal.message, at: start.at },
    foldEvents(arqDecider, arq, started),
  );
  return [...started, ...failed];
}

export interface CarveBindUndo {
  readonly arqUuid: string;
  readonly bindId: string;
  readonly deviceUuid: string;
  readonly projectId: string;
  readonly failure: Failure;
  readonly at: string;
}

/** The start undone: the slices set aside given back, the capacity released, the request failed (each a no-op when already so). */
export function decideCarveBindUndo({ arqUuid, bindId, deviceUuid, projectId, failure, at }: CarveBindUndo, states: BindAtOnceStates): BindAtOnceEvents {
  return {
    device: deviceDecider.decide({ type: 'ReleaseCarve', deviceUuid, bindId }, states.device),
    quota: quotaDecider.decide({ type: 'ReleaseQuota', project: projectId, consumerIds: [capacityConsumer(arqUuid)] }, states.quota),
    arq: arqDecider.decide({ type: 'FailBind', uuid: arqUuid, bindId, ...failure, at }, states.arq),
  };
}

export interface CarvedClaimAndBound {
  readonly arqUuid: string;
  readonly bindId: string;
  readonly deviceUuid: string;
  /** Absent in binds started before claims carried the project. */
  readonly projectId?: string;
  /** The carved partition's deployable and handle (derived from where it was carved), and the partition it names. */
  readonly deployableUuid: string;
  readonly handleUuid: string;
  readonly partition: { readonly handle: string; readonly hostname: string; readonly pciAddress: string };
  readonly attachHandle: BoundAttachHandle;
  readonly at: string;
}

/** The carved partition claimed for the request, and the request bound to it. */
export function decideCarvedClaimAndBound(claim: CarvedClaimAndBound, states: Pick<BindAtOnceStates, 'arq' | 'device'>): Omit<BindAtOnceEvents, 'quota'> {
  const { arqUuid, bindId, deviceUuid, deployableUuid, handleUuid, partition, attachHandle, at } = claim;
  const project = claim.projectId === undefined ? {} : { projectId: claim.projectId };
  return {
    device: deviceDecider.decide(
      { type: 'ClaimAttachHandle', deviceUuid, deployableUuid, arqUuid, bindId, ...project, candidates: [handleUuid], partition },
      states.device,
    ),
    arq: arqDecider.decide({ type: 'CompleteBind', uuid: arqUuid, bindId, attachHandle, at }, states.arq),
  };
}
