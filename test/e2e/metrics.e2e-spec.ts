import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { CommandBus } from '@nestjs/cqrs';
import { type CommandContext, EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import { parkEvent, type ProcessorRuntime, type SqlDatabase } from '@ledger/processing';
import { eventually, testEvent } from '@ledger/processing/testing';
import { ReserveQuotaCommand } from '@ledger/quota';
import { defineStepWorkflow } from '@ledger/workflows';
import type { LedgerWorkflows } from '../../apps/ledger/src/infrastructure/ledger-workflows';
import { PROCESSOR_RUNTIME, READ_MODEL_DB } from '../../apps/ledger/src/infrastructure/tokens';
import { hostReportBody } from '../support/fleet';
import { startTestLedger, type TestLedger } from '../support/ledger-app';
import { parsePrometheusText, type Sample, sampleValue } from '../support/prometheus-text';

const HOST = 'compute-1';
const SILENT_HOST = 'compute-silent';
const context: CommandContext = { actor: SYSTEM_ACTOR, correlationId: '0196b3c2-0000-7000-8000-00000000e2e1' };

/** A workflow that stays on its one step: the scrape finds it running there. */
const HOLD_WORKFLOWS: LedgerWorkflows = {
  workflows: [
    defineStepWorkflow({
      name: 'metrics_hold',
      routes: [{ types: ['test.metrics_hold'], starts: true, workflowId: (event: { data: unknown }) => (event.data as { id: string }).id }],
      start: (input) => input.data,
      steps: [{ name: 'wait', do: () => ({ kind: 'command', command: { type: 'test.Ask', data: {} } }), doneWhen: () => undefined, timeoutMs: 3_600_000, retry: { maxAttempts: 1 } }],
    }),
  ],
  commands: () => ({ 'test.Ask': async () => ({ asked: true }) }),
};

describe('Prometheus metrics at /metrics (embedded SQLite)', () => {
  let ledger: TestLedger;
  let store: EventStore;
  const agentOf = (host: string) => ledger.token({ user: `agent:${host}`, project: null, roles: ['agent'], host });
  const report = (host: string) => ledger.request('PUT', `/api/v1/hosts/${host}/report`, { token: agentOf(host), body: hostReportBody(1) });
  const heartbeat = (host: string, intervalSeconds: number) =>
    ledger.request('POST', `/api/v1/hosts/${host}/heartbeat`, { token: agentOf(host), body: { agentVersion: '0.1.0', intervalSeconds, devices: [] } });
  const scrape = async (): Promise<Sample[]> => {
    const response = await fetch(`${ledger.url}/metrics`, { headers: { authorization: `Bearer ${ledger.adminToken}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return parsePrometheusText(await response.text());
  };

  beforeAll(async () => {
    ledger = await startTestLedger(
      {
        // Nothing listens on the discard port: every host's sync is placement-unavailable.
        LEDGER_PLACEMENT_URL: 'http://127.0.0.1:9',
        LEDGER_PLACEMENT_RESYNC_SECONDS: '1',
        LEDGER_PLACEMENT_TIMEOUT_MS: '1000',
        LEDGER_AGENT_LOST_AFTER_INTERVALS: '1',
        LEDGER_AGENT_LIVENESS_CHECK_MS: '50',
        LEDGER_TELEMETRY_FLUSH_MS: '50',
        LEDGER_AGENT_HEARTBEAT_SECONDS: '3600',
      },
      HOLD_WORKFLOWS,
    );
    store = ledger.app.get(EVENT_STORE);
  });
  afterAll(() => ledger.close());

  it('is refused without a token and to every role but admin', async () => {
    const none = await ledger.request('GET', '/metrics');
    expect([none.status, none.body.code]).toEqual([401, 'AUTH.TOKEN_MISSING']);
    for (const roles of [['manager'], ['reader'], ['service'], ['agent']]) {
      const refused = await ledger.request('GET', '/metrics', { token: ledger.token({ user: 'ops', project: 'p', roles }) });
      expect([roles, refused.status, refused.body.code]).toEqual([roles, 403, 'AUTH.ROLE_REQUIRED']);
    }
    expect(sampleValue(await scrape(), 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('counts requests by route template and status, and appends with their group commits', async () => {
    const before = await scrape();
    const reported = await report(HOST);
    expect(reported.status).toBe(200);
    expect((await ledger.request('GET', '/api/v1/hosts/no-such-host', { token: ledger.adminToken })).status).toBe(404);
    expect((await ledger.request('GET', '/no/such/route', { token: ledger.adminToken })).status).toBe(404);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) => (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
    const reportRoute = { method: 'PUT', route: '/api/v1/hosts/:hostname/report' };
    expect(moved('ledger_http_requests_total', { ...reportRoute, status: '200' })).toBe(1);
    expect(moved('ledger_http_request_duration_seconds_count', { ...reportRoute, status_class: '2xx' })).toBe(1);
    expect(moved('ledger_http_request_duration_seconds_sum', { ...reportRoute, status_class: '2xx' })).toBeGreaterThan(0);
    expect(moved('ledger_http_requests_total', { method: 'GET', route: '/api/v1/hosts/:hostname', status: '404' })).toBe(1);
    expect(moved('ledger_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(after.some((sample) => sample.labels.route?.includes('no-such-host'))).toBe(false);

    expect(moved('ledger_eventstore_append_duration_seconds_count', { outcome: 'appended' })).toBeGreaterThanOrEqual(1);
    expect(moved('ledger_eventstore_commit_appends_count')).toBeGreaterThanOrEqual(1);
    expect(moved('ledger_eventstore_commit_appends_sum')).toBeGreaterThanOrEqual(moved('ledger_eventstore_commit_appends_count'));
    expect(sampleValue(after, 'ledger_eventstore_head_position')).toBeGreaterThanOrEqual(reported.body.position);
  });

  it("shows every processor's position, lag, state, batches and parked events", async () => {
    const head = await store.headPosition();
    await ledger.app.get<ProcessorRuntime>(PROCESSOR_RUNTIME).waitForPosition(head);
    const at = new Date().toISOString();
    await ledger.app.get<SqlDatabase>(READ_MODEL_DB).transaction((tx) =>
      parkEvent(tx, { reactor: 'placement-reconciler', position: 1_000_000_000, eventId: randomUUID(), type: 'test.Parked', stream: 'test-x', error: 'e', attempts: 5, firstFailedAt: at, lastFailedAt: at }),
    );
    const samples = await scrape();
    const inventory = { processor: 'inventory' };
    expect(sampleValue(samples, 'ledger_processor_position', inventory)).toBeGreaterThanOrEqual(head);
    expect(sampleValue(samples, 'ledger_processor_batches_total', inventory)).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, 'ledger_processor_events_total', inventory)).toBeGreaterThanOrEqual(2);
    expect(sampleValue(samples, 'ledger_processor_state', { ...inventory, state: 'live' })).toBe(1);
    // Caught up to the head as read before the scrape; events appended since (the Placement reconciler's) may wait.
    expect(sampleValue(samples, 'ledger_processor_lag_events', inventory)).toBe(Math.max(0, sampleValue(samples, 'ledger_eventstore_head_position')! - sampleValue(samples, 'ledger_processor_position', inventory)!));
    expect(sampleValue(samples, 'ledger_processor_lag_seconds', inventory)).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, 'ledger_processor_parked_events', { processor: 'reactor:placement-reconciler' })).toBe(1);
    expect(sampleValue(samples, 'ledger_processor_parked_events', { processor: 'reactor:kafka-relay' })).toBeUndefined(); // no LEDGER_KAFKA_BROKERS: not run
    expect(sampleValue(samples, 'ledger_processor_position', { processor: 'workflow:bind' })).toBeGreaterThanOrEqual(0);
  });

  it('counts Placement sync states, workflows by step, jobs, agents up and lost, and quota per project', async () => {
    expect((await heartbeat(HOST, 3600)).status).toBe(200);
    expect((await report(SILENT_HOST)).status).toBe(200);
    expect((await heartbeat(SILENT_HOST, 1)).status).toBe(200);
    const job = await ledger.request('POST', `/api/v1/hosts/${HOST}/jobs`, {
      token: ledger.adminToken,
      body: { kind: 'install-driver', params: { driver: 'nvidia-gpu', version: '550.1' } },
    });
    expect(job.status).toBe(202);
    expect((await ledger.request('PUT', '/api/v1/quotas/p1', { token: ledger.adminToken, body: { limits: { FPGA: 4 } } })).status).toBe(200);
    await ledger.app.get(CommandBus).execute(new ReserveQuotaCommand({ project: 'p1', consumers: [{ consumerId: 'arq-a', resources: { FPGA: 1 } }] }, context));
    await store.append('metricsorder-held', [testEvent('test.metrics_hold', { id: 'held' })], { expected: 'any' });

    const observed = async () => {
      const samples = await scrape();
      return {
        up: sampleValue(samples, 'ledger_agents', { status: 'up' }),
        lost: sampleValue(samples, 'ledger_agents', { status: 'lost' }),
        unknown: sampleValue(samples, 'ledger_agents', { status: 'unknown' }),
        jobs: sampleValue(samples, 'ledger_jobs', { state: 'requested', kind: 'install-driver' }),
        used: sampleValue(samples, 'ledger_quota_used', { project: 'p1', resource: 'FPGA' }),
        limit: sampleValue(samples, 'ledger_quota_limit', { project: 'p1', resource: 'FPGA' }),
        held: sampleValue(samples, 'ledger_workflows', { workflow: 'metrics_hold', state: 'running', step: 'wait' }),
        unavailableHosts: sampleValue(samples, 'ledger_placement_hosts', { state: 'placement-unavailable' }),
        inSync: sampleValue(samples, 'ledger_placement_hosts', { state: 'in-sync' }),
        placementDown: sampleValue(samples, 'ledger_placement_unavailable'),
        reconciler: sampleValue(samples, 'ledger_processor_state', { processor: 'reactor:placement-reconciler', state: 'unavailable' }),
        reconcilerFailures: (sampleValue(samples, 'ledger_processor_failures_total', { processor: 'reactor:placement-reconciler' }) ?? 0) > 0,
      };
    };
    const wanted = { up: 1, lost: 1, unknown: 0, jobs: 1, used: 1, limit: 4, held: 1, unavailableHosts: 2, inSync: 0, placementDown: 1, reconciler: 1, reconcilerFailures: true };
    let seen: unknown;
    await eventually(async () => isDeepStrictEqual((seen = await observed()), wanted)).catch(() => expect(seen).toEqual(wanted));
  });
});

describe('LEDGER_METRICS=false', () => {
  it('serves no /metrics', async () => {
    const ledger = await startTestLedger({ LEDGER_METRICS: 'false' });
    try {
      const scrape = await ledger.request('GET', '/metrics', { token: ledger.adminToken });
      expect([scrape.status, scrape.body.code]).toEqual([404, 'ROUTE.NOT_FOUND']);
    } finally {
      await ledger.close();
    }
  });
});
