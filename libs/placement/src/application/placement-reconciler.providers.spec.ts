import { KeystoneSession } from '@ledger/auth';
import { loadLedgerConfig } from '@ledger/config';
import { openSqliteSqlDatabase } from '@ledger/processing';
import { capturingLogger } from '@ledger/processing/testing';
import { InMemoryDesiredPlacementSource } from '../testing/in-memory-desired-placement-source';
import { PlacementReconciler } from './placement-reconciler';
import { createPlacementReconciler } from './placement-reconciler.providers';

describe('createPlacementReconciler', () => {
  it('is off, and says so, when neither LEDGER_PLACEMENT_URL nor LEDGER_KEYSTONE_URL is set', async () => {
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    const log = capturingLogger();
    expect(createPlacementReconciler(loadLedgerConfig({}), db, new InMemoryDesiredPlacementSource(), null, log)).toBeNull();
    expect(log.lines).toEqual(['log: Placement reconciler off: neither LEDGER_PLACEMENT_URL nor LEDGER_KEYSTONE_URL is set, so nothing is written to Placement']);
    await db.close();
  });

  it('reconciles against the configured Placement when it is set', async () => {
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    const log = capturingLogger();
    const config = loadLedgerConfig({ LEDGER_PLACEMENT_URL: 'http://127.0.0.1:8778', LEDGER_PLACEMENT_RESYNC_SECONDS: '30' });
    expect(createPlacementReconciler(config, db, new InMemoryDesiredPlacementSource(), null, log)).toBeInstanceOf(PlacementReconciler);
    expect(log.lines).toEqual(['log: Placement reconciler on: http://127.0.0.1:8778, compare every 30 s, 4 hosts at once']);
    await db.close();
  });

  it("in Keystone mode, reconciles against the catalog's Placement with the ledger's own token, and says so", async () => {
    const db = await openSqliteSqlDatabase({ file: ':memory:' });
    const log = capturingLogger();
    const config = loadLedgerConfig({ LEDGER_KEYSTONE_URL: 'http://127.0.0.1:5000/v3', LEDGER_KEYSTONE_USERNAME: 'ledger', LEDGER_KEYSTONE_PASSWORD: 'pw' });
    const session = new KeystoneSession({ authUrl: config.auth.keystone!.authUrl, credentials: config.auth.keystone!.credentials });
    expect(createPlacementReconciler(config, db, new InMemoryDesiredPlacementSource(), session, log)).toBeInstanceOf(PlacementReconciler);
    expect(log.lines).toEqual([
      "log: Placement reconciler on: the Keystone catalog's placement endpoint with the ledger's Keystone token (LEDGER_PLACEMENT_TOKEN is not used), compare every 5 s, 4 hosts at once",
    ]);
    await db.close();
  });
});
