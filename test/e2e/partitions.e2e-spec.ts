import { randomUUID } from 'node:crypto';
import type { EventStore } from '@ledger/eventstore';
import { deviceStream } from '@ledger/inventory';
import { jobStream } from '@ledger/jobs';
import { eventually } from '@ledger/processing/testing';
import type { TestLedger } from '../support/ledger-app';
import { type MigDeployable, type MigHosts, startMigHosts } from '../support/mig-hosts';
import { liveArqsOf, strandedPartitionsOn } from '../support/stranded-partitions';

const PROJECT = 'tenant-mig';
const HOSTS = { ok: 'mig-ok', carveFails: 'mig-carve-fails' } as const;

/**
 * Partitions carved on demand (docs/partitions.md): simulated agents whose
 * GPUs are in MIG mode, the ledger offering room to carve each profile, and
 * Nova's calls over /v2 binding a request for `CUSTOM_MIG_1G_10GB` to that
 * room: the bind carves a GPU instance through the agent, claims it and is
 * Bound; a carve that fails leaves no partition and no slice set aside.
 */
describe('partitions carved on demand in the bind (real simulated agents)', () => {
  let mig: MigHosts;
  let ledger: TestLedger;
  let store: EventStore;
  const nova = () => ledger.token({ user: 'nova', project: PROJECT, roles: ['member', 'service'] });
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });
  const createArq = async (): Promise<string> => {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: nova(), body: { device_profile_name: 'mig-1g' } });
    expect(created.status).toBe(201);
    return created.body.arqs[0].uuid;
  };
  const bind = (arqUuid: string, hostname: string, rpUuid: string) =>
    ledger.request('PATCH', '/v2/accelerator_requests', {
      token: nova(),
      body: {
        [arqUuid]: [
          { op: 'add', path: '/hostname', value: hostname },
          { op: 'add', path: '/device_rp_uuid', value: rpUuid },
          { op: 'add', path: '/instance_uuid', value: randomUUID() },
        ],
      },
    });
  /** The never-stranded check (docs/partitions.md) over the host's stream, its devices' streams and the requests alive now. */
  const strandedOn = async (hostname: string) =>
    strandedPartitionsOn(store, hostname, liveArqsOf((await ledger.request('GET', '/v2/accelerator_requests', { token: nova() })).body.arqs));
  const deviceEvents = async (deviceUuid: string) => (await store.readStream(deviceStream(deviceUuid))).map((event) => event.type);

  beforeAll(async () => {
    mig = await startMigHosts({}, { [HOSTS.ok]: {}, [HOSTS.carveFails]: { failNext: { carve: 1 } } }, 'mig-1g');
    ({ ledger, store } = mig);
  });

  afterAll(async () => {
    await mig?.close();
  });

  it('offers an empty A100 in MIG mode as room to carve each profile, and no carved partition', async () => {
    expect((await mig.room(HOSTS.ok)).count).toBe(7);
    expect((await mig.migDeployables(HOSTS.ok)).map((deployable) => deployable.name)).toEqual([expect.stringMatching(/_1g\.10gb_carvable$/)]);
  });

  it('binds a request to the room by carving a GPU instance, then offers it as its own provider, held by the request', async () => {
    const offered = await mig.room(HOSTS.ok);
    const arq = await createArq();
    const bound = await bind(arq, HOSTS.ok, offered.rpUuid);
    expect(bound.status).toBe(202);
    const shown = (await ledger.request('GET', `/v2/accelerator_requests/${arq}`, { token: nova() })).body;
    expect(shown).toMatchObject({ state: 'Bound', attach_handle_type: 'PCI' });
    // The partition's own handle rides beside the parent's address (docs/cyborg-v2.md): the MIG device UUID the agent carved.
    expect(shown.attach_handle_info.mig_device_uuid).toMatch(/^MIG-/);
    // The bind charges the partition's own memory to capacity quota, the 1g.10gb profile's 10 GiB (docs/partitions.md, "Capacity").
    expect((await admin('GET', `/api/v1/quotas/${PROJECT}`)).body.usage).toMatchObject({ 'capacity:memoryGiB': 10 });
    expect(await deviceEvents(offered.deviceUuid)).toEqual(expect.arrayContaining(['inventory.PartitionCarveReserved', 'inventory.AttachHandleClaimed']));
    // The carve's fact comes from the job's result, the partition's provider from the agent's next report.
    await eventually(async () => (await deviceEvents(offered.deviceUuid)).includes('inventory.PartitionCarved'));
    let carvedHandle: MigDeployable['attachHandles'][number] | undefined;
    await eventually(async () => {
      const listed = (await mig.migDeployables(HOSTS.ok)).find((deployable) => deployable.name.endsWith('_1g.10gb_0'));
      carvedHandle = listed && ((await admin('GET', `/api/v1/deployables/${listed.uuid}`)).body as MigDeployable).attachHandles[0];
      return carvedHandle !== undefined;
    });
    // The handle the bind claimed before the report showed it is the one the report brought: identities are derived.
    expect(carvedHandle).toMatchObject({ kind: 'MIG', claimedBy: arq, partition: shown.attach_handle_info.mig_device_uuid });
    await eventually(async () => (await mig.room(HOSTS.ok)).count === 6);
    expect(await strandedOn(HOSTS.ok)).toEqual([]);
  });

  it("decides the claim over the carve's recorded fact: a carving bind's appends meet no conflict", async () => {
    // The bind claims on the device's stream the carve's fact goes to. A fact recorded past the process's device cache (by the
    // job-facts reactor, before the fact went with the result) left the claim deciding over a stale state, refused by its expected version.
    const conflicts = async () => Number(/^ledger_eventstore_append_duration_seconds_count\{outcome="conflict"\} (\d+)/m.exec((await admin('GET', '/metrics')).body)?.[1] ?? 0);
    const before = await conflicts();
    for (let bound = 0; bound < 2; bound++) {
      const offered = await mig.room(HOSTS.ok);
      const carved = async () => (await deviceEvents(offered.deviceUuid)).filter((type) => type === 'inventory.PartitionCarved').length;
      const carvedBefore = await carved();
      const arq = await createArq();
      expect((await bind(arq, HOSTS.ok, offered.rpUuid)).status).toBe(202);
      await eventually(async () => (await carved()) === carvedBefore + 1);
    }
    expect(await conflicts()).toBe(before);
    // The carve's fact went in its result's own append (docs/workflows.md, "Decided together"), not after it.
    const carved = (await store.readStream(deviceStream((await mig.room(HOSTS.ok)).deviceUuid))).filter((event) => event.type === 'inventory.PartitionCarved');
    expect(carved.length).toBeGreaterThanOrEqual(2);
    for (const fact of carved) {
      const [completed] = (await store.readStream(jobStream((fact.data as { jobId: string }).jobId))).filter((event) => event.type === 'jobs.JobCompleted');
      expect(fact.position).toBe(completed.position + 1);
    }
  });

  it('ends the bind BindFailed when the carve fails, leaving nothing carved, no slice set aside and no capacity charged', async () => {
    const offered = await mig.room(HOSTS.carveFails);
    const arq = await createArq();
    const usage = async () => (await admin('GET', `/api/v1/quotas/${PROJECT}`)).body.usage['capacity:memoryGiB'] ?? 0;
    const charged = await usage();
    const refused = await bind(arq, HOSTS.carveFails, offered.rpUuid);
    expect([refused.status, refused.headers.get('x-error-code')]).toEqual([409, 'ARQ.BIND_FAILED']);
    // The start charged the partition's memory with its slices; the undo gave both back in one append.
    expect(await usage()).toBe(charged);
    const events = await deviceEvents(offered.deviceUuid);
    expect(events).toEqual(['inventory.PartitionCarveReserved', 'inventory.PartitionCarveReleased']);
    expect((await mig.room(HOSTS.carveFails)).count).toBe(7);
    expect(await strandedOn(HOSTS.carveFails)).toEqual([]);
  });
});
