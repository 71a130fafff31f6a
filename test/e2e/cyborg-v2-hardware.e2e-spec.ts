import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { attributeUuidOf, numericIdOf } from '@ledger/inventory';
import { hostname, hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';
import { expectCyborgRefusal } from '../support/cyborg-v2-assertions';

/** Real Cyborg's answers, captured from a running instance (test/fixtures/cyborg-v2-samples). */
const sample = (name: string) => JSON.parse(readFileSync(join(__dirname, '..', 'fixtures', 'cyborg-v2-samples', name), 'utf8'));

const V23 = { 'OpenStack-API-Version': 'accelerator 2.3' };
const CYBORG_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
const UNKNOWN = '0196b3c2-5a1e-7c3d-9f00-4c1ed6e7a999';
const IMAGE = '9e1b8a2c-4d3e-4f5a-8b6c-7d8e9f0a1b2c';
const programPatch = (imageUuid: unknown = IMAGE) => [{ op: 'replace', path: '/program', value: [{ image_uuid: imageUuid }] }];

describe('Cyborg v2: devices, deployables, attributes over HTTP (embedded SQLite)', () => {
  const host1 = hostname(1);
  const host2 = hostname(2);
  let ledger: TestLedger;
  let store: EventStore;
  let manager: string;
  let fpga: any;
  let gpu: any;

  beforeAll(async () => {
    ledger = await startTestLedger();
    store = ledger.app.get<EventStore>(EVENT_STORE);
    manager = ledger.token({ user: 'ops', project: 'ops', roles: ['manager'] });
    for (const [index, host] of [
      [1, host1],
      [2, host2],
    ] as const) {
      const agent = ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
      const reported = await ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agent, body: hostReportBody(index) });
      expect(reported.status).toBe(200);
    }
    const devices = (await admin('GET', `/v2/devices?hostname=${host1}`)).body.devices;
    fpga = devices.find((device: { type: string }) => device.type === 'FPGA');
    gpu = devices.find((device: { type: string }) => device.type === 'GPU');
  });
  afterAll(() => ledger.close());

  const admin = (method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
    ledger.request(method, path, { token: ledger.adminToken, ...options });
  const deployablesOf = async (device: { uuid: string }) =>
    (await admin('GET', '/v2/deployables')).body.deployables.filter((found: { device_id: number }) => found.device_id === numericIdOf(device.uuid));

  const expectRefused = (send: () => Promise<TestResponse>, status: number, code: string) => expectCyborgRefusal(store, send, status, code);

  describe('devices', () => {
    it('lists devices with the fields and field order of real Cyborg at 2.0, and adds status at 2.3', async () => {
      const listed = await admin('GET', '/v2/devices');
      expect(listed.status).toBe(200);
      expect(Object.keys(listed.body)).toEqual(['devices']);
      expect(listed.body.devices).toHaveLength(2 * 2 + 2 + 3);
      const sampleDevice = sample('devices_list.json').devices[0];
      for (const device of listed.body.devices) expect(Object.keys(device)).toEqual(Object.keys(sampleDevice));
      expect(fpga).toEqual({
        uuid: expect.any(String),
        type: 'FPGA',
        vendor: '8086',
        model: 'Intel PAC Arria 10 GX',
        std_board_info: expect.any(String),
        vendor_board_info: null,
        hostname: host1,
        links: [{ href: `${ledger.url}/v2/devices/${fpga.uuid}`, rel: 'self' }],
        created_at: expect.stringMatching(CYBORG_TIME),
        updated_at: expect.stringMatching(CYBORG_TIME),
      });
      expect(JSON.parse(fpga.std_board_info)).toEqual({ host: '1', interface_id: 'f3c99413-5081-4aad-bced-07eb84a6d0bb' });

      const at23 = await admin('GET', '/v2/devices', { headers: V23 });
      const keys = Object.keys(sampleDevice);
      const withStatus = [...keys.slice(0, keys.indexOf('hostname') + 1), 'status', ...keys.slice(keys.indexOf('hostname') + 1)];
      for (const device of at23.body.devices) expect(Object.keys(device)).toEqual(withStatus);
      expect(new Set(at23.body.devices.map((device: { status: string }) => device.status))).toEqual(new Set(['enabled']));
    });

    it('filters by type, vendor (any case, with or without 0x) and hostname, ignoring what is no filter', async () => {
      const uuids = async (query: string) => (await admin('GET', `/v2/devices${query}`)).body.devices.map((d: { uuid: string }) => d.uuid).sort();
      const gpus = await uuids('?type=GPU');
      expect(gpus).toHaveLength(5);
      expect(await uuids('?vendor=0x10DE')).toEqual(gpus);
      expect(await uuids('?vendor=10de')).toEqual(gpus);
      expect(await uuids(`?type=FPGA&hostname=${host1}`)).toEqual([fpga.uuid]);
      expect(await uuids('?hostname=nowhere')).toEqual([]);
      expect(await uuids('?board=x&marker=y')).toEqual(await uuids(''));
    });

    it('takes Cyborg\'s limit, sort_key and sort_dir, and refuses bad ones with 400', async () => {
      const byHost = (await admin('GET', '/v2/devices?sort_key=hostname&sort_dir=desc')).body.devices.map((d: { hostname: string }) => d.hostname);
      expect(byHost).toEqual([...byHost].sort().reverse());
      expect(byHost[0]).toBe(host2);
      expect((await admin('GET', '/v2/devices?limit=2')).body.devices).toHaveLength(2);
      await expectRefused(() => admin('GET', '/v2/devices?limit=0'), 400, 'INVENTORY.QUERY_INVALID');
      await expectRefused(() => admin('GET', '/v2/devices?limit=lots'), 400, 'INVENTORY.QUERY_INVALID');
      await expectRefused(() => admin('GET', '/v2/devices?sort_key=board'), 400, 'INVENTORY.QUERY_INVALID');
      await expectRefused(() => admin('GET', '/v2/devices?sort_dir=up'), 400, 'INVENTORY.QUERY_INVALID');
    });

    it('shows one device as a bare object, and answers 404 for an unknown one', async () => {
      const shown = await admin('GET', `/v2/devices/${gpu.uuid}`);
      expect(shown.status).toBe(200);
      expect(Object.keys(shown.body)).toEqual(Object.keys(sample('device_get.json')));
      expect(shown.body).toEqual(gpu);
      const message = await expectRefused(() => admin('GET', `/v2/devices/${UNKNOWN}`), 404, 'INVENTORY.DEVICE_NOT_FOUND');
      expect(Object.keys(sample('device_get_404.json'))).toEqual(['error_message']);
      expect(message).toContain(UNKNOWN);
    });

    it('disables and enables a device (admin), answering the device with its status at any microversion', async () => {
      const disabled = await admin('POST', `/v2/devices/${gpu.uuid}/disable`);
      expect(disabled.status).toBe(200);
      expect(disabled.body).toMatchObject({ uuid: gpu.uuid, status: 'maintaining' });
      expect((await admin('GET', `/v2/devices/${gpu.uuid}`, { headers: V23 })).body.status).toBe('maintaining');
      expect((await admin('GET', `/v2/devices/${gpu.uuid}`)).body).not.toHaveProperty('status');
      const events = await store.readStream(`device-${gpu.uuid}`);
      expect(events.map((event) => event.type)).toEqual(['inventory.DeviceDisabled']);

      const again = await admin('POST', `/v2/devices/${gpu.uuid}/disable`, { headers: V23 });
      expect(again.body.status).toBe('maintaining');
      expect(await store.readStream(`device-${gpu.uuid}`)).toHaveLength(1);

      const enabled = await admin('POST', `/v2/devices/${gpu.uuid}/enable`);
      expect(enabled.body.status).toBe('enabled');
      const statuses = (await admin('GET', `/v2/devices?type=GPU&hostname=${host1}`, { headers: V23 })).body.devices.map((d: { status: string }) => d.status);
      expect(statuses).toEqual(['enabled', 'enabled', 'enabled']);
      await expectRefused(() => admin('POST', `/v2/devices/${UNKNOWN}/disable`), 404, 'INVENTORY.DEVICE_NOT_FOUND');
    });
  });

  describe('deployables', () => {
    it('lists deployables shaped like real Cyborg\'s, with a real attributes list and no id', async () => {
      const listed = await admin('GET', '/v2/deployables');
      expect(listed.status).toBe(200);
      expect(listed.body.deployables).toHaveLength(9);
      for (const deployable of listed.body.deployables) {
        expect(Object.keys(deployable)).toEqual(Object.keys(sample('deployables_list.json').deployables[0]));
      }
      const [deployable] = await deployablesOf(fpga);
      expect(deployable).toEqual({
        uuid: expect.any(String),
        parent_id: null,
        root_id: null,
        name: `${host1}_0000:5e:00.0`,
        num_accelerators: 2,
        device_id: numericIdOf(fpga.uuid),
        attributes_list: [{ rc: 'FPGA' }, { trait0: 'CUSTOM_FPGA_INTEL' }, { trait1: 'CUSTOM_FPGA_INTEL_PAC_ARRIA10' }],
        rp_uuid: expect.any(String),
        driver_name: null,
        bitstream_id: null,
        links: [
          { href: `${ledger.url}/v2/deployables/${deployable.uuid}`, rel: 'self' },
          { href: `${ledger.url}/deployables/${deployable.uuid}`, rel: 'bookmark' },
        ],
        created_at: expect.stringMatching(CYBORG_TIME),
        updated_at: expect.stringMatching(CYBORG_TIME),
      });
      expect(Number.isSafeInteger(deployable.device_id) && deployable.device_id > 0).toBe(true);
    });

    it('shows one deployable, filters by name, sorts and limits', async () => {
      const [deployable] = await deployablesOf(fpga);
      const shown = await admin('GET', `/v2/deployables/${deployable.uuid}`);
      expect(Object.keys(shown.body)).toEqual(Object.keys(sample('deployable_get.json')));
      expect(shown.body).toEqual(deployable);
      expect((await admin('GET', `/v2/deployables?name=${deployable.name}`)).body.deployables).toEqual([deployable]);
      const counts = (await admin('GET', '/v2/deployables?sort_key=num_accelerators&sort_dir=desc&limit=3')).body.deployables.map(
        (found: { num_accelerators: number }) => found.num_accelerators,
      );
      expect(counts).toEqual([4, 4, 2]);
      await expectRefused(() => admin('GET', `/v2/deployables/${UNKNOWN}`), 404, 'INVENTORY.DEPLOYABLE_NOT_FOUND');
      await expectRefused(() => admin('GET', '/v2/deployables?limit=-1'), 400, 'INVENTORY.QUERY_INVALID');
    });

    it('records a programming request as a job and answers 202 with its address', async () => {
      const [deployable] = await deployablesOf(fpga);
      const programmed = await admin('PATCH', `/v2/deployables/${deployable.uuid}/program`, { body: programPatch() });
      expect(programmed.status).toBe(202);
      expect(programmed.body).toEqual(deployable);
      const jobId = /^\/api\/v1\/jobs\/([0-9a-f-]{36})$/.exec(programmed.headers.get('location') ?? '')?.[1];
      expect(jobId).toBeDefined();
      const [requested] = await store.readStream(`job-${jobId}`);
      expect(requested).toMatchObject({
        type: 'jobs.JobRequested',
        data: {
          jobId,
          hostname: host1,
          kind: 'program',
          params: { deviceUuid: fpga.uuid, deployableUuid: deployable.uuid, pciAddress: '0000:5e:00.0', image: { imageUuid: IMAGE } },
          timeoutSeconds: 600,
          requestedAt: expect.any(String),
        },
        metadata: expect.objectContaining({ actor: expect.objectContaining({ user: 'admin' }) }),
      });
      const job = await admin('GET', `/api/v1/jobs/${jobId}`, { headers: { 'x-ledger-min-position': String(requested.position) } });
      expect(job.body).toMatchObject({ jobId, hostname: host1, kind: 'program', state: 'requested' });
    });

    it('refuses to program what is not an FPGA, an unknown deployable, or any other patch', async () => {
      const [fpgaDeployable] = await deployablesOf(fpga);
      const [gpuDeployable] = await deployablesOf(gpu);
      const program = (uuid: string, body: unknown) => () => admin('PATCH', `/v2/deployables/${uuid}/program`, { body });
      await expectRefused(program(gpuDeployable.uuid, programPatch()), 409, 'DEPLOYABLE.NOT_PROGRAMMABLE');
      await expectRefused(program(UNKNOWN, programPatch()), 404, 'INVENTORY.DEPLOYABLE_NOT_FOUND');
      for (const body of [
        {},
        [],
        programPatch('not-a-uuid'),
        [{ op: 'add', path: '/program', value: [{ image_uuid: IMAGE }] }],
        [{ op: 'replace', path: '/name', value: [{ image_uuid: IMAGE }] }],
        [{ op: 'replace', path: '/program', value: [{ image_uuid: IMAGE }, { image_uuid: IMAGE }] }],
        [...programPatch(), ...programPatch()],
      ]) {
        await expectRefused(program(fpgaDeployable.uuid, body), 400, 'REQUEST.INVALID');
      }
    });
  });

  describe('attributes', () => {
    let deployable: any;
    beforeAll(async () => {
      [deployable] = await deployablesOf(fpga);
    });

    it('lists the discovered attributes of a deployable, and shows one', async () => {
      const listed = await admin('GET', `/v2/attributes?deployable_id=${numericIdOf(deployable.uuid)}`);
      expect(listed.status).toBe(200);
      expect(listed.body.attributes.map((attribute: { key: string; value: string }) => [attribute.key, attribute.value])).toEqual([
        ['rc', 'FPGA'],
        ['trait0', 'CUSTOM_FPGA_INTEL'],
        ['trait1', 'CUSTOM_FPGA_INTEL_PAC_ARRIA10'],
      ]);
      const [rc] = listed.body.attributes;
      expect(rc).toEqual({
        uuid: attributeUuidOf(deployable.uuid, 'rc'),
        deployable_id: numericIdOf(deployable.uuid),
        key: 'rc',
        value: 'FPGA',
        links: [{ href: `${ledger.url}/v2/attributes/${rc.uuid}`, rel: 'self' }],
        created_at: expect.stringMatching(CYBORG_TIME),
        updated_at: expect.stringMatching(CYBORG_TIME),
      });
      expect((await admin('GET', `/v2/attributes/${rc.uuid}`)).body).toEqual(rc);
      const rcs = (await admin('GET', '/v2/attributes?key=rc')).body.attributes;
      expect(rcs).toHaveLength(9);
      await expectRefused(() => admin('GET', '/v2/attributes?deployable_id=x'), 400, 'INVENTORY.QUERY_INVALID');
      await expectRefused(() => admin('GET', `/v2/attributes/${UNKNOWN}`), 404, 'ATTRIBUTE.NOT_FOUND');
    });

    it('creates, lists, shows and deletes an operator\'s attribute; the deployable lists it too', async () => {
      const deployableId = numericIdOf(deployable.uuid);
      const created = await admin('POST', '/v2/attributes', { body: { deployable_id: deployableId, key: 'owner', value: 'team-a' } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        uuid: attributeUuidOf(deployable.uuid, 'owner'),
        deployable_id: deployableId,
        key: 'owner',
        value: 'team-a',
        links: [{ href: `${ledger.url}/v2/attributes/${created.body.uuid}`, rel: 'self' }],
        created_at: expect.stringMatching(CYBORG_TIME),
        updated_at: created.body.created_at,
      });
      expect((await admin('GET', `/v2/attributes/${created.body.uuid}`)).body).toEqual(created.body);
      expect((await admin('GET', `/v2/attributes?deployable_id=${deployableId}&key=owner`)).body.attributes).toEqual([created.body]);
      expect((await admin('GET', `/v2/deployables/${deployable.uuid}`)).body.attributes_list.at(-1)).toEqual({ owner: 'team-a' });
      expect((await store.readStream(`attribute-${created.body.uuid}`)).map((event) => event.type)).toEqual(['inventory.AttributeCreated']);

      const deleted = await admin('DELETE', `/v2/attributes/${created.body.uuid}`);
      expect(deleted.status).toBe(204);
      await expectRefused(() => admin('GET', `/v2/attributes/${created.body.uuid}`), 404, 'ATTRIBUTE.NOT_FOUND');
      await expectRefused(() => admin('DELETE', `/v2/attributes/${created.body.uuid}`), 404, 'ATTRIBUTE.NOT_FOUND');
      expect((await admin('GET', `/v2/deployables/${deployable.uuid}`)).body.attributes_list).toHaveLength(3);
    });

    it('refuses discovered keys, duplicates, bad keys and values, and unknown deployables, appending nothing', async () => {
      const deployableId = numericIdOf(deployable.uuid);
      const post = (body: unknown) => () => admin('POST', '/v2/attributes', { body });
      expect((await post({ deployable_id: deployableId, key: 'site', value: 'dc1' })()).status).toBe(201);
      await expectRefused(post({ deployable_id: deployableId, key: 'site', value: 'dc2' }), 409, 'ATTRIBUTE.DUPLICATE_KEY');
      await expectRefused(post({ deployable_id: deployableId, key: 'rc', value: 'GPU' }), 409, 'ATTRIBUTE.RESERVED_KEY');
      await expectRefused(post({ deployable_id: deployableId, key: 'trait7', value: 'CUSTOM_X' }), 409, 'ATTRIBUTE.RESERVED_KEY');
      await expectRefused(post({ deployable_id: deployableId, key: 'a b', value: 'x' }), 400, 'ATTRIBUTE.INVALID');
      await expectRefused(post({ deployable_id: deployableId, key: 'long', value: 'x'.repeat(256) }), 400, 'ATTRIBUTE.INVALID');
      await expectRefused(post({ deployable_id: deployableId + 1, key: 'owner', value: 'x' }), 400, 'ATTRIBUTE.UNKNOWN_DEPLOYABLE');
      await expectRefused(post({ deployable_id: String(deployableId), key: 'owner', value: 'x' }), 400, 'REQUEST.INVALID');
      await expectRefused(post({ deployable_id: deployableId, key: 'owner' }), 400, 'REQUEST.INVALID');
      await expectRefused(() => admin('DELETE', `/v2/attributes/${attributeUuidOf(deployable.uuid, 'rc')}`), 409, 'ATTRIBUTE.DISCOVERED');
      await expectRefused(() => admin('DELETE', `/v2/attributes/${UNKNOWN}`), 404, 'ATTRIBUTE.NOT_FOUND');
      expect((await admin('GET', `/v2/attributes/${attributeUuidOf(deployable.uuid, 'rc')}`)).status).toBe(200);
    });
  });

  describe('policy: managers read, admins write', () => {
    const as = (roles: ('member' | 'reader' | 'manager')[]) => ledger.token({ user: roles[0], project: 'p', roles });

    it.each(['/v2/devices', '/v2/deployables', '/v2/attributes'])('refuses %s to members and readers, serves managers', async (path) => {
      for (const role of ['member', 'reader'] as const) {
        await expectRefused(() => ledger.request('GET', path, { token: as([role]) }), 403, 'AUTH.POLICY_DENIED');
      }
      expect((await ledger.request('GET', path, { token: manager })).status).toBe(200);
    });

    it('lets a manager write nothing', async () => {
      const [deployable] = await deployablesOf(fpga);
      const writes: [string, string, unknown][] = [
        ['POST', `/v2/devices/${gpu.uuid}/disable`, undefined],
        ['POST', `/v2/devices/${gpu.uuid}/enable`, undefined],
        ['PATCH', `/v2/deployables/${deployable.uuid}/program`, programPatch()],
        ['POST', '/v2/attributes', { deployable_id: numericIdOf(deployable.uuid), key: 'k', value: 'v' }],
        ['DELETE', `/v2/attributes/${attributeUuidOf(deployable.uuid, 'site')}`, undefined],
      ];
      for (const [method, path, body] of writes) {
        await expectRefused(() => ledger.request(method, path, { token: manager, body }), 403, 'AUTH.POLICY_DENIED');
      }
      expect((await ledger.request('GET', `/v2/devices/${gpu.uuid}`, { token: manager })).status).toBe(200);
    });
  });
});
