import { type KeyObject, sign, verify } from 'node:crypto';
import { canonicalJson } from '@ledger/kernel';

/** What a checkpoint vouches for: the log had this hash at this position at this time. */
export interface HeadCheckpoint {
  readonly position: number;
  readonly hash: string;
  readonly at: string;
}

/** A head checkpoint signed with the ledger's Ed25519 checkpoint key (signature in base64). */
export interface SignedCheckpoint extends HeadCheckpoint {
  readonly signature: string;
}

const signedBytes = (checkpoint: HeadCheckpoint): Buffer =>
  Buffer.from(canonicalJson({ position: checkpoint.position, hash: checkpoint.hash, at: checkpoint.at }), 'utf8');

export function signCheckpoint(checkpoint: HeadCheckpoint, privateKey: KeyObject): SignedCheckpoint {
  const { position, hash, at } = checkpoint;
  return { position, hash, at, signature: sign(null, signedBytes(checkpoint), privateKey).toString('base64') };
}

export function checkpointSignatureValid(checkpoint: SignedCheckpoint, publicKey: KeyObject): boolean {
  try {
    return verify(null, signedBytes(checkpoint), publicKey, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}

/** Shape check for a checkpoint read from a file someone else may have written. */
export function isSignedCheckpoint(value: unknown): value is SignedCheckpoint {
  const candidate = value as Partial<SignedCheckpoint> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    Number.isInteger(candidate.position) &&
    typeof candidate.hash === 'string' &&
    typeof candidate.at === 'string' &&
    typeof candidate.signature === 'string'
  );
}
