import type { KeyObject } from 'node:crypto';
import { dataFiles, type LedgerConfig } from '@ledger/config';
import {
  type CheckpointKeys,
  type CheckpointRecords,
  type LogCut,
  logCutOf,
  readCheckpointKeys,
  readCheckpointRecords,
  readPublicKeyFile,
  type SignedCheckpoint,
} from '@ledger/eventstore';
import { CliError } from './cli-error';

/** The checkpoints this machine holds for the live store: the data dir's file and the published copy. */
export const liveCheckpoints = (config: LedgerConfig): SignedCheckpoint[] => [...liveCheckpointRecords(config).checkpoints];

/** The checkpoints and accepted rollbacks this machine holds for the live store (the data dir's file and the published copy). */
export const liveCheckpointRecords = (config: LedgerConfig): CheckpointRecords => readCheckpointRecords(liveCheckpointFiles(config));

/** The files that hold the live store's checkpoints: the data dir's `checkpoints.jsonl` and the published copy (LEDGER_CHECKPOINT_PUBLISH_FILE) when set. */
export const liveCheckpointFiles = (config: LedgerConfig): string[] =>
  [dataFiles(config).checkpoints, config.checkpointPublishFile].filter((file): file is string => file !== undefined);

/** Whether the live store, at this head, is cut below the head its checkpoints signed (and whether an operator accepted that). */
export const liveLogCut = (config: LedgerConfig, storeHead: number): LogCut | undefined =>
  logCutOf(storeHead, liveCheckpointRecords(config), ledgerCheckpointKeys(config)?.publicKey);

/** The data dir's checkpoint key, or undefined when no ledger has started there yet. */
export const ledgerCheckpointKeys = (config: LedgerConfig): CheckpointKeys | undefined => readCheckpointKeys(dataFiles(config).checkpointKey);

/** The auditor's copy when given (it cannot be swapped with the data dir's), else the data dir's public half. */
export function verifyingKey(config: LedgerConfig, publicKeyFile?: string): KeyObject | undefined {
  if (publicKeyFile === undefined) return ledgerCheckpointKeys(config)?.publicKey;
  try {
    return readPublicKeyFile(publicKeyFile);
  } catch (error) {
    throw new CliError(`--public-key ${publicKeyFile}: not a readable PEM public key (${(error as Error).message})`, 2);
  }
}

/** A checkpoint file an auditor holds (e.g. the published copy), given with --checkpoints: its checkpoints and accepted rollbacks. */
export function auditorCheckpointRecords(file: string): CheckpointRecords {
  const records = readCheckpointRecords([file]);
  if (records.checkpoints.length === 0) throw new CliError(`--checkpoints ${file}: no signed checkpoint in it`, 2);
  return records;
}

/** Several sources' checkpoints and accepted rollbacks, as one. */
export const joinedRecords = (...records: readonly CheckpointRecords[]): CheckpointRecords => ({
  checkpoints: records.flatMap((each) => each.checkpoints),
  acceptances: records.flatMap((each) => each.acceptances),
});
