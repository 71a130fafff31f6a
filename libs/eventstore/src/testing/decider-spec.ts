import { type Decider, type DomainEvent, LedgerError } from '@ledger/kernel';

/**
 * Given/when/then for deciders: `given` past events, `when` a command,
 * `then` the new events (or `thenThrows` a LedgerError code).
 */
export function deciderSpec<Command, State, Event extends DomainEvent>(decider: Decider<Command, State, Event>) {
  return {
    given(events: readonly Event[]) {
      const state = events.reduce(decider.evolve, decider.initialState());
      return {
        state,
        when(command: Command) {
          const run = () => decider.decide(command, state);
          return {
            then(expected: readonly Event[]): readonly Event[] {
              const actual = run();
              expect(actual).toEqual(expected);
              return actual;
            },
            events: run,
            thenThrows(code: string, facts?: Record<string, unknown>): LedgerError {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught).toBeInstanceOf(LedgerError);
              const error = caught as LedgerError;
              expect(error.code).toBe(code);
              if (facts) expect(error.facts).toMatchObject(facts);
              return error;
            },
          };
        },
      };
    },
  };
}
