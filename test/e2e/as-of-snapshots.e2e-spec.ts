import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { dataFiles } from '@ledger/config';
import { eventually } from '@ledger/processing/testing';
import { recordAuditHistory } from '../support/audit-history';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ledgerctl } from '../support/ledgerctl-process';

const EVERY = 10;

describe('as-of reads from read-model snapshots taken as the log grows', () => {
  let ledger: TestLedger;
  let env: Record<string, string>;
  let head: number;
  let exportFile: string;
  let snapshotDir: string;

  // The directory appears with the first snapshot.
  const inventorySnapshots = () =>
    (existsSync(snapshotDir) ? readdirSync(snapshotDir) : [])
      .filter((name) => name.startsWith('inventory.') && name.endsWith('.sqlite'))
      .sort();
  const replay = async (position: number, ...source: string[]) => {
    const run = await ledgerctl(env, 'audit', 'replay', '--as-of', String(position), '--json', '--quiet', ...source);
    expect(run.code).toBe(0);
    return { inventory: JSON.parse(run.stdout).inventory, stderr: run.stderr };
  };

  beforeAll(async () => {
    ledger = await startTestLedger({ LEDGER_SNAPSHOT_EVERY_EVENTS: String(EVERY) });
    env = { LEDGER_DATA_DIR: ledger.config.dataDir, LEDGER_URL: ledger.url };
    snapshotDir = dataFiles(ledger.config).snapshots;
    ({ head } = await recordAuditHistory(ledger));
    exportFile = join(ledger.config.dataDir, 'snapshots-export.jsonl');
    expect((await ledgerctl(env, 'audit', 'export', '--out', exportFile, '--quiet')).code).toBe(0);
    await eventually(() => inventorySnapshots().length >= Math.floor(head / EVERY));
  });
  afterAll(() => ledger.close());

  it('takes one every N events, and an as-of read from them equals a replay of the whole export', async () => {
    const positions = inventorySnapshots().map((name) => Number(name.split('.')[2]));
    expect(positions).toEqual(Array.from({ length: positions.length }, (_, k) => (k + 1) * EVERY));
    for (const position of [EVERY + 3, head]) {
      expect((await replay(position)).inventory).toEqual((await replay(position, '--file', exportFile)).inventory);
    }
    const live = await ledger.request('GET', '/api/v1/devices?limit=1000', { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(head) } });
    const asOf = await ledger.request('GET', `/api/v1/devices?limit=1000&asOf=${head}`, { token: ledger.adminToken });
    expect(asOf.body.items).toEqual(live.body.items);
  }, 180_000);

  it('refuses a snapshot whose chain hash is not the log’s at its position, and answers from an older one', async () => {
    const position = Math.floor(head / EVERY) * EVERY;
    const newest = inventorySnapshots().find((name) => Number(name.split('.')[2]) === position)!;
    const file = new Database(join(snapshotDir, newest));
    file.prepare('UPDATE processor_checkpoints SET hash = ?').run('f'.repeat(64));
    file.close();
    const fromOlder = await replay(position);
    expect(fromOlder.stderr).toContain(`${newest} refused (chain-mismatch)`);
    expect(fromOlder.inventory).toEqual((await replay(position, '--file', exportFile)).inventory);
  }, 180_000);
});
