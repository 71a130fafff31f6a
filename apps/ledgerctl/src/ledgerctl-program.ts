import { Command, Help } from 'commander';
import { COMMAND_FILES, type CommandFile, commandName } from './command-catalog';

/** The program with no commands: its name, description and error behaviour. */
export function ledgerctlRoot(): Command {
  return new Command('ledgerctl')
    .description('Accelerator ledger CLI: issue credentials, set quotas, drive agents (drivers, discovery, attach), audit the log')
    .showHelpAfterError()
    .exitOverride();
}

/**
 * The program for one invocation: the real commands of the file that holds
 * the command `argv` names (also after `help`), and every other command as
 * a stub that only lists itself in --help and in "did you mean" hints. Only
 * that one file is loaded, so a call pays for what it runs.
 */
export async function ledgerctlProgram(argv: readonly string[], files: readonly CommandFile[] = COMMAND_FILES): Promise<Command> {
  const program = ledgerctlRoot();
  const stubTerms = new Map<Command, string>();
  const defaultHelp = new Help();
  program.configureHelp({ subcommandTerm: (command) => stubTerms.get(command) ?? defaultHelp.subcommandTerm(command) });
  const named = namedCommand(argv);
  for (const file of files) {
    if (file.commands.some(([term]) => commandName(term) === named)) {
      await file.register(program);
      continue;
    }
    for (const [term, description] of file.commands) stubTerms.set(program.command(commandName(term)).description(description), term);
  }
  return program;
}

/** The command an invocation runs or asks help for (`node main.js quota show …`, `… help quota`), if any. */
function namedCommand(argv: readonly string[]): string | undefined {
  const [first, second] = argv.slice(2);
  return first === 'help' ? second : first;
}
