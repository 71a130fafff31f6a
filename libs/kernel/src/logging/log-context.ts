import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The ids every log line carries while the ledger works for one cause: the
 * HTTP request being handled (`requestId`, and the `correlationId` its
 * commands carry), or the event a processor is applying (that event's
 * `correlationId`, and its `eventId`; a workflow's stream). The logger reads it on each line, so
 * no call site passes ids along by hand.
 */
export interface LogContext {
  readonly correlationId: string;
  readonly requestId?: string;
  readonly eventId?: string;
  /** The workflow instance (its stream) being advanced. */
  readonly workflow?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `work` with `context` on every line it logs, across its awaits and callbacks. */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run(context, work);
}

/** The ids of the work running now; undefined outside any (start-up, timers, leases). */
export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}
