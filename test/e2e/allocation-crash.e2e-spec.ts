import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { mulberry32 } from '../../apps/agent/src/drivers/simulated/seeded-random';
import { crashCpuShare } from '../support/cpu-share';
import { bindInconsistencies, deleteEveryRequest, waitUntilSettled } from '../support/crash-consistency';
import { hostReportBody, hostname } from '../support/fleet';
import { type ClientFlow, drawKillMoment, killDuring, ledgerCaller, runBindFlow } from '../support/crash-flows';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';

const SECRET = 'allocation-crash-signing-key-0123456789';
const CLIENTS = 24;
const HOSTS = 8;
/** Kill-restart cycles: a few in CI, `CRASH_CYCLES=100` for the long run docs/testing.md describes. */
const CYCLES = Number(process.env.CRASH_CYCLES ?? 3);
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
/** Each kill comes after 1 to this many binds answered in its cycle, then up to KILL_EXTRA_MS more (both drawn from the seed). */
const KILL_AFTER_BINDS = CLIENTS;
const KILL_EXTRA_MS = 1_000;
const CONVERGE_MS = 30_000;
const codec = new TokenCodec(SECRET);
const admin = codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
const nova = codec.issue({ user: 'nova', project: 'tenant-c', roles: ['member', 'service'] });

/**
 * Kills the ledger (SIGKILL) while clients run create → bind → delete
 * flows, at a moment drawn from the seed once enough binds were answered
 * (docs/testing.md, "Crash cycles"), restarts it, and checks after each restart that
 * nothing stays half done: once the bind workflows have resumed (and the
 * arq-holds reactor has given back what unbound, deleted or never-recorded
 * requests held), every bind workflow has ended completed or compensated,
 * no bind is left starting, every attach-handle claim belongs to a request
 * bound with that handle, and the project's quota in use equals what its
 * live requests hold. Then the next cycle's flows start on the restarted
 * ledger.
 */
describe(`crash recovery of accelerator requests (embedded SQLite, ${CYCLES} cycles, seed ${SEED})`, () => {
  let dataDir: string;
  let ledger: LedgerProcess | undefined;
  const env = () => ({ LEDGER_DATA_DIR: dataDir, LEDGER_AUTH_SECRET: SECRET, LEDGER_PROCESSOR_LEASE_MS: '2000', LEDGER_BIND_TIMEOUT_MS: '1500' });
  const call = ledgerCaller(() => ledger!.url);
  const getJson = async (path: string): Promise<any> => (await call('GET', path, admin)).json();

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-alloc-crash-'));
  });
  afterAll(async () => {
    await ledger?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'finishes every interrupted bind, claim and reservation after each restart',
    async () => {
      const random = mulberry32(SEED);
      ledger = await startLedgerProcess(env());
      const providers: string[] = [];
      for (let i = 0; i < HOSTS; i++) {
        const agent = codec.issue({ user: `agent:${hostname(i)}`, project: null, roles: ['agent'], host: hostname(i) });
        expect((await call('PUT', `/api/v1/hosts/${hostname(i)}/report`, agent, hostReportBody(i, 0))).status).toBe(200);
      }
      const deployables = await getJson('/api/v1/deployables?resourceClass=FPGA&limit=100');
      providers.push(...deployables.items.map((d: { rpUuid: string }) => d.rpUuid));
      expect(providers).toHaveLength(HOSTS);
      expect((await call('POST', '/v2/device_profiles', admin, [{ name: 'fpga-dp', groups: [{ 'resources:FPGA': '1' }] }])).status).toBe(201);

      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        const flow: ClientFlow = (client, stopped, bindAnswered) =>
          runBindFlow(call, nova, { profile: 'fpga-dp', hostname: hostname(client % HOSTS), rpUuid: providers[client % HOSTS], keep: client % 2 !== 0 }, stopped, bindAnswered);
        const answered = await killDuring(ledger, drawKillMoment(random, KILL_AFTER_BINDS, KILL_EXTRA_MS), CLIENTS, flow);

        ledger = await startLedgerProcess(env());
        // The workflow runtime resumes interrupted binds from the log once its lease is free; wait for the outcome.
        await waitUntilConsistent(`cycle ${cycle} (${answered} binds answered before the kill)`);
        await deleteEveryRequest(getJson, (path) => call('DELETE', path, nova));
        await waitUntilConsistent('after deleting every request');
      }
    },
    (60_000 + CYCLES * 45_000) / crashCpuShare(),
  );

  const waitUntilConsistent = (what: string) => waitUntilSettled(what, () => bindInconsistencies(getJson, 'tenant-c'), CONVERGE_MS, () => ledger!.output());
});
