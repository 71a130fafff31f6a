import { ConfigError, type LedgerConfig, loadLedgerConfig } from '@ledger/config';
import { CliError } from './cli-error';

/** The same configuration as the ledger's own (LEDGER_* variables), so the CLI reads the same store. */
export function cliConfig(): LedgerConfig {
  try {
    return loadLedgerConfig();
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`invalid configuration: ${error.message}`, 2);
    throw error;
  }
}
