import { type KeyObject, sign, verify } from 'node:crypto';
import { canonicalJson } from '@ledger/kernel';

/**
 * An operator's acceptance that the store holds less than was signed (a
 * restored backup, a lost disk): the store's head it accepts, the signed
 * head it gives up, who, when and why. Appended to the checkpoint files
 * beside the checkpoints (`ledgerctl audit accept-rollback`), signed with
 * the checkpoint key, and never removed: the record of the rollback.
 */
export interface RollbackAcceptance {
  /** The store's head when accepted: the log now ends here. */
  readonly to: number;
  /** The highest signed checkpoint's position: the events above `to` up to it are gone. */
  readonly signedHead: number;
  readonly by: string;
  readonly reason: string;
  readonly at: string;
}

export interface SignedRollbackAcceptance extends RollbackAcceptance {
  readonly signature: string;
}

/** How an acceptance is told apart from a checkpoint in a checkpoint file: its one key. */
export interface RollbackAcceptanceLine {
  readonly rollbackAccepted: SignedRollbackAcceptance;
}

const signedBytes = ({ to, signedHead, by, reason, at }: RollbackAcceptance): Buffer => Buffer.from(canonicalJson({ to, signedHead, by, reason, at }), 'utf8');

export function signRollbackAcceptance(acceptance: RollbackAcceptance, privateKey: KeyObject): SignedRollbackAcceptance {
  const { to, signedHead, by, reason, at } = acceptance;
  return { to, signedHead, by, reason, at, signature: sign(null, signedBytes(acceptance), privateKey).toString('base64') };
}

export function rollbackAcceptanceValid(acceptance: SignedRollbackAcceptance, publicKey: KeyObject): boolean {
  try {
    return verify(null, signedBytes(acceptance), publicKey, Buffer.from(acceptance.signature, 'base64'));
  } catch {
    return false;
  }
}

export function isRollbackAcceptanceLine(value: unknown): value is RollbackAcceptanceLine {
  const candidate = (value as Partial<RollbackAcceptanceLine> | null)?.rollbackAccepted as Partial<SignedRollbackAcceptance> | undefined;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    Number.isInteger(candidate.to) &&
    Number.isInteger(candidate.signedHead) &&
    typeof candidate.by === 'string' &&
    typeof candidate.reason === 'string' &&
    typeof candidate.at === 'string' &&
    typeof candidate.signature === 'string'
  );
}
