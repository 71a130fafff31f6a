import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@ledger/processing/testing';
import { hostReportBody } from '../support/fleet';
import type { KeystoneAdmin } from '../support/keystone-admin';
import { keystoneMissing, type KeystoneService, startKeystoneService } from '../support/keystone-service';
import { startTestLedger, type TestLedger, type TestResponse } from '../support/ledger-app';
import { type KeystoneLogin, openstackCli, type OpenstackCli } from '../support/openstack-cli';
import { DEBIAN_PYTHON } from '../support/python-service';
import { describeWithService, openstackClientUnavailable, postgresUnavailable, postgresUrl } from '../support/services';

/**
 * The ledger as a drop-in for Cyborg in a cloud with a real Keystone
 * (Debian's python3-keystone): users log in with passwords, the real
 * `openstack accelerator` CLI finds the ledger in the service catalog, a
 * Nova-shaped keystoneauth client sends the user's token with its own
 * service token, and the ledger validates every token with Keystone.
 */
const INSTANCE = '3c5e1f0a-7b2d-4e8f-9a6c-1d2e3f4a5b6c';
const FPGA_GROUPS = [{ 'resources:FPGA': '1', 'trait:CUSTOM_FPGA_INTEL': 'required' }];
/** How long the ledger trusts a validation: a revoked token is refused within it. */
const REVALIDATE_SECONDS = 2;

// Each CLI call costs a Python start-up (1–2 s), Keystone's set-up about 10 s; a loaded machine can triple that.
jest.setTimeout(180_000);

const unavailable = keystoneMissing() ?? postgresUnavailable() ?? openstackClientUnavailable();

describeWithService('Keystone (python3-keystone on PostgreSQL) and the openstack CLI', unavailable)('the ledger behind a real Keystone', () => {
  let keystone: KeystoneService;
  let admin: KeystoneAdmin;
  let ledger: TestLedger;
  let cli: OpenstackCli;
  let tenantA: string;
  let fpgaRp: string;
  let policyDir: string;
  const login = (user: string, project: string): KeystoneLogin => ({ authUrl: keystone.url, user, password: `${user}-pw`, project });
  const tokenOf = async (user: string, project: string) => (await admin.issue({ user, password: `${user}-pw`, project })).token;
  const v2 = (method: string, path: string, token: string, headers: Record<string, string> = {}, body?: unknown) =>
    ledger.request(method, `/v2${path}`, { headers: { 'x-auth-token': token, ...headers }, ...(body !== undefined ? { body } : {}) });
  const refusal = (response: TestResponse) => [response.status, response.headers.get('x-error-code')];

  beforeAll(async () => {
    keystone = await startKeystoneService({ postgresUrl: postgresUrl() });
    admin = await keystone.admin();
    const service = await admin.createProject('service');
    await admin.userWithRoles('ledger', 'ledger-pw', service, ['service']);
    await admin.userWithRoles('nova', 'nova-pw', service, ['service']);
    tenantA = await admin.createProject('tenant-a');
    const tenantB = await admin.createProject('tenant-b');
    await admin.userWithRoles('alice', 'alice-pw', tenantA, ['member']);
    await admin.userWithRoles('rita', 'rita-pw', tenantA, ['reader']);
    await admin.userWithRoles('bob', 'bob-pw', tenantB, ['member']);
    await admin.userWithRoles('olga', 'olga-pw', tenantA, ['admin']);

    // The operator's policy.yaml lets readers create accelerator requests, which Cyborg's default keeps to members.
    policyDir = mkdtempSync(join(tmpdir(), 'keystone-policy-'));
    writeFileSync(join(policyDir, 'policy.yaml'), '"cyborg:arq:create": "rule:project_member_or_service or rule:project_reader_api"\n');
    ledger = await startTestLedger({
      LEDGER_POLICY_FILE: join(policyDir, 'policy.yaml'),
      LEDGER_AUTH: 'keystone',
      LEDGER_KEYSTONE_URL: keystone.url,
      LEDGER_KEYSTONE_USERNAME: 'ledger',
      LEDGER_KEYSTONE_PASSWORD: 'ledger-pw',
      LEDGER_KEYSTONE_TOKEN_CACHE_SECONDS: String(REVALIDATE_SECONDS),
    });
    // What an operator does once: `openstack service create --name cyborg accelerator` and `endpoint create`.
    await admin.registerService('accelerator', 'cyborg', `${ledger.url}/v2`);
    cli = openstackCli(ledger.url);

    // Agents keep speaking with the ledger's own per-host tokens beside Keystone's.
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 0) });
    expect(report.status).toBe(200);
    const olga = await tokenOf('olga', 'tenant-a');
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', {
      token: olga,
      headers: { 'x-ledger-min-position': String(report.body.position) },
    });
    fpgaRp = deployables.body.items.find((deployable: { resourceClass: string }) => deployable.resourceClass === 'FPGA').rpUuid;
    expect((await v2('POST', '/device_profiles', olga, {}, [{ name: 'fpga-dp', groups: FPGA_GROUPS }])).status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    cli?.close();
    await ledger?.close();
    await keystone?.dispose();
    if (policyDir) rmSync(policyDir, { recursive: true, force: true });
  });

  it('serves the real openstack CLI logged in with a password, finding the ledger in the catalog', async () => {
    const created = (await cli.acceleratorWithPassword(login('alice', 'tenant-a'), ['arq', 'create', 'fpga-dp', '-f', 'json'])).json();
    expect(created).toMatchObject({ uuid: expect.any(String), state: 'Initial', device_profile_name: 'fpga-dp' });
    const [listedByAlice, shownToRita, listedByBob, profiles, devicesAsMember] = await Promise.all([
      cli.acceleratorWithPassword(login('alice', 'tenant-a'), ['arq', 'list', '-f', 'json']),
      cli.acceleratorWithPassword(login('rita', 'tenant-a'), ['arq', 'show', created.uuid, '-f', 'json']),
      cli.acceleratorWithPassword(login('bob', 'tenant-b'), ['arq', 'list', '-f', 'json']),
      cli.acceleratorWithPassword(login('olga', 'tenant-a'), ['device', 'profile', 'list', '-f', 'json']),
      cli.acceleratorWithPassword(login('alice', 'tenant-a'), ['device', 'list', '-f', 'json']),
    ]);
    expect(listedByAlice.json()).toEqual([expect.objectContaining({ uuid: created.uuid })]);
    expect(shownToRita.json()).toEqual(created);
    // Tenant data is filtered by the Keystone project: bob's project holds no request.
    expect(listedByBob.json()).toEqual([]);
    expect(profiles.json()).toEqual([expect.objectContaining({ name: 'fpga-dp' })]);
    // Devices need a manager or an admin (Cyborg's defaults), which a member is not.
    expect(devicesAsMember.code).not.toBe(0);
    expect(devicesAsMember.stderr).toMatch(/403|Forbidden|policy/i);

    const deleted = await cli.acceleratorWithPassword(login('alice', 'tenant-a'), ['arq', 'delete', created.uuid]);
    expect(deleted).toMatchObject({ code: 0, stdout: `Deleted accelerator_request ${created.uuid}\n` });
  });

  it("serves a Nova-shaped keystoneauth client: the user's token plus Nova's service token create, bind and delete", async () => {
    const steps = await novaFlow({
      auth_url: keystone.url,
      user_token: await tokenOf('alice', 'tenant-a'),
      project_id: tenantA,
      nova_user: 'nova',
      nova_password: 'nova-pw',
      device_profile: 'fpga-dp',
      hostname: 'compute-1',
      device_rp_uuid: fpgaRp,
      instance_uuid: INSTANCE,
    });
    expect(steps.map(({ step, status }) => [step, status])).toEqual([
      ['get device profile', 200],
      ['create arqs', 201],
      ['bind arqs', 202],
      ['get resolved arqs', 200],
      ['delete arqs of instance', 204],
      ['list arqs', 200],
    ]);
    const created = steps[1].body.arqs;
    expect(created).toEqual([expect.objectContaining({ state: 'Initial', project_id: tenantA })]);
    expect(steps[3].body.arqs).toEqual([
      expect.objectContaining({ uuid: created[0].uuid, state: 'Bound', hostname: 'compute-1', device_rp_uuid: fpgaRp, instance_uuid: INSTANCE, project_id: tenantA }),
    ]);
    expect(steps[5].body.arqs).toEqual([]);
  });

  it("refuses a bind without Nova's service token, and a service token without a service role", async () => {
    const alice = await tokenOf('alice', 'tenant-a');
    const created = await v2('POST', '/accelerator_requests', alice, {}, { device_profile_name: 'fpga-dp' });
    expect(created.status).toBe(201);
    const uuid = created.body.arqs[0].uuid;
    const bind = { [uuid]: [{ op: 'add', path: '/hostname', value: 'compute-1' }, { op: 'add', path: '/device_rp_uuid', value: fpgaRp }, { op: 'add', path: '/instance_uuid', value: INSTANCE }] };
    expect((await v2('PATCH', '/accelerator_requests', alice, {}, bind)).status).toBe(403);
    const notAService = await v2('PATCH', '/accelerator_requests', alice, { 'x-service-token': await tokenOf('bob', 'tenant-b') }, bind);
    expect(refusal(notAService)).toEqual([403, 'AUTH.SERVICE_TOKEN_ROLE']);
    expect((await v2('DELETE', `/accelerator_requests?arqs=${uuid}`, alice)).status).toBe(204);
  });

  it('authorizes no request with a revoked token once the revalidation interval has passed', async () => {
    const alice = await tokenOf('alice', 'tenant-a');
    expect((await v2('GET', '/accelerator_requests', alice)).status).toBe(200);
    await admin.revoke(alice);
    const revokedAt = Date.now();
    // The promise is about time itself: from one interval after the revocation on, every request is refused.
    await new Promise((resolve) => setTimeout(resolve, revokedAt + REVALIDATE_SECONDS * 1000 - Date.now()));
    const after = await Promise.all(Array.from({ length: 20 }, () => v2('GET', '/accelerator_requests', alice)));
    expect(new Set(after.map(refusal).map(String))).toEqual(new Set(['401,AUTH.TOKEN_INVALID']));
  });

  it('refuses a token Keystone never issued, and a forged ledger token', async () => {
    expect(refusal(await v2('GET', '/accelerator_requests', 'gAAAAABnever-issued-by-keystone'))).toEqual([401, 'AUTH.TOKEN_INVALID']);
    const forged = `${ledger.token({ user: 'mallory', project: tenantA, roles: ['admin'] }).slice(0, -4)}AAAA`;
    expect(refusal(await v2('GET', '/accelerator_requests', forged))).toEqual([401, 'AUTH.TOKEN_INVALID']);
  });

  it("honours the operator's policy.yaml for Keystone users: a reader creates a request, and the rules it leaves alone still hold", async () => {
    const created = (await cli.acceleratorWithPassword(login('rita', 'tenant-a'), ['arq', 'create', 'fpga-dp', '-f', 'json'])).json();
    expect(created).toMatchObject({ state: 'Initial', device_profile_name: 'fpga-dp' });
    const rita = await tokenOf('rita', 'tenant-a');
    expect(refusal(await v2('DELETE', `/accelerator_requests?arqs=${created.uuid}`, rita))).toEqual([403, 'AUTH.POLICY_DENIED']);
    expect(refusal(await v2('POST', '/device_profiles', rita, {}, [{ name: 'rita-dp', groups: FPGA_GROUPS }]))).toEqual([403, 'AUTH.POLICY_DENIED']);
    expect((await v2('DELETE', `/accelerator_requests?arqs=${created.uuid}`, await tokenOf('alice', 'tenant-a'))).status).toBe(204);
  });

  it('says in /readyz that it is signed in to Keystone', async () => {
    const ready = await ledger.request('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks.identity).toEqual({ ok: true, detail: `Keystone at ${keystone.url}: the ledger is signed in` });
  });

  it("looks for Placement in the catalog, and says so while the catalog has none (outbound-keystone.int-spec.ts runs a real Placement)", async () => {
    const hostPlacement = async () => (await ledger.request('GET', '/api/v1/hosts/compute-1/placement', { token: ledger.adminToken })).body;
    await eventually(async () => (await hostPlacement()).sync?.state === 'placement-unavailable');
    expect((await hostPlacement()).sync.detail).toContain('no public endpoint for service type placement');
  });

  it('answers 503 while Keystone is down and the token needs checking, and recovers when it is back', async () => {
    const rita = await tokenOf('rita', 'tenant-a');
    await keystone.stop();
    try {
      expect(refusal(await v2('GET', '/accelerator_requests', rita))).toEqual([503, 'AUTH.IDENTITY_UNAVAILABLE']);
    } finally {
      await keystone.start();
    }
    expect((await v2('GET', '/accelerator_requests', rita)).status).toBe(200);
  });
});

interface NovaStep {
  readonly step: string;
  readonly status: number;
  readonly body: any;
}

/** Runs test/support/nova-keystone-client.py (Debian's python3-keystoneauth1) and returns its steps. */
function novaFlow(request: Record<string, string>): Promise<NovaStep[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(DEBIAN_PYTHON, [join(__dirname, '../support/nova-keystone-client.py')], { env: { PATH: '/usr/bin:/bin', PYTHONNOUSERSITE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the Nova-shaped client exited with ${code}:\n${stdout}\n${stderr}`));
      resolve(stdout.trim().split('\n').map((line) => JSON.parse(line) as NovaStep));
    });
    child.stdin.end(JSON.stringify(request));
  });
}

