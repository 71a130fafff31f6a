import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shippedPlaybookDir } from '../../../apps/agent/src/config/agent-config';
import { createDrivers } from '../../../apps/agent/src/drivers/create-drivers';
import { runCommand } from '../../../apps/agent/src/drivers/run-command';
import { Agent } from '../../../apps/agent/src/runtime/agent';
import type { AgentLogger } from '../../../apps/agent/src/runtime/agent-logger';
import { openEventStore, type RecordedEvent } from '@ledger/eventstore';
import { jobStream } from '@ledger/jobs';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { ADMIN, novaOf } from '../fixtures/cyborg-v2-flow';
import { JsonClient } from '../http/json-client';
import { type LedgerServer, onLedgerProcess } from '../http/ledger-server';
import { percentile } from '../measure/statistics';

const RECORD = 'partition_carve_bind_p50_ms';
const HOSTNAME = 'bench-mig';
const PROFILE = 'bench-mig-1g';
const RESOURCE_CLASS = 'CUSTOM_MIG_1G_10GB';
const TENANT = 'tenant-mig';
/** Timed binds, after WARMUP untimed ones: each carves a new 1g.10gb slice, and nothing reclaims them, so the host needs that many free. */
const SAMPLES = 30;
const WARMUP = 5;
/** An A100-like GPU in MIG mode holds seven 1g.10gb GPU instances. */
const ONE_G_PER_GPU = 7;
/** Any one wait (the agent's first report, a bind reaching Bound) that takes longer is a failure, not a slow sample. */
const WAIT_LIMIT_MS = 30_000;

interface Deployable {
  readonly name: string;
  readonly rpUuid: string;
  readonly count: number;
}

/**
 * Carving on demand (docs/partitions.md): a compiled ledger on its `npm
 * start` defaults (the embedded store) and, in this process, the agent as
 * main.ts builds it with the simulated driver's MIG GPUs at zero latency.
 * Each sample creates a request for `CUSTOM_MIG_1G_10GB` untimed, then
 * times Nova's bind to a GPU's room to carve (the bind workflow: set aside
 * the slice, the carve job through the agent's long poll, claim the new
 * partition, bound) until a GET shows it Bound.
 */
export const partitionCarveBench: BenchModule = {
  records: [{ name: RECORD, unit: 'ms', min: 0 }],
  run: (context) => onLedgerProcess(context, RECORD, (ledger) => measureCarveBinds(context, ledger)),
};

async function measureCarveBinds(context: BenchContext, ledger: LedgerServer): Promise<Measurement[]> {
  const stateDir = mkdtempSync(join(tmpdir(), 'ledger-bench-mig-'));
  const gpus = Math.ceil((SAMPLES + WARMUP) / ONE_G_PER_GPU);
  const agent = simulatedMigAgent(ledger, stateDir, gpus);
  const client = new JsonClient(ledger.url, 1);
  const admin = ledger.token(ADMIN);
  const nova = ledger.token(novaOf(TENANT));
  agent.start();
  try {
    const rooms = async (): Promise<Deployable[]> => {
      const reply = await client.expect(200, { method: 'GET', path: `/api/v1/deployables?hostname=${HOSTNAME}&resourceClass=${RESOURCE_CLASS}`, token: admin });
      return (JSON.parse(reply.text) as { items: Deployable[] }).items.filter((deployable) => deployable.name.endsWith('_1g.10gb_carvable') && deployable.count > 0);
    };
    await waitFor('the agent to report its MIG GPUs', async () => (await rooms()).length === gpus);
    await client.expect(201, { method: 'POST', path: '/v2/device_profiles', token: admin, body: [{ name: PROFILE, groups: [{ [`resources:${RESOURCE_CLASS}`]: '1' }] }] });
    const carvedOn = new Map<string, number>();
    const latencies: number[] = [];
    const timed: TimedBind[] = [];
    const cpuBefore = ledger.cpuSeconds();
    // LEDGER_BENCH_PROFILE_DIR: the ledger's CPU profile over the binds.
    await ledger.profiled(RECORD, async () => {
      for (let n = 0; n < WARMUP + SAMPLES; n++) {
        // Untimed: the request, and a room that still has a slice this run has not taken (the agent's fresh report after a carve may not be in yet).
        const created = await client.expect(201, { method: 'POST', path: '/v2/accelerator_requests', token: nova, body: { device_profile_name: PROFILE } });
        const arq = (JSON.parse(created.text) as { arqs: Array<{ uuid: string }> }).arqs[0].uuid;
        const room = (await rooms()).find((deployable) => (carvedOn.get(deployable.rpUuid) ?? 0) < ONE_G_PER_GPU);
        if (!room) throw new Error(`${RECORD}: no GPU has a 1g.10gb slice left after ${n} carves`);
        carvedOn.set(room.rpUuid, (carvedOn.get(room.rpUuid) ?? 0) + 1);
        const started = performance.now();
        const sentAt = wallClock();
        const bindOps = [
          { op: 'add', path: '/hostname', value: HOSTNAME },
          { op: 'add', path: '/device_rp_uuid', value: room.rpUuid },
          { op: 'add', path: '/instance_uuid', value: randomUUID() },
        ];
        await client.expect(202, { method: 'PATCH', path: '/v2/accelerator_requests', token: nova, body: { [arq]: bindOps } });
        const answeredAt = wallClock();
        await waitFor(`request ${arq} to be Bound`, async () => {
          const reply = await client.expect(200, { method: 'GET', path: `/v2/accelerator_requests/${arq}`, token: nova });
          const state = (JSON.parse(reply.text) as { state: string }).state;
          if (state !== 'Bound' && state !== 'BindStarted') throw new Error(`${RECORD}: request ${arq} went ${state} instead of Bound`);
          return state === 'Bound';
        });
        if (n >= WARMUP) {
          latencies.push(performance.now() - started);
          timed.push({ arq, sentAt, answeredAt, shownAt: wallClock() });
        }
      }
    });
    // Of every cycle, untimed parts too: creating the request, the agent's report after its carve, its heartbeats.
    const cpuPerCycleMs = ((ledger.cpuSeconds() - cpuBefore) * 1000) / (WARMUP + SAMPLES);
    const p50 = percentile(latencies, 50);
    const phases = await phasesOf(ledger, timed);
    context.progress(`${RECORD} ${p50.toFixed(3)} ms, p99 ${percentile(latencies, 99).toFixed(3)} ms (${SAMPLES} binds each carving a new 1g.10gb, one connection, zero-latency simulated carve)`);
    context.progress(`${RECORD} phases: ${phases}; the ledger's CPU ${cpuPerCycleMs.toFixed(1)} ms a cycle`);
    return [{ name: RECORD, value: p50, notes: `p50 of each phase: ${phases}; the ledger's CPU per cycle (request, bind, the agent's report after it): ${cpuPerCycleMs.toFixed(1)} ms` }];
  } finally {
    client.close();
    await agent.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** A timed bind, by this process's wall clock (ms, fractional). */
interface TimedBind {
  readonly arq: string;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly shownAt: number;
}

const wallClock = (): number => performance.timeOrigin + performance.now();

/**
 * Where a bind's time goes, from the times the ledger's store stamped on its
 * events as each append was asked (to the millisecond, before its commit)
 * and this process's own: the PATCH sent, the
 * workflow's start recorded, the bind started (request, quota and slices in
 * one append), the carve job requested, dispatched to the agent's poll, its
 * result recorded (with the carve's fact), the request Bound (with the
 * claim), the PATCH answered, the GET showing Bound. The p50 of each step.
 */
async function phasesOf(ledger: LedgerServer, binds: readonly TimedBind[]): Promise<string> {
  const store = await openEventStore({ kind: 'sqlite', file: join(ledger.dataDir, 'events.sqlite') });
  try {
    const at = (event: RecordedEvent | undefined): number => (event ? Date.parse(event.recordedAt) : Number.NaN);
    const steps = ['workflow start', 'bind started', 'job requested', 'dispatched', 'result', 'bound', 'PATCH answered', 'GET shown'];
    const spans: number[][] = steps.map(() => []);
    for (const bind of binds) {
      const arqEvents = await store.readStream(`arq-${bind.arq}`);
      const started = arqEvents.find((event) => event.type === 'allocation.ArqBindStarted');
      const bindId = (started?.data as { bindId?: string; deviceUuid?: string } | undefined)?.bindId;
      const deviceUuid = (started?.data as { deviceUuid?: string } | undefined)?.deviceUuid;
      if (!bindId || !deviceUuid) continue;
      const [workflowStart] = await store.readStream(`workflow-bind-${bindId}`, { max: 1 });
      const carved = (await store.readStream(`device-${deviceUuid.toLowerCase()}`)).find(
        (event) => event.type === 'inventory.PartitionCarved' && (event.data as { bindId?: string }).bindId === bindId,
      );
      const job = carved ? await store.readStream(jobStream((carved.data as { jobId: string }).jobId)) : [];
      const times = [
        bind.sentAt,
        at(workflowStart),
        at(started),
        at(job.find((event) => event.type === 'jobs.JobRequested')),
        at(job.find((event) => event.type === 'jobs.JobDispatched')),
        at(job.find((event) => event.type === 'jobs.JobCompleted')),
        at(arqEvents.find((event) => event.type === 'allocation.ArqBound')),
        bind.answeredAt,
        bind.shownAt,
      ];
      steps.forEach((_, index) => spans[index].push(times[index + 1] - times[index]));
    }
    return steps.map((step, index) => `${step} +${percentile(spans[index].filter(Number.isFinite), 50).toFixed(1)}`).join(', ');
  } finally {
    await store.close();
  }
}

/** The agent as main.ts builds it, in this process, with `gpus` simulated GPUs in MIG mode and nothing else. */
function simulatedMigAgent(ledger: LedgerServer, stateDir: string, gpus: number): Agent {
  const quiet: AgentLogger = { log: () => undefined, warn: () => undefined, error: (message) => process.stderr.write(`bench agent: ${message}\n`) };
  const playbookDir = shippedPlaybookDir();
  const drivers = createDrivers(
    { drivers: ['simulated'], driverSettings: { simulated: { fpgas: 0, gpus, nics: 0, gpuMig: true } }, hostname: HOSTNAME, stateDir, playbookDir },
    { sysfsRoot: join(stateDir, 'no-sysfs'), logger: quiet, runCommand, fetch },
  );
  const token = ledger.token({ user: `agent:${HOSTNAME}`, project: null, roles: ['agent'], host: HOSTNAME });
  return new Agent(
    {
      ledgerUrls: [ledger.url.toString().replace(/\/$/, '')],
      token,
      hostname: HOSTNAME,
      stateDir,
      reportIntervalSeconds: 3600,
      heartbeatIntervalSeconds: 1,
      playbookDir,
      ansiblePlaybook: 'ansible-playbook',
      sandboxRoot: join(stateDir, 'sandbox'),
    },
    { drivers, logger: quiet },
  );
}

/** Polls `done` until it holds, failing after WAIT_LIMIT_MS: a bench that stalls says what it waited for instead of printing nothing. */
async function waitFor(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + WAIT_LIMIT_MS;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`${RECORD}: waited ${WAIT_LIMIT_MS} ms for ${what}`);
  }
}
