import { ConfigError, type LedgerConfig, loadLedgerConfig } from '@ledger/config';
import { CliError } from './cli-error';

/** Reads a setting; an invalid one is a usage error (exit 2) that names it. */
export function cliSetting<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`invalid configuration: ${error.message}`, 2);
    throw error;
  }
}

/** The same configuration as the ledger's own (LEDGER_* variables), so the CLI reads the same store. */
export const cliConfig = (): LedgerConfig => cliSetting(() => loadLedgerConfig());
