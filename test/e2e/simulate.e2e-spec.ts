import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { AgentLogger } from '../../apps/agent/src/runtime/agent-logger';
import { type ChurnedDevice, SimulatedFleet } from '../../apps/agent/src/simulate/simulated-fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const ROOT = join(__dirname, '..', '..');
const POLL_MS = 50;
const HOSTS = 50;

/** Re-checks `probe` until it returns something defined; fails naming `what` after `timeoutMs`. */
async function waitUntil<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(POLL_MS);
  }
}

const warnings = (): AgentLogger & { lines: string[] } => {
  const lines: string[] = [];
  return { lines, log: () => undefined, warn: (m) => lines.push(`WARN ${m}`), error: (m) => lines.push(`ERROR ${m}`) };
};

const hostnames = (count: number) => Array.from({ length: count }, (_, index) => `sim-${String(index + 1).padStart(5, '0')}`);

describe('simulated fleet (e2e)', () => {
  // A ledger per test: both fleets are called sim-00001…, and each must register on a ledger that has never seen it.
  let ledger: TestLedger;
  beforeEach(async () => {
    // Liveness is not what this suite checks: with 1 s heartbeats the default (3 silent intervals) records
    // hosts lost whenever a loaded machine delays calls by 3 s, which would move the head in the steady window.
    ledger = await startTestLedger({ LEDGER_AGENT_LOST_AFTER_INTERVALS: '30' });
  });
  afterEach(async () => {
    await ledger?.close();
  });

  const admin = (path: string) => ledger.request('GET', path, { token: ledger.adminToken });
  const headPosition = async () => (await admin('/readyz')).body.headPosition as number;

  /** The device as the inventory shows it once it has the change, or undefined while it does not. */
  async function shows(device: ChurnedDevice): Promise<true | undefined> {
    const listed = await admin(`/api/v1/devices?hostname=${device.hostname}`);
    const found = listed.body.items.find((item: { pciAddress: string }) => item.pciAddress === device.pciAddress);
    if (found?.driver !== device.expected.driver) return undefined;
    const deployables = await admin(`/api/v1/deployables?hostname=${device.hostname}&device=${found.uuid}`);
    const count = deployables.body.items.reduce((sum: number, item: { count: number }) => sum + item.count, 0);
    return count === device.expected.deployableCount ? true : undefined;
  }

  it('registers every host with its own credential, then holds steady (appending nothing), and shows churn in the inventory', async () => {
    const logger = warnings();
    const fleet = new SimulatedFleet({
      ledgerUrls: [ledger.url],
      hosts: HOSTS,
      devicesPerHost: 8,
      reportIntervalSeconds: 2,
      heartbeatIntervalSeconds: 1,
      concurrency: 8,
      tokenFor: (hostname) => ledger.token({ user: `agent:${hostname}`, project: null, roles: ['agent'], host: hostname }),
      logger,
    });
    try {
      await fleet.start();
      expect(fleet.registered).toBe(HOSTS);

      const hosts = await waitUntil('every host up in the inventory', async () => {
        const listed = await admin('/api/v1/hosts?limit=100');
        const up = listed.body.items.filter((host: { agentStatus: string }) => host.agentStatus === 'up');
        return up.length === HOSTS ? listed.body.items : undefined;
      });
      expect(hosts.map((host: { hostname: string }) => host.hostname)).toEqual(hostnames(HOSTS));
      expect(hosts.every((host: { deviceCount: number }) => host.deviceCount === 8)).toBe(true);
      const types = (await admin('/api/v1/devices?hostname=sim-00001')).body.items.map((device: { type: string }) => device.type).sort();
      expect(types).toEqual(['FPGA', 'FPGA', 'GPU', 'GPU', 'GPU', 'GPU', 'NIC', 'NIC']);

      // Steady state: every host reports again (unchanged) and keeps heartbeating; nothing is appended.
      const head = await headPosition();
      const reportsBefore = fleet.stats.totals().reports;
      await waitUntil('a full round of unchanged reports', async () => (fleet.stats.totals().reports >= reportsBefore + HOSTS ? true : undefined));
      expect(await headPosition()).toBe(head);
      expect(fleet.stats.totals()).toMatchObject({ changedReports: HOSTS, errors: 0 });

      const churned = await fleet.churn(0.05);
      expect(churned).toHaveLength(20);
      for (const device of churned) await waitUntil(`${device.hostname} ${device.pciAddress} ${device.description} in the inventory`, () => shows(device));
      expect(await headPosition()).toBeGreaterThan(head);
      expect(logger.lines).toEqual([]);
    } finally {
      await fleet.stop();
    }
    const callsAtStop = fleet.stats.totals();
    await delay(1500);
    expect(fleet.stats.totals()).toMatchObject({ reports: callsAtStop.reports, heartbeats: callsAtStop.heartbeats });
  });

  describe('npm run simulate', () => {
    const main = join(ROOT, 'dist', 'apps', 'agent', 'src', 'simulate', 'main.js');
    let child: ChildProcess | undefined;
    afterEach(() => {
      child?.kill('SIGKILL');
    });
    /** `npm run simulate` of 20 hosts (2 s reports, 1 s heartbeats, a progress line a second) against the test's ledger, with `extra` options. */
    const simulate = (...extra: string[]) => {
      const started = spawn(
        process.execPath,
        [join(ROOT, 'scripts', 'run.js'), 'simulate', '--hosts', '20', '--interval', '2', '--heartbeat', '1', '--progress', '1',
          '--ledger', ledger.url, '--data-dir', ledger.config.dataDir, ...extra],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = started;
      let output = '';
      started.stdout?.on('data', (chunk) => (output += chunk));
      started.stderr?.on('data', (chunk) => (output += chunk));
      return { exited: once(started, 'exit'), output: () => output };
    };

    it("runs a fleet with the ledger's own signing key, churns every interval and stops cleanly on SIGINT", async () => {
      if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`);
      const { exited, output: printed } = simulate('--churn', '0.05');

      await waitUntil('two churn rounds', async () => ((printed().match(/churn: 8 device\(s\)/g) ?? []).length >= 2 ? true : undefined), 30_000);
      expect(printed()).toContain('20/20 hosts registered in');
      expect(printed()).toMatch(/20\/20 hosts registered; reports [\d.]+\/s .* errors 0,/);
      child?.kill('SIGINT');
      const [code] = await exited;

      expect({ code, output: printed() }).toEqual({ code: 0, output: expect.stringMatching(/SIGINT: stopping\n.*stopped after \d+ s: \d+ reports \(\d+ appended\), \d+ heartbeats, 0 errors\n$/) });
      const hosts = (await admin('/api/v1/hosts?limit=100')).body.items.map((host: { hostname: string }) => host.hostname);
      expect(hosts).toEqual(expect.arrayContaining(hostnames(20)));
    });

    it('runs the fleet in worker processes with one progress line and one summary, and one SIGINT stops them all', async () => {
      if (!existsSync(main)) throw new Error(`${main} is missing: run "npm run build" first`);
      const { exited, output: printed } = simulate('--workers', '2');

      // The merged line counts both workers' hosts.
      await waitUntil('a progress line of the whole fleet', async () => (/20\/20 hosts registered; reports [\d.]+\/s .* errors 0,/.test(printed()) ? true : undefined), 30_000);
      expect(printed()).toContain('20/20 hosts registered in');
      expect(printed()).toContain('by 2 workers');
      // Only the parent is signalled, as `kill` would: it stops its workers.
      child?.kill('SIGINT');
      const [code] = await exited;

      expect({ code, output: printed() }).toEqual({ code: 0, output: expect.stringMatching(/SIGINT: stopping\n.*simulate stopped after \d+ s: \d+ reports \(20 appended\), \d+ heartbeats, 0 errors\n$/) });
      const hosts = (await admin('/api/v1/hosts?limit=100')).body.items.map((host: { hostname: string }) => host.hostname);
      expect(hosts.sort()).toEqual(hostnames(20));
    });
  });
});
