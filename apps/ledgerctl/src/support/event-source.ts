import type { KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { eventStoreOptions } from '@ledger/config';
import {
  AnchoredVerifier,
  type AnchoredVerdict,
  type CheckpointRecords,
  isRollbackAcceptanceLine,
  openEventStore,
  type RecordedEvent,
  type SignedCheckpoint,
  type SignedRollbackAcceptance,
  type StoredEvent,
  upToHead,
  verifiableBatches,
  verifyBatches,
  type VerifyStoreLogOptions,
  verifyStoreLog,
} from '@ledger/eventstore';
import { CliError } from './cli-error';
import { cliConfig } from './config';
import { exportEventBatches, isCheckpointLine, parseJson } from './export-lines';
import { verifyExportInWorkers } from './export-verify';

export type { CheckpointLine } from './export-lines';

const BATCH = 5000;

/** The global log, read once from start to end, in batches. */
export interface EventSource {
  readonly description: string;
  /** Number of events, when known up front (for progress). */
  readonly total?: number;
  /** The chain hash at the head the source reads up to (live store only, for signing an export). */
  readonly headHash?: string;
  /** The signed checkpoints and accepted rollbacks the source carries (an export's header); the live store's are in files beside it. */
  checkpointRecords(): Promise<CheckpointRecords>;
  batches(): AsyncIterable<RecordedEvent[]>;
  /**
   * The same log for `audit verify`: as stored (data and metadata undecoded)
   * where the store keeps the written text, so the chain check can hash it
   * without parsing; decoded events elsewhere.
   */
  verifiableBatches(): AsyncIterable<ReadonlyArray<RecordedEvent | StoredEvent>>;
  /** The whole verify (`audit verify`): ranges on worker threads where the log is long enough, else one walk of verifiableBatches. */
  verify(checkpoints: readonly SignedCheckpoint[], publicKey: KeyObject | undefined, options: VerifyStoreLogOptions): Promise<AnchoredVerdict>;
  close(): Promise<void>;
}

/** The configured live store (LEDGER_STORE…), read up to its head at the time of opening. */
export async function openLiveSource(): Promise<EventSource> {
  const config = cliConfig();
  const store = await openEventStore(eventStoreOptions(config));
  const head = await store.headPosition();
  const { events: headEvents } = await store.readAll({ after: Math.max(0, head - 1), max: 1 });
  const readDecoded = async (after: number): Promise<RecordedEvent[]> => (await store.readAll({ after, max: BATCH })).events;
  return {
    description: `${config.store} store`,
    total: head,
    headHash: headEvents.find((event) => event.position === head)?.hash,
    checkpointRecords: async () => ({ checkpoints: [], acceptances: [] }),
    batches: () => upToHead(head, readDecoded),
    verifiableBatches: () => verifiableBatches(store, head, BATCH),
    verify: (checkpoints, publicKey, options) => verifyStoreLog(store, checkpoints, publicKey, { ...options, head }),
    close: () => store.close(),
  };
}

/**
 * An export written by `audit export`: the signed checkpoints first (one
 * `{"checkpoint": …}` line each) and the accepted rollbacks (one
 * `{"rollbackAccepted": …}` line each), then one recorded event per line, in
 * log order. They lead so that cutting the export's tail cannot cut them.
 */
export function openFileSource(file: string): EventSource {
  const source: EventSource = {
    description: file,
    async checkpointRecords() {
      const checkpoints: SignedCheckpoint[] = [];
      const acceptances: SignedRollbackAcceptance[] = [];
      try {
        for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
          if (line.trim() === '') continue;
          const parsed = parseJson(line);
          if (isCheckpointLine(parsed)) checkpoints.push(parsed.checkpoint);
          else if (isRollbackAcceptanceLine(parsed)) acceptances.push(parsed.rollbackAccepted);
          else break;
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`${file} does not exist`, 2);
        throw error;
      }
      return { checkpoints, acceptances };
    },
    async *batches() {
      const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
      try {
        yield* exportEventBatches(lines, BATCH, (line, problem) => new CliError(`${file}:${line} ${problem}`));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`${file} does not exist`, 2);
        throw error;
      }
    },
    // An export's lines are whole envelopes in the writer's key order, not the canonical text: decoded, then checked.
    verifiableBatches: () => source.batches(),
    verify: async (checkpoints, publicKey, options) =>
      (await verifyExportInWorkers(file, checkpoints, publicKey, options)) ??
      verifyBatches(source.verifiableBatches(), new AnchoredVerifier(checkpoints, publicKey), options.onProgress),
    close: async () => undefined,
  };
  return source;
}

/** Opens the file when given, else the live store. */
export const openSource = (file?: string): Promise<EventSource> =>
  file ? Promise.resolve(openFileSource(file)) : openLiveSource();
