import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { loadPlacementConfig } from '@ledger/config';
import { openSqliteSqlDatabase } from '@ledger/processing';
import { HttpPlacementApi, OWNER_TRAIT, PlacementReconciler } from '@ledger/placement';
import { desiredHost } from '../../../libs/placement/src/testing/desired-placement-fixtures';
import { InMemoryDesiredPlacementSource } from '../../../libs/placement/src/testing/in-memory-desired-placement-source';
import { placementMissing, type PlacementService, startPlacementService } from '../../support/placement-service';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { fixedServiceAccess, forEachConcurrently } from '@ledger/kernel';
import { indices } from '../measure/indices';

const RECORDS = ['placement_converge_1k_s', 'placement_calls_per_device', 'placement_repair_one_s'] as const;
const POLL_MS = 50;
const MAX_PASSES = 5;

/**
 * The Placement reconciler against a real Placement (Debian's
 * python3-placement, started here on a fresh database), on the sqlite pass
 * only: Placement's side does not depend on the event store. Setup creates
 * the compute-node providers; then one full compare brings hosts × devices
 * in (converge, and HTTP calls per device counted in the adapter); then,
 * with the reconciler started at the default settings, one provider is
 * deleted by hand and timed until the periodic compare has put it back.
 */
export const placementBench: BenchModule = {
  records: RECORDS.map((name) => ({ name, unit: name.endsWith('_s') ? 's' : 'calls', digits: 2, min: 0 })),
  async run(context) {
    if (context.target.name !== 'sqlite') {
      context.progress('placement_*: skipped; Placement does not depend on the store, so it is measured on the sqlite pass');
      return [];
    }
    const missing = placementMissing();
    if (missing !== undefined) {
      context.progress(`placement_*: SKIPPED, ${missing}`);
      return [];
    }
    let placement: PlacementService;
    try {
      placement = await startPlacementService();
    } catch (error) {
      context.progress(`placement_*: SKIPPED, Placement did not start: ${(error as Error).message}`);
      return [];
    }
    try {
      return await measurePlacement(context, placement);
    } finally {
      await placement.dispose();
    }
  },
};

async function measurePlacement(context: BenchContext, placement: PlacementService): Promise<Measurement[]> {
  const { hosts, devicesPerHost } = context.sizes.placement;
  const defaults = loadPlacementConfig({});
  const api = new HttpPlacementApi({ access: fixedServiceAccess(placement.url, 'admin') });
  const source = fleet(hosts, devicesPerHost);
  const hostnames = await source.hostnames();
  context.progress(`placement: creating ${hosts} compute-node providers (setup)`);
  // As many at once as the reconciler makes: the single-process placement-api's listen backlog is 5.
  await forEachConcurrently(indices(hosts), defaults.concurrency, async (index) => void (await api.createProvider({ uuid: randomUUID(), name: hostnames[index] })));

  const db = await openSqliteSqlDatabase({ file: ':memory:' });
  const reconciler = new PlacementReconciler({
    api,
    source,
    db,
    concurrency: defaults.concurrency,
    resyncMs: defaults.resyncSeconds * 1000,
    createComputeNodes: false,
    instanceId: 'bench',
    leaseMs: 15_000,
    logger: { debug: () => undefined, log: () => undefined, warn: (message) => context.progress(message), error: (message) => context.progress(message) },
  });
  try {
    const devices = hosts * devicesPerHost;
    context.progress(`placement: converging ${hosts} hosts × ${devicesPerHost} devices (concurrency ${defaults.concurrency})`);
    const callsBefore = api.callCount;
    const started = performance.now();
    // A host that met an overloaded Placement is retried by the next compare, as the periodic compare would.
    let passes = 0;
    for (let summary = await reconciler.reconcileAll(); summary.byState['in-sync'] !== hosts; summary = await reconciler.reconcileAll()) {
      if (++passes >= MAX_PASSES) throw new Error(`not converged after ${MAX_PASSES} compares: ${JSON.stringify(summary.byState)}`);
      context.progress(`placement: ${hosts - summary.byState['in-sync']} host(s) left after compare ${passes}: ${JSON.stringify(summary.byState)}`);
    }
    const convergeS = (performance.now() - started) / 1000;
    const callsPerDevice = (api.callCount - callsBefore) / devices;
    const owned = await api.listProviders({ required: [OWNER_TRAIT] });
    if (owned.length !== devices) throw new Error(`Placement holds ${owned.length} ledger providers, expected ${devices}`);
    context.progress(`placement_converge_1k_s ${convergeS.toFixed(1)} s for ${devices} devices; ${callsPerDevice.toFixed(2)} calls per device`);

    reconciler.start();
    while (reconciler.status().lastCompareAt === undefined) await delay(POLL_MS);
    const victim = (await source.host(hostnames[Math.floor(hosts / 2)]))!;
    const uuid = victim.providers[0].uuid;
    // Deleted at some moment between compares: the figure includes waiting for the next one (at most one interval) and that compare.
    const before = await reconciler.hostStatus(victim.hostname);
    await api.deleteProvider(uuid);
    const deletedAt = performance.now();
    while ((await reconciler.hostStatus(victim.hostname))?.lastRepair?.at === before?.lastRepair?.at) await delay(POLL_MS);
    const repairS = (performance.now() - deletedAt) / 1000;
    if ((await api.getProvider(uuid)) === undefined) throw new Error('the repaired provider is not in Placement');
    context.progress(`placement_repair_one_s ${repairS.toFixed(2)} s (compare every ${defaults.resyncSeconds} s)`);
    return [
      { name: 'placement_converge_1k_s', value: convergeS, notes: `${hosts} hosts × ${devicesPerHost} devices, concurrency ${defaults.concurrency}, single-process placement-api (wsgiref)` },
      { name: 'placement_calls_per_device', value: callsPerDevice },
      { name: 'placement_repair_one_s', value: repairS, notes: `default compare interval ${defaults.resyncSeconds} s over ${devices} providers` },
    ];
  } finally {
    await reconciler.stop();
    await db.close();
  }
}

/** hosts × devices FPGAs, named and identified as Cyborg does. */
function fleet(hosts: number, devicesPerHost: number): InMemoryDesiredPlacementSource {
  const source = new InMemoryDesiredPlacementSource();
  for (let index = 0; index < hosts; index += 1) {
    const devices = Array.from({ length: devicesPerHost }, (_, slot) => ({ pciAddress: `0000:${(0x10 + slot).toString(16)}:00.0` }));
    source.set(desiredHost(`bench-${String(index).padStart(5, '0')}.example.org`, 1, devices));
  }
  return source;
}
