import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnchoredVerdict, AnchoredVerifier, chainHash, contentHash, GENESIS_HASH, type RecordedEvent, type SignedCheckpoint, signCheckpoint, verifyBatches } from '@ledger/eventstore';
import { openFileSource } from './event-source';
import { fileSize, lineCuts, verifyExportRanges } from './export-verify';

const keys = generateKeyPairSync('ed25519');
const metadata = { correlationId: 'c', causationId: null, actor: { user: 'u', project: 'p', roles: ['admin'] }, schemaVersion: 1 };
const LENGTH = 40;

function chained(length: number): RecordedEvent[] {
  let prevHash = GENESIS_HASH;
  return Array.from({ length }, (_, index) => {
    const content = { id: `event-${index + 1}`, type: 'inventory.DeviceHealthChanged', recordedAt: new Date(Date.UTC(2026, 10, 22, 0, index)).toISOString(), data: { health: index % 2 ? 'ok' : 'degraded', note: 'x'.repeat(index * 7) }, metadata };
    const event = { ...content, stream: `device-${index % 3}`, version: Math.floor(index / 3) + 1, position: index + 1, prevHash, hash: chainHash(prevHash, index + 1, `device-${index % 3}`, Math.floor(index / 3) + 1, contentHash(content)) };
    prevHash = event.hash;
    return event;
  });
}

const log = chained(LENGTH);
const signedAt = (position: number): SignedCheckpoint => signCheckpoint({ position, hash: log[position - 1].hash, at: '2026-11-29T03:00:00.000Z' }, keys.privateKey);
const header = [signedAt(10), signedAt(LENGTH)].map((checkpoint) => JSON.stringify({ checkpoint }));
const lines = (events: readonly RecordedEvent[]): string[] => [...header, ...events.map((event) => JSON.stringify(event))];

type Result = { verdict: AnchoredVerdict } | { error: string };

const outcomeOf = async (run: () => Promise<AnchoredVerdict>): Promise<Result> => {
  try {
    return { verdict: await run() };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

/**
 * Real worker threads (the compiled export-range-worker.js, built by Jest's
 * global setup) over export files, whole and edited: the verdict, or the
 * error, equals the single walk's.
 */
describe('verifyExportRanges', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-export-verify-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function sameResult(name: string, text: string): Promise<Result> {
    const file = join(dir, `${name}.jsonl`);
    writeFileSync(file, text);
    const source = openFileSource(file);
    const { checkpoints } = await source.checkpointRecords();
    const walked = await outcomeOf(() => verifyBatches(source.verifiableBatches(), new AnchoredVerifier(checkpoints, keys.publicKey)));
    for (const threads of [2, 5]) {
      expect({ threads, result: await outcomeOf(() => verifyExportRanges(file, fileSize(file), checkpoints, keys.publicKey, threads)) }).toEqual({ threads, result: walked });
    }
    return walked;
  }

  it('finds an intact export intact, anchored by its header', async () => {
    expect(await sameResult('intact', `${lines(log).join('\n')}\n`)).toMatchObject({ verdict: { ok: true, checked: LENGTH, anchor: { position: LENGTH } } });
  });

  it('reads CRLF line ends and blank lines as the single walk does', async () => {
    expect(await sameResult('crlf', `${lines(log).join('\r\n\r\n')}\r\n`)).toMatchObject({ verdict: { ok: true, checked: LENGTH } });
  });

  it.each([1, 14, 20, 27, LENGTH])('finds data edited at position %i', async (position) => {
    const edited = log.map((event) => (event.position === position ? { ...event, data: { health: 'failed' } } : event));
    expect(await sameResult(`edited-${position}`, lines(edited).join('\n'))).toMatchObject({ verdict: { firstBreak: { position, reason: 'content-changed' } } });
  });

  it.each([14, 27])('finds the event at position %i deleted', async (position) => {
    const result = await sameResult(`deleted-${position}`, lines(log.filter((event) => event.position !== position)).join('\n'));
    expect(result).toMatchObject({ verdict: { firstBreak: { position: position + 1, reason: 'position-gap' } } });
  });

  it('finds a cut tail against the header', async () => {
    expect(await sameResult('cut', lines(log.slice(0, 30)).join('\n'))).toMatchObject({ verdict: { firstBreak: { position: 31, reason: 'truncated' } } });
  });

  it.each([5, 22, 35])('names a damaged line %i of the events by its line in the whole file', async (index) => {
    const damaged = lines(log);
    damaged[header.length + index] = '{"position": 3, "hash"';
    const result = await sameResult(`damaged-${index}`, damaged.join('\n'));
    expect(result).toEqual({ error: `${join(dir, `damaged-${index}.jsonl`)}:${header.length + index + 1} is not JSON: the export is damaged` });
  });

  it('finds a break before a damaged line rather than the damage', async () => {
    const text = lines(log.map((event) => (event.position === 20 ? { ...event, data: {} } : event)));
    text[header.length + 30] = 'null';
    expect(await sameResult('broken-then-damaged', text.join('\n'))).toMatchObject({ verdict: { firstBreak: { position: 20, reason: 'content-changed' } } });
  });
});

describe('lineCuts', () => {
  it('cuts just after line feeds, into ranges that cover the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-line-cuts-'));
    try {
      const file = join(dir, 'lines.txt');
      writeFileSync(file, 'a\nbb\r\nccc\n\ndddd');
      expect(lineCuts(file, 15, 3)).toEqual([0, 6, 10, 15]);
      expect(lineCuts(file, 15, 8)).toEqual([0, 2, 6, 6, 10, 10, 11, 15, 15]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
