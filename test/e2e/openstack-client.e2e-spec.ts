import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { hostReportBody } from '../support/fleet';
import { openstackCli, type OpenstackCli } from '../support/openstack-cli';

describe('explore', () => {
  let ledger: TestLedger;
  let cli: OpenstackCli;
  beforeAll(async () => {
    ledger = await startTestLedger();
    cli = openstackCli(ledger.url);
    const agent = ledger.token({ user: 'agent:compute-1', project: null, roles: ['agent'], host: 'compute-1' });
    const report = await ledger.request('PUT', '/api/v1/hosts/compute-1/report', { token: agent, body: hostReportBody(1, 0) });
    expect(report.status).toBe(200);
  });
  afterAll(async () => { cli?.close(); await ledger?.close(); });
  it('prints', async () => {
    const admin = ledger.adminToken;
    const nova = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    const reader = ledger.token({ user: 'rita', project: 'tenant-a', roles: ['reader'] });
    const deployables = await ledger.request('GET', '/api/v1/deployables?hostname=compute-1', { token: admin });
    console.log(JSON.stringify(deployables.body.items[0], null, 1));
    const fpga = deployables.body.items.find((d: any) => d.resourceClass === 'FPGA');
    const t0 = Date.now();
    const runs = [];
    const log = (r: any) => { runs.push(r); console.log(r.command + '\n' + r.code + '\n' + r.stdout + '\n' + r.stderr); return r; };
    log(await cli.accelerator(admin, ['--debug', 'device', 'profile', 'list', '-f', 'json'], { endpoint: ledger.url }));
    log(await cli.accelerator(admin, ['--debug', 'device', 'profile', 'list', '-f', 'json'], { endpoint: ledger.url + '/v2' }));
    console.log('ms', Date.now() - t0);
  });
});
