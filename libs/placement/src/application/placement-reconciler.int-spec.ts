import { fixedServiceAccess } from '@ledger/kernel';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { capturingLogger } from '@ledger/processing/testing';
import { type PlacementService, startPlacementService } from '../../../../test/support/placement-service';
import { describeWithService, placementUnavailable, placementUrl } from '../../../../test/support/services';
import { HttpPlacementApi } from '../infrastructure/http-placement-api';
import { desiredDevice, desiredHost } from '../testing/desired-placement-fixtures';
import { InMemoryDesiredPlacementSource } from '../testing/in-memory-desired-placement-source';
import { httpPlacement } from '../testing/placement-allocations';
import { describeReconcilerScenarios } from '../testing/placement-reconciler.scenarios';
import { PlacementReconciler } from './placement-reconciler';

const describeReal = describeWithService('Placement', placementUnavailable());

describeReconcilerScenarios(
  'real Placement',
  () => httpPlacement(placementUrl()),
  describeReal,
);

describeReal('PlacementReconciler when the real Placement stops and restarts', () => {
  // Its own Placement: stopping the run's shared one would fail the suites using it meanwhile.
  let placement: PlacementService;
  let db: SqlDatabase;

  beforeAll(async () => {
    placement = await startPlacementService();
    db = await openSqliteSqlDatabase({ file: ':memory:' });
  });

  afterAll(async () => {
    await db?.close();
    await placement?.dispose();
  });

  it('reports Placement unavailable since it went away, then converges the backlog once it is back', async () => {
    const api = new HttpPlacementApi({ access: fixedServiceAccess(placement.url, 'admin'), timeoutMs: 5000 });
    const source = new InMemoryDesiredPlacementSource();
    const reconciler = new PlacementReconciler({ api, source, db, concurrency: 4, resyncMs: 1000, createComputeNodes: true, instanceId: 'test', leaseMs: 15_000, logger: capturingLogger() });
    source.set(desiredHost('a.example.org', 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
    await reconciler.reconcileAll();

    await placement.stop();
    source.set(desiredHost('a.example.org', 2, [{ pciAddress: '0000:5e:00.0', traits: [], disabled: true }]));
    source.set(desiredHost('b.example.org', 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
    const down = await reconciler.reconcileAll();

    expect(down.byState['placement-unavailable']).toBe(2);
    const since = reconciler.status().placementUnavailableSince;
    expect(since).toEqual(expect.any(String));
    expect(await reconciler.hostStatuses()).toEqual([
      expect.objectContaining({ hostname: 'a.example.org', state: 'placement-unavailable', since, position: 1, detail: expect.stringContaining('Placement is unavailable') }),
      expect.objectContaining({ hostname: 'b.example.org', state: 'placement-unavailable', since, position: 0 }),
    ]);

    await placement.start();
    const back = await reconciler.reconcileAll();

    expect(back.byState['in-sync']).toBe(2);
    expect(reconciler.status().placementUnavailableSince).toBeUndefined();
    expect((await api.getInventories(desiredDevice('a.example.org', { pciAddress: '0000:5e:00.0' }).uuid)).value.FPGA.reserved).toBe(1);
    expect(await api.getProvider(desiredDevice('b.example.org', { pciAddress: '0000:5e:00.0' }).uuid)).toBeDefined();
  });
});
