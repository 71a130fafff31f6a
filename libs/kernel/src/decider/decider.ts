/**
 * A pure aggregate or workflow: `decide` turns a command and the current
 * state into new events (or throws a LedgerError), `evolve` folds one event
 * into the state. No I/O, no clock: time and ids arrive in the command.
 */
export interface Decider<Command, State, Event extends DomainEvent> {
  decide(command: Command, state: State): readonly Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
}

/** An event as the domain sees it: type, data and the version of the data's schema. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

/** Folds events into a state, starting from `state`. */
export function foldEvents<State, Event extends DomainEvent>(
  decider: Pick<Decider<unknown, State, Event>, 'evolve'>,
  state: State,
  events: readonly Event[],
): State {
  let current = state;
  for (const event of events) current = decider.evolve(current, event);
  return current;
}
