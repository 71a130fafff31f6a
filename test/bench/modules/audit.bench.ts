import { type EventStore, verifyStoreLog, verifyThreadCount } from '@ledger/eventstore';
import { deviceUuidOf } from '@ledger/inventory';
import { openSqliteSqlDatabase, rebuildProcessor } from '@ledger/processing';
import { DeviceHistoryQueries, deviceHistoryProjection } from '@ledger/projections/device-history';
import { inventoryProjection } from '@ledger/projections/inventory';
import { appendTwoTenancies } from '../../../projections/device-history/testing/tenancy-history';
import { hostname } from '../../support/fleet';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { writeInventoryHistory } from '../fixtures/inventory-log';
import { percentile, perSecond } from '../measure/statistics';
import { sequentialLatencies } from '../measure/sequential-latency';

/** The fleet's history yields about this many events a host over four reports (59,200 from 4,000 hosts). */
const EVENTS_PER_HOST = 14.8;
/**
 * The auditor's tools over a long log (about `sizes.auditEvents`, 1,000,000
 * by default): the inventory fleet's history written by the real deciders,
 * plus two tenancies of one FPGA. `audit_verify_per_s` verifies the whole
 * chain as `audit verify` does (ranges on worker threads, one per core); `audit_replay_1m_s` rebuilds the inventory
 * as of the head into an in-memory SQLite, as `audit replay` and `?asOf=`
 * do; `who_held_ms` is the tenancy query on the device-history read model
 * built over that log (its build time goes in the record's notes).
 */
export const auditBench: BenchModule = {
  records: [
    { name: 'audit_verify_per_s', unit: 'events/s' },
    { name: 'audit_replay_1m_s', unit: 's', digits: 2, min: 0 },
    { name: 'who_held_ms', unit: 'ms', min: 0 },
  ],
  async run(context, wanted) {
    const { store, events, device } = await auditLog(context);
    const results: Measurement[] = [];
    if (wanted.has('audit_verify_per_s')) results.push(await verifyRate(context, store, events));
    if (wanted.has('audit_replay_1m_s')) results.push(await replaySeconds(context, store, events));
    if (wanted.has('who_held_ms')) results.push(await whoHeldLatency(context, store, device));
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

/** Verifies as `audit verify` does (verifyStoreLog): ranges on one worker thread per core where the store is a file, else one walk on this thread. */
async function verifyRate(context: BenchContext, store: EventStore, events: number): Promise<Measurement> {
  const threads = store.location?.() ? verifyThreadCount(undefined, events) : 1;
  const started = performance.now();
  const verdict = await verifyStoreLog(store, [], undefined, { head: events });
  const value = perSecond(events, performance.now() - started);
  if (!verdict.ok) throw new Error(`audit_verify: chain broken at ${verdict.firstBreak?.position}: ${verdict.firstBreak?.detail}`);
  context.progress(`audit_verify_per_s ${Math.round(value)} events/s (${events} events, ${threads} thread(s))`);
  const form = store.readAllStored ? 'stored text' : 'decoded events';
  const how = threads > 1 ? `${threads} ranges checked by ${threads} worker threads (one per core) and joined` : 'one walk on the main thread';
  return { name: 'audit_verify_per_s', value, notes: `${events} events as ${form}, ${how} (verifyStoreLog)` };
}

async function replaySeconds(context: BenchContext, store: EventStore, events: number): Promise<Measurement> {
  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  const started = performance.now();
  const progress = await rebuildProcessor(store, db, inventoryProjection);
  const value = (performance.now() - started) / 1000;
  await db.close();
  context.progress(`audit_replay_1m_s ${value.toFixed(2)} s (${progress.applied} inventory events applied of ${events})`);
  return { name: 'audit_replay_1m_s', value, notes: `inventory as of the head of ${events} events (${progress.applied} applied) into :memory:` };
}

async function whoHeldLatency(context: BenchContext, store: EventStore, device: string): Promise<Measurement> {
  const db = await context.target.openReadModel('device-history');
  const started = performance.now();
  await rebuildProcessor(store, db, deviceHistoryProjection);
  const buildSeconds = (performance.now() - started) / 1000;
  const queries = new DeviceHistoryQueries(db);
  const latencies = await sequentialLatencies(10, context.sizes.httpSamples, async () => {
    const held = await queries.tenancies(device, {}, { all: true });
    if (held.length !== 2) throw new Error(`who_held: ${held.length} tenancies, expected 2`);
  });
  await db.close();
  const value = percentile(latencies, 50);
  context.progress(`who_held_ms p50 ${value.toFixed(3)} ms, p99 ${percentile(latencies, 99).toFixed(3)} ms (device-history built in ${buildSeconds.toFixed(1)} s)`);
  return { name: 'who_held_ms', value, notes: `median of ${latencies.length}; the device-history read model over the log took ${buildSeconds.toFixed(1)} s to build` };
}
