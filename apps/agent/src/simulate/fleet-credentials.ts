import { readFileSync } from 'node:fs';
import { TokenCodec } from '@ledger/auth';
import { dataFiles, loadLedgerConfig } from '@ledger/config';

/** Why the simulator cannot speak for its hosts. */
export class CredentialsError extends Error {
  override readonly name = 'CredentialsError';
}

/**
 * Each simulated host's own agent credential, signed with the ledger's key
 * as `ledgerctl agent-credential HOST` signs it: LEDGER_AUTH_SECRET when
 * set, else `<dataDir>/credentials/signing.key`. The key is only read,
 * never created: a key the ledger did not make would sign tokens it refuses.
 */
export function agentCredentials(dataDir: string, env: NodeJS.ProcessEnv = process.env): (hostname: string) => string {
  const config = loadLedgerConfig({ ...env, LEDGER_DATA_DIR: dataDir });
  let secret = config.authSecret;
  if (secret === undefined) {
    const file = dataFiles(config).signingKey;
    try {
      secret = readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new CredentialsError(
        `cannot read the ledger's signing key ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ` +
          'pass --data-dir with the ledger\'s LEDGER_DATA_DIR, set LEDGER_AUTH_SECRET as the ledger has it, or pass --token with an admin token',
      );
    }
  }
  const codec = new TokenCodec(secret);
  return (hostname) => codec.issue({ user: `agent:${hostname}`, project: null, roles: ['agent'], host: hostname });
}
