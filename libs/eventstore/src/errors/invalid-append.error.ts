import { LedgerError } from '@ledger/kernel';

/** An append that can never succeed as given (empty batch, bad stream name, unserializable data). */
export class InvalidAppendError extends LedgerError {
  constructor(message: string, facts: Record<string, unknown> = {}) {
    super('EVENTSTORE.INVALID_APPEND', 400, message, facts);
  }
}
