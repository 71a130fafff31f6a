import type { RecordedEvent } from '@ledger/eventstore';
import { attachHandleUuidOf, deployableUuidOf, deviceUuidOf } from '@ledger/inventory';
import { OWNER_TRAIT } from '@ledger/placement';
import { openSqliteSqlDatabase, type SqlDatabase } from '@ledger/processing';
import { everyBatchTwice, inBatchesOf, oneBatch, onePerBatch } from '@ledger/processing/testing';
import { a100, arria10, x710 } from '../../libs/inventory/src/domain/testing/host-report.fixtures';
import { placementProjection } from './placement.projection';
import { PlacementQueries } from './placement.queries';
import { applyBatches, buildPlacement, storeCheckpoint } from './testing/placement-batches';
import { at, recordPlacementHistory } from './testing/placement-history';
import { devices, FUNCTION_ID, fpgaDeployable, id, placementScenario } from './testing/placement-scenario';

const FUNCTION_TRAIT = `CUSTOM_FPGA_FUNCTION_ID_INTEL_${FUNCTION_ID.toUpperCase()}`;

describe('placementProjection (SQLite :memory:)', () => {
  let db: SqlDatabase;
  let queries: PlacementQueries;
  let events: RecordedEvent[];

  beforeAll(async () => {
    events = await recordPlacementHistory(placementScenario);
  });
  beforeEach(async () => {
    db = await openSqliteSqlDatabase({ file: ':memory:' });
    queries = new PlacementQueries(db);
  });
  afterEach(() => db.close());

  /** Applies the events and stores the checkpoint at the last of them, as the runtime would. */
  async function project(history: readonly RecordedEvent[]): Promise<void> {
    await applyBatches(db, oneBatch(history));
    await storeCheckpoint(db, history.at(-1)!.position);
  }

  it('reads the host, device and job streams, and only the events the desired state follows from', () => {
    expect(placementProjection).toMatchObject({ name: 'placement', version: 5, filter: { categories: ['host', 'device', 'job'] } });
    expect(placementProjection.handles).not.toContain('jobs.JobDispatched');
    expect(placementProjection.handles).not.toContain('inventory.AttachHandleClaimed');
  });

  it('finds the hosts of devices and of program jobs, for events that name only those', async () => {
    await project(events);
    expect(await queries.hostsOf({ deviceUuids: [devices.gpu1, devices.gpu2, id(404)], jobIds: [id(1), id(3)] })).toEqual(['compute-1', 'compute-2']);
    expect(await queries.hostsOf({ deviceUuids: [], jobIds: [id(3)] })).toEqual([]); // configure-vfs: not a program job
    expect(await queries.hostsOf({ deviceUuids: [], jobIds: [id(4)] })).toEqual([]); // a shell load: no region to reserve
  });

  it('builds one child provider per deployable, named and uuid’d as Cyborg does, each reserved with its reasons', async () => {
    await project(events);
    const compute1 = await queries.host('compute-1');
    expect(compute1).toEqual({
      hostname: 'compute-1',
      position: events.at(-1)!.position,
      providers: [
        {
          // Python's uuid.uuid3(uuid.NAMESPACE_DNS, name), as Cyborg computes it; sorted by name.
          uuid: '9f72d96c-82dd-3867-b5fe-a73ed1597dc4',
          name: '0000:5e:00.0-region0',
          deviceUuid: devices.fpga1,
          deployableUuid: fpgaDeployable,
          resourceClass: 'FPGA',
          total: 2,
          reserved: 0,
          maxUnit: 2,
          traits: [FUNCTION_TRAIT, 'CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', OWNER_TRAIT],
          reservedBecause: [],
        },
        {
          uuid: '4dc17aab-79d3-3f4f-b61f-3cc3f3cb0ef8',
          name: 'compute-1_0000:3b:00.0',
          deviceUuid: devices.gpu1,
          deployableUuid: expect.any(String),
          resourceClass: 'PGPU',
          total: 1,
          reserved: 1,
          maxUnit: 1,
          traits: ['CUSTOM_NVIDIA_20B5', OWNER_TRAIT],
          reservedBecause: ['disabled'],
        },
      ],
    });
  });

  it('reserves a lost agent’s providers but not a degraded device’s, and keeps a host without accelerators with an empty list', async () => {
    await project(events);
    expect((await queries.host('compute-2'))?.providers).toEqual([
      expect.objectContaining({ name: 'compute-2_0000:18:00.0', total: 1, reserved: 1, reservedBecause: ['agent-lost'] }),
    ]);
    expect(await queries.host('compute-3')).toEqual({ hostname: 'compute-3', providers: [], position: events.at(-1)!.position });
    expect(await queries.hostnames()).toEqual(['compute-1', 'compute-2', 'compute-3']);
    expect(await queries.host('compute-9')).toBeUndefined();
  });

  it('reserves a host’s providers from the start of a provisioning until one ends well (out of service), and not a host never provisioned', async () => {
    const provisioning = await recordPlacementHistory([
      { hostname: 'compute-4', report: [arria10('0000:5e:00.0', 2)] },
      { type: 'StartHostProvisioning', hostname: 'compute-4', provisionId: id(10), at: at(1) },
      { type: 'FailHostProvisioning', hostname: 'compute-4', provisionId: id(10), code: 'DRIVER.INJECTED_FAILURE', reason: 'shell', at: at(2) },
      { type: 'StartHostProvisioning', hostname: 'compute-4', provisionId: id(11), at: at(3) },
      { type: 'CompleteHostProvisioning', hostname: 'compute-4', provisionId: id(11), at: at(4) },
    ]);
    const provisioningFacts = provisioning.filter((event) => event.type.startsWith('inventory.HostProvision'));
    /** The providers' reservations once the log up to the nth provisioning fact (0: only the report) is applied. */
    const reservedAfter = async (facts: number) => {
      const last = facts === 0 ? provisioningFacts[0].position - 1 : provisioningFacts[facts - 1].position;
      await project(provisioning.filter((event) => event.position <= last));
      return (await queries.host('compute-4'))!.providers.map((provider) => [provider.reserved, provider.reservedBecause]);
    };
    expect(provisioningFacts.map((event) => event.type)).toEqual([
      'inventory.HostProvisioningStarted',
      'inventory.HostProvisionFailed',
      'inventory.HostProvisioningStarted',
      'inventory.HostProvisioned',
    ]);
    expect(await reservedAfter(0)).toEqual([[0, []]]);
    expect(await reservedAfter(1)).toEqual([[2, ['out-of-service']]]);
    expect(await reservedAfter(2)).toEqual([[2, ['out-of-service']]]);
    expect(await reservedAfter(3)).toEqual([[2, ['out-of-service']]]);
    expect(await reservedAfter(4)).toEqual([[0, []]]);
  });

  it('reserves a fenced host’s providers (reserved = total) until it is unfenced', async () => {
    const history = await recordPlacementHistory([
      { hostname: 'compute-5', report: [arria10('0000:5e:00.0', 3)] },
      { type: 'FenceHost', hostname: 'compute-5', reason: 'PSU dead', by: 'admin-1', at: at(1) },
      { type: 'UnfenceHost', hostname: 'compute-5', by: 'admin-1', at: at(2) },
    ]);
    const unfencedAt = history.find((event) => event.type === 'inventory.HostUnfenced')!.position;
    await project(history.filter((event) => event.position < unfencedAt));
    expect((await queries.host('compute-5'))!.providers.map((provider) => [provider.reserved, provider.total, provider.reservedBecause])).toEqual([[3, 3, ['fenced']]]);
    await project(history);
    expect((await queries.host('compute-5'))!.providers.map((provider) => [provider.reserved, provider.reservedBecause])).toEqual([[0, []]]);
  });

  it('reserves one unit per released handle while it cleans or its clean failed, and frees it once cleaned', async () => {
    const fpga = deviceUuidOf('compute-6', '0000:5e:00.0');
    const deployable = deployableUuidOf(fpga, '0000:5e:00.0-region0');
    const handle = attachHandleUuidOf(deployable, 'VF/0000:5e:00.1');
    const arq = '01900000-0000-7000-8000-00000000000a';
    const job = '01900000-0000-7000-8000-0000000000c1';
    const providers = async () => (await queries.host('compute-6'))!.providers.map((provider) => [provider.reserved, provider.total, provider.reservedBecause]);
    const history = await recordPlacementHistory([
      { hostname: 'compute-6', report: [arria10('0000:5e:00.0', 3)] },
      { type: 'ClaimAttachHandle', deviceUuid: fpga, deployableUuid: deployable, arqUuid: arq, candidates: [handle] },
      { type: 'ReleaseAttachHandle', deviceUuid: fpga, arqUuid: arq, clean: true },
      { type: 'RecordCleanFailed', deviceUuid: fpga, attempt: 1, jobId: job, ran: [], code: 'DRIVER.TOOL_FAILED', reason: 'reset refused', failedAt: at(3) },
      { type: 'RetryClean', deviceUuid: fpga },
      { type: 'RecordCleaned', deviceUuid: fpga, attempt: 2, jobId: job, ran: [], cleanedAt: at(5) },
    ]);
    const upTo = (type: string) => history.filter((event) => event.position <= history.find((candidate) => candidate.type === type)!.position);
    await project(upTo('inventory.DeviceCleaningStarted'));
    expect(await providers()).toEqual([[1, 3, ['cleaning']]]);
    await project(upTo('inventory.DeviceCleanFailed'));
    expect(await providers()).toEqual([[1, 3, ['clean-failed']]]);
    await project(history);
    expect(await providers()).toEqual([[0, 3, []]]);
  });

  it('reserves the FPGA while any program job on it is in flight, with the programmed function once one completed', async () => {
    const upTo = (stream: string, type: string) => events.filter((event) => event.position <= events.find((e) => e.stream === stream && e.type === type)!.position);
    const fpga = async () => (await queries.host('compute-1'))!.providers.find((provider) => provider.deployableUuid === fpgaDeployable)!;

    await project(upTo(`job-${id(2)}`, 'jobs.JobDispatched'));
    expect(await fpga()).toMatchObject({ reserved: 2, reservedBecause: ['reprogramming'], traits: ['CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', OWNER_TRAIT] });

    await applyBatches(db, oneBatch(upTo(`job-${id(2)}`, 'jobs.JobCompleted')));
    expect(await fpga()).toMatchObject({ reserved: 2, reservedBecause: ['reprogramming'], traits: [FUNCTION_TRAIT, 'CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', OWNER_TRAIT] });

    await applyBatches(db, oneBatch(upTo(`job-${id(1)}`, 'jobs.JobFailed')));
    expect(await fpga()).toMatchObject({ reserved: 0, reservedBecause: [] });
  });

  it('counts the function trait only until the report changes the traits: then the report says what is loaded', async () => {
    const reported = arria10('0000:5e:00.0', 2);
    const other = 'CUSTOM_FPGA_FUNCTION_ID_INTEL_00000000000000000000000000000001';
    const later = await recordPlacementHistory([
      ...placementScenario,
      { hostname: 'compute-1', report: [{ ...reported, deployables: [{ ...reported.deployables[0], traits: [...reported.deployables[0].traits, other] }] }] },
    ]);
    await project(later);
    const fpga = (await queries.host('compute-1'))!.providers.find((provider) => provider.deployableUuid === fpgaDeployable)!;
    expect(fpga.traits).toEqual([other, 'CUSTOM_FPGA_INTEL', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10', OWNER_TRAIT]);
  });

  it('drops a removed device’s providers, and brings them back as its own stream left them (still failed); an agent back clears agent-lost', async () => {
    await project(events);
    expect((await queries.host('compute-1'))!.providers.map((provider) => provider.deviceUuid)).not.toContain(devices.nic1);
    const later = await recordPlacementHistory([
      ...placementScenario,
      { hostname: 'compute-1', report: [a100('0000:3b:00.0'), arria10('0000:5e:00.0', 2), x710('0000:af:00.0')] },
      { type: 'RecordAgentSeen', hostname: 'compute-2', seenAt: at(90) },
    ]);
    await applyBatches(db, everyBatchTwice(onePerBatch(later.slice(events.length))));
    expect((await queries.host('compute-1'))!.providers.find((provider) => provider.deviceUuid === devices.nic1)).toMatchObject({
      resourceClass: 'CUSTOM_NIC',
      total: 2,
      reserved: 2,
      reservedBecause: ['unhealthy'],
      traits: ['CUSTOM_PHYSNET1', 'CUSTOM_VF', OWNER_TRAIT],
    });
    expect((await queries.host('compute-2'))!.providers.map((provider) => provider.reservedBecause)).toEqual([[]]);
  });

  it('leaves a host whose devices all went with an empty list, so the reconciler removes what was made', async () => {
    const emptied = await recordPlacementHistory([...placementScenario, { hostname: 'compute-1', report: [] }]);
    await project(emptied);
    expect(await queries.host('compute-1')).toEqual({ hostname: 'compute-1', providers: [], position: emptied.at(-1)!.position });
  });

  it('builds the same tables however the log is cut into batches, and when every batch arrives twice', async () => {
    const expected = await buildPlacement(oneBatch(events));
    expect(expected.pl_deployables).toHaveLength(3);
    expect(await buildPlacement(everyBatchTwice(onePerBatch(events)))).toEqual(expected);
    for (const size of [2, 3, 5, 7]) expect(await buildPlacement(everyBatchTwice(inBatchesOf(size, events)))).toEqual(expected);
  });
});
