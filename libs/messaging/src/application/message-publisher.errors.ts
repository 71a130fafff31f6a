import { LedgerError } from '@ledger/kernel';

/** The broker cannot be reached or did not acknowledge in time: retry later, for as long as it takes. */
export class MessageBrokerUnavailableError extends LedgerError {
  constructor(cause: string) {
    super('MESSAGING.BROKER_UNAVAILABLE', 503, `the message broker is unavailable: ${cause}`, { cause });
  }
}

/** The broker refused a message (too large, bad topic name…): sending it again will not help. */
export class MessageRejectedError extends LedgerError {
  constructor(cause: string) {
    super('MESSAGING.REJECTED', 422, `the message broker refused the batch: ${cause}`, { cause });
  }
}
