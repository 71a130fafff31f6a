import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { eventStoreOptions } from '@ledger/config';
import { openEventStore, type RecordedEvent } from '@ledger/eventstore';
import { CliError } from './cli-error';
import { cliConfig } from './config';

const BATCH = 5000;

/** The global log, read once from start to end, in batches. */
export interface EventSource {
  readonly description: string;
  /** Number of events, when known up front (for progress). */
  readonly total?: number;
  batches(): AsyncIterable<RecordedEvent[]>;
  close(): Promise<void>;
}

/** The configured live store (LEDGER_STORE…), read up to its head at the time of opening. */
export async function openLiveSource(): Promise<EventSource> {
  const config = cliConfig();
  const store = await openEventStore(eventStoreOptions(config));
  const head = await store.headPosition();
  return {
    description: `${config.store} store`,
    total: head,
    async *batches() {
      let after = 0;
      while (after < head) {
        const { events, position } = await store.readAll({ after, max: BATCH });
        if (position === after) break;
        const upToHead = events.filter((event) => event.position <= head);
        if (upToHead.length > 0) yield upToHead;
        after = position;
      }
    },
    close: () => store.close(),
  };
}

/** An export written by `audit export`: one recorded event per line, in log order. */
export function openFileSource(file: string): EventSource {
  return {
    description: file,
    async *batches() {
      const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
      let batch: RecordedEvent[] = [];
      let lineNumber = 0;
      try {
        for await (const line of lines) {
          lineNumber++;
          if (line.trim() === '') continue;
          batch.push(parseLine(line, file, lineNumber));
          if (batch.length === BATCH) {
            yield batch;
            batch = [];
          }
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new CliError(`${file} does not exist`, 2);
        throw error;
      }
      if (batch.length > 0) yield batch;
    },
    close: async () => undefined,
  };
}

function parseLine(line: string, file: string, lineNumber: number): RecordedEvent {
  let event: RecordedEvent;
  try {
    event = JSON.parse(line) as RecordedEvent;
  } catch {
    throw new CliError(`${file}:${lineNumber} is not JSON: the export is damaged`);
  }
  if (typeof event?.position !== 'number' || typeof event.hash !== 'string' || typeof event.stream !== 'string') {
    throw new CliError(`${file}:${lineNumber} is not a recorded event (position, stream, hash missing)`);
  }
  return event;
}

/** Opens the file when given, else the live store. */
export const openSource = (file?: string): Promise<EventSource> =>
  file ? Promise.resolve(openFileSource(file)) : openLiveSource();
