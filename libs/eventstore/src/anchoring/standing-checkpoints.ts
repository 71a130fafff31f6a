import type { KeyObject } from 'node:crypto';
import type { AnchoredVerdict } from './anchored-verifier';
import type { SignedCheckpoint } from './head-checkpoint';
import type { CheckpointRecords } from './log-cut';
import { type RollbackAcceptance, rollbackAcceptanceValid, type SignedRollbackAcceptance } from './rollback-acceptance';

/** The checkpoints a log is checked against once accepted rollbacks are read, and those rollbacks. */
export interface StandingCheckpoints {
  readonly checkpoints: readonly SignedCheckpoint[];
  readonly rollbacks: readonly SignedRollbackAcceptance[];
}

/**
 * An accepted rollback gives up the checkpoints signed up to its time for
 * positions above the head it accepted (up to the signed head it names):
 * the events they vouch for are gone, and new events take their positions.
 * Checkpoints signed after it stand. Only an acceptance genuine under
 * `publicKey` counts, as only a genuine checkpoint does; without a key
 * neither is checked, and nothing is given up.
 */
export function standingCheckpoints(records: CheckpointRecords, publicKey: KeyObject | undefined): StandingCheckpoints {
  const rollbacks = publicKey ? records.acceptances.filter((acceptance) => rollbackAcceptanceValid(acceptance, publicKey)) : [];
  return {
    checkpoints: records.checkpoints.filter((checkpoint) => !rollbacks.some((rollback) => givenUpBy(checkpoint, rollback))),
    rollbacks: rollbacks.filter((rollback) => records.checkpoints.some((checkpoint) => givenUpBy(checkpoint, rollback))),
  };
}

const givenUpBy = (checkpoint: SignedCheckpoint, rollback: RollbackAcceptance): boolean =>
  checkpoint.position > rollback.to && checkpoint.position <= rollback.signedHead && checkpoint.at <= rollback.at;

/**
 * Runs a verify (`audit verify`, GET /api/v1/audit/verify) against the
 * checkpoints that stand, and names the accepted rollbacks that gave any
 * up in the verdict (`rollbacks`), so an auditor sees each one: who, when,
 * why, and which signed head was given up.
 */
export async function verifyAgainstRecords(
  records: CheckpointRecords,
  publicKey: KeyObject | undefined,
  verify: (checkpoints: readonly SignedCheckpoint[]) => Promise<AnchoredVerdict>,
): Promise<AnchoredVerdict> {
  const { checkpoints, rollbacks } = standingCheckpoints(records, publicKey);
  const verdict = await verify(checkpoints);
  if (rollbacks.length === 0) return verdict;
  return { ...verdict, rollbacks: rollbacks.map(({ to, signedHead, by, reason, at }) => ({ to, signedHead, by, reason, at })) };
}
