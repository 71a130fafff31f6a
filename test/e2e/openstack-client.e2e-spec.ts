import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { type CliRun, openstackCli, type OpenstackCli } from '../support/openstack-cli';
import { describeWithService, openstackClientUnavailable } from '../support/services';

/**
 * The real `openstack accelerator` CLI (python3-cyborgclient 2.0.0) against
 * one in-process ledger: what a user types, what it prints, and what the
 * ledger holds afterwards (CYBORG-V2.md §11). Each call costs a Python
 * start-up (1–2 s), so independent calls run side by side and related
 * assertions share a test.
 */
const INSTANCE = '6f0f3a4e-2f55-4b7c-9d1e-0a1b2c3d4e5f';
const UNKNOWN = '0b7e3f36-5d0c-4e6b-8f3a-7c1d2e3f4a5b';
const FPGA_GROUPS = [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }];
const CLI_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

// About twenty CLI calls of 1–2 s each, several at a time; a loaded machine can triple that.
jest.setTimeout(120_000);

describeWithService('openstack accelerator client', openstackClientUnavailable())('openstack accelerator (the real client) against the ledger', () => {
  let ledger: TestLedger;
  let cli: OpenstackCli;
  let admin: string;
  let tenant: string; // a member of tenant-a
  let nova: string; // Nova acting for tenant-a: member plus its service role
  let reader: string;
  let fpga: { uuid: string; deviceUuid: string; rpUuid: string; name: string };

  beforeAll(async () => {
    ledger = await startTestLedger();
    cli = openstackCli(ledger.url);
    admin = ledger.adminToken;
    tenant = ledger.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
    nova = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    reader = ledger.token({ user: 'rita', project: 'tenant-a', roles: ['reader'] });
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 0) });
    expect(report.status).toBe(200);
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', {
      token: admin,
      headers: { 'x-ledger-min-position': String(report.body.position) },
    });
    fpga = deployables.body.items.find((deployable: any) => deployable.resourceClass === 'FPGA');
    const profile = await ledger.request('POST', '/v2/device_profiles', { token: admin, body: [{ name: 'fpga-dp', groups: FPGA_GROUPS }] });
    expect(profile.status).toBe(201);
  });

  afterAll(async () => {
    cli?.close();
    await ledger?.close();
  });

  const accelerator = (token: string, ...args: string[]) => cli.accelerator(token, args);
  /** `-f json` output of a call that must succeed (otherwise the error carries the call's whole output). */
  const json = async (call: Promise<CliRun>) => (await call).json();

  it('creates a device profile with a description, lists it, shows it by uuid and by name, and deletes it', async () => {
    const created = await json(accelerator(admin, 'device', 'profile', 'create', 'fpga-cli', JSON.stringify(FPGA_GROUPS), '--description', 'One Intel FPGA', '-f', 'json'));
    expect(created).toEqual({
      uuid: expect.any(String),
      name: 'fpga-cli',
      groups: FPGA_GROUPS,
      description: 'One Intel FPGA',
      created_at: expect.stringMatching(CLI_TIME),
      updated_at: null,
    });

    const [listed, byUuid, byName, novaLookup] = await Promise.all([
      json(accelerator(reader, 'device', 'profile', 'list', '-f', 'json')),
      json(accelerator(reader, 'device', 'profile', 'show', created.uuid, '-f', 'json')),
      json(accelerator(reader, 'device', 'profile', 'show', 'fpga-cli', '-f', 'json')),
      ledger.request('GET', '/v2/device_profiles?name=fpga-cli', { token: nova }),
    ]);
    expect(listed).toContainEqual({ uuid: created.uuid, name: 'fpga-cli', groups: FPGA_GROUPS, description: 'One Intel FPGA' });
    expect(listed.map((profile: any) => profile.name).sort()).toEqual(['fpga-cli', 'fpga-dp']);
    expect(byUuid).toEqual(created);
    expect(byName).toEqual(created);
    // Nova finds the profile by the flavor's accel:device_profile, exactly one.
    expect(novaLookup.status).toBe(200);
    expect(novaLookup.body.device_profiles).toEqual([expect.objectContaining({ uuid: created.uuid, name: 'fpga-cli', groups: FPGA_GROUPS, description: 'One Intel FPGA' })]);

    const deleted = await accelerator(admin, 'device', 'profile', 'delete', created.uuid);
    expect(deleted).toMatchObject({ code: 0, stdout: `Deleted device_profile ${created.uuid}\n` });
    const [gone, afterDelete] = await Promise.all([
      ledger.request('GET', `/v2/device_profiles/${created.uuid}`, { token: admin }),
      ledger.request('GET', '/v2/device_profiles?name=fpga-cli', { token: nova }),
    ]);
    expect(gone.status).toBe(404);
    expect(afterDelete.body.device_profiles).toEqual([]);
  });

  it('works with an endpoint without /v2: version discovery at /, then unversioned paths as Cyborg serves them', async () => {
    const [withToken, withoutAuth] = await Promise.all([
      // With a token, the client keeps the root as its endpoint after discovery and sends unversioned paths,
      // which Cyborg routes to its default version (RootController._route).
      cli.accelerator(reader, ['device', 'profile', 'list', '-f', 'json'], { endpoint: ledger.url }),
      // Without auth, it follows the version document's link to /v2; the ledger then wants a token.
      cli.accelerator(null, ['device', 'profile', 'list', '-f', 'json'], { endpoint: ledger.url }),
    ]);
    expect(withoutAuth).toMatchObject({ code: 1, stderr: expect.stringContaining(`401: Client Error for url: ${ledger.url}/v2/device_profiles`) });
    expect(withToken.json().map((profile: any) => profile.name)).toContain('fpga-dp');
  });

  it('creates, lists, shows, binds, unbinds and deletes an accelerator request', async () => {
    const created = await json(accelerator(tenant, 'arq', 'create', 'fpga-dp', '-f', 'json'));
    const unbound = { device_profile_name: 'fpga-dp', hostname: null, device_rp_uuid: null, instance_uuid: null, attach_handle_type: '', attach_handle_info: {} };
    expect(created).toEqual({ uuid: expect.any(String), state: 'Initial', ...unbound });

    const [listed, shown, asNovaSeesIt] = await Promise.all([
      json(accelerator(tenant, 'arq', 'list', '-f', 'json')),
      json(accelerator(reader, 'arq', 'show', created.uuid, '-f', 'json')),
      ledger.request('GET', `/v2/accelerator_requests/${created.uuid}`, { token: nova }),
    ]);
    expect(listed).toEqual([{ uuid: created.uuid, state: 'Initial', device_profile_name: 'fpga-dp', instance_uuid: null, attach_handle_type: '', attach_handle_info: {} }]);
    expect(shown).toEqual(created);
    expect(asNovaSeesIt.body).toMatchObject({ uuid: created.uuid, project_id: 'tenant-a', device_profile_group_id: 0, state: 'Initial' });

    // The client sends its project_id argument nowhere; the ledger takes the caller's project.
    const bound = await json(accelerator(nova, 'arq', 'bind', created.uuid, 'compute-1', INSTANCE, fpga.rpUuid, 'tenant-a', '-f', 'json'));
    const boundFields = {
      uuid: created.uuid,
      state: 'Bound',
      device_profile_name: 'fpga-dp',
      hostname: 'compute-1',
      device_rp_uuid: fpga.rpUuid,
      instance_uuid: INSTANCE,
      attach_handle_type: 'PCI',
      attach_handle_info: { domain: '0000', bus: '5e', device: '00', function: '1' },
    };
    expect(bound).toEqual(boundFields);
    const [shownBound, novaPoll] = await Promise.all([
      json(accelerator(tenant, 'arq', 'show', created.uuid, '-f', 'json')),
      ledger.request('GET', `/v2/accelerator_requests?instance=${INSTANCE}&bind_state=resolved`, { token: nova }),
    ]);
    expect(shownBound).toEqual(boundFields);
    expect(novaPoll.status).toBe(200);
    expect(novaPoll.body.arqs).toEqual([expect.objectContaining({ ...boundFields, project_id: 'tenant-a' })]);

    const unboundNow = await json(accelerator(nova, 'arq', 'unbind', created.uuid, '-f', 'json'));
    expect(unboundNow).toEqual({ uuid: created.uuid, state: 'Unbound', ...unbound });

    const deleted = await accelerator(tenant, 'arq', 'delete', created.uuid);
    expect(deleted).toMatchObject({ code: 0, stdout: `Deleted accelerator_request ${created.uuid}\n` });
    const [listedAfter, gone] = await Promise.all([
      ledger.request('GET', '/v2/accelerator_requests', { token: tenant }),
      ledger.request('GET', `/v2/accelerator_requests/${created.uuid}`, { token: admin }),
    ]);
    expect(listedAfter.body.arqs).toEqual([]);
    expect(gone.status).toBe(404);
  });

  it('lists and shows devices and deployables', async () => {
    const [devices, device, deployables, deployable, v2Device] = await Promise.all([
      json(accelerator(admin, 'device', 'list', '-f', 'json')),
      json(accelerator(admin, 'device', 'show', fpga.deviceUuid, '-f', 'json')),
      json(accelerator(admin, 'deployable', 'list', '-f', 'json')),
      json(accelerator(admin, 'deployable', 'show', fpga.uuid, '-f', 'json')),
      ledger.request('GET', `/v2/devices/${fpga.deviceUuid}`, { token: admin }),
    ]);
    expect(devices).toHaveLength(5);
    expect(devices.map((row: any) => row.type).sort()).toEqual(['FPGA', 'GPU', 'GPU', 'GPU', 'NIC']);
    const fpgaRow = { uuid: fpga.deviceUuid, type: 'FPGA', vendor: '8086', hostname: 'compute-1', std_board_info: v2Device.body.std_board_info };
    expect(devices).toContainEqual(fpgaRow);
    expect(device).toEqual({
      ...fpgaRow,
      model: 'Intel PAC Arria 10 GX',
      vendor_board_info: v2Device.body.vendor_board_info,
      created_at: expect.stringMatching(CLI_TIME),
      updated_at: expect.stringMatching(CLI_TIME),
    });
    expect(JSON.parse(device.std_board_info)).toMatchObject({ interface_id: 'f3c99413-5081-4aad-bced-07eb84a6d0bb' });

    expect(deployables).toHaveLength(5);
    expect(deployables).toContainEqual({ uuid: fpga.uuid, name: fpga.name, device_id: expect.any(Number) });
    expect(deployable).toEqual({ uuid: fpga.uuid, name: fpga.name, created_at: expect.stringMatching(CLI_TIME), updated_at: expect.stringMatching(CLI_TIME) });
  });

  it('shows the user what went wrong: unknown uuids, a missing role', async () => {
    const [unknownProfile, unknownArq, readerCreate] = await Promise.all([
      accelerator(admin, 'device', 'profile', 'show', UNKNOWN, '-f', 'json'),
      accelerator(tenant, 'arq', 'delete', UNKNOWN),
      accelerator(reader, 'device', 'profile', 'create', 'reader-made', JSON.stringify(FPGA_GROUPS), '-f', 'json'),
    ]);
    expect(unknownProfile).toMatchObject({ code: 1, stdout: '', stderr: `device_profile ${UNKNOWN} not found\n` });
    expect(unknownArq).toMatchObject({ code: 1, stderr: expect.stringContaining(`No accelerator_request with UUID ${UNKNOWN} exists.`) });
    expect(readerCreate).toMatchObject({ code: 1, stderr: expect.stringContaining(`403: Client Error for url: ${ledger.url}/v2/device_profiles`) });
    const readerMade = await ledger.request('GET', '/v2/device_profiles?name=reader-made', { token: admin });
    expect(readerMade.body.device_profiles).toEqual([]);
  });

  it("passes the ledger's reason for a refusal on to the user, as it does Cyborg's faultstring", async () => {
    const refused = await ledger.request('POST', '/v2/device_profiles', { token: reader, body: [{ name: 'reader-made', groups: FPGA_GROUPS }] });
    expect(refused.status).toBe(403);
    const run = await accelerator(reader, 'device', 'profile', 'create', 'reader-made', JSON.stringify(FPGA_GROUPS), '-f', 'json');
    expect(run).toMatchObject({ code: 1, stderr: expect.stringContaining(refused.body.error_message) });
  });
});
