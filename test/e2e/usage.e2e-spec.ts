import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '@ledger/auth';
import { dataFiles } from '@ledger/config';
import { publicKeyPem, readCheckpointKeys } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { type UsageReport, usageReportSignatureValid } from '@ledger/projections/device-history';
import type { AgentProcess } from '../support/agent-process';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { ledgerctl } from '../support/ledgerctl-process';
import { startAgentOnLedger } from '../support/simulated-agent';

const HOST = 'usage-gpu';
const member = (project: string): Principal => ({ user: `${project}-user`, project, roles: ['member'] });
/** Nova binding a project's request: its member token plus the service role. */
const nova = (project: string): Principal => ({ user: 'nova', project, roles: ['member', 'service'] });

/**
 * Two projects hold a simulated agent's GPU (80 GiB) in turn, p1 binding
 * and unbinding, p2 still holding it when the device reports Xid 79; the
 * usage report and the health-beside-tenancy answer, live and from an
 * export, over REST, GraphQL and ledgerctl.
 */
describe('usage accounting and health beside tenancy (simulated agent, ledgerctl, an export)', () => {
  let ledger: TestLedger;
  let agent: AgentProcess;
  let env: Record<string, string>;
  let dir: string;
  let gpu: { deviceUuid: string; rpUuid: string };
  let from: string;
  let to: string;
  let exportFile: string;

  const raw = async (path: string, principal?: Principal) => {
    const response = await fetch(`${ledger.url}${path}`, { headers: { 'x-auth-token': principal ? ledger.token(principal) : ledger.adminToken } });
    return { status: response.status, text: await response.text() };
  };
  const usagePath = (extra = '') => `/api/v1/usage?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${extra}`;
  const tenancies = async () => (await ledger.request('GET', `/api/v1/devices/${gpu.deviceUuid}/tenancy`, { token: ledger.adminToken })).body.tenancies;

  async function bind(project: string): Promise<string> {
    const created = await ledger.request('POST', '/v2/accelerator_requests', { token: ledger.token(member(project)), body: { device_profile_name: 'usage-gpu' } });
    expect(created.status).toBe(201);
    const arq: string = created.body.arqs[0].uuid;
    const patch = [
      { op: 'add', path: '/hostname', value: HOST },
      { op: 'add', path: '/device_rp_uuid', value: gpu.rpUuid },
      { op: 'add', path: '/instance_uuid', value: crypto.randomUUID() },
    ];
    expect((await ledger.request('PATCH', '/v2/accelerator_requests', { token: ledger.token(nova(project)), body: { [arq]: patch } })).status).toBe(202);
    await eventually(async () => (await ledger.request('GET', `/v2/accelerator_requests/${arq}`, { token: ledger.adminToken })).body.state === 'Bound');
    return arq;
  }

  beforeAll(async () => {
    ledger = await startTestLedger();
    env = { LEDGER_DATA_DIR: ledger.config.dataDir, LEDGER_URL: ledger.url };
    dir = mkdtempSync(join(tmpdir(), 'usage-e2e-'));
    agent = await startAgentOnLedger(ledger, { hostname: HOST, dir, simulated: { fpgas: 0, gpus: 1, nics: 0 } });
    const profile = await ledger.request('POST', '/v2/device_profiles', { token: ledger.adminToken, body: [{ name: 'usage-gpu', groups: [{ 'resources:PGPU': '1' }] }] });
    expect(profile.status).toBe(201);
    const query = `{ deployables(hostname: "${HOST}", resourceClass: "PGPU") { edges { node { rpUuid deviceUuid } } } }`;
    await eventually(async () => (await ledger.request('POST', '/graphql', { token: ledger.adminToken, body: { query } })).body.data?.deployables.edges.length === 1);
    gpu = (await ledger.request('POST', '/graphql', { token: ledger.adminToken, body: { query } })).body.data.deployables.edges[0].node;

    from = new Date().toISOString();
    const first = await bind('p1');
    const unbind = [{ op: 'remove', path: '/hostname' }, { op: 'remove', path: '/device_rp_uuid' }, { op: 'remove', path: '/instance_uuid' }];
    expect((await ledger.request('PATCH', '/v2/accelerator_requests', { token: ledger.token(nova('p1')), body: { [first]: unbind } })).status).toBe(202);
    await eventually(async () => (await tenancies()).length === 1 && (await tenancies())[0].to !== null);
    await bind('p2');

    const device = (await ledger.request('GET', `/api/v1/devices/${gpu.deviceUuid}`, { token: ledger.adminToken })).body;
    const agentToken = ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST });
    const beat = { agentVersion: '0.1.0', intervalSeconds: 3600, devices: [{ pciAddress: device.pciAddress, health: 'degraded', healthReason: 'Xid 79' }] };
    expect((await ledger.request('POST', `/api/v1/hosts/${HOST}/heartbeat`, { token: agentToken, body: beat })).body).toMatchObject({ appended: 1 });
    await eventually(async () => (await raw('/api/v1/audit/health-holders?cause=Xid%2079')).text.includes('"p2"'));
    to = new Date(Date.now() + 1).toISOString();
    await eventually(async () => new Date().toISOString() > to);
    exportFile = join(dir, 'export.jsonl');
    expect((await ledgerctl(env, 'audit', 'export', '--out', exportFile, '--quiet')).code).toBe(0);
  });
  afterAll(async () => {
    await agent?.stop('SIGTERM');
    await ledger?.close();
  });

  it("sums each project's seconds held and GiB-seconds of its tenancies, signed with the checkpoint key, the same bytes each time", async () => {
    const answer = await raw(usagePath());
    expect(answer.status).toBe(200);
    const report: UsageReport = JSON.parse(answer.text);
    expect(report).toMatchObject({ kind: 'ledger.UsageReport', groupBy: 'project', project: null, from: { time: from }, to: { time: to } });
    expect(report.position).toBe(report.to.position);
    const [p1Tenancy, p2Tenancy] = await tenancies();
    const p1Seconds = ((Date.parse(p1Tenancy.to.time) - Date.parse(p1Tenancy.from.time)) / 1000).toFixed(3);
    const p2Seconds = ((Date.parse(to) - Date.parse(p2Tenancy.from.time)) / 1000).toFixed(3);
    expect(report.rows).toEqual([
      { group: 'p1', tenancies: 1, heldSeconds: p1Seconds, gpuMemoryGiBSeconds: (Number(p1Seconds) * 80).toFixed(3), migSliceSeconds: null },
      { group: 'p2', tenancies: 1, heldSeconds: p2Seconds, gpuMemoryGiBSeconds: (Number(p2Seconds) * 80).toFixed(3), migSliceSeconds: null },
    ]);
    expect((await raw(usagePath())).text).toBe(answer.text);
    const keys = readCheckpointKeys(dataFiles(ledger.config).checkpointKey)!;
    expect(usageReportSignatureValid(report, keys.publicKey)).toBe(true);
    const byDevice = JSON.parse((await raw(usagePath('&groupBy=device'))).text);
    expect(byDevice.rows.map((row: { group: string; tenancies: number }) => [row.group, row.tenancies])).toEqual([[gpu.deviceUuid, 2]]);
    expect(JSON.parse((await raw(usagePath('&groupBy=resourceClass'))).text).rows.map((row: { group: string }) => row.group)).toEqual(['PGPU']);
  });

  it("gives a tenant its own project's rows only, in a report signed as its own", async () => {
    const p1: UsageReport = JSON.parse((await raw(usagePath(), member('p1'))).text);
    expect([p1.project, p1.rows.map((row) => row.group)]).toEqual(['p1', ['p1']]);
    expect(usageReportSignatureValid(p1, readCheckpointKeys(dataFiles(ledger.config).checkpointKey)!.publicKey)).toBe(true);
    expect(JSON.parse((await raw(usagePath(), member('p3'))).text).rows).toEqual([]);
  });

  it('refuses a bad query with a stable code', async () => {
    const code = async (path: string) => {
      const answer = await raw(path);
      return [answer.status, JSON.parse(answer.text).code];
    };
    expect(await code(usagePath('&groupBy=host'))).toEqual([400, 'USAGE.BAD_GROUP_BY']);
    expect(await code(`/api/v1/usage?from=yesterday&to=${to}`)).toEqual([400, 'AUDIT.BAD_LOG_POINT']);
    expect(await code(`/api/v1/usage?from=${encodeURIComponent(to)}&to=${encodeURIComponent(from)}`)).toEqual([400, 'USAGE.BAD_WINDOW']);
    expect(await code('/api/v1/usage?from=0&to=999999999')).toEqual([400, 'AUDIT.AS_OF_BEYOND_HEAD']);
    expect(await code('/api/v1/usage?from=0&to=2999-01-01T00:00:00Z')).toEqual([400, 'USAGE.PERIOD_NOT_OVER']);
    expect((await raw('/api/v1/usage?from=0'))).toMatchObject({ status: 400 });
  });

  it('ledgerctl audit usage prints the same bytes live and recomputed from an export, and verifies a report against it', async () => {
    const live = await raw(usagePath());
    const cli = await ledgerctl(env, 'audit', 'usage', '--from', from, '--to', to, '--format', 'json');
    expect([cli.code, cli.stdout]).toEqual([0, `${live.text}\n`]);
    const offline = await ledgerctl(env, 'audit', 'usage', '--from', from, '--to', to, '--format', 'json', '--file', exportFile, '--quiet');
    expect([offline.code, offline.stdout]).toEqual([0, `${live.text}\n`]);
    const tenant = await ledgerctl(env, 'audit', 'usage', '--from', from, '--to', to, '--format', 'json', '--file', exportFile, '--project', 'p1', '--quiet');
    expect(tenant.stdout).toBe(`${(await raw(usagePath(), member('p1'))).text}\n`);

    const reportFile = join(dir, 'report.json');
    const publicKey = join(dir, 'checkpoint.pub.pem');
    writeFileSync(reportFile, live.text);
    writeFileSync(publicKey, publicKeyPem(readCheckpointKeys(dataFiles(ledger.config).checkpointKey)!.publicKey));
    const checked = await ledgerctl({ LEDGER_DATA_DIR: join(dir, 'auditor') }, 'audit', 'usage', '--file', exportFile, '--report', reportFile, '--public-key', publicKey, '--quiet');
    expect([checked.code, checked.stdout]).toEqual([0, expect.stringContaining('rows match the export')]);
    const tampered = JSON.parse(live.text);
    tampered.rows[0].heldSeconds = '1.000';
    writeFileSync(reportFile, JSON.stringify(tampered));
    const refused = await ledgerctl({ LEDGER_DATA_DIR: join(dir, 'auditor') }, 'audit', 'usage', '--file', exportFile, '--report', reportFile, '--public-key', publicKey, '--quiet');
    expect([refused.code, refused.stdout]).toEqual([1, expect.stringContaining('rows DIFFER from the export')]);

    const unfinished = await ledgerctl(env, 'audit', 'usage', '--from', from, '--to', '2999-01-01T00:00:00Z', '--file', exportFile, '--quiet');
    expect([unfinished.code, unfinished.stderr]).toEqual([2, expect.stringContaining('later than now')]);

    const csv = await ledgerctl(env, 'audit', 'usage', '--from', from, '--to', to, '--format', 'csv');
    expect(csv.stdout.split('\n').slice(0, 1)).toEqual(['project,tenancies,heldSeconds,gpuMemoryGiBSeconds,migSliceSeconds']);
    expect(csv.stdout).toContain(`p1,1,${JSON.parse(live.text).rows[0].heldSeconds},`);
  });

  it('answers usage over GraphQL with the REST bytes', async () => {
    const query = `{ usage(from: "${from}", to: "${to}") { position rows { group heldSeconds } signature canonical } }`;
    const { data } = (await ledger.request('POST', '/graphql', { token: ledger.adminToken, body: { query } })).body;
    expect(data.usage.canonical).toBe((await raw(usagePath())).text);
    expect(data.usage.rows.map((row: { group: string }) => row.group)).toEqual(['p1', 'p2']);
  });

  it('names the projects that held a device when it reported a cause: REST, GraphQL and ledgerctl, live and from the export', async () => {
    const all = JSON.parse((await raw(`/api/v1/audit/health-holders?cause=Xid%2079&from=${encodeURIComponent(from)}`)).text);
    expect(all.projects).toEqual(['p2']);
    expect(all.reports).toEqual([expect.objectContaining({ projectId: 'p2', deviceUuid: gpu.deviceUuid, health: 'degraded', reason: 'Xid 79' })]);
    expect(JSON.parse((await raw('/api/v1/audit/health-holders?cause=ECC')).text).reports).toEqual([]);
    expect(JSON.parse((await raw('/api/v1/audit/health-holders', member('p1'))).text).reports).toEqual([]);
    const gql = `{ healthHolders(cause: "Xid 79") { projectId reason } }`;
    expect((await ledger.request('POST', '/graphql', { token: ledger.adminToken, body: { query: gql } })).body.data.healthHolders).toEqual([{ projectId: 'p2', reason: 'Xid 79' }]);
    const live = await ledgerctl(env, 'audit', 'health-holders', '--cause', 'Xid 79', '--to', to, '--json');
    const offline = await ledgerctl(env, 'audit', 'health-holders', '--cause', 'Xid 79', '--to', to, '--json', '--file', exportFile, '--quiet');
    expect(JSON.parse(live.stdout).projects).toEqual(['p2']);
    expect(offline.stdout).toBe(live.stdout);
  });
});
