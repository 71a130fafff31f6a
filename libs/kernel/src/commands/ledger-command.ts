/**
 * A command sent over the command bus, carrying the type of its handler's
 * result. It is plain data, so a context's public face can export its
 * commands without loading Nest (the agent and the projections import those
 * faces); `command-bus-results.d.ts` teaches Nest's CommandBus to read the
 * result type from it, as it does from its own `Command<R>`.
 */
export abstract class LedgerCommand<Result> {
  /** Only for the type checker: never set, never emitted. */
  declare readonly resultType: Result;
}
