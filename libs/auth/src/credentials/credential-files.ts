import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { TokenCodec } from '../tokens/token-codec';

export interface Credentials {
  readonly codec: TokenCodec;
  /** Where the admin token was written, when this call created or found it. */
  readonly adminTokenFile: string;
  /** True when this call generated the key (first run). */
  readonly created: boolean;
}

/**
 * The embedded setup's credentials: a signing key and an admin token, made
 * on first run under the data directory with owner-only permissions. An
 * explicit secret (LEDGER_AUTH_SECRET) replaces the key file.
 */
export function loadOrCreateCredentials(files: { signingKey: string; adminToken: string }, explicitSecret?: string): Credentials {
  let created = false;
  let secret = explicitSecret;
  if (secret === undefined) {
    created = writeSecretFileOnce(files.signingKey, randomBytes(32).toString('hex'));
    secret = readFileSync(files.signingKey, 'utf8').trim();
  }
  const codec = new TokenCodec(secret);
  if (created || !existsSync(files.adminToken) || !tokenStillValid(codec, files.adminToken)) {
    writeSecretFile(files.adminToken, codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] }));
  }
  return { codec, adminTokenFile: files.adminToken, created };
}

function tokenStillValid(codec: TokenCodec, file: string): boolean {
  try {
    codec.verify(readFileSync(file, 'utf8').trim());
    return true;
  } catch {
    return false;
  }
}

/** Creates the file unless it exists; false when another process (a replica) got there first. */
function writeSecretFileOnce(file: string, content: string): boolean {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${content}\n`, { mode: 0o600, flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function writeSecretFile(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${content}\n`, { mode: 0o600 });
}
