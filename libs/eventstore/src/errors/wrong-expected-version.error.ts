import { LedgerError } from '@ledger/kernel';
import type { ExpectedVersion } from '../expected-version';

/** An append's expected version did not match the stream's actual version. Nothing was appended. */
export class WrongExpectedVersionError extends LedgerError {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super('EVENTSTORE.WRONG_EXPECTED_VERSION', 409, `stream ${stream} is at version ${actual}, expected ${String(expected)}`, {
      stream,
      expected,
      actual,
    });
  }
}
