import { InvalidLogPointError, type LogPoint, parseLogPoint } from '@ledger/processing';
import { CliError } from './cli-error';

/** A CLI option naming a point of the log; a bad value exits 2 with the shared message. */
export function cliLogPoint(value: string, option: string): LogPoint {
  try {
    return parseLogPoint(value, option);
  } catch (error) {
    if (error instanceof InvalidLogPointError) throw new CliError(error.message, 2);
    throw error;
  }
}
