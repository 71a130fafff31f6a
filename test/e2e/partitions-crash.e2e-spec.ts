import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenCodec } from '@ledger/auth';
import { eventStoreOptions, loadLedgerConfig } from '@ledger/config';
import { openEventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { mulberry32 } from '../../apps/agent/src/drivers/simulated/seeded-random';
import type { AgentProcess } from '../support/agent-process';
import { type AgentKill, type AgentKillMoment, killAgentAt } from '../support/agent-kills';
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
/** An agent is killed after its 1st or 2nd carve of the cycle started, then 0 to 130 ms on: before the GPU instance is made (50 ms in), after it and before the answer, or after. */
const AGENT_KILL_AFTER_CARVES = 2;
const AGENT_KILL_CARVE_EXTRA_MS = 130;
/** While reclaiming: after its 1st to 3rd destroy started, then 0 to 70 ms on (the MIG device goes 25 ms in). */
const AGENT_KILL_AFTER_DESTROYS = 3;
const AGENT_KILL_DESTROY_EXTRA_MS = 70;
/** An A100-like GPU in MIG mode holds seven 1g.10gb GPU instances. */
const ONE_G_PER_GPU = 7;
/** What a 1g.10gb partition charges to capacity quota while bound. */
const PARTITION_MEMORY_GIB = 10;
/**
 * Each host's GPUs in MIG mode, with carves slow enough that kills land
 * while a GPU instance is being made (the simulated GPU changes halfway
 * through an operation's latency), and some carves failing (their binds
 * are undone). The MIG layout outlives a killed agent, as a real GPU's does.
 */
const SIMULATED = { fpgas: 0, gpus: 16, nics: 0, gpuMig: true, persistMig: true, latencyMs: { carve: 100, destroy: 50 }, failureRate: { carve: 0.2 } };
const codec = new TokenCodec(SECRET);
const admin = codec.issue({ user: 'admin', project: 'admin', roles: ['admin'] });
const nova = codec.issue({ user: 'nova', project: PROJECT, roles: ['member', 'service'] });

/**
 * Kills the ledger (SIGKILL) at random moments while Nova's clients bind
 * requests for a MIG profile to GPUs' rooms to carve (each bind carves a
 * GPU instance through a real simulated agent process), and one host's
 * agent at a random moment of a carve, restarts both, and
 * checks after each restart that nothing is stranded (docs/partitions.md):
 * the binds settled as the other crash suites check them, every partition
 * the devices' streams say was carved reported, held only by a live request,
 * no slice set aside for a bind that ended, and each GPU's room exactly the
 * seven 1g.10gb slices less those carved. Then it deletes every request,
 * which makes each partition idle (LEDGER_PARTITION_RECLAIM=idle:0), kills
 * the ledger again while the reclaims claim and destroy them, and checks
 * after the restart that no handle stays held for a reclaim and every
 * partition was reclaimed: each GPU's room whole again. An agent is killed
 * and restarted there too, at a random moment of a destroy.
 */
describe(`crash recovery of carving binds (real simulated MIG agents, ${CYCLES} cycles, seed ${SEED})`, () => {
  let dataDir: string;
  let ledger: LedgerProcess | undefined;
  const agents: AgentProcess[] = [];
  const agentKills: { phase: string; kill: AgentKill }[] = [];
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
      for (const hostname of HOSTS) agents.push(await startAgent(hostname));
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
        const carving: AgentKillMoment = { kind: 'carve', afterStarts: 1 + Math.floor(random() * AGENT_KILL_AFTER_CARVES), extraMs: Math.floor(random() * AGENT_KILL_CARVE_EXTRA_MS) };
        // The carves are in flight while the clients bind: an agent not killed by the ledger's kill is killed then.
        await killAgentWhile(HOSTS.length - 1 - (cycle % HOSTS.length), carving, 'binding', () => killDuring(ledger!, drawKillMoment(random, KILL_AFTER_BINDS, KILL_EXTRA_MS), 4, flow));
        ledger = await startLedgerProcess(env(), { port: ledger.port });
        await waitUntilConsistent(`cycle ${cycle}`);
        const deleteAll: ClientFlow = async (_client, _stopped, answered) => {
          await deleteEveryRequest(getJson, (path) => call('DELETE', path, nova));
          answered();
        };
        const reclaiming: AgentKillMoment = { kind: 'destroy', afterStarts: 1 + Math.floor(random() * AGENT_KILL_AFTER_DESTROYS), extraMs: Math.floor(random() * AGENT_KILL_DESTROY_EXTRA_MS) };
        const reclaimKill = { afterBinds: 1, extraMs: Math.floor(random() * RECLAIM_KILL_EXTRA_MS) };
        // The destroys run before the ledger's kill and after its restart (the reclaims resume): the agent's kill may land in either.
        await killAgentWhile(cycle % HOSTS.length, reclaiming, 'reclaiming', async () => {
          await killDuring(ledger!, reclaimKill, 1, deleteAll);
          ledger = await startLedgerProcess(env(), { port: ledger!.port });
          await waitUntilConsistent(`cycle ${cycle}, after deleting every request and a kill while reclaiming`, { reclaimed: true });
        });
        await waitUntilConsistent(`cycle ${cycle}, after the agent's kill while reclaiming`, { reclaimed: true });
      }
      // A passing CI run prints nothing; a person's long run (CRASH_CYCLES set) gets its tally.
      if (process.env.CRASH_CYCLES) {
        const midJob = (phase: string) => agentKills.filter((entry) => entry.phase === phase && entry.kill.unanswered.length > 0).length;
        process.stdout.write(
          `partitions-crash: ${agentKills.length} agent kills over ${CYCLES} cycles: ${midJob('binding')} with a carve unanswered, ${midJob('reclaiming')} with a destroy unanswered\n`,
        );
      }
    },
    (90_000 + CYCLES * 60_000) / crashCpuShare(),
  );

  function startAgent(hostname: string): Promise<AgentProcess> {
    const token = codec.issue({ user: `agent:${hostname}`, project: null, roles: ['agent'], host: hostname });
    // The same state directory: its unsent results and its GPUs' MIG layout survive the kill.
    return startSimulatedAgent({ ledgerUrl: ledger!.url, token, hostname, dir: dataDir, simulated: { ...SIMULATED, seed: `${SEED}-${hostname}` } });
  }

  /**
   * Runs `work` while the agent of `HOSTS[host]` is SIGKILLed at `moment`
   * (or once `work` is done, when the moment did not come), then starts
   * that agent again with the same state directory.
   */
  async function killAgentWhile(host: number, moment: AgentKillMoment, phase: string, work: () => Promise<unknown>): Promise<void> {
    let done = false;
    const agentKill = killAgentAt(agents[host], moment, () => done).then(async (kill) => {
      agentKills.push({ phase, kill });
      agents[host] = await startAgent(HOSTS[host]);
    });
    await Promise.all([work().finally(() => (done = true)), agentKill]);
  }

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
    // Each live request holds its 1g.10gb partition's memory of capacity quota, whether its bind carved it or found it (docs/partitions.md, "Capacity").
    const memoryGiB = (await getJson(`/api/v1/quotas/${PROJECT}`)).usage?.['capacity:memoryGiB'] ?? 0;
    if (memoryGiB !== PARTITION_MEMORY_GIB * liveArqs.size) problems.push(`capacity quota in use ${memoryGiB} GiB, ${liveArqs.size} live request(s) of ${PARTITION_MEMORY_GIB} GiB`);
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
