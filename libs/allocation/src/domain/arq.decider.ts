import type { Decider } from '@ledger/kernel';
import { ArqBadStateError, ArqNotFoundError, ArqServiceRoleRequiredError } from './arq.errors';
import type { ArqCreated, ArqEvent, BoundAttachHandle } from './arq.events';
import type { ArqBinding, ArqState, LiveArq } from './arq.state';

/** Creates the request with what its ArqCreated records; time comes in the command. */
export type CreateArq = { readonly type: 'CreateArq'; readonly at: string } & Omit<ArqCreated['data'], 'createdAt'>;

export interface StartBind extends ArqBinding {
  readonly type: 'StartBind';
  readonly uuid: string;
  readonly at: string;
}

export interface CompleteBind {
  readonly type: 'CompleteBind';
  readonly uuid: string;
  /** The bind being completed: a stale workflow's completion is refused. */
  readonly bindId?: string;
  readonly attachHandle: BoundAttachHandle;
  readonly at: string;
}

/** Ends a bind that is still starting; anything else is left as it is (the bind moved on). */
export interface FailBind {
  readonly type: 'FailBind';
  readonly uuid: string;
  /** The bind being failed: another bind of the request is left alone. */
  readonly bindId?: string;
  readonly code: string;
  readonly reason: string;
  readonly at: string;
}

export interface UnbindArq {
  readonly type: 'UnbindArq';
  readonly uuid: string;
  readonly at: string;
}

export interface DeleteArq {
  readonly type: 'DeleteArq';
  readonly uuid: string;
  /** The caller has the service role: only then may a bound request be deleted. */
  readonly mayDeleteBound: boolean;
  readonly at: string;
}

export type ArqCommand = CreateArq | StartBind | CompleteBind | FailBind | UnbindArq | DeleteArq;

/**
 * One accelerator request's state machine (stream `arq-<uuid>`), the correct
 * version of Cyborg's (CYBORG-V2.md §2.2): every transition is checked here
 * and a refused one is a 409, never a 500. Repeating a command that already
 * took effect appends nothing, so a crashed bind can simply be driven again.
 *
 *   Initial ──bind──▶ BindStarted ──▶ Bound
 *      ▲                  │   └──────▶ BindFailed
 *      └── (Unbound) ◀── unbind (from BindStarted, Bound, BindFailed)
 *   delete: from any state; a Bound one only with the service role.
 */
export const arqDecider: Decider<ArqCommand, ArqState, ArqEvent> = {
  decide(command, state) {
    if (command.type === 'CreateArq') return decideCreate(command, state);
    // A deleted request has no bind left starting: the undo of a bind it was deleted under is done.
    if (state.status === 'deleted' && (command.type === 'DeleteArq' || command.type === 'FailBind')) return [];
    if (state.status !== 'live') throw new ArqNotFoundError(command.uuid);
    switch (command.type) {
      case 'StartBind':
        return decideStartBind(command, state);
      case 'CompleteBind':
        if (!isCurrentBind(state, command.bindId)) throw new ArqBadStateError(state.uuid, state.state, 'complete a bind it no longer runs');
        if (state.state === 'Bound' && state.attachHandle?.uuid === command.attachHandle.uuid) return [];
        if (state.state !== 'BindStarted') throw new ArqBadStateError(state.uuid, state.state, 'complete a bind');
        return [{ type: 'allocation.ArqBound', data: { uuid: state.uuid, attachHandle: command.attachHandle, boundAt: command.at } }];
      case 'FailBind':
        if (state.state !== 'BindStarted' || !isCurrentBind(state, command.bindId)) return [];
        return [{ type: 'allocation.ArqBindFailed', data: { uuid: state.uuid, code: command.code, reason: command.reason, failedAt: command.at } }];
      case 'UnbindArq':
        if (state.state === 'Initial' || state.state === 'Unbound') return [];
        return [{ type: 'allocation.ArqUnbound', data: { uuid: state.uuid, unboundAt: command.at } }];
      case 'DeleteArq':
        if (state.state === 'Bound' && !command.mayDeleteBound) throw new ArqServiceRoleRequiredError(state.uuid);
        return [{ type: 'allocation.ArqDeleted', data: { uuid: state.uuid, projectId: state.projectId, deletedAt: command.at } }];
    }
  },
  evolve(state, event) {
    if (event.type === 'allocation.ArqCreated') {
      const { createdAt, ...data } = event.data;
      return { status: 'live', ...data, state: 'Initial', binding: null, attachHandle: null, failure: null, createdAt, updatedAt: null };
    }
    if (state.status !== 'live') return state;
    switch (event.type) {
      case 'allocation.ArqBindStarted': {
        const { uuid: _uuid, startedAt, ...binding } = event.data;
        return { ...state, state: 'BindStarted', binding, attachHandle: null, failure: null, updatedAt: startedAt, lastBindId: binding.bindId };
      }
      case 'allocation.ArqBound':
        return { ...state, state: 'Bound', attachHandle: event.data.attachHandle, updatedAt: event.data.boundAt };
      case 'allocation.ArqBindFailed':
        return { ...state, state: 'BindFailed', failure: { code: event.data.code, reason: event.data.reason }, updatedAt: event.data.failedAt };
      case 'allocation.ArqUnbound':
        return { ...state, state: 'Unbound', binding: null, attachHandle: null, failure: null, updatedAt: event.data.unboundAt };
      case 'allocation.ArqDeleted':
        return { status: 'deleted', uuid: state.uuid };
      default:
        return state;
    }
  },
  initialState: () => ({ status: 'absent' }),
};

function decideCreate(command: CreateArq, state: ArqState): ArqEvent[] {
  if (state.status === 'live') return [];
  if (state.status === 'deleted') throw new ArqBadStateError(command.uuid, 'deleted', 'create it again');
  const { type: _type, at, ...data } = command;
  return [{ type: 'allocation.ArqCreated', data: { ...data, createdAt: at } }];
}

function decideStartBind(command: StartBind, state: LiveArq): ArqEvent[] {
  const binding: ArqBinding = {
    hostname: command.hostname,
    deviceRpUuid: command.deviceRpUuid,
    instanceUuid: command.instanceUuid,
    deviceUuid: command.deviceUuid,
    deployableUuid: command.deployableUuid,
    ...(command.bindId === undefined ? {} : { bindId: command.bindId }),
  };
  if ((state.state === 'BindStarted' || state.state === 'Bound') && sameBinding(state.binding, binding)) return [];
  if (state.state !== 'Initial' && state.state !== 'Unbound') throw new ArqBadStateError(state.uuid, state.state, 'bind');
  return [{ type: 'allocation.ArqBindStarted', data: { uuid: state.uuid, ...binding, startedAt: command.at } }];
}

/** Whether `bindId` names the request's binding now (a command that names none is for whichever). */
const isCurrentBind = (state: LiveArq, bindId: string | undefined): boolean => bindId === undefined || state.binding?.bindId === undefined || state.binding.bindId === bindId;

const sameBinding = (a: ArqBinding | null, b: ArqBinding): boolean =>
  a !== null && a.hostname === b.hostname && a.deviceRpUuid === b.deviceRpUuid && a.instanceUuid === b.instanceUuid;
