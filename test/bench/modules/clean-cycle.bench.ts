import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@ledger/eventstore';
import { inProcessSimulatedAgent } from '../../support/in-process-agent';
import { startTestLedger, type TestLedger } from '../../support/ledger-app';
import type { BenchModule, Measurement } from '../bench-module';
import { cleanJobId } from '@ledger/inventory/job-facts';
import { jobStream } from '@ledger/jobs';
import { percentile } from '../measure/statistics';

const HOST = 'bench-clean';
/** Cycles measured (after WARMUP): each binds, unbinds and waits for the clean. */
const CYCLES = 60;
const QUICK_CYCLES = 6;
const WARMUP = 3;
/** How often the device's stream is re-read while a clean runs: the figure comes from the events' own times, not from this. */
const POLL_MS = 2;

/**
 * `clean_cycle_ms`: a GPU released by a tenant's unbind until it is offered
 * again, with the agent as main.ts builds it (in this process) and the
 * simulated driver's clean at zero latency. Measured on the device's own
 * stream: the time the store recorded the DeviceCleaned minus the time it
 * recorded the AttachHandleReleased (the same clock, one append each), so
 * the ledger's path is measured (reactor → job → agent's long poll →
 * driver → result → job-facts reactor → device stream) and not the
 * bench's polling. Embedded SQLite only: the path is the same on every store.
 */
export const cleanCycleBench: BenchModule = {
  records: [
    { name: 'clean_cycle_ms', unit: 'ms', min: 0 },
    { name: 'clean_cycle_p99_ms', unit: 'ms', min: 0 },
  ],
  async run(context, wanted) {
    if (context.target.name !== 'sqlite') {
      context.progress('clean_cycle: skipped; measured on the embedded store (sqlite pass)');
      return [];
    }
    const ledger = await startTestLedger({ LEDGER_CLEAN_DEVICE_TYPES: 'GPU' });
    const stateDir = mkdtempSync(join(tmpdir(), 'bench-clean-'));
    const token = ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST });
    const logger = { log: () => undefined, warn: () => undefined, error: () => undefined };
    const { agent } = inProcessSimulatedAgent({ ledgerUrls: [ledger.url], token, hostname: HOST, stateDir, simulated: { fpgas: 0, gpus: 1, nics: 0 }, logger });
    agent.start();
    try {
      const cycles = context.sizes.httpSamples >= 1000 ? CYCLES : QUICK_CYCLES;
      const { samples, phases } = await measureCycles(ledger, cycles);
      const p50 = percentile(samples, 50);
      const phase = (name: keyof Phases) => percentile(phases.map((cycle) => cycle[name]), 50).toFixed(1);
      context.progress(
        `clean_cycle phases (p50 ms from the release): job requested ${phase('requested')}, dispatched ${phase('dispatched')}, completed ${phase('completed')}, cleaned ${phase('cleaned')}`,
      );
      const p99 = percentile(samples, 99);
      context.progress(`clean_cycle p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (${samples.length} unbind → cleaned cycles of one GPU)`);
      const results: Measurement[] = [
        { name: 'clean_cycle_ms', value: p50, notes: `p50 of ${samples.length} cycles, release to DeviceCleaned on the device stream, zero-latency simulated clean` },
        { name: 'clean_cycle_p99_ms', value: p99 },
      ];
      return results.filter((measurement) => wanted.has(measurement.name));
    } finally {
      await agent.stop();
      await ledger.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  },
};

/** When each step of a cycle was recorded, in ms after the release: where the time goes. */
interface Phases {
  readonly requested: number;
  readonly dispatched: number;
  readonly completed: number;
  readonly cleaned: number;
}

async function measureCycles(ledger: TestLedger, cycles: number): Promise<{ samples: number[]; phases: Phases[] }> {
  const store: EventStore = ledger.app.get(EVENT_STORE);
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });
  const nova = ledger.token({ user: 'nova', project: 'bench', roles: ['member', 'service'] });
  await admin('POST', '/v2/device_profiles', [{ name: 'gpu-dp', groups: [{ 'resources:PGPU': '1' }] }]);
  const gpu = await until(async () => (await admin('GET', `/api/v1/devices?hostname=${HOST}`)).body?.items?.[0] as { uuid: string } | undefined);
  await until(async () => ((await admin('GET', `/api/v1/hosts/${HOST}/telemetry`)).body?.agentVersion ? true : undefined));
  const headers = { 'x-ledger-min-position': String(await store.headPosition()) };
  const rp: string = (await ledger.request('GET', `/api/v1/hosts/${HOST}/placement`, { token: ledger.adminToken, headers })).body.providers[0].uuid;
  const samples: number[] = [];
  const phases: Phases[] = [];
  for (let cycle = 0; cycle < WARMUP + cycles; cycle++) {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova, body: { device_profile_name: 'gpu-dp' } });
    const uuid: string = created.body.arqs[0].uuid;
    const bind = [
      { op: 'add', path: '/hostname', value: HOST },
      { op: 'add', path: '/device_rp_uuid', value: rp },
      { op: 'add', path: '/instance_uuid', value: crypto.randomUUID() },
    ];
    const bound = await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova, body: { [uuid]: bind } });
    if (bound.status !== 202) throw new Error(`bind ${cycle} answered ${bound.status}: ${JSON.stringify(bound.body)}`);
    const before = (await store.readStream(`device-${gpu.uuid}`)).length;
    const unbind = ['/hostname', '/device_rp_uuid', '/instance_uuid'].map((path) => ({ op: 'remove', path }));
    const unbound = await ledger.request('PATCH', '/v2/accelerator_requests', { token: nova, body: { [uuid]: unbind } });
    if (unbound.status !== 202) throw new Error(`unbind ${cycle} answered ${unbound.status}: ${JSON.stringify(unbound.body)}`);
    const events = await until(async () => {
      const after = ((await store.readStream(`device-${gpu.uuid}`)) as RecordedEvent[]).slice(before);
      return after.some((event) => event.type === 'inventory.DeviceCleaned' || event.type === 'inventory.DeviceCleanFailed') ? after : undefined;
    }, POLL_MS);
    const released = events.find((event) => event.type === 'inventory.AttachHandleReleased')!;
    const cleaned = events.find((event) => event.type === 'inventory.DeviceCleaned');
    if (!cleaned) throw new Error(`clean ${cycle} failed: ${JSON.stringify(events.at(-1)?.data)}`);
    if (cycle < WARMUP) continue;
    const since = (event: RecordedEvent | undefined) => (event ? Date.parse(event.recordedAt) - Date.parse(released.recordedAt) : Number.NaN);
    const started = events.find((event) => event.type === 'inventory.DeviceCleaningStarted')!.data as { attempt: number };
    const job = await store.readStream(jobStream(cleanJobId(gpu.uuid, started.attempt)));
    const of = (type: string) => job.find((event) => event.type === type);
    phases.push({ requested: since(of('jobs.JobRequested')), dispatched: since(of('jobs.JobDispatched')), completed: since(of('jobs.JobCompleted')), cleaned: since(cleaned) });
    samples.push(since(cleaned));
  }
  return { samples, phases };
}

/** Re-checks `probe` until it answers something; a minute at most. */
async function until<T>(probe: () => Promise<T | undefined>, pollMs = 20): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('clean_cycle: timed out waiting for the ledger');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
