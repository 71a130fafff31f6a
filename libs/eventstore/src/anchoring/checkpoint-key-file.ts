import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface CheckpointKeys {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/**
 * The Ed25519 key that signs head checkpoints, kept as PEM under the data
 * directory (mode 0600) and generated on first use. `wx` makes the first of
 * two processes starting together the one whose key both then read.
 */
export function loadOrCreateCheckpointKeys(file: string): CheckpointKeys {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  try {
    writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readKeys(file);
}

/** The existing key, or undefined when none was generated there yet. */
export function readCheckpointKeys(file: string): CheckpointKeys | undefined {
  return existsSync(file) ? readKeys(file) : undefined;
}

function readKeys(file: string): CheckpointKeys {
  const privateKey = createPrivateKey(readFileSync(file, 'utf8'));
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

export const publicKeyPem = (key: KeyObject): string => key.export({ type: 'spki', format: 'pem' }).toString();

/** An auditor-held public key (PEM, as `ledgerctl audit public-key` prints it). */
export const readPublicKeyFile = (file: string): KeyObject => createPublicKey(readFileSync(file, 'utf8'));
