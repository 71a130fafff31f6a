import { loadLedgerConfig } from '@ledger/config';
import { openSqliteSqlDatabase } from '@ledger/processing';
import { capturingLogger } from '@ledger/processing/testing';
import { InMemoryDesiredPlacementSource } from '../testing/in-memory-desired-placement-source';
import { PlacementReconciler } from './placement-reconciler';
import { createPlacementReconciler } from './placement-reconciler.providers';

describe('createPlacementReconciler', () => {
  it('is off, and says so, when LEDGER_PLACEMENT_URL is unset', async () => {
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    const log = capturingLogger();
    expect(createPlacementReconciler(loadLedgerConfig({}), db, new InMemoryDesiredPlacementSource(), log)).toBeNull();
    expect(log.lines).toEqual(['log: Placement reconciler off: LEDGER_PLACEMENT_URL is not set, so nothing is written to Placement']);
    await db.close();
  });

  it('reconciles against the configured Placement when it is set', async () => {
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    const log = capturingLogger();
    const config = loadLedgerConfig({ LEDGER_PLACEMENT_URL: 'http://127.0.0.1:8778', LEDGER_PLACEMENT_RESYNC_SECONDS: '30' });
    expect(createPlacementReconciler(config, db, new InMemoryDesiredPlacementSource(), log)).toBeInstanceOf(PlacementReconciler);
    expect(log.lines).toEqual(['log: Placement reconciler on: http://127.0.0.1:8778, compare every 30 s, 4 hosts at once']);
    await db.close();
  });
});
