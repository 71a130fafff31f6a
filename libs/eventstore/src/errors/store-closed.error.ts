import { LedgerError } from '@ledger/kernel';

/** The store was closed while (or before) the operation ran. */
export class StoreClosedError extends LedgerError {
  constructor() {
    super('EVENTSTORE.CLOSED', 503, 'the event store is closed');
  }
}
