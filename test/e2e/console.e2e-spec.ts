import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { ConflictError } from '@ledger/kernel';
import { eventually, testEvent } from '@ledger/processing/testing';
import { defineStepWorkflow } from '@ledger/workflows';
import type { LedgerWorkflows } from '../../apps/ledger/src/infrastructure/ledger-workflows';
import type { AgentProcess } from '../support/agent-process';
import { hostReportBody } from '../support/fleet';
import { launchChromium, openPage, screenshot, signIn } from '../support/console-browser';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { chromiumUnavailable, describeWithService } from '../support/services';
import { startAgentOnLedger } from '../support/simulated-agent';

const HOST = 'console-1';

/**
 * Two workflows for the workflow page. `console_flaky`: step `b` is refused,
 * so it undoes `a`, whose undo is refused the first time only — the instance
 * ends `failed`, and a retry from the console finishes the undo
 * (`compensated`). `console_waiting`: its one step waits for a gate the
 * test opens, so it is running when the console cancels it.
 */
let undoTries = 0;
let openGate: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (openGate = resolve));
const CONSOLE_WORKFLOWS: LedgerWorkflows = {
  workflows: [
    defineStepWorkflow({
      name: 'console_flaky',
      routes: [{ types: ['test.console_flaky'], starts: true, workflowId: (event: { data: unknown }) => (event.data as { id: string }).id }],
      start: (input) => input.data,
      steps: [
        { name: 'a', do: () => ({ kind: 'command', command: { type: 'test.Ask', data: {} } }), compensate: () => ({ kind: 'command', command: { type: 'test.UndoOnSecondTry', data: {} } }), timeoutMs: 3_600_000, retry: { maxAttempts: 1 } },
        { name: 'b', do: () => ({ kind: 'command', command: { type: 'test.Refused', data: {} } }), timeoutMs: 3_600_000, retry: { maxAttempts: 1 } },
      ],
    }),
    defineStepWorkflow({
      name: 'console_waiting',
      routes: [{ types: ['test.console_waiting'], starts: true, workflowId: (event: { data: unknown }) => (event.data as { id: string }).id }],
      start: (input) => input.data,
      steps: [
        { name: 'wait', do: () => ({ kind: 'command', command: { type: 'test.Gate', data: {} } }), compensate: () => ({ kind: 'command', command: { type: 'test.Ask', data: {} } }), timeoutMs: 3_600_000, retry: { maxAttempts: 1 } },
      ],
    }),
  ],
  commands: () => ({
    'test.Ask': async () => ({ asked: true }),
    'test.Gate': async () => (await gate, { opened: true }),
    'test.Refused': () => Promise.reject(new ConflictError('TEST.REFUSED', 'refused')),
    'test.UndoOnSecondTry': () => (++undoTries === 1 ? Promise.reject(new ConflictError('TEST.NOT_YET', 'not yet')) : Promise.resolve({ undone: true })),
  }),
};

/**
 * Run in the page: the event names of the device timeline (its third
 * column) with a word split across two lines — a word's letters do not all
 * share one line's top. Dots separate the words.
 */
const WORDS_SPLIT_ACROSS_LINES = `[...document.querySelectorAll('[data-testid="timeline"] tbody td:nth-child(3) code')].filter((name) => {
  const words = [[]];
  const walker = document.createTreeWalker(name, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    for (let index = 0; index < text.length; index++) {
      const range = document.createRange();
      range.setStart(text, index);
      range.setEnd(text, index + 1);
      if (text.data[index] === '.') words.push([]);
      else words.at(-1).push(Math.round(range.getBoundingClientRect().top));
    }
  }
  return words.some((tops) => new Set(tops).size > 1);
}).map((name) => name.textContent)`;

describeWithService('chromium', chromiumUnavailable())('the web console in a real browser (Chromium through playwright-core)', () => {
  let ledger: TestLedger;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  let agent: AgentProcess | undefined;
  let agentDir: string;
  /** The last position before the report that brought host console-markup: where the time slider stops first. */
  let beforeMarkup: number;
  /** Every URL the browser asked for: none may carry a token. */
  const requested: string[] = [];

  const api = async (method: string, path: string, body?: unknown, token = ledger.adminToken) => {
    const response = await ledger.request(method, path, { token, body });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };

  const newPage = async (): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const opened = await context.newPage();
    opened.on('request', (request) => requested.push(request.url()));
    return { context, page: opened };
  };

  beforeAll(async () => {
    // The liveness monitor looks often, so a stopped agent shows lost within seconds (3 missed 1 s heartbeats).
    // Telemetry kept one sample a second, so the charts have a line within a few heartbeats.
    ledger = await startTestLedger({ LEDGER_AGENT_LIVENESS_CHECK_MS: '250', LEDGER_TELEMETRY_HISTORY_STEP_SECONDS: '1' }, CONSOLE_WORKFLOWS);
    // Position 1 is before any host: where the time slider goes back to.
    await ledger.app.get<EventStore>(EVENT_STORE).append('console-marker', [testEvent('test.ConsoleMarker')], { expected: 'any' });
    agentDir = mkdtempSync(join(tmpdir(), 'console-agent-'));
    browser = await launchChromium();
    ({ context: admin, page } = await newPage());
  });

  afterAll(async () => {
    await agent?.stop('SIGTERM');
    await browser?.close();
    await ledger?.close();
    rmSync(agentDir, { recursive: true, force: true });
  });

  it('serves its pages with a strict Content-Security-Policy: its own scripts and styles only, no inline code, no framing', async () => {
    const response = await fetch(`${ledger.url}/console/fleet.html`);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    // A favicon of its own, served under the same rules (no 404 in every tab's console).
    const icon = /<link rel="icon" href="([^"]+)"/.exec(html)?.[1];
    expect(icon).toBeDefined();
    const favicon = await fetch(`${ledger.url}${icon}`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('content-type')).toContain('image/svg+xml');
    // The API's own answers are untouched by the console's headers.
    expect((await fetch(`${ledger.url}/readyz`)).headers.get('content-security-policy')).toBeNull();
  });

  it('signs in with an admin token, and the fleet page fills as a simulated agent reports, with health and telemetry sparklines', async () => {
    await page.goto(`${ledger.url}/console/`);
    await screenshot(page, '01-sign-in');
    await page.locator('#token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.alert', { hasText: 'This token is not accepted' }).waitFor();
    expect(page.url()).toBe(`${ledger.url}/console/`);
    await signIn(page, ledger.url, ledger.adminToken, /\/console\/fleet\.html$/);
    await page.getByText('No host has reported yet.').waitFor();

    agent = await startAgentOnLedger(ledger, { hostname: HOST, dir: agentDir, simulated: { fpgas: 1, gpus: 1, nics: 0 } });
    const row = page.locator(`tr[data-host="${HOST}"]`);
    await row.waitFor();
    await row.locator('.badge-up').first().waitFor();
    await page.locator('[data-testid="agents-up"]', { hasText: '1' }).waitFor();
    expect(await row.locator('li[data-device]').count()).toBe(2);
    // The line grows as heartbeats come: two samples or more of one metric, seen without a reload.
    await row.locator('.sparkline title', { hasText: /\((?:[2-9]|\d{2,}) samples/ }).first().waitFor({ state: 'attached' });
    // A sparkline says its latest value and spans a time axis (its first and last sample's times).
    const line = row.locator('.sparkline').first();
    expect(await line.locator('.latest').textContent()).toMatch(/^-?\d+(\.\d+)?/);
    expect(await line.locator('.time-axis text').count()).toBe(2);
    await screenshot(page, '02-fleet');
  });

  it('shows what the API returns as text: markup in a reported model neither renders nor runs', async () => {
    const markup = '<img src=x onerror="document.title=1">Arria<script>document.title=2</script>';
    const report = hostReportBody(0);
    (report.devices[0] as { model: string }).model = markup;
    const agentToken = ledger.token({ user: 'agent:console-markup', project: null, roles: ['agent'], host: 'console-markup' });
    const { position, appended } = await api('PUT', '/api/v1/hosts/console-markup/report', report, agentToken);
    beforeMarkup = position - appended;

    const row = page.locator('tr[data-host="console-markup"]');
    await row.waitFor();
    expect(await row.textContent()).toContain(markup);
    expect(await row.locator('img, script').count()).toBe(0);
    expect(await page.title()).toBe('Fleet — Ledger console');
  });

  it("disables a device from its page, and the API sees it at once; its timeline shows the event", async () => {
    // The GPU: the FPGA stays in service for the bind further on.
    await page.locator(`tr[data-host="${HOST}"] li[data-device] a`, { hasText: 'GPU' }).click();
    await page.waitForURL(/\/console\/device\.html\?uuid=/);
    const uuid = new URL(page.url()).searchParams.get('uuid');
    await page.locator('[data-testid="device-facts"]').waitFor();
    await page.locator('#reason').fill('fan replacement');
    await page.locator('[data-testid="disable"]').click();
    await page.locator('[data-testid="enable"]').waitFor();

    expect(await api('GET', `/api/v1/devices/${uuid}`)).toMatchObject({ uuid, status: 'maintaining', disabledReason: 'fan replacement' });
    await page.locator('[data-testid="timeline"] code', { hasText: 'inventory.DeviceDisabled' }).waitFor();
    await screenshot(page, '03-device');
    // On a narrow window an event's name wraps whole (at its dot at most), never inside a word.
    await page.setViewportSize({ width: 700, height: 900 });
    const broken = await page.evaluate<string[]>(WORDS_SPLIT_ACROSS_LINES);
    expect(await page.locator('[data-testid="timeline"] tbody td:nth-child(3) code').count()).toBeGreaterThan(0);
    expect(broken).toEqual([]);
    await screenshot(page, '03-device-narrow');
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it("shows a workflow's step timeline with its compensation, and retries the failed one from the console", async () => {
    const { position } = await ledger.app.get<EventStore>(EVENT_STORE).append('console-order-w1', [testEvent('test.console_flaky', { id: 'w1' })], { expected: 'any' });
    await eventually(async () => (await ledger.request('GET', '/api/v1/workflows/console_flaky/w1', { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(position) } })).body.status === 'failed');

    await openPage(page, ledger.url, 'workflows.html');
    await page.locator('[data-testid="workflows"] a', { hasText: 'w1' }).click();
    const workflow = page.locator('[data-testid="workflow"]');
    await workflow.waitFor();
    await workflow.locator('p .badge-failed').waitFor();
    const steps = await workflow.locator('[data-testid="steps"] li').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-step')}/${item.getAttribute('data-phase')}`));
    expect(steps).toEqual(['a/do', 'b/do', 'a/compensate']);
    expect(await workflow.locator('[data-testid="cancel"]').isDisabled()).toBe(true);
    await screenshot(page, '04-workflow-failed');

    await workflow.locator('[data-testid="retry"]').click();
    await workflow.locator('p .badge-compensated').waitFor();
    expect((await api('GET', '/api/v1/workflows/console_flaky/w1')).status).toBe('compensated');
    await screenshot(page, '05-workflow-retried');
  });

  it('cancels a running workflow from the console: it ends compensated, with the reason the console gave', async () => {
    const { position } = await ledger.app.get<EventStore>(EVENT_STORE).append('console-order-w2', [testEvent('test.console_waiting', { id: 'w2' })], { expected: 'any' });
    await eventually(async () => (await ledger.request('GET', '/api/v1/workflows/console_waiting/w2', { token: ledger.adminToken, headers: { 'x-ledger-min-position': String(position) } })).body.status === 'running');

    await openPage(page, ledger.url, 'workflows.html?name=console_waiting&id=w2');
    const workflow = page.locator('[data-testid="workflow"]');
    await workflow.locator('p .badge-running').waitFor();
    expect(await workflow.locator('[data-testid="retry"]').isDisabled()).toBe(true);
    const cancelled = page.waitForResponse((response) => response.url().endsWith('/api/v1/workflows/console_waiting/w2/cancel'));
    await workflow.locator('[data-testid="cancel"]').click();
    expect((await cancelled).status()).toBe(202);
    // The cancel waits for the action in flight: recorded, the instance still running until the gate opens.
    expect((await api('GET', '/api/v1/workflows/console_waiting/w2')).status).toBe('running');
    openGate();
    await workflow.locator('p .badge-compensated').waitFor();
    expect(await workflow.locator('p', { hasText: 'compensated' }).first().textContent()).toContain('cancelled from the console');
    expect((await api('GET', '/api/v1/workflows/console_waiting/w2')).reason).toContain('cancelled from the console');
  });

  it('scrubs the inventory back in time with the slider (asOf), and verifies the chain', async () => {
    await openPage(page, ledger.url, 'audit.html');
    await page.locator('[data-testid="as-of-hosts"] td', { hasText: HOST }).waitFor();
    const slider = page.locator('[data-testid="as-of-slider"]');
    await slider.fill(String(beforeMarkup));
    await page.locator('[data-testid="as-of"]', { hasText: `As of position ${beforeMarkup}: 1 hosts` }).waitFor();
    expect(await page.locator('[data-testid="as-of-hosts"]').textContent()).toContain(HOST);
    expect(await page.locator('[data-testid="as-of-hosts"]').textContent()).not.toContain('console-markup');
    await slider.fill('1');
    await page.locator('[data-testid="as-of"]', { hasText: 'As of position 1: 0 hosts, 0 devices' }).waitFor();
    expect(await page.locator('[data-testid="as-of-hosts"]').textContent()).not.toContain(HOST);
    await screenshot(page, '06-audit-as-of-1');

    await page.locator('[data-testid="verify"]').click();
    await page.locator('[data-testid="verdict"] .badge-intact').waitFor();
    expect(await page.locator('[data-testid="verdict"]').textContent()).toMatch(/intact \d+ events, head position \d+/);
    await screenshot(page, '07-audit-verified');
  });

  it("shows a project member their own requests and quota, never another project's, and no fleet; the operator sees both projects, and who holds the device", async () => {
    await api('POST', '/v2/device_profiles', [{ name: 'console-fpga', groups: [{ 'resources:FPGA': '1' }] }]);
    const member = (project: string) => ledger.token({ user: `${project}-user`, project, roles: ['member'] });
    const own = await api('POST', '/v2/accelerator_requests', { device_profile_name: 'console-fpga' }, member('tenant-a'));
    const other = await api('POST', '/v2/accelerator_requests', { device_profile_name: 'console-fpga' }, member('tenant-b'));
    const [ownArq, otherArq] = [own.arqs[0].uuid, other.arqs[0].uuid];
    // Nova binds tenant-a's request to the simulated host's FPGA: the device page's "who held it when".
    const { deployables } = (await api('POST', '/graphql', { query: `{ deployables(hostname: "${HOST}", resourceClass: "FPGA") { edges { node { rpUuid deviceUuid } } } }` })).data;
    const fpga = deployables.edges[0].node;
    const novaToken = ledger.token({ user: 'tenant-a-user', project: 'tenant-a', roles: ['member', 'service'] });
    const bind = [
      { op: 'add', path: '/hostname', value: HOST },
      { op: 'add', path: '/device_rp_uuid', value: fpga.rpUuid },
      { op: 'add', path: '/instance_uuid', value: '2f7d7f7e-0b8c-4a39-9d5e-6c1d2b3a4f50' },
    ];
    await api('PATCH', '/v2/accelerator_requests', { [ownArq]: bind }, novaToken);
    await eventually(async () => (await api('GET', `/v2/accelerator_requests/${ownArq}`)).state === 'Bound');

    const { context, page: memberPage } = await newPage();
    try {
      await signIn(memberPage, ledger.url, member('tenant-a'), /\/console\/requests\.html$/);
      await memberPage.locator('[data-testid="arqs"] tr', { hasText: ownArq }).locator('.badge-Bound').waitFor();
      expect(await memberPage.locator('main').textContent()).not.toContain(otherArq);
      expect(await memberPage.locator('header nav').textContent()).not.toContain('Fleet');
      await screenshot(memberPage, '08-requests-member');

      await openPage(memberPage, ledger.url, 'fleet.html');
      // The refusal names the API's code and reason: which roles the page needs.
      const refusal = memberPage.locator('.alert', { hasText: 'Not allowed for this token' });
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('AUTH.ROLE_REQUIRED');
      expect(await refusal.textContent()).toMatch(/roles: admin, manager/);
      expect(await memberPage.locator('tr[data-host]').count()).toBe(0);

      await openPage(memberPage, ledger.url, 'quota.html');
      await memberPage.locator('h2', { hasText: 'Project tenant-a' }).waitFor();
      await screenshot(memberPage, '09-quota-member');
      await memberPage.locator('#project').fill('tenant-b');
      await memberPage.locator('#project').dispatchEvent('change');
      await memberPage.locator('.alert:not([hidden])').waitFor();
      expect(await memberPage.locator('main').textContent()).not.toContain('Project tenant-b');
    } finally {
      await context.close();
    }

    // The operator sees both projects' requests.
    await openPage(page, ledger.url, 'requests.html');
    await page.locator('[data-testid="arqs"] code', { hasText: otherArq }).waitFor();
    await page.locator('[data-testid="arqs"] code', { hasText: ownArq }).waitFor();
    await screenshot(page, '10-requests-admin');

    // The FPGA's page says who holds it: tenant-a's request, open since the bind.
    await openPage(page, ledger.url, `device.html?uuid=${fpga.deviceUuid}`);
    const holding = page.locator('[data-testid="tenancy"] tr', { hasText: ownArq });
    await holding.waitFor();
    expect(await holding.textContent()).toContain('tenant-a');
    expect(await holding.textContent()).toContain('holding');
    await screenshot(page, '11-device-held');
  });

  it('shows Placement sync and quota to the operator, and never put a token in a URL', async () => {
    await openPage(page, ledger.url, 'placement.html');
    await page.locator('[data-testid="sync-counts"]').waitFor();
    // No reconciler here (no LEDGER_PLACEMENT_URL): nothing is compared, so nothing may be called in sync.
    expect(await page.locator('main').textContent()).not.toContain('Every host is in sync');
    await page.locator('[data-testid="reconciler-off"]').waitFor();
    await screenshot(page, '12-placement');
    // The operator picks a project from those with quota or usage, rather than typing one.
    await openPage(page, ledger.url, 'quota.html');
    const projects = page.locator('[data-testid="quota-projects"]');
    await projects.locator('a', { hasText: 'tenant-b' }).waitFor();
    expect(await projects.locator('a', { hasText: 'tenant-a' }).count()).toBe(1);
    await projects.locator('a', { hasText: 'tenant-b' }).click();
    await page.locator('h2', { hasText: 'Project tenant-b' }).waitFor();
    await screenshot(page, '13-quota-admin');

    expect(requested.length).toBeGreaterThan(20);
    const tokens = [ledger.adminToken, ledger.token({ user: 'tenant-a-user', project: 'tenant-a', roles: ['member'] })];
    expect(requested.filter((url) => tokens.some((token) => url.includes(token) || url.includes(encodeURIComponent(token))))).toEqual([]);
  });

  it('shows an agent that stops heartbeating as lost, without a reload', async () => {
    await openPage(page, ledger.url, 'fleet.html');
    const row = page.locator(`tr[data-host="${HOST}"]`);
    await row.locator('.badge-up').first().waitFor();
    await agent?.stop('SIGTERM');
    agent = undefined;
    await row.locator('.badge-lost').waitFor();
    await page.locator('[data-testid="agents-lost"]', { hasText: /^[1-9]/ }).waitFor();
    await screenshot(page, '14-fleet-agent-lost');
    await admin.close();
  });
});
