import { describeWithService, postgresUnavailable } from '../../test/support/services';
import { everyBatchTwice, inBatchesOf, onePerBatch, postgresTestDatabases, type TestDatabases } from '@ledger/processing/testing';
import { PlacementQueries } from './placement.queries';
import { applyBatches, buildPlacement, snapshotPlacement, storeCheckpoint } from './testing/placement-batches';
import { recordPlacementHistory } from './testing/placement-history';
import { fpgaDeployable, placementScenario } from './testing/placement-scenario';

describeWithService('PostgreSQL', postgresUnavailable())('placementProjection (PostgreSQL)', () => {
  let databases: TestDatabases;

  beforeAll(() => {
    databases = postgresTestDatabases();
  });
  afterAll(() => databases.dispose());

  it('builds exactly the tables SQLite builds, also when every batch arrives twice, and answers the same desired state', async () => {
    const events = await recordPlacementHistory(placementScenario);
    const expected = await buildPlacement(onePerBatch(events));
    const postgres = await databases.open('placement');
    await applyBatches(postgres, everyBatchTwice(inBatchesOf(4, events)));
    expect(await snapshotPlacement(postgres)).toEqual(expected);
    await storeCheckpoint(postgres, events.at(-1)!.position);

    const queries = new PlacementQueries(postgres);
    expect(await queries.hostnames()).toEqual(['compute-1', 'compute-2', 'compute-3']);
    const compute1 = (await queries.host('compute-1'))!;
    expect(compute1.providers.map((provider) => [provider.name, provider.reserved, provider.reservedBecause])).toEqual([
      ['0000:5e:00.0-region0', 0, []],
      ['compute-1_0000:3b:00.0', 1, ['disabled']],
    ]);
    expect(compute1.providers.find((provider) => provider.deployableUuid === fpgaDeployable)!.traits).toContain(
      'CUSTOM_FPGA_FUNCTION_ID_INTEL_9A8B7C6D5E4F30211203948576ABCDEF',
    );
    expect((await queries.host('compute-2'))!.providers.map((provider) => provider.reservedBecause)).toEqual([['agent-lost']]);
    expect(await queries.host('compute-3')).toEqual({ hostname: 'compute-3', providers: [], position: events.at(-1)!.position });
  });
});
