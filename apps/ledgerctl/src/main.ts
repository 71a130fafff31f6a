import { CommanderError } from 'commander';
import { ledgerctlProgram } from './ledgerctl-program';
import { CliError } from './support/cli-error';

/**
 * ledgerctl: the operators' and auditors' CLI. It reads the same LEDGER_*
 * settings as the ledger. No reflect-metadata here: the commands that load
 * Nest get it from @nestjs/common, and the others must start fast: the
 * kernel's barrel (crypto, async_hooks…) is loaded only to report an error.
 */
ledgerctlProgram(process.argv)
  .then((program) => program.parseAsync(process.argv))
  .catch(async (error: unknown) => {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    if (error instanceof CliError) {
      process.stderr.write(`ledgerctl: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    if ((await import('@ledger/kernel')).isLedgerError(error)) {
      process.stderr.write(`ledgerctl: ${error.code}: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`ledgerctl: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
