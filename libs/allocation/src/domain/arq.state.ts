import type { ArqCreated, BoundAttachHandle } from './arq.events';

/**
 * Cyborg's states (CYBORG-V2.md §2.2) minus the two it never reaches:
 * `Deleting` (a delete here is one fact, after which the request is gone)
 * and `UnbindFailed` (an unbind only releases what the ledger itself holds).
 */
export type ArqStateName = 'Initial' | 'BindStarted' | 'Bound' | 'BindFailed' | 'Unbound';

export interface ArqBinding {
  readonly hostname: string;
  readonly deviceRpUuid: string;
  readonly instanceUuid: string;
  readonly deviceUuid: string;
  readonly deployableUuid: string;
  /** The bind workflow running or ran this binding (absent on binds recorded before workflows). */
  readonly bindId?: string;
}

/** A request that exists: what it was created with, and where its bind stands. */
export type LiveArq = Omit<ArqCreated['data'], 'createdAt'> & {
  readonly status: 'live';
  readonly state: ArqStateName;
  /** Set from BindStarted until Unbound; kept on BindFailed so the claim can be found and released. */
  readonly binding: ArqBinding | null;
  readonly attachHandle: BoundAttachHandle | null;
  readonly failure: { readonly code: string; readonly reason: string } | null;
  readonly createdAt: string;
  readonly updatedAt: string | null;
  /** The latest bind's workflow id, kept after an unbind: a new bind waits until that one has ended. */
  readonly lastBindId?: string;
};

export type ArqState = { readonly status: 'absent' } | LiveArq | { readonly status: 'deleted'; readonly uuid: string };

/** Nova's "resolved": the bind is over, one way or the other. */
export const isResolved = (state: ArqStateName): boolean => state === 'Bound' || state === 'BindFailed';
