import { randomUUID } from 'node:crypto';
import type { EventStore } from '@ledger/eventstore';
import { deviceStream } from '@ledger/inventory';
import { eventually } from '@ledger/processing/testing';
import type { TestLedger } from '../support/ledger-app';
import { type MigDeployable, type MigHosts, startMigHosts } from '../support/mig-hosts';
import { liveArqsOf, strandedPartitionsOn } from '../support/stranded-partitions';

const PROJECT = 'tenant-reclaim';
const HOSTS = { ok: 'reclaim-ok', destroyFails: 'reclaim-destroy-fails' } as const;

/**
 * Reclaim of partitions carved on demand (docs/partitions.md, "Reclaim"),
 * with LEDGER_PARTITION_RECLAIM=idle:0 so the idle wait is nothing: a
 * request bound by carving a MIG slice is unbound, its partition goes
 * idle, the reclaim claims its handle and the agent destroys it (the room
 * is whole again); a destroy that fails gives the handle back, and the
 * partition stays free and offered.
 */
describe('reclaim of idle partitions carved on demand (real simulated agents)', () => {
  let mig: MigHosts;
  let ledger: TestLedger;
  let store: EventStore;
  const nova = () => ledger.token({ user: 'nova', project: PROJECT, roles: ['member', 'service'] });
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });
  const carvedOn = async (hostname: string): Promise<MigDeployable[]> => (await mig.migDeployables(hostname)).filter((deployable) => !deployable.name.endsWith('_carvable'));
  const patch = (arqUuid: string, ops: unknown[]) => ledger.request('PATCH', '/v2/accelerator_requests', { token: nova(), body: { [arqUuid]: ops } });
  const bindCarving = async (hostname: string): Promise<string> => {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova(), body: { device_profile_name: 'mig-1g-reclaim' } });
    expect(created.status).toBe(201);
    const arq: string = created.body.arqs[0].uuid;
    const bound = await patch(arq, [
      { op: 'add', path: '/hostname', value: hostname },
      { op: 'add', path: '/device_rp_uuid', value: (await mig.room(hostname)).rpUuid },
      { op: 'add', path: '/instance_uuid', value: randomUUID() },
    ]);
    expect(bound.status).toBe(202);
    return arq;
  };
  const unbind = async (arq: string) =>
    expect((await patch(arq, [{ op: 'remove', path: '/hostname' }, { op: 'remove', path: '/device_rp_uuid' }, { op: 'remove', path: '/instance_uuid' }])).status).toBe(202);
  const strandedOn = async (hostname: string) =>
    strandedPartitionsOn(store, hostname, liveArqsOf((await ledger.request('GET', '/v2/accelerator_requests', { token: nova() })).body.arqs));
  const deviceEvents = async (deviceUuid: string) => await store.readStream(deviceStream(deviceUuid));
  const types = async (deviceUuid: string) => (await deviceEvents(deviceUuid)).map((event) => event.type);

  beforeAll(async () => {
    mig = await startMigHosts({ LEDGER_PARTITION_RECLAIM: 'idle:0' }, { [HOSTS.ok]: {}, [HOSTS.destroyFails]: { failNext: { destroy: 2 } } }, 'mig-1g-reclaim');
    ({ ledger, store } = mig);
  });

  afterAll(async () => {
    await mig?.close();
  });

  it('reclaims the partition once its request is unbound: claimed for the reclaim, destroyed by the agent, the room whole again', async () => {
    const deviceUuid = (await mig.room(HOSTS.ok)).deviceUuid;
    const arq = await bindCarving(HOSTS.ok);
    await eventually(async () => (await carvedOn(HOSTS.ok)).length === 1 && (await mig.room(HOSTS.ok)).count === 6);
    await unbind(arq);
    await eventually(async () => (await types(deviceUuid)).includes('inventory.PartitionDestroyed'));
    const events = await deviceEvents(deviceUuid);
    const reclaim = events.filter((event) => ['inventory.AttachHandleReleased', 'inventory.PartitionIdle', 'inventory.PartitionReclaimClaimed', 'inventory.PartitionDestroyed'].includes(event.type));
    expect(reclaim.map((event) => event.type)).toEqual(['inventory.AttachHandleReleased', 'inventory.PartitionIdle', 'inventory.PartitionReclaimClaimed', 'inventory.PartitionDestroyed']);
    // Every step names the partition: the release (who held it), the idle period, the reclaim's hold and the destroy.
    const handle = (reclaim[3]!.data as { handle: string }).handle;
    expect(handle).toMatch(/^MIG-/);
    expect(reclaim.map((event) => (event.data as { partition?: { handle: string }; handle?: string }).partition?.handle ?? (event.data as { handle?: string }).handle)).toEqual([handle, handle, handle, handle]);
    expect(reclaim[3]!.data).toMatchObject({ reason: 'reclaimed' });
    await eventually(async () => (await carvedOn(HOSTS.ok)).length === 0 && (await mig.room(HOSTS.ok)).count === 7);
    expect(await strandedOn(HOSTS.ok)).toEqual([]);
    // The device's timeline tells the partition's life by its handle: carved, claimed, released, idle, held for its reclaim, destroyed.
    let timeline: { type: string; summary: string }[] = [];
    await eventually(async () => {
      timeline = (await admin('GET', `/api/v1/devices/${deviceUuid}/timeline?limit=1000`)).body.entries ?? [];
      return timeline.some((entry) => entry.type === 'inventory.PartitionDestroyed');
    });
    const told = timeline.filter((entry) => entry.summary.includes(handle)).map((entry) => entry.type);
    expect(told).toEqual(
      expect.arrayContaining(['inventory.PartitionCarved', 'inventory.AttachHandleClaimed', 'inventory.AttachHandleReleased', 'inventory.PartitionIdle', 'inventory.PartitionReclaimClaimed', 'inventory.PartitionDestroyed']),
    );
  });

  it('gives the handle back when the destroy fails, and the partition stays free and offered', async () => {
    const deviceUuid = (await mig.room(HOSTS.destroyFails)).deviceUuid;
    const arq = await bindCarving(HOSTS.destroyFails);
    await eventually(async () => (await carvedOn(HOSTS.destroyFails)).length === 1);
    await unbind(arq);
    await eventually(async () => (await types(deviceUuid)).includes('inventory.PartitionReclaimReleased'));
    expect(await types(deviceUuid)).not.toContain('inventory.PartitionDestroyed');
    expect(await carvedOn(HOSTS.destroyFails)).toHaveLength(1);
    // Offered again: a new bind takes the free partition rather than carving another.
    const again = await ledger.request('POST', '/v2/accelerator_requests', { token: nova(), body: { device_profile_name: 'mig-1g-reclaim' } });
    const [partition] = await carvedOn(HOSTS.destroyFails);
    const rebound = await patch(again.body.arqs[0].uuid, [
      { op: 'add', path: '/hostname', value: HOSTS.destroyFails },
      { op: 'add', path: '/device_rp_uuid', value: partition!.rpUuid },
      { op: 'add', path: '/instance_uuid', value: randomUUID() },
    ]);
    expect(rebound.status).toBe(202);
    expect((await ledger.request('GET', `/v2/accelerator_requests/${again.body.arqs[0].uuid}`, { token: nova() })).body).toMatchObject({ state: 'Bound' });
    // A bind to a partition already carved charges its profile's memory, as a carving bind does, not the whole GPU's (docs/partitions.md, "Capacity").
    expect((await ledger.request('GET', `/api/v1/quotas/${PROJECT}`, { token: ledger.adminToken })).body.usage).toMatchObject({ 'capacity:memoryGiB': 10 });
    expect(await strandedOn(HOSTS.destroyFails)).toEqual([]);
  });
});
