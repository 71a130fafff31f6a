import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { eventually } from '@ledger/processing/testing';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text';

/**
 * The unchanged report's short cut (docs/agent-protocol.md, "Unchanged
 * reports"), seen from outside: which way a report went is counted in
 * /metrics, and either way the answer and the store are the full path's.
 */
describe('unchanged reports over HTTP (embedded SQLite)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const report = (host: string, rawBody: string) =>
    ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agentOf(host), rawBody, headers: { 'content-type': 'application/json' } });
  const reportsBy = async (): Promise<{ shortcut: number; full: number }> => {
    const response = await fetch(`${ledger.url}/metrics`, { headers: { authorization: `Bearer ${ledger.adminToken}` } });
    const samples = parsePrometheusText(await response.text());
    const count = (path: string) => sampleValue(samples, 'ledger_agent_reports_total', { path }) ?? 0;
    return { shortcut: count('shortcut'), full: count('full') };
  };
  /** Sends a report and says which way it went. */
  const sent = async (host: string, rawBody: string) => {
    const before = await reportsBy();
    const response = await report(host, rawBody);
    const after = await reportsBy();
    return { response, path: after.shortcut > before.shortcut ? 'shortcut' : after.full > before.full ? 'full' : 'none' };
  };
  const compact = JSON.stringify(hostReportBody(1));

  beforeAll(async () => {
    ledger = await startTestLedger({
      LEDGER_AGENT_LOST_AFTER_INTERVALS: '1',
      LEDGER_AGENT_LIVENESS_CHECK_MS: '50',
      LEDGER_AGENT_HEARTBEAT_SECONDS: '3600',
    });
    store = ledger.app.get(EVENT_STORE);
  });
  afterAll(() => ledger.close());

  it('answers a byte-identical unchanged report by the short cut, as the full path answers it, appending nothing', async () => {
    const host = 'compute-same';
    const first = await sent(host, compact);
    expect([first.path, first.response.status, first.response.body.events[0]]).toEqual(['full', 200, 'inventory.HostRegistered']);
    const head = await store.headPosition();
    const second = await sent(host, compact);
    expect(second.path).toBe('shortcut');
    expect(second.response.status).toBe(200);
    expect(second.response.body).toEqual({ hostname: host, appended: 0, position: null, events: [] });
    const spaced = await sent(host, JSON.stringify(hostReportBody(1), null, 2));
    expect(spaced.path).toBe('full');
    expect(spaced.response.body).toEqual(second.response.body);
    expect((await sent(host, JSON.stringify(hostReportBody(1), null, 2))).path).toBe('shortcut');
    expect(await store.headPosition()).toBe(head);
  });

  it('takes the full path for a changed report, and for the last body again once the host changed', async () => {
    const host = 'compute-changing';
    await sent(host, compact);
    const changed = await sent(host, JSON.stringify(hostReportBody(1, 1)));
    expect(changed.path).toBe('full');
    expect(changed.response.body.appended).toBeGreaterThan(0);
    expect((await sent(host, JSON.stringify(hostReportBody(1, 1)))).path).toBe('shortcut');
    const back = await sent(host, compact);
    expect(back.path).toBe('full');
    expect(back.response.body.appended).toBeGreaterThan(0);
    expect(back.response.body.position).toBeGreaterThan(changed.response.body.position);
  });

  it('never shortcuts a body the full path refused, nor a report the caller may not make', async () => {
    const host = 'compute-refused';
    const invalid = JSON.stringify({ devices: [{ type: 'FPGA', surprise: true }] });
    for (let attempt = 0; attempt < 3; attempt++) {
      const refused = await sent(host, invalid);
      expect([refused.path, refused.response.status, refused.response.body.code]).toEqual(['full', 400, 'REQUEST.INVALID']);
    }
    await sent('compute-same', compact);
    await sent('compute-other', compact);
    const wrongHost = await ledger.request('PUT', '/api/v1/hosts/compute-same/report', {
      token: agentOf('compute-other'),
      rawBody: compact,
      headers: { 'content-type': 'application/json' },
    });
    expect([wrongHost.status, wrongHost.body.code]).toEqual([403, 'AUTH.WRONG_HOST']);
  });

  it('still counts a short-cut report as a sighting: a lost host is recorded back', async () => {
    const host = 'compute-lost';
    await sent(host, compact);
    const heartbeat = await ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, {
      token: agentOf(host),
      body: { agentVersion: '0.1.0', intervalSeconds: 1, devices: [] },
    });
    expect(heartbeat.status).toBe(200);
    const backs = async () => (await store.readStream(`host-${host}`)).filter((event) => event.type === 'inventory.AgentBack').length;
    await eventually(async () => (await store.readStream(`host-${host}`)).some((event) => event.type === 'inventory.AgentLost'));
    const byReport = await sent(host, compact);
    expect([byReport.path, byReport.response.body.appended]).toEqual(['shortcut', 0]);
    expect(await backs()).toBe(1);
    // Quiet from here on: a long interval keeps the host up for the rest of the file.
    await ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, { token: agentOf(host), body: { agentVersion: '0.1.0', intervalSeconds: 3600, devices: [] } });
  });
});
