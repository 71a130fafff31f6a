import type { KeyObject } from 'node:crypto';
import { ConflictError } from '@ledger/kernel';
import { readCheckpointLines, readRollbackAcceptances } from './checkpoint-files';
import { checkpointSignatureValid, type SignedCheckpoint } from './head-checkpoint';
import { rollbackAcceptanceValid, type SignedRollbackAcceptance } from './rollback-acceptance';

/** What the checkpoint files hold: signed checkpoints and accepted rollbacks. */
export interface CheckpointRecords {
  readonly checkpoints: readonly SignedCheckpoint[];
  readonly acceptances: readonly SignedRollbackAcceptance[];
}

/** A store whose head is below a position a genuine checkpoint signed: events were cut from its tail. */
export interface LogCut {
  readonly storeHead: number;
  readonly signedHead: number;
  readonly signedAt: string;
  /** The operator's recorded acceptance that covers this cut, if any. */
  readonly accepted?: SignedRollbackAcceptance;
}

/**
 * A store found cut below its signed head, while no operator has accepted
 * it: the ledger is not ready, `audit export` refuses, no checkpoint is
 * signed (docs/operations.md#a-store-cut-below-its-signed-head).
 */
export class LogCutBelowSignedHeadError extends ConflictError {
  constructor(cut: LogCut) {
    super(
      'AUDIT.LOG_CUT_BELOW_SIGNED_HEAD',
      `the store's head is position ${cut.storeHead}, below the checkpoint signed for position ${cut.signedHead} at ${cut.signedAt}: ` +
        `positions ${cut.storeHead + 1}–${cut.signedHead} are gone. Find out why; ` +
        `\`ledgerctl audit accept-rollback --to ${cut.storeHead} --reason …\` records that the rollback is accepted`,
      { storeHead: cut.storeHead, signedHead: cut.signedHead, signedAt: cut.signedAt },
    );
  }
}

/** The checkpoints and accepted rollbacks of these files (the data dir's `checkpoints.jsonl` and the published copy), in file order. */
export function readCheckpointRecords(files: ReadonlyArray<string | undefined>): CheckpointRecords {
  const present = files.filter((file): file is string => file !== undefined);
  return { checkpoints: present.flatMap(readCheckpointLines), acceptances: present.flatMap(readRollbackAcceptances) };
}

/**
 * Whether a store with this head is cut below its signed head: the
 * highest genuine checkpoint (every one counts when there is no key to
 * tell) vouches for a later position. Covered by an acceptance that gave
 * up that signed head for a head the store still has.
 */
export function logCutOf(storeHead: number, records: CheckpointRecords, publicKey: KeyObject | undefined): LogCut | undefined {
  const signed = signedHeadOf(records.checkpoints, publicKey);
  if (!signed || signed.position <= storeHead) return undefined;
  const accepted = records.acceptances.find(
    (acceptance) => acceptance.signedHead >= signed.position && acceptance.to <= storeHead && (!publicKey || rollbackAcceptanceValid(acceptance, publicKey)),
  );
  return { storeHead, signedHead: signed.position, signedAt: signed.at, ...(accepted ? { accepted } : {}) };
}

/** The genuine checkpoint of the highest position (every one counts when there is no key to tell); only the candidates from the top are verified. */
export function signedHeadOf(checkpoints: readonly SignedCheckpoint[], publicKey: KeyObject | undefined): SignedCheckpoint | undefined {
  return [...checkpoints].sort((a, b) => b.position - a.position).find((checkpoint) => !publicKey || checkpointSignatureValid(checkpoint, publicKey));
}
