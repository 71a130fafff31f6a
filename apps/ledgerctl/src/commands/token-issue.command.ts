import type { Command } from 'commander';
import { loadOrCreateCredentials, type Role, ROLES } from '@ledger/auth';
import { dataFiles } from '@ledger/config';
import { CliError } from '../support/cli-error';
import { cliConfig } from '../support/config';

/**
 * `token issue`: signs a token with the ledger's key (LEDGER_AUTH_SECRET or
 * the key under the data directory) and prints it alone on stdout, so
 * `TOKEN=$(npm run -s ledgerctl -- token issue …)` works.
 */
export function registerTokenCommands(program: Command): void {
  const token = program.command('token').description('issue signed tokens');
  token
    .command('issue')
    .description('print a token for a user, project and roles')
    .requiredOption('--user <user>', 'user name recorded as the actor of every change')
    .option('--project <project>', 'project (tenant) the token acts in')
    .requiredOption('--role <role...>', `one or more of: ${ROLES.join(', ')}`)
    .option('--host <hostname>', 'for the agent role: the one host the token may speak for')
    .option('--ttl <seconds>', 'lifetime in seconds (default: no expiry)')
    .action((options: { user: string; project?: string; role: string[]; host?: string; ttl?: string }) => {
      const roles = options.role.flatMap((role) => role.split(','));
      const unknown = roles.filter((role) => !(ROLES as readonly string[]).includes(role));
      if (unknown.length > 0) throw new CliError(`unknown role ${unknown.join(', ')}; use ${ROLES.join(', ')}`, 2);
      if (roles.includes('agent') && !options.host) throw new CliError('an agent token needs --host <hostname>', 2);
      const ttlSeconds = options.ttl === undefined ? undefined : Number(options.ttl);
      if (ttlSeconds !== undefined && !(Number.isInteger(ttlSeconds) && ttlSeconds > 0)) {
        throw new CliError('--ttl must be a positive number of seconds', 2);
      }
      process.stdout.write(`${issue(options.user, options.project ?? null, roles as Role[], options.host, ttlSeconds)}\n`);
    });

  program
    .command('agent-credential')
    .description("print the credential an agent uses to report its host (role agent, scoped to the host)")
    .argument('<hostname>', 'the host the agent runs on')
    .action((hostname: string) => {
      process.stdout.write(`${issue(`agent:${hostname}`, null, ['agent'], hostname)}\n`);
    });
}

function issue(user: string, project: string | null, roles: Role[], host?: string, ttlSeconds?: number): string {
  const config = cliConfig();
  const { codec } = loadOrCreateCredentials(dataFiles(config), config.authSecret);
  return codec.issue({ user, project, roles, ...(host ? { host } : {}) }, { ttlSeconds });
}
