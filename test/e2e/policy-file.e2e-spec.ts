import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CYBORG_API_RULES } from '@ledger/auth';
import { ConfigError } from '@ledger/config';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ledgerctl } from '../support/ledgerctl-process';

const dir = mkdtempSync(join(tmpdir(), 'policy-e2e-'));
const policyFile = (name: string, text: string): string => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

/** What an operator moves over from Cyborg: rule names and oslo.policy's syntax, here opening and closing a few routes. */
const POLICY_YAML = `# readers may create their own project's requests
"cyborg:arq:create": "rule:project_reader_or_admin"
# readers list the hardware too (role names match in any case)
"cyborg:device:get_all": "rule:project_manager_or_admin or role:Reader"
# no one lists device profiles, not even an admin
"cyborg:device_profile:get_all": "!"
# opening bind to everyone does not open it: the service role is checked in code
"cyborg:arq:update": "@"
`;

describe("an operator's policy.yaml (LEDGER_POLICY_FILE)", () => {
  let configured: TestLedger;
  let defaults: TestLedger;
  const reader = (ledger: TestLedger) => ledger.token({ user: 'rita', project: 'tenant-a', roles: ['reader'] });
  const createArq = (ledger: TestLedger, token: string) => ledger.request('POST', '/v2/accelerator_requests', { token, body: { device_profile_name: 'fpga-dp' } });

  beforeAll(async () => {
    [configured, defaults] = await Promise.all([startTestLedger({ LEDGER_POLICY_FILE: policyFile('policy.yaml', POLICY_YAML) }), startTestLedger()]);
    for (const ledger of [configured, defaults]) {
      const profile = await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: 'fpga-dp', groups: [{ 'resources:FPGA': '1' }] }] });
      expect(profile.status).toBe(201);
    }
  });
  afterAll(() => Promise.all([configured?.close(), defaults?.close()]));

  it("lets a reader create a request that Cyborg's default refuses", async () => {
    const refused = await createArq(defaults, reader(defaults));
    expect([refused.status, refused.headers.get('x-error-code')]).toEqual([403, 'AUTH.POLICY_DENIED']);
    expect(refused.body.error_message).toContain('cyborg:arq:create');

    const created = await createArq(configured, reader(configured));
    expect(created.status).toBe(201);
    expect(created.body.arqs).toEqual([expect.objectContaining({ project_id: 'tenant-a', device_profile_name: 'fpga-dp', state: 'Initial' })]);
  });

  it('opens and closes what the file says, and nothing else', async () => {
    expect((await configured.request('GET', '/v2/devices', { token: reader(configured) })).status).toBe(200);
    expect((await configured.request('GET', '/v2/devices/00000000-0000-4000-8000-000000000000', { token: reader(configured) })).status).toBe(403);
    expect((await defaults.request('GET', '/v2/devices', { token: reader(defaults) })).status).toBe(403);
    const listed = await configured.request('GET', '/v2/device_profiles', { token: configured.adminToken });
    expect([listed.status, listed.headers.get('x-error-code')]).toEqual([403, 'AUTH.POLICY_DENIED']);
    expect((await configured.request('GET', '/v2/device_profiles/fpga-dp', { token: configured.adminToken, headers: { 'OpenStack-API-Version': 'accelerator 2.2' } })).status).toBe(200);
  });

  it('cannot open bind to a caller without the service role (CVE-2026-40214)', async () => {
    const member = configured.token({ user: 'alice', project: 'tenant-a', roles: ['member'] });
    const [arq] = (await createArq(configured, member)).body.arqs;
    const bind = await configured.request('PATCH', '/v2/accelerator_requests', {
      token: member,
      body: { [arq.uuid]: [{ op: 'add', path: '/hostname', value: 'compute-1' }] },
    });
    expect([bind.status, bind.headers.get('x-error-code')]).toEqual([403, 'AUTH.ROLE_REQUIRED']);
  });

  it('refuses a caller without roles on every v2 route, naming the rule the OpenAPI document gives', async () => {
    const nobody = defaults.token({ user: 'nobody', project: 'tenant-a', roles: [] });
    const paths = (await defaults.request('GET', '/v2/openapi.json')).body.paths as Record<string, Record<string, { description?: string }>>;
    const checked: string[] = [];
    for (const [template, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const documented = /^Policy rule `([^`]+)`/.exec(operation.description ?? '')?.[1];
        if (documented === undefined) continue;
        const path = template.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
        const refused = await defaults.request(method.toUpperCase(), path, { token: nobody });
        expect([template, method, refused.status, refused.headers.get('x-error-code'), refused.body.error_message]).toEqual([
          template,
          method,
          403,
          'AUTH.POLICY_DENIED',
          `the policy does not allow ${documented} to be performed`,
        ]);
        checked.push(documented);
      }
    }
    expect(new Set(checked)).toEqual(new Set(CYBORG_API_RULES.map((rule) => rule.name)));
  });

  it('stops start-up on a rule it cannot read, naming the setting, the file and the rule', async () => {
    const file = policyFile('broken.yaml', '"cyborg:arq:create": "role:member or"\n');
    const failure = startTestLedger({ LEDGER_POLICY_FILE: file });
    await expect(failure).rejects.toBeInstanceOf(ConfigError);
    await expect(failure).rejects.toThrow(`LEDGER_POLICY_FILE: ${file}: rule "cyborg:arq:create" ("role:member or"): expected a check but found the end`);
  });
});

describe('ledgerctl policy show', () => {
  it('prints the effective rules, the file\'s marked, from LEDGER_POLICY_FILE or --file, also as JSON', async () => {
    const file = policyFile('show.yaml', POLICY_YAML);
    const table = await ledgerctl({ LEDGER_POLICY_FILE: file }, 'policy', 'show');
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^cyborg:arq:create +file +rule:project_reader_or_admin$/m);
    expect(table.stdout).toMatch(/^cyborg:arq:get_all +default +rule:project_reader_or_admin$/m);

    const json = await ledgerctl({}, 'policy', 'show', '--file', file, '--json');
    const rules = JSON.parse(json.stdout) as { name: string; rule: string; source: string; default: string }[];
    expect(rules.find((rule) => rule.name === 'cyborg:device_profile:get_all')).toMatchObject({ rule: '!', source: 'file', default: 'rule:project_reader_or_admin' });
    expect(rules.filter((rule) => rule.source === 'file')).toHaveLength(4);

    const defaults = await ledgerctl({ LEDGER_POLICY_FILE: '' }, 'policy', 'show', '--json');
    expect((JSON.parse(defaults.stdout) as { source: string }[]).every((rule) => rule.source === 'default')).toBe(true);
  });

  it('exits 2 naming the file and the rule it cannot read', async () => {
    const file = policyFile('typo.yaml', '"cyborg:arq:craete": "role:member"\n');
    const run = await ledgerctl({}, 'policy', 'show', '--file', file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`ledgerctl: invalid configuration: LEDGER_POLICY_FILE: ${file}: unknown rule "cyborg:arq:craete"`);
  });
});
