import { ensureProcessingTables, openSqliteSqlDatabase, restartCheckpoint, type SqlDatabase } from '@ledger/processing';
import { REPLAYABLE_PROJECTIONS } from '@ledger/projections/catalog';
import { ReadModelsPreparation } from './read-models-preparation';

describe('ReadModelsPreparation', () => {
  let db: SqlDatabase;
  let clock: number;
  const names = [...REPLAYABLE_PROJECTIONS.values()].map((processor) => processor.name);
  const prepare = (except: string[] = [], version = (name: string) => (REPLAYABLE_PROJECTIONS.get(name) as { version: number }).version) =>
    Promise.all(names.filter((name) => !except.includes(name)).map((name) => restartCheckpoint(db, name, version(name), new Date())));

  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    clock = 0;
  });
  afterEach(() => db.close());

  it('names every read model while no processors replica has run, even without the checkpoint table', async () => {
    const preparation = new ReadModelsPreparation(db, () => clock);
    expect(await preparation.missing()).toEqual(names);
    await expect(preparation.ensurePrepared()).rejects.toMatchObject({ code: 'READ_MODELS.NOT_PREPARED', status: 503, facts: { missing: names } });
  });

  it('counts a read model at another version as not prepared', async () => {
    await ensureProcessingTables(db);
    await prepare([], () => 0);
    expect(await new ReadModelsPreparation(db, () => clock).missing()).toEqual(names);
  });

  it('looks again at most every half second while something is missing, and never again once all is prepared', async () => {
    const preparation = new ReadModelsPreparation(db, () => clock);
    await ensureProcessingTables(db);
    await prepare([names[0]]);
    expect(await preparation.missing()).toEqual([names[0]]);
    await prepare();
    clock += 499;
    expect(await preparation.missing()).toEqual([names[0]]);
    clock += 1;
    expect(await preparation.missing()).toEqual([]);
    await db.run('DELETE FROM processor_checkpoints');
    clock += 10_000;
    await expect(preparation.ensurePrepared()).resolves.toBeUndefined();
  });
});

