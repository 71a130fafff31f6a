import { LedgerError, NotFoundError } from '@ledger/kernel';

/** The outside is down (refused connection, timeout, 5xx, 429): retried with backoff, never parked. */
export class ReactorUnavailableError extends LedgerError {
  constructor(message: string, facts: Record<string, unknown> = {}) {
    super('REACTOR.UNAVAILABLE', 503, message, facts);
  }
}

/** The outside refused this event (a 4xx that retrying will not change): parked after the runtime's attempts. */
export class ReactorRejectedError extends LedgerError {
  constructor(message: string, facts: Record<string, unknown> = {}) {
    super('REACTOR.REJECTED', 502, message, facts);
  }
}

export class ReactorNotFoundError extends NotFoundError {
  constructor(name: string) {
    super('REACTOR.NOT_FOUND', `no reactor is named ${name}`, { reactor: name });
  }
}

export class ParkedEventNotFoundError extends NotFoundError {
  constructor(reactor: string, position: number) {
    super('REACTOR.PARKED_NOT_FOUND', `${reactor} has no parked event at position ${position}`, { reactor, position });
  }
}
