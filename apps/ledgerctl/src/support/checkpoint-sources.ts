import type { KeyObject } from 'node:crypto';
import { dataFiles, type LedgerConfig } from '@ledger/config';
import { readCheckpointKeys, readCheckpointLines, readPublicKeyFile, type CheckpointKeys, type SignedCheckpoint } from '@ledger/eventstore';
import { CliError } from './cli-error';

/** The checkpoints this machine holds for the live store: the data dir's file and the published copy. */
export function liveCheckpoints(config: LedgerConfig): SignedCheckpoint[] {
  return [dataFiles(config).checkpoints, config.checkpointPublishFile].flatMap((file) => (file ? readCheckpointLines(file) : []));
}

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

/** A checkpoint file an auditor holds (e.g. the published copy), given with --checkpoints. */
export function auditorCheckpoints(file: string): SignedCheckpoint[] {
  const checkpoints = readCheckpointLines(file);
  if (checkpoints.length === 0) throw new CliError(`--checkpoints ${file}: no signed checkpoint in it`, 2);
  return checkpoints;
}
