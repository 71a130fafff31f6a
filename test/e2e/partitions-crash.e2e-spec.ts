import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventStoreOptions, loadLedgerConfig } from '@ledger/config';
import { openEventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { mulberry32 } from '../../apps/agent/src/drivers/simulated/seeded-random';
import type { AgentProcess } from '../support/agent-process';
import { crashCpuShare } from '../support/cpu-share';
import { type BindableProviders, bindInconsistencies, deleteEveryRequest, waitUntilSettled } from '../support/crash-consistency';
import { type ClientFlow, drawKillMoment, killDuring, ledgerCaller, runBindFlow } from '../support/crash-flows';
import { startLedgerProcess, type LedgerProcess } from '../support/ledger-process';
import { startSimulatedAgent } from '../support/simulated-agent';
import { liveArqsOf, strandedPartitionsOn } from '../support/stranded-partitions';

const SECRET = 'partitions-crash-signing-key-0123456789';
const PROJECT = 'tenant-mig-crash';
const RESOURCE_CLASS = 'CUSTOM_MIG_1G_10GB';
const PROFILE = 'mig-crash-1g';
/** Kill-restart cycles: three in CI, `CRASH_CYCLES=50` for the long run docs/testing.md describes. */
const CYCLES = Number(process.env.CRASH_CYCLES ?? 3);
/** Each cycle ends with every request deleted and every partition reclaimed (LEDGER_PARTITION_RECLAIM=idle:0), so two hosts serve any number of cycles. */
const HOSTS = ['mig-crash-0', 'mig-crash-1'];
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
const KILL_AFTER_BINDS = 3;
const KILL_EXTRA_MS = 400;
/** The kill after the deletes lands within this of their answer: while the idle partitions' reclaims claim and destroy them. */
const RECLAIM_KILL_EXTRA_MS = 300;
const CONVERGE_MS = 45_000;
/** An A100-like GPU in MIG mode holds seven 1g.10gb GPU instances. */
const ONE_G_PER_GPU = 7;
/**
 * Each host's GPUs in MIG mode, with carves slow enough that kills land
 * while a GPU instance is being made, and some carves failing (their binds
 * are undone).
 */
const SIMULATED = { fpgas: 0, gpus: 16, nics: 0, gpuMig: true, latencyMs: { carve: 100, destroy: 50 }, failureRate: { carve: 0.2 } };
const codec = new TokenCodec(SECRET);
const admin = codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
const nova = codec.issue({ user: 'nova', project: PROJECT, roles: ['member', 'service'] });

/**
 * Kills the ledger (SIGKILL) at random moments while Nova's clients bind
 * requests for a MIG profile to GPUs' rooms to carve (each bind carves a
 * GPU instance through a real simulated agent process), restarts it, and
 * checks after each restart that nothing is stranded (docs/partitions.md):
 * the binds settled as the other crash suites check them, every partition
 * the devices' streams say was carved reported, held only by a live request,
 * no slice set aside for a bind that ended, and each GPU's room exactly the
 * seven 1g.10gb slices less those carved. Then it deletes every request,
 * which makes each partition idle (LEDGER_PARTITION_RECLAIM=idle:0), kills
 * the ledger again while the reclaims claim and destroy them, and checks
 * after the restart that no handle stays held for a reclaim and every
 * partition was reclaimed: each GPU's room whole again.
 */
describe(`crash recovery of carving binds (real simulated MIG agents, ${CYCLES} cycles, seed ${SEED})`, () => {
  let dataDir: string;
  let ledger: LedgerProcess | undefined;
  const agents: AgentProcess[] = [];
  const env = () => ({
    LEDGER_DATA_DIR: dataDir,
    LEDGER_AUTH_SECRET: SECRET,
    LEDGER_PROCESSOR_LEASE_MS: '2000',
    LEDGER_BIND_TIMEOUT_MS: '5000',
    LEDGER_PARTITION_RECLAIM: 'idle:0',
  });
  const call = ledgerCaller(() => ledger!.url);
  const getJson = async (path: string): Promise<any> => (await call('GET', path, admin)).json();
  const rooms = async (hostname: string): Promise<{ rpUuid: string; deviceUuid: string; count: number; name: string }[]> =>
    ((await getJson(`/api/v1/deployables?hostname=${hostname}&resourceClass=${RESOURCE_CLASS}&limit=1000`)).items ?? []).filter((d: { name: string }) => d.name.endsWith('_1g.10gb_carvable'));

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ledger-partitions-crash-'));
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop('SIGKILL')));
    await ledger?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(
    'leaves no partition stranded and every GPU\'s room exact after each restart',
    async () => {
      const random = mulberry32(SEED);
      ledger = await startLedgerProcess(env());
      for (const hostname of HOSTS) {
        const token = codec.issue({ user: `agent:${hostname}`, project: null, roles: ['agent'], host: hostname });
        agents.push(await startSimulatedAgent({ ledgerUrl: ledger.url, token, hostname, dir: dataDir, simulated: { ...SIMULATED, seed: `${SEED}-${hostname}` } }));
      }
      for (const hostname of HOSTS) await eventually(async () => (await getJson(`/api/v1/hosts/${hostname}`)).agentStatus === 'up');
      for (const hostname of HOSTS) await eventually(async () => (await rooms(hostname)).length === SIMULATED.gpus);
      expect((await call('POST', '/v2/device_profiles', admin, [{ name: PROFILE, groups: [{ [`resources:${RESOURCE_CLASS}`]: '1' }] }])).status).toBe(201);

      for (let cycle = 1; cycle <= CYCLES; cycle++) {
        // Each client binds to the room of one GPU that still has slices, on its own host.
        const targets = await Promise.all(HOSTS.map(async (hostname) => ({ hostname, rooms: (await rooms(hostname)).filter((room) => room.count > 0) })));
        const flow: ClientFlow = async (client, stopped, bindAnswered) => {
          const { hostname, rooms: open } = targets[client % HOSTS.length];
          const room = open[Math.floor(client / HOSTS.length) % Math.max(open.length, 1)];
          if (!room) return;
          return runBindFlow(call, nova, { profile: PROFILE, hostname, rpUuid: room.rpUuid, keep: client % 2 === 1 }, stopped, bindAnswered);
        };
        await killDuring(ledger, drawKillMoment(random, KILL_AFTER_BINDS, KILL_EXTRA_MS), 4, flow);
        ledger = await startLedgerProcess(env(), { port: ledger.port });
        await waitUntilConsistent(`cycle ${cycle}`);
        const deleteAll: ClientFlow = async (_client, _stopped, answered) => {
          await deleteEveryRequest(getJson, (path) => call('DELETE', path, nova));
          answered();
        };
        await killDuring(ledger, { afterBinds: 1, extraMs: Math.floor(random() * RECLAIM_KILL_EXTRA_MS) }, 1, deleteAll);
        ledger = await startLedgerProcess(env(), { port: ledger.port });
        await waitUntilConsistent(`cycle ${cycle}, after deleting every request and a kill while reclaiming`, { reclaimed: true });
      }
    },
    (90_000 + CYCLES * 60_000) / crashCpuShare(),
  );

  const waitUntilConsistent = (what: string, expect: { readonly reclaimed?: boolean } = {}) =>
    waitUntilSettled(
      what,
      async () => [...(await bindInconsistencies(getJson, PROJECT, RESOURCE_CLASS, new Set(), await carvedInRoom())), ...(await partitionInconsistencies(expect.reclaimed ?? false))],
      CONVERGE_MS,
      () => ledger!.output(),
    );

  /** A bind to a GPU's room ends holding the partition it carved there: the request names the room's provider, the handle is the partition's. */
  async function carvedInRoom(): Promise<BindableProviders> {
    const roomOf = new Map<string, string>();
    for (const hostname of HOSTS) for (const room of await rooms(hostname)) roomOf.set(room.deviceUuid, room.rpUuid);
    return (deployable) => [deployable.rpUuid, roomOf.get(deployable.deviceUuid) ?? deployable.rpUuid];
  }

  /**
   * The never-stranded check over the log (read beside the running ledger;
   * no reclaim is live once settled), and each GPU's room against what its
   * agent reports carved; `reclaimed`: nothing is carved any more.
   */
  async function partitionInconsistencies(reclaimed: boolean): Promise<string[]> {
    const liveArqs = liveArqsOf((await getJson('/v2/accelerator_requests')).arqs);
    const store = await openEventStore(eventStoreOptions(loadLedgerConfig(env())));
    const problems: string[] = [];
    try {
      for (const hostname of HOSTS) problems.push(...(await strandedPartitionsOn(store, hostname, liveArqs)));
    } finally {
      await store.close();
    }
    for (const hostname of HOSTS) {
      const carved = ((await getJson(`/api/v1/deployables?hostname=${hostname}&resourceClass=${RESOURCE_CLASS}&limit=1000`)).items ?? []).filter((d: { name: string }) => !d.name.endsWith('_carvable'));
      for (const room of await rooms(hostname)) {
        const onDevice = carved.filter((d: { deviceUuid: string }) => d.deviceUuid === room.deviceUuid).length;
        if (room.count !== ONE_G_PER_GPU - onDevice) problems.push(`${room.name} offers ${room.count} with ${onDevice} carved, not ${ONE_G_PER_GPU - onDevice}`);
        if (reclaimed && onDevice > 0) problems.push(`${room.name}: ${onDevice} partition(s) still carved after every request was deleted`);
      }
    }
    return problems;
  }
});
