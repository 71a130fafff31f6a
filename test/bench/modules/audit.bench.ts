import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EventStore, openEventStore, verifyStoreLog, verifyThreadCount } from '@ledger/eventstore';
import { deviceUuidOf } from '@ledger/inventory';
import { AsOfRebuilds, openSqliteSqlDatabase, ReadModelSnapshots, rebuildProcessor, SnapshotFiles, SnapshotTaker, type SqlDatabase } from '@ledger/processing';
import { computeUsageReport, DeviceHistoryQueries, deviceHistoryProjection, resolveUsageWindow } from '@ledger/projections/device-history';
import { InventoryQueries, inventoryProjection } from '@ledger/projections/inventory';
import { appendTwoTenancies } from '../../../projections/device-history/testing/tenancy-history';
import { hostname } from '../../support/fleet';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { writeInventoryHistory } from '../fixtures/inventory-log';
import { percentile, perSecond } from '../measure/statistics';
import { sequentialLatencies } from '../measure/sequential-latency';

/** LEDGER_SNAPSHOT_EVERY_EVENTS's default: the snapshots `as_of_first_1m_ms` finds were taken this far apart. */
const SNAPSHOT_EVERY_EVENTS = 25_000;
/** The fleet's history yields about this many events a host over four reports (59,200 from 4,000 hosts). */
const EVENTS_PER_HOST = 14.8;
/**
 * The auditor's tools over a long log (about `sizes.auditEvents`, 1,000,000
 * by default): the inventory fleet's history written by the real deciders,
 * plus two tenancies of one FPGA. `audit_verify_per_s` verifies the whole
 * chain as `audit verify` does (ranges on worker threads, one per core); `audit_replay_1m_s` rebuilds the inventory
 * as of the head into an in-memory SQLite, as `audit replay` and `?asOf=`
 * do; `who_held_ms` is the tenancy query on the device-history read model
 * built over that log (its build time goes in the record's notes);
 * `usage_report_1m_ms` is a signed usage report of the month before the
 * head for every project, as GET /api/v1/usage computes it on that model;
 * `as_of_first_1m_ms` is the first as-of read of the inventory at a random
 * position, with the snapshots a ledger takes as the log grows (taken
 * first, untimed; how long they took goes in the notes).
 */
export const auditBench: BenchModule = {
  records: [
    { name: 'audit_verify_per_s', unit: 'events/s' },
    { name: 'audit_replay_1m_s', unit: 's', digits: 2, min: 0 },
    { name: 'who_held_ms', unit: 'ms', min: 0 },
    { name: 'usage_report_1m_ms', unit: 'ms', min: 0 },
    { name: 'as_of_first_1m_ms', unit: 'ms', min: 0 },
  ],
  async run(context, wanted) {
    const kept = process.env.LEDGER_BENCH_AUDIT_LOG;
    if (kept) return measureKeptLog(context, kept, wanted);
    const { store, events, device } = await auditLog(context);
    const results: Measurement[] = [];
    if (wanted.has('audit_verify_per_s')) results.push(await verifyRate(context, store, events));
    if (wanted.has('audit_replay_1m_s')) results.push(await replaySeconds(context, store, events));
    if (wanted.has('as_of_first_1m_ms')) results.push(await firstAsOfLatency(context, store, events));
    if (wanted.has('who_held_ms') || wanted.has('usage_report_1m_ms')) {
      const history = await deviceHistory(context, store);
      try {
        if (wanted.has('who_held_ms')) results.push(await whoHeldLatency(context, history, device));
        if (wanted.has('usage_report_1m_ms')) results.push(await usageReportLatency(context, history, store));
      } finally {
        await history.db.close();
      }
    }
    return results;
  },
};

async function auditLog(context: BenchContext): Promise<{ store: EventStore; events: number; device: string }> {
  const store = await context.target.openEventStore('audit');
  const hosts = Math.ceil(context.sizes.auditEvents / EVENTS_PER_HOST);
  const started = performance.now();
  await writeInventoryHistory(store, { ...context.sizes, hosts });
  const device = deviceUuidOf(hostname(0), '0000:5e:00.0');
  await appendTwoTenancies(store, { device, deployable: `${device.slice(0, -4)}d0d0`, handle: `${device.slice(0, -4)}a0a0` });
  const events = await store.headPosition();
  context.progress(`audit log: ${events} events from ${hosts} hosts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return { store, events, device };
}

/** What a kept log can measure: the records that need nothing but the log (who_held and usage need the two tenancies the module appends). */
const KEPT_LOG_RECORDS: ReadonlySet<string> = new Set(['audit_verify_per_s', 'audit_replay_1m_s', 'as_of_first_1m_ms']);

/**
 * LEDGER_BENCH_AUDIT_LOG: an SQLite event store already holding the log (one
 * a bench or `ledgerctl` left, say), read in place and left as it was:
 * writing 1,000,000 events through the deciders takes tens of minutes on a
 * busy machine, which records measured a few times need not pay again.
 */
async function measureKeptLog(context: BenchContext, file: string, wanted: ReadonlySet<string>): Promise<Measurement[]> {
  if ([...wanted].some((name) => !KEPT_LOG_RECORDS.has(name))) {
    throw new Error(`LEDGER_BENCH_AUDIT_LOG measures ${[...KEPT_LOG_RECORDS].join(', ')} only (--only)`);
  }
  const store = await openEventStore({ kind: 'sqlite', file });
  try {
    const events = await store.headPosition();
    context.progress(`audit log: ${events} events kept in ${file}`);
    const results: Measurement[] = [];
    if (wanted.has('audit_verify_per_s')) results.push(await verifyRate(context, store, events));
    if (wanted.has('audit_replay_1m_s')) results.push(await replaySeconds(context, store, events));
    if (wanted.has('as_of_first_1m_ms')) results.push(await firstAsOfLatency(context, store, events));
    return results;
  } finally {
    await store.close();
  }
}

/** Verifies as `audit verify` does (verifyStoreLog): ranges on one worker thread per core where the store is a file, else one walk on this thread. */
async function verifyRate(context: BenchContext, store: EventStore, events: number): Promise<Measurement> {
  const threads = store.location?.() ? verifyThreadCount(undefined, events) : 1;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const verdict = await verifyStoreLog(store, [], undefined, { head: events });
  const value = perSecond(events, performance.now() - started);
  // Process-wide, so the workers' CPU too: on a machine others load, what the verify itself costs.
  const { user, system } = process.cpuUsage(cpu);
  const cpuMicrosPerEvent = (user + system) / events;
  if (!verdict.ok) throw new Error(`audit_verify: chain broken at ${verdict.firstBreak?.position}: ${verdict.firstBreak?.detail}`);
  context.progress(`audit_verify_per_s ${Math.round(value)} events/s (${events} events, ${threads} thread(s), ${cpuMicrosPerEvent.toFixed(2)} µs of CPU an event)`);
  const form = store.readAllStored ? 'stored text' : 'decoded events';
  const how = threads > 1 ? `${threads} ranges checked by ${threads} worker threads (one per core) and joined` : 'one walk on the main thread';
  return { name: 'audit_verify_per_s', value, notes: `${events} events as ${form}, ${how} (verifyStoreLog); ${cpuMicrosPerEvent.toFixed(2)} µs of CPU an event, all threads` };
}

async function replaySeconds(context: BenchContext, store: EventStore, events: number): Promise<Measurement> {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  const started = performance.now();
  const cpu = process.cpuUsage();
  const progress = await rebuildProcessor(store, db, inventoryProjection);
  const value = (performance.now() - started) / 1000;
  // The process's CPU beside the wall time: on a machine others load, what the replay itself costs.
  const { user, system } = process.cpuUsage(cpu);
  const cpuSeconds = ((user + system) / 1e6).toFixed(1);
  await db.close();
  context.progress(`audit_replay_1m_s ${value.toFixed(2)} s, ${cpuSeconds} CPU-s (${progress.applied} inventory events applied of ${events})`);
  return { name: 'audit_replay_1m_s', value, notes: `inventory as of the head of ${events} events (${progress.applied} applied) into :memory:; ${cpuSeconds} s of CPU` };
}

/** Snapshots taken over the log as a ledger takes them (SnapshotTaker), then one as-of read at a random position through AsOfRebuilds, as `?asOf=` serves it. */
async function firstAsOfLatency(context: BenchContext, store: EventStore, events: number): Promise<Measurement> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-snapshots-'));
  try {
    const snapshots = new ReadModelSnapshots(store, new SnapshotFiles(directory));
    const taker = new SnapshotTaker({ store, snapshots, processors: [inventoryProjection], everyEvents: SNAPSHOT_EVERY_EVENTS, everyMs: 0, batchSize: 50_000 });
    const takeStarted = performance.now();
    const taken = await taker.takeDue();
    const takeSeconds = (performance.now() - takeStarted) / 1000;
    // Written by SQLite's backup, a snapshot never sits whole in this process: its peak stays near one read model, not one per snapshot.
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    const snapshotGb = (taken.reduce((sum, file) => sum + statSync(file.path).size, 0) / 2 ** 30).toFixed(1);
    await taker.close();
    const position = 1 + Math.floor(Math.random() * events);
    const rebuilds = new AsOfRebuilds(store, 4, snapshots);
    const started = performance.now();
    const startedCpu = process.cpuUsage();
    const { answer } = await rebuilds.read(inventoryProjection, { position }, (db) => new InventoryQueries(db).listHosts({ limit: 100 }));
    const value = performance.now() - started;
    const cpu = process.cpuUsage(startedCpu);
    await rebuilds.close();
    if (answer.items.length === 0) throw new Error(`as_of_first: no hosts as of position ${position}`);
    const from = Math.floor(position / SNAPSHOT_EVERY_EVENTS) * SNAPSHOT_EVERY_EVENTS;
    const cpuMs = ((cpu.user + cpu.system) / 1000).toFixed(0);
    context.progress(`as_of_first_1m_ms ${value.toFixed(1)} ms (${cpuMs} ms of CPU) at position ${position} (snapshot at ${from}; ${taken.length} snapshots, ${snapshotGb} GiB, taken in ${takeSeconds.toFixed(1)} s, peak RSS ${peakRssMb} MB)`);
    return {
      name: 'as_of_first_1m_ms',
      value,
      notes: `position ${position} of ${events}, from the snapshot at ${from}; ${cpuMs} ms of CPU; ${taken.length} snapshots every ${SNAPSHOT_EVERY_EVENTS} events (${snapshotGb} GiB) took ${takeSeconds.toFixed(1)} s to take, the process's peak RSS ${peakRssMb} MB`,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

interface DeviceHistory {
  readonly db: SqlDatabase;
  readonly buildSeconds: number;
}

async function deviceHistory(context: BenchContext, store: EventStore): Promise<DeviceHistory> {
  const db = await context.target.openReadModel('device-history');
  const started = performance.now();
  await rebuildProcessor(store, db, deviceHistoryProjection);
  return { db, buildSeconds: (performance.now() - started) / 1000 };
}

async function whoHeldLatency(context: BenchContext, { db, buildSeconds }: DeviceHistory, device: string): Promise<Measurement> {
  const queries = new DeviceHistoryQueries(db);
  const latencies = await sequentialLatencies(10, context.sizes.httpSamples, async () => {
    const held = await queries.tenancies(device, {}, { all: true });
    if (held.length !== 2) throw new Error(`who_held: ${held.length} tenancies, expected 2`);
  });
  const value = percentile(latencies, 50);
  context.progress(`who_held_ms p50 ${value.toFixed(3)} ms, p99 ${percentile(latencies, 99).toFixed(3)} ms (device-history built in ${buildSeconds.toFixed(1)} s)`);
  return { name: 'who_held_ms', value, notes: `median of ${latencies.length}; the device-history read model over the log took ${buildSeconds.toFixed(1)} s to build` };
}

/** Resolving the month's two ends on the store, the read model's rows, the fold and the Ed25519 signature: all of GET /api/v1/usage but HTTP. */
async function usageReportLatency(context: BenchContext, { db }: DeviceHistory, store: EventStore): Promise<Measurement> {
  const { privateKey } = generateKeyPairSync('ed25519');
  const log = store;
  const head = await store.headPosition();
  const { events } = await store.readAll({ after: head - 1, max: 1 });
  const to = new Date(Date.parse(events[0].recordedAt) + 1).toISOString();
  const from = new Date(Date.parse(to) - 30 * 24 * 3600 * 1000).toISOString();
  let rows = 0;
  const latencies = await sequentialLatencies(3, Math.min(context.sizes.httpSamples, 50), async () => {
    const window = await resolveUsageWindow(log, { time: from }, { time: to });
    rows = (await computeUsageReport(db, window, 'project', { all: true }, privateKey)).rows.length;
  });
  if (rows !== 2) throw new Error(`usage_report: ${rows} project rows, expected 2 (p1, p2)`);
  const value = percentile(latencies, 50);
  context.progress(`usage_report_1m_ms p50 ${value.toFixed(3)} ms, p99 ${percentile(latencies, 99).toFixed(3)} ms`);
  return { name: 'usage_report_1m_ms', value, notes: `median of ${latencies.length}; a month (${from} to ${to}) for every project over ${head} events, signed` };
}
