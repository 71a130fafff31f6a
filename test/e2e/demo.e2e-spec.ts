import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@ledger/processing/testing';
import { freePort } from '../support/ledger-process';

const ROOT = join(__dirname, '..', '..');

/** scripts/demo.js with `args`, and everything it printed so far. */
function startDemo(args: readonly string[]): { demo: ChildProcessWithoutNullStreams; output: () => string } {
  const demo = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.js'), ...args], { cwd: ROOT, env: { ...process.env, LEDGER_URL: undefined, PORT: undefined } });
  let output = '';
  demo.stdout.on('data', (chunk) => (output += chunk));
  demo.stderr.on('data', (chunk) => (output += chunk));
  return { demo, output: () => output };
}

/** `npm run demo` (scripts/demo.js on the built tree): the ledger and a simulated fleet, up together, down together on Ctrl-C. */
describe('npm run demo', () => {
  it('starts the ledger and a fleet that reports to it, and stops both on SIGINT', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-demo-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const { demo, output: said } = startDemo(['--hosts', '2', '--port', String(port), '--data-dir', dataDir]);
    try {
      await eventually(() => said().includes('demo: ready: 2 simulated host(s)') && said().includes('Ctrl-C stops everything'), 90_000);
      const output = said();
      expect(output).toContain(`${url}/docs`);
      expect(output).toContain(`${url}/console`);
      // Ready only once the fleet is up, not when the ledger alone answers.
      expect(output.search(/\[fleet\] .*2\/2 hosts registered/)).toBeGreaterThan(-1);
      expect(output.search(/\[fleet\] .*2\/2 hosts registered/)).toBeLessThan(output.indexOf('demo: ready:'));
      const admin = readFileSync(join(dataDir, 'credentials', 'admin.token'), 'utf8').trim();
      const hosts = async () => {
        const response = await fetch(`${url}/api/v1/hosts`, { headers: { 'x-auth-token': admin } });
        return ((await response.json()) as { items: { hostname: string; agentStatus: string; deviceCount: number }[] }).items;
      };
      await eventually(async () => (await hosts()).filter((host) => host.agentStatus === 'up' && host.deviceCount > 0).length === 2, 60_000);
      expect((await hosts()).map((host) => host.hostname).sort()).toEqual(['sim-00001', 'sim-00002']);

      const exited = once(demo, 'exit');
      demo.kill('SIGINT');
      const [code] = await exited;
      expect({ code, output: code === 0 ? '' : said() }).toEqual({ code: 0, output: '' });
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      if (demo.exitCode === null) demo.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('refuses a port another server already listens on, before it starts anything', async () => {
    // Another ledger, as far as /readyz tells.
    const other = createServer((request, response) => response.end(JSON.stringify({ ready: true })));
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    const { port } = other.address() as { port: number };
    const dataDir = mkdtempSync(join(tmpdir(), 'ledger-demo-taken-'));
    try {
      const { demo, output: said } = startDemo(['--hosts', '1', '--port', String(port), '--data-dir', dataDir]);
      const [code] = await once(demo, 'exit');
      const output = said();
      expect({ code, taken: output.includes(`port ${port} on 127.0.0.1 is taken`), ready: output.includes('ready:'), fleet: output.includes('[fleet]') }).toEqual({
        code: 1,
        taken: true,
        ready: false,
        fleet: false,
      });
    } finally {
      other.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
