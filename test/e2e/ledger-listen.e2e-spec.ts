import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';
import { logLines } from '../support/log-lines';

/** An address of this machine outside loopback, to check the ledger is not reachable on it. */
const EXTERNAL_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && !entry.internal && entry.family === 'IPv4')?.address;

const connects = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('where the ledger listens (needs `npx tsc -b tsconfig.build.json`)', () => {
  let ledger: LedgerProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-listen-'));
    ledger = await startLedgerProcess({ LEDGER_DATA_DIR: dataDir, HOST: '', LEDGER_LOG_LEVEL: 'log' });
  });
  afterAll(async () => {
    await ledger?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('binds loopback when HOST is unset, and says so with the address it bound', () => {
    const { port } = new URL(ledger.url);
    const said = logLines(ledger.output()).filter((line) => line.context === 'Ledger' && line.msg.startsWith('listening on'));
    expect(said).toEqual([expect.objectContaining({ level: 'info', msg: expect.stringContaining(`listening on http://127.0.0.1:${port} `) })]);
  });

  (EXTERNAL_ADDRESS ? it : it.skip)(`is not reachable on this machine's other address (${EXTERNAL_ADDRESS ?? 'none found'})`, async () => {
    const port = Number(new URL(ledger.url).port);
    expect(await connects('127.0.0.1', port)).toBe(true);
    expect(await connects(EXTERNAL_ADDRESS as string, port)).toBe(false);
  });
});
