import { LedgerError } from '@ledger/kernel';

/** `appendMany` over several streams on a store that cannot make them one commit. Nothing was appended. */
export class MultiStreamAppendUnsupportedError extends LedgerError {
  constructor(kind: string, streams: readonly string[]) {
    super('EVENTSTORE.MULTI_STREAM_UNSUPPORTED', 501, `the ${kind} event store cannot append to several streams atomically`, { kind, streams });
  }
}
