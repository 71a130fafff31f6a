import type { Browser, Page } from 'playwright-core';
import { eventually } from '@ledger/processing/testing';
import { hostname, hostReportBody } from '../support/fleet';
import { launchChromium, openPage, screenshot, signIn } from '../support/console-browser';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { chromiumUnavailable, describeWithService } from '../support/services';

const HOSTS = 12;
const SICK = hostname(3);
const TENANT_HOST = hostname(5);
const INSTANCE = '6a1f4e0c-2b7d-4c59-8e13-0d9f7a5b3c21';
const GPU_ADDRESS = '0000:3b:00.0';

describeWithService('chromium', chromiumUnavailable())('the console for a fleet: overview, utilisation, a request, the GraphQL explorer (Chromium)', () => {
  let ledger: TestLedger;
  let browser: Browser;
  let page: Page;
  let arqUuid: string;
  /** Host 0's first GPU: heartbeated until the ledger keeps a line of it. */
  let gpu: string;

  const api = async (method: string, path: string, body?: unknown, token = ledger.adminToken) => {
    const response = await ledger.request(method, path, { token, body });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const agentToken = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const member = (project: string) => ledger.token({ user: `${project}-user`, project, roles: ['member'] });

  /** One heartbeat of host `index`: every device ok but the sick host's GPU, with a utilisation figure. */
  const heartbeat = (index: number, utilizationPct: number) => {
    const devices = (hostReportBody(index).devices as { pciAddress: string }[]).map(({ pciAddress }) => ({
      pciAddress,
      health: hostname(index) === SICK && pciAddress === GPU_ADDRESS ? 'degraded' : 'ok',
      healthReason: hostname(index) === SICK && pciAddress === GPU_ADDRESS ? 'ECC double-bit errors' : null,
      telemetry: { utilizationPct, temperatureC: 50 + index },
    }));
    return api('POST', `/api/v1/hosts/${hostname(index)}/heartbeat`, { agentVersion: '0.1.0', intervalSeconds: 3600, devices }, agentToken(hostname(index)));
  };

  beforeAll(async () => {
    // One kept sample a second, so a few heartbeats draw a line. The FPGAs clean after a release, for the page's cleaning devices.
    ledger = await startTestLedger({ LEDGER_TELEMETRY_HISTORY_STEP_SECONDS: '1', LEDGER_CLEAN_DEVICE_TYPES: 'FPGA' });
    for (let index = 0; index < HOSTS; index++) await api('PUT', `/api/v1/hosts/${hostname(index)}/report`, hostReportBody(index), agentToken(hostname(index)));
    for (let index = 1; index < HOSTS; index++) await heartbeat(index, 10 * index);
    // Host 0's GPU: heartbeats, each a little busier, until the ledger keeps three samples of it (one a second).
    gpu = (await api('GET', `/api/v1/devices?hostname=${hostname(0)}&type=GPU&limit=1`)).items[0].uuid;
    let beats = 0;
    await eventually(async () => {
      await heartbeat(0, 20 + (++beats % 80));
      const history = await api('GET', `/api/v1/devices/${gpu}/telemetry/history`);
      return history.devices[0]?.samples.length >= 3;
    });
    // tenant-a's request, bound on one host's FPGA, for the search and the request page.
    await api('POST', '/v2/device_profiles', [{ name: 'fleet-fpga', groups: [{ 'resources:FPGA': '1' }] }]);
    arqUuid = (await api('POST', '/v2/accelerator_requests', { device_profile_name: 'fleet-fpga' }, member('tenant-a'))).arqs[0].uuid;
    const { deployables } = (await api('POST', '/graphql', { query: `{ deployables(hostname: "${TENANT_HOST}", resourceClass: "FPGA") { edges { node { rpUuid } } } }` })).data;
    const nova = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    const bind = [
      { op: 'add', path: '/hostname', value: TENANT_HOST },
      { op: 'add', path: '/device_rp_uuid', value: deployables.edges[0].node.rpUuid },
      { op: 'add', path: '/instance_uuid', value: INSTANCE },
    ];
    await api('PATCH', '/v2/accelerator_requests', { [arqUuid]: bind }, nova);
    await eventually(async () => (await api('GET', `/v2/accelerator_requests/${arqUuid}`)).state === 'Bound');

    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 } })).newPage();
    await signIn(page, ledger.url, ledger.adminToken, /\/console\/fleet\.html$/);
  });

  afterAll(async () => {
    await browser?.close();
    await ledger?.close();
  });

  const rows = () => page.locator('tr[data-host]').evaluateAll((found) => found.map((row) => row.getAttribute('data-host')));

  it('answers "what is wrong right now": counts by state that filter at a click, and the address keeps the filter', async () => {
    await page.locator('[data-testid="host-count"]', { hasText: String(HOSTS) }).waitFor();
    expect(await page.locator('[data-testid="attention"] .count').textContent()).toBe('1');
    expect(await page.locator('[data-testid="health-degraded"] .count').textContent()).toBe('1');
    expect(await page.locator('[data-testid="type-GPU"] .count').textContent()).toBe(String(HOSTS * 2 + HOSTS / 2));
    await screenshot(page, 'fleet-01-overview');

    await page.locator('[data-testid="health-degraded"]').click();
    await page.locator('[data-testid="host-count"]', { hasText: /^1$/ }).waitFor();
    expect(await rows()).toEqual([SICK]);
    expect(page.url()).toContain('health=degraded');
    expect(await page.locator(`tr[data-host="${SICK}"] .health[title="ECC double-bit errors"] .badge-degraded`).count()).toBe(1);
    await screenshot(page, 'fleet-02-degraded');

    // Reopened from its address, the page shows the same view.
    await openPage(page, ledger.url, 'fleet.html?health=degraded');
    expect(await rows()).toEqual([SICK]);
    expect(await page.locator('#filter-health').inputValue()).toBe('degraded');
  });

  it('finds hosts by name, device, project and instance', async () => {
    const search = async (text: string) => {
      await openPage(page, ledger.url, 'fleet.html');
      await page.locator('#search').fill(text);
      await page.getByRole('button', { name: 'Find' }).click();
      await page.waitForURL(new RegExp(`search=${encodeURIComponent(text).replace(/[.]/g, '\\.')}`));
      await page.locator('[data-testid="host-count"]').filter({ hasNotText: String(HOSTS) }).waitFor();
      return rows();
    };
    expect(await search(hostname(7))).toEqual([hostname(7)]);
    expect(await search('tenant-a')).toEqual([TENANT_HOST]);
    expect(await search(INSTANCE)).toEqual([TENANT_HOST]);
    await screenshot(page, 'fleet-03-search-instance');
  });

  it("draws each device's utilisation over time from what the ledger keeps: latest value, range and time axis", async () => {
    const kept = (await api('GET', `/api/v1/devices/${gpu}/telemetry/history`)).devices[0].samples.map((sample: { telemetry: { utilizationPct: number } }) => sample.telemetry.utilizationPct);
    await openPage(page, ledger.url, 'fleet.html');
    const line = page.locator(`li[data-device="${gpu}"] .sparkline[data-metric="utilizationPct"]`);
    await line.waitFor();
    expect(await line.locator('.latest').textContent()).toBe(String(kept.at(-1)));
    expect(await line.locator('.time-axis text').count()).toBe(2);
    expect(await line.locator('title').textContent()).toContain(`(${kept.length} samples`);

    await page.locator(`li[data-device="${gpu}"] a`).click();
    await page.waitForURL(/\/console\/device\.html\?uuid=/);
    const chart = page.locator('[data-testid="utilisation"] .sparkline-large[data-metric="utilizationPct"]');
    await chart.waitFor();
    expect(await chart.locator('.latest').textContent()).toBe(String(kept.at(-1)));
    expect(await chart.locator('.range').allTextContents()).toEqual([`max ${Math.max(...kept)}`, `min ${Math.min(...kept)}`]);
    expect(await chart.locator('.time-axis text').count()).toBe(2);
    await screenshot(page, 'fleet-04-device-utilisation');
  });

  it("shows a request's page: its device, the device's timeline while held, and its latest bind", async () => {
    await openPage(page, ledger.url, 'requests.html');
    await page.locator('[data-testid="arqs"] a', { hasText: arqUuid }).click();
    await page.waitForURL(/\/console\/request\.html\?uuid=/);
    await page.locator('[data-testid="request-facts"]').waitFor();
    expect(await page.locator('[data-testid="request-facts"]').textContent()).toContain(INSTANCE);
    await page.locator('[data-testid="request-timeline"] code', { hasText: 'AttachHandleClaimed' }).waitFor();
    // Its bind had nothing to program: decided at once, it names the bind and no workflow.
    const latest = page.locator('[data-testid="latest-bind"]');
    await latest.waitFor();
    expect(await latest.textContent()).toMatch(/^Latest bind [0-9a-f-]{36}: decided at once, no workflow\.$/);
    expect(await page.locator('[data-testid="binds"]').count()).toBe(0);
    await screenshot(page, 'fleet-05-request');
    await page.locator('[data-testid="device-link"]').click();
    await page.locator('[data-testid="tenancy"] tr', { hasText: arqUuid }).waitFor();
  });

  it("shows which devices are not offered and why, as Placement is told: a fenced host's, a failed one's, on the fleet and the device page", async () => {
    const [fenced, failing] = [hostname(9), hostname(10)];
    const fencedDevices = (await api('GET', `/api/v1/devices?hostname=${fenced}&limit=100`)).items.map((device: { uuid: string }) => device.uuid);
    const failed = (await api('GET', `/api/v1/devices?hostname=${failing}&type=GPU&limit=1`)).items[0];
    await api('POST', `/api/v1/hosts/${fenced}/fence`, { reason: 'PSU dead' });
    const devices = [{ pciAddress: failed.pciAddress, health: 'failed', healthReason: 'Xid 79' }];
    await api('POST', `/api/v1/hosts/${failing}/heartbeat`, { agentVersion: '0.1.0', intervalSeconds: 3600, devices }, agentToken(failing));

    await openPage(page, ledger.url, 'fleet.html');
    // The page polls: the reasons show once Placement's read model has the fence and the failure, without a reload.
    await page.locator(`li[data-device="${failed.uuid}"] .placement .badge-unhealthy`).waitFor();
    await eventually(async () => (await page.locator(`tr[data-host="${fenced}"] li[data-device] .placement .badge-fenced`).count()) === fencedDevices.length);
    // An offered device shows no reason.
    expect(await page.locator(`tr[data-host="${hostname(7)}"] li[data-device] .placement .badge`).count()).toBe(0);
    await screenshot(page, 'fleet-07-not-offered');

    await openPage(page, ledger.url, `device.html?uuid=${fencedDevices[0]}`);
    expect(await page.locator('[data-testid="placement"]').textContent()).toBe('reserved: fenced');
    await openPage(page, ledger.url, `device.html?uuid=${failed.uuid}`);
    expect(await page.locator('[data-testid="placement"]').textContent()).toBe('reserved: unhealthy');
    await openPage(page, ledger.url, `device.html?uuid=${gpu}`);
    expect(await page.locator('[data-testid="placement"]').textContent()).toBe('offered');
    await screenshot(page, 'fleet-08-device-offered');
  });

  it("shows a device cleaning after its request went, and one whose clean failed, with why, on the fleet and the device page", async () => {
    const nova = ledger.token({ user: 'nova', project: 'tenant-a', roles: ['member', 'service'] });
    const fpgaOf = async (host: string) => (await api('GET', `/api/v1/devices?hostname=${host}&type=FPGA&limit=1`)).items[0].uuid as string;
    // Nobody polls the tenant host's jobs: its FPGA's clean job waits, and the FPGA stays cleaning.
    await api('DELETE', `/v2/accelerator_requests/${arqUuid}`, undefined, nova);
    const cleaning = await fpgaOf(TENANT_HOST);
    // A host whose agent never sent a heartbeat: its clean job cannot be asked, so the clean fails at once.
    const unattended = 'compute-unattended';
    await api('PUT', `/api/v1/hosts/${unattended}/report`, hostReportBody(HOSTS), agentToken(unattended));
    const uuid = (await api('POST', '/v2/accelerator_requests', { device_profile_name: 'fleet-fpga' }, member('tenant-a'))).arqs[0].uuid;
    const { deployables } = (await api('POST', '/graphql', { query: `{ deployables(hostname: "${unattended}", resourceClass: "FPGA") { edges { node { rpUuid } } } }` })).data;
    const bind = [
      { op: 'add', path: '/hostname', value: unattended },
      { op: 'add', path: '/device_rp_uuid', value: deployables.edges[0].node.rpUuid },
      { op: 'add', path: '/instance_uuid', value: crypto.randomUUID() },
    ];
    await api('PATCH', '/v2/accelerator_requests', { [uuid]: bind }, nova);
    await eventually(async () => (await api('GET', `/v2/accelerator_requests/${uuid}`)).state === 'Bound');
    await api('DELETE', `/v2/accelerator_requests/${uuid}`, undefined, nova);
    const failed = await fpgaOf(unattended);

    await openPage(page, ledger.url, 'fleet.html');
    await page.locator(`li[data-device="${cleaning}"] .placement .badge-cleaning`).waitFor();
    await page.locator(`li[data-device="${failed}"] .placement .badge-clean-failed`).waitFor();
    await screenshot(page, 'fleet-09-cleaning');
    await openPage(page, ledger.url, `device.html?uuid=${cleaning}`);
    expect(await page.locator('[data-testid="placement"]').textContent()).toBe('reserved: cleaning');
    await openPage(page, ledger.url, `device.html?uuid=${failed}`);
    expect(await page.locator('[data-testid="placement"]').textContent()).toBe('reserved: clean-failed');
    await screenshot(page, 'fleet-10-device-clean-failed');
  });

  it('runs GraphQL in the explorer under the signed-in token, with the schema beside it; a refusal shows its code', async () => {
    const response = await fetch(`${ledger.url}/console/graphql.html`);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    await openPage(page, ledger.url, 'graphql.html');
    await page.locator('[data-testid="schema-query"] code', { hasText: 'hosts' }).first().waitFor();
    await page.locator('[data-testid="query"]').fill('query Two($first: Int!) { hosts(first: $first) { edges { node { hostname } } } }');
    await page.locator('[data-testid="variables"]').fill('{ "first": 2 }');
    await page.locator('[data-testid="run"]').click();
    await page.locator('[data-testid="result"][data-status="200"]').waitFor();
    const answer = (await page.locator('[data-testid="result"]').textContent()) ?? '';
    expect(answer).toContain(hostname(0));
    expect(answer).not.toContain(hostname(2));
    await screenshot(page, 'fleet-06-explorer');

    const memberPage = await (await browser.newContext()).newPage();
    await signIn(memberPage, ledger.url, member('tenant-a'), /\/console\/requests\.html$/);
    await openPage(memberPage, ledger.url, 'graphql.html');
    await memberPage.locator('[data-testid="query"]').fill('{ hosts(first: 1) { edges { node { hostname } } } }');
    await memberPage.locator('[data-testid="run"]').click();
    await memberPage.locator('[data-testid="result"][data-status="403"]').waitFor();
    expect(await memberPage.locator('[data-testid="result"]').textContent()).toContain('AUTH.ROLE_REQUIRED');
    await memberPage.context().close();
  });
});
