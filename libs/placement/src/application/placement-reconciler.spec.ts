import { openSqliteSqlDatabase } from '@ledger/processing';
import { capturingLogger } from '@ledger/processing/testing';
import { desiredHost } from '../testing/desired-placement-fixtures';
import { InMemoryDesiredPlacementSource } from '../testing/in-memory-desired-placement-source';
import { InMemoryPlacementApi, inMemoryPlacement } from '../testing/in-memory-placement-api';
import { describeReconcilerScenarios } from '../testing/placement-reconciler.scenarios';
import { PlacementReconciler } from './placement-reconciler';

describeReconcilerScenarios('in memory', inMemoryPlacement);

describe('PlacementReconciler when Placement is down (in memory)', () => {
  it('reports every host unavailable since the first failure, then converges the backlog once Placement answers', async () => {
    const api = new InMemoryPlacementApi();
    const source = new InMemoryDesiredPlacementSource();
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    let now = Date.parse('2026-01-01T00:00:00Z');
    const reconciler = new PlacementReconciler({ api, source, db, concurrency: 2, resyncMs: 1000, createComputeNodes: true, instanceId: 'test', leaseMs: 15_000, logger: capturingLogger(), clock: () => now });
    source.set(desiredHost('a.example.org', 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));
    source.set(desiredHost('b.example.org', 1, [{ pciAddress: '0000:5e:00.0', traits: [] }]));

    api.setUnavailable(true);
    await reconciler.reconcileAll();
    now += 5000;
    const summary = await reconciler.reconcileAll();

    expect(summary.byState['placement-unavailable']).toBe(2);
    expect(await reconciler.hostStatuses()).toEqual([
      expect.objectContaining({ hostname: 'a.example.org', state: 'placement-unavailable', since: '2026-01-01T00:00:00.000Z' }),
      expect.objectContaining({ hostname: 'b.example.org', state: 'placement-unavailable', since: '2026-01-01T00:00:00.000Z' }),
    ]);
    expect(reconciler.status().placementUnavailableSince).toBe('2026-01-01T00:00:00.000Z');

    api.setUnavailable(false);
    await reconciler.reconcileAll();
    expect((await reconciler.hostStatuses()).map((status) => status.state)).toEqual(['in-sync', 'in-sync']);
    expect(reconciler.status().placementUnavailableSince).toBeUndefined();
    await db.close();
  });
});
