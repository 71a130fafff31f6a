/** Who caused a change: recorded in every event's metadata. */
export interface Actor {
  readonly user: string;
  readonly project: string | null;
  readonly roles: readonly string[];
}

/** The actor for changes the ledger makes on its own (rebuilds, timeouts). */
export const SYSTEM_ACTOR: Actor = Object.freeze({ user: 'ledger', project: null, roles: ['system'] });
