import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@ledger/processing/testing';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';
import { logLines } from '../support/log-lines';

/** What a person reads when the ledger starts: a screenful at the default level, not Nest's wiring. */
const MOST_START_UP_LINES = 25;

describe('the start-up log at the default level (`npm run build` first)', () => {
  let ledger: LedgerProcess;
  let dataDir: string;
  let started: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-startup-log-'));
    ledger = await startLedgerProcess({ LEDGER_DATA_DIR: dataDir, LEDGER_LOG_LEVEL: '', LEDGER_LOG_FORMAT: 'json' });
    // The addresses come last, once the server listens.
    await eventually(() => ledger.output().includes('console: '), 30_000);
    started = ledger.output();
  }, 60_000);
  afterAll(async () => {
    await ledger?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`fits in ${MOST_START_UP_LINES} lines, none of them a route Nest mapped or a module it initialised`, () => {
    const lines = logLines(started);
    expect(lines.filter((line) => /Mapped \{|dependencies initialized|Controller \{/.test(line.msg))).toEqual([]);
    expect(lines.length).toBeLessThanOrEqual(MOST_START_UP_LINES);
  });

  it('says at info, alike, which integrations are off', () => {
    const off = logLines(started).filter((line) => ['Kafka', 'Placement', 'Reactors'].includes(line.context ?? ''));
    expect(off.map(({ context, level }) => ({ context, level }))).toEqual(
      expect.arrayContaining([
        { context: 'Kafka', level: 'info' },
        { context: 'Placement', level: 'info' },
        { context: 'Reactors', level: 'info' },
      ]),
    );
    expect(off.filter((line) => line.level !== 'info')).toEqual([]);
  });

  it("prints the API's, the docs' and the console's addresses", () => {
    const said = logLines(started)
      .filter((line) => line.context === 'Ledger')
      .map((line) => line.msg)
      .join('\n');
    expect(said).toContain(`listening on ${ledger.url} `);
    expect(said).toContain(`${ledger.url}/docs`);
    expect(said).toContain(`console: ${ledger.url}/console`);
  });

  it('logs its shutdown: the signal, then that it stopped', async () => {
    const before = ledger.output().length;
    await ledger.kill('SIGTERM');
    const shutdown = logLines(ledger.output().slice(before)).filter((line) => line.context === 'Ledger');
    expect(shutdown.map((line) => line.msg)).toEqual([expect.stringMatching(/^SIGTERM: stopping/), 'stopped']);
  });
});
