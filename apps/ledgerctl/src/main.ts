import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import { isLedgerError } from '@ledger/kernel';
import { registerAuditExport } from './commands/audit-export.command';
import { registerAuditReplay } from './commands/audit-replay.command';
import { registerAuditVerify } from './commands/audit-verify.command';
import { registerTokenCommands } from './commands/token-issue.command';
import { registerQuotaCommands } from './commands/quota.command';
import { registerGenericDriverCommands } from './commands/generic-driver.commands';
import { registerReactorCommands } from './commands/reactor.command';
import { registerPlacementCommands } from './commands/placement-status.command';
import { CliError } from './support/cli-error';

/** ledgerctl: the operators' and auditors' CLI. It reads the same LEDGER_* settings as the ledger. */
function buildProgram(): Command {
  const program = new Command('ledgerctl')
    .description('Accelerator ledger CLI: issue credentials, set quotas, drive agents (drivers, discovery, attach), audit the log')
    .showHelpAfterError()
    .exitOverride();
  const audit = program.command('audit').description("auditors' tools: verify, export and replay the event log");
  registerAuditVerify(audit);
  registerAuditExport(audit);
  registerAuditReplay(audit);
  registerTokenCommands(program);
  registerQuotaCommands(program);
  registerGenericDriverCommands(program);
  registerReactorCommands(program);
  registerPlacementCommands(program);
  return program;
}

buildProgram()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    if (error instanceof CliError) {
      process.stderr.write(`ledgerctl: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    if (isLedgerError(error)) {
      process.stderr.write(`ledgerctl: ${error.code}: ${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stderr.write(`ledgerctl: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  });
