import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventStoreOptions, loadLedgerConfig } from '@ledger/config';
import { type EventStore, openEventStore } from '@ledger/eventstore';
import { deviceDecider, type DeviceEvent, deviceStream, hostFenceDecider, hostStream } from '@ledger/inventory';
import { foldEvents } from '@ledger/kernel';
import { mulberry32 } from '../../apps/agent/src/drivers/simulated/seeded-random';
import { crashCpuShare } from '../support/cpu-share';
import { bindInconsistencies, deleteEveryRequest, deviceInconsistencies, placementOf, waitUntilSettled } from '../support/crash-consistency';
import { hostReportBody, hostname } from '../support/fleet';
import { type ClientFlow, drawKillMoment, killDuring, ledgerCaller, runBindFlow, runCleaners } from '../support/crash-flows';
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
/** In a fence cycle the kill comes 0 to this many ms after the log has the host's fence: the fence of its five devices takes about that long, so kills land inside it. */
const FENCE_KILL_EXTRA_MS = 30;
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
 * live requests hold, and every released FPGA handle was cleaned (the
 * hosts' clean jobs done by the test as their agents) before it was
 * offered again. Every second cycle an operator fences a host while
 * the clients bind, and the kill lands during the fence: after the restart
 * the fence has reached every device of the host and released every hold,
 * and every device is offered and clean or reserved with a reason, never
 * offered while fenced or dirty. The host is unfenced (what the fence
 * released is cleaned then) before the next cycle's flows start on the
 * restarted ledger.
 */
describe(`crash recovery of accelerator requests (embedded SQLite, ${CYCLES} cycles, seed ${SEED})`, () => {
  let dataDir: string;
  let ledger: LedgerProcess | undefined;
  /** The event store the ledger writes, read beside it: a device's own state is what its stream folds to. */
  let store: EventStore | undefined;
  // The FPGAs the clients bind clean after each release (test ledgers clean nothing unless told to).
  const env = () => ({ LEDGER_DATA_DIR: dataDir, LEDGER_AUTH_SECRET: SECRET, LEDGER_PROCESSOR_LEASE_MS: '2000', LEDGER_BIND_TIMEOUT_MS: '1500', LEDGER_CLEAN_DEVICE_TYPES: 'FPGA' });
  const call = ledgerCaller(() => ledger!.url);
  const getJson = async (path: string): Promise<any> => (await call('GET', path, admin)).json();

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-alloc-crash-'));
  });
  afterAll(async () => {
    await store?.close();
    await ledger?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'finishes every interrupted bind, claim and reservation after each restart',
    async () => {
      const random = mulberry32(SEED);
      ledger = await startLedgerProcess(env());
      const providers: string[] = [];
      const agents = Array.from({ length: HOSTS }, (_, i) => ({ hostname: hostname(i), token: codec.issue({ user: `agent:${hostname(i)}`, project: null, roles: ['agent'], host: hostname(i) }) }));
      for (const [i, agent] of agents.entries()) {
        expect((await call('PUT', `/api/v1/hosts/${agent.hostname}/report`, agent.token, hostReportBody(i, 0))).status).toBe(200);
        // A heartbeat, so the ledger takes clean jobs for the host (an hour's interval: never lost in the run).
        const beat = { agentVersion: '0.1.0', intervalSeconds: 3600, devices: [] };
        expect((await call('POST', `/api/v1/hosts/${agent.hostname}/heartbeat`, agent.token, beat)).status).toBe(200);
      }
      // The FPGAs clean after every release: the hosts' agents clean, across every kill.
      let cleanersStopped = false;
      const cleaners = runCleaners(() => ledger!.url, agents, () => cleanersStopped);
      const deployables = await getJson('/api/v1/deployables?resourceClass=FPGA&limit=100');
      providers.push(...deployables.items.map((d: { rpUuid: string }) => d.rpUuid));
      expect(providers).toHaveLength(HOSTS);
      expect((await call('POST', '/v2/device_profiles', admin, [{ name: 'fpga-dp', groups: [{ 'resources:FPGA': '1' }] }])).status).toBe(201);

      store = await openEventStore(eventStoreOptions(loadLedgerConfig(env())));
      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        const flow: ClientFlow = (client, stopped, bindAnswered) =>
          runBindFlow(call, nova, { profile: 'fpga-dp', hostname: hostname(client % HOSTS), rpUuid: providers[client % HOSTS], keep: client % 2 !== 0 }, stopped, bindAnswered);
        const fenced = cycle % 2 === 0 ? hostname(cycle % HOSTS) : null;
        let fence: Promise<unknown> | undefined;
        const moment = fenced
          ? {
              ...drawKillMoment(random, KILL_AFTER_BINDS, FENCE_KILL_EXTRA_MS),
              // The operator fences once the binds were answered; the kill follows once the log has the fence, while it reaches the devices.
              reached: async () => {
                fence ??= call('POST', `/api/v1/hosts/${fenced}/fence`, admin, { reason: `crash cycle ${cycle}` }).catch(() => undefined);
                return (await store!.readStream(hostStream(fenced))).some((event) => event.type === 'inventory.HostFenced');
              },
            }
          : drawKillMoment(random, KILL_AFTER_BINDS, KILL_EXTRA_MS);
        const answered = await killDuring(ledger, moment, CLIENTS, flow);
        await fence;
        if (fenced) fencesAtKill.push(await fenceAtKill(fenced));

        ledger = await startLedgerProcess(env());
        // The workflow runtime resumes interrupted binds from the log once its lease is free, the host-fence reactor an interrupted fence; wait for the outcome.
        await waitUntilConsistent(`cycle ${cycle} (${answered} binds answered before the kill${fenced ? `, ${fenced} fenced` : ''})`);
        // A kill before the fence was recorded leaves nothing to unfence (409).
        if (fenced) expect([200, 409]).toContain((await call('POST', `/api/v1/hosts/${fenced}/unfence`, admin)).status);
        await deleteEveryRequest(getJson, (path) => call('DELETE', path, nova));
        await waitUntilConsistent('after deleting every request');
      }
      cleanersStopped = true;
      const cleaned = await cleaners;
      if (process.env.CRASH_CYCLES) process.stdout.write(`allocation-crash: ${cleaned} clean jobs done; the kills left the fences ${fencesAtKill.join('; ')}\n`);
    },
    (60_000 + CYCLES * 45_000) / crashCpuShare(),
  );

  /** Where the kill left a fence, read from the log the dead ledger left: not recorded, or how many of the host's devices it had reached. */
  const fencesAtKill: string[] = [];
  const fenceAtKill = async (host: string): Promise<string> => {
    const history = (await store!.readStream(hostStream(host))) as unknown as Parameters<typeof hostFenceDecider.evolve>[1][];
    const { devices, fenced } = foldEvents(hostFenceDecider, hostFenceDecider.initialState(), history);
    if (!fenced) return 'not recorded';
    const reached = (await Promise.all([...devices].map(deviceState))).filter((device) => device.fenced).length;
    return `${reached} of ${devices.size} devices fenced`;
  };
  const deviceEvents = async (deviceUuid: string) => (await store!.readStream(deviceStream(deviceUuid))) as unknown as DeviceEvent[];
  const deviceState = async (deviceUuid: string) => foldEvents(deviceDecider, deviceDecider.initialState(), await deviceEvents(deviceUuid));
  const inconsistencies = async () => {
    const hosts = Array.from({ length: HOSTS }, (_, i) => hostname(i));
    const fencedProviders = new Set((await Promise.all(hosts.map((host) => placementOf(getJson, host)))).flat().filter((p) => p.reservedBecause.includes('fenced')).map((p) => p.uuid));
    return [...(await bindInconsistencies(getJson, 'tenant-c', 'FPGA', fencedProviders)), ...(await deviceInconsistencies(getJson, deviceEvents, hosts, new Set(['FPGA'])))];
  };
  const waitUntilConsistent = (what: string) => waitUntilSettled(what, inconsistencies, CONVERGE_MS, () => ledger!.output());
});
