import { startTestLedger, type TestLedger } from '../support/ledger-app';

const fpga = (pciAddress: string, vfs: string[] = []) => ({
  type: 'FPGA',
  vendorId: '8086',
  productId: '09c4',
  model: 'Intel PAC Arria 10 GX',
  pciAddress,
  boardInfo: { interface_id: 'f3c99413-5081-4aad-bced-07eb84a6d0bb' },
  driver: 'intel-fpga-pci',
  numaNode: 0,
  deployables: [
    {
      resourceClass: 'FPGA',
      count: Math.max(1, vfs.length),
      traits: ['CUSTOM_FPGA_INTEL'],
      attachHandles: (vfs.length ? vfs : [pciAddress]).map((address) => ({ kind: vfs.length ? 'VF' : 'PCI', address })),
    },
  ],
});

const gpu = (pciAddress: string) => ({
  type: 'GPU',
  vendorId: '10de',
  productId: '20b5',
  model: 'NVIDIA A100 80GB PCIe',
  pciAddress,
  boardInfo: { serial: `S-${pciAddress}` },
  driver: 'vfio-pci',
  numaNode: 1,
  capacity: { memoryGiB: 80 },
  deployables: [{ resourceClass: 'PGPU', count: 1, traits: ['CUSTOM_NVIDIA_20B5'], attachHandles: [{ kind: 'PCI', address: pciAddress }] }],
});

describe('inventory over HTTP (embedded SQLite)', () => {
  let ledger: TestLedger;
  let agent: string;

  beforeAll(async () => {
    ledger = await startTestLedger();
    agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
  });
  afterAll(() => ledger.close());

  const report = (devices: unknown[], host = 'compute-1', token = agent) =>
    ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token, body: { devices } });
  const admin = (path: string, headers: Record<string, string> = {}) => ledger.request('GET', path, { token: ledger.adminToken, headers });
  const head = async () => (await ledger.request('GET', '/readyz')).body.headPosition as number;

  it('records a first report as registration and discoveries, and an unchanged one as nothing', async () => {
    const first = await report([fpga('0000:5e:00.0', ['0000:5e:00.1', '0000:5e:00.2']), gpu('0000:3b:00.0')]);
    expect(first.status).toBe(200);
    expect(first.body.events).toEqual(['inventory.HostRegistered', 'inventory.DeviceDiscovered', 'inventory.DeviceDiscovered']);
    const before = await head();
    const again = await report([gpu('0000:3b:00.0'), fpga('0000:5e:00.0', ['0000:5e:00.1', '0000:5e:00.2'])]);
    expect(again.body).toMatchObject({ appended: 0, position: null, events: [] });
    expect(await head()).toBe(before);
  });

  it('serves what was reported from the projection, read-your-writes by position', async () => {
    const changed = await report([fpga('0000:5e:00.0', ['0000:5e:00.1']), gpu('0000:3b:00.0'), gpu('0000:af:00.0')]);
    expect(changed.body.events).toEqual(expect.arrayContaining(['inventory.AttachHandlesRemoved', 'inventory.DeviceDiscovered']));
    const wait = { 'x-ledger-min-position': String(changed.body.position) };

    const devices = await admin('/api/v1/devices?hostname=compute-1', wait);
    expect(devices.status).toBe(200);
    expect(devices.body.items.map((d: { pciAddress: string }) => d.pciAddress).sort()).toEqual(['0000:3b:00.0', '0000:5e:00.0', '0000:af:00.0']);

    const gpus = await admin('/api/v1/devices?type=GPU&vendor=0x10DE', wait);
    expect(gpus.body.items).toHaveLength(2);

    const fpgaDeployables = await admin('/api/v1/deployables?resourceClass=FPGA', wait);
    expect(fpgaDeployables.body.items).toHaveLength(1);
    const deployable = await admin(`/api/v1/deployables/${fpgaDeployables.body.items[0].uuid}`, wait);
    expect(deployable.body.attachHandles.map((h: { address: string }) => h.address)).toEqual(['0000:5e:00.1']);
    expect(deployable.body.count).toBe(1);

    const host = await admin('/api/v1/hosts/compute-1', wait);
    expect(host.body).toMatchObject({ hostname: 'compute-1', deviceCount: 3 });
  });

  it('pages through devices with a cursor, never repeating or skipping', async () => {
    const many = Array.from({ length: 7 }, (_, i) => gpu(`0000:${(0x10 + i).toString(16)}:00.0`));
    const result = await report(many, 'compute-9', ledger.adminToken);
    const wait = { 'x-ledger-min-position': String(result.body.position) };
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { uuid: string }[]; nextCursor: string | null } } = await admin(
        `/api/v1/devices?hostname=compute-9&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
        wait,
      );
      seen.push(...page.body.items.map((d) => d.uuid));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
  });

  it('removes a device that disappears from the report', async () => {
    const result = await report([fpga('0000:5e:00.0', ['0000:5e:00.1']), gpu('0000:3b:00.0')]);
    expect(result.body.events).toEqual(['inventory.DeviceRemoved']);
    const devices = await admin('/api/v1/devices?hostname=compute-1', { 'x-ledger-min-position': String(result.body.position) });
    expect(devices.body.items).toHaveLength(2);
  });

  it('puts a device in maintenance and back, idempotently, admins only', async () => {
    const { body } = await admin('/api/v1/devices?type=GPU&hostname=compute-1');
    const uuid = body.items[0].uuid;
    const disable = () => ledger.request('POST', `/api/v1/devices/${uuid}/disable`, { token: ledger.adminToken, body: { reason: 'fan' } });
    const first = await disable();
    expect(first.body).toMatchObject({ status: 'maintaining', appended: 1 });
    expect((await disable()).body).toMatchObject({ appended: 0 });
    const shown = await admin(`/api/v1/devices/${uuid}`, { 'x-ledger-min-position': String(first.body.position) });
    expect(shown.body).toMatchObject({ status: 'maintaining', disabledReason: 'fan' });

    const byAgent = await ledger.request('POST', `/api/v1/devices/${uuid}/enable`, { token: agent });
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.code).toBe('AUTH.ROLE_REQUIRED');
    const enabled = await ledger.request('POST', `/api/v1/devices/${uuid}/enable`, { token: ledger.adminToken });
    expect(enabled.body).toMatchObject({ status: 'enabled', appended: 1 });
  });

  describe('refuses bad input with a stable code and appends nothing', () => {
    const cases: [string, () => Promise<{ status: number; body: any }>, number, string][] = [
      ['no token', () => ledger.request('PUT', '/api/v1/hosts/compute-1/report', { body: { devices: [] } }), 401, 'AUTH.TOKEN_MISSING'],
      ['a forged token', () => report([], 'compute-1', `${agent.slice(0, -4)}AAAA`), 401, 'AUTH.TOKEN_INVALID'],
      ["another host's credential", () => report([], 'compute-2'), 403, 'AUTH.WRONG_HOST'],
      ['a reader token', () => report([], 'compute-1', ledger.token({ user: 'r', project: 'p', roles: ['reader'] })), 403, 'AUTH.ROLE_REQUIRED'],
      [
        'malformed JSON',
        () => ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, rawBody: '{"devices":', headers: { 'content-type': 'application/json' } }),
        400,
        'REQUEST.MALFORMED_JSON',
      ],
      [
        'a non-JSON media type',
        () => ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, rawBody: 'devices', headers: { 'content-type': 'text/plain' } }),
        415,
        'REQUEST.UNSUPPORTED_MEDIA_TYPE',
      ],
      [
        'an oversized body',
        () => ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: { devices: [], pad: 'x'.repeat(1_100_000) } }),
        413,
        'REQUEST.TOO_LARGE',
      ],
      ['a wrong shape', () => report([{ type: 'XPU', pciAddress: 'nowhere' }]), 400, 'REQUEST.INVALID'],
      ['an unknown field', () => ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: { devices: [], extra: 1 } }), 400, 'REQUEST.INVALID'],
      ['a duplicate PCI address', () => report([gpu('0000:3b:00.0'), gpu('0000:3b:00.0')]), 400, 'INVENTORY.REPORT_INVALID'],
      ['too many devices', () => report(Array.from({ length: 257 }, (_, i) => gpu(`0000:${(i >> 4).toString(16).padStart(2, '0')}:${(i & 15).toString(16).padStart(2, '0')}.0`))), 413, 'INVENTORY.REPORT_TOO_LARGE'],
      ['a bad host name', () => report([], 'bad_host!', ledger.adminToken), 400, 'INVENTORY.REPORT_INVALID'],
    ];

    it.each(cases)('%s', async (_, send, status, code) => {
      const before = await head();
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.body).toMatchObject({ status, code, type: `urn:accelerator-ledger:problem:${code}` });
      expect(await head()).toBe(before);
    });
  });

  it('answers bad identifiers and unknown resources with problem details', async () => {
    expect((await admin('/api/v1/devices/not-a-uuid')).body.code).toBe('REQUEST.INVALID');
    expect((await admin('/api/v1/devices/0196b3c2-5a1e-7c3d-9f00-4c1ed6e7a999')).body.code).toBe('INVENTORY.DEVICE_NOT_FOUND');
    expect((await admin('/api/v1/hosts/nowhere')).status).toBe(404);
    expect((await admin('/api/v1/devices?limit=5000')).body.code).toBe('REQUEST.INVALID');
    expect((await admin('/api/v1/devices?cursor=garbage')).body.code).toBe('INVENTORY.QUERY_INVALID');
    expect((await admin('/api/v1/nothing-here')).body.code).toBe('ROUTE.NOT_FOUND');
  });

  it('keeps inventory reads for operators', async () => {
    const member = ledger.token({ user: 'm', project: 'p', roles: ['member'] });
    expect((await ledger.request('GET', '/api/v1/devices', { token: member })).status).toBe(403);
    const manager = ledger.token({ user: 'ops', project: 'p', roles: ['manager'] });
    expect((await ledger.request('GET', '/api/v1/devices', { token: manager })).status).toBe(200);
  });

  it('publishes health, readiness and an OpenAPI document generated from the controllers', async () => {
    expect((await ledger.request('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const ready = await ledger.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toMatchObject({ eventStore: { ok: true }, readModels: { ok: true }, processors: { ok: true } });
    const openapi = await ledger.request('GET', '/api/v1/openapi.json');
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/hosts/{hostname}/report', '/api/v1/devices', '/api/v1/devices/{uuid}/disable', '/api/v1/deployables/{uuid}']),
    );
    expect(openapi.body.components.schemas.ReportedDeviceDto.required).toEqual(expect.arrayContaining(['type', 'pciAddress']));
    expect(openapi.body.paths['/api/v1/devices'].get.responses.default.content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/Problem',
    });
  });
});
