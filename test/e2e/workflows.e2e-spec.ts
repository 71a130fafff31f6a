import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '@ledger/eventstore';
import { ConflictError } from '@ledger/kernel';
import { eventually, testEvent } from '@ledger/processing/testing';
import { defineStepWorkflow, jobResultRoute, workflowJobId, type WorkflowInput } from '@ledger/workflows';
import type { LedgerWorkflows } from '../../apps/ledger/src/infrastructure/ledger-workflows';
import { type AgentProcess, startAgentProcess } from '../support/agent-process';
import { startTestLedger, type TestLedger } from '../support/ledger-app';

const HOST = 'workflow-e2e-host';

interface Order {
  readonly orderId: string;
  readonly hostname: string;
}

/** What the test's command side did, and what it refuses. */
const side = { sent: [] as string[], refuse: new Set<string>() };

const approved = (input: WorkflowInput) => (input.kind === 'event' && input.type === 'test.Approved' ? { done: true as const, evidence: input.data } : undefined);

/**
 * Four steps: a command, a discover job on the host's real (simulated)
 * agent, a step that waits for an approval event, and a last command.
 */
const orderWorkflow = defineStepWorkflow<Order>({
  name: 'order',
  routes: [
    { types: ['test.OrderPlaced'], starts: true, workflowId: (event) => (event.data as Order).orderId },
    { types: ['test.Approved'], workflowId: (event) => (event.data as Order).orderId },
    jobResultRoute('order'),
  ],
  start: (input) => input.data as Order,
  steps: [
    {
      name: 'reserve',
      do: ({ data }) => ({ kind: 'command', command: { type: 'test.Reserve', data } }),
      compensate: ({ data }) => ({ kind: 'command', command: { type: 'test.Release', data } }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 1 },
    },
    {
      name: 'discover',
      do: ({ data }) => ({ kind: 'job', job: { hostname: data.hostname, kind: 'discover', params: {} } }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 1 },
    },
    {
      name: 'approve',
      do: ({ data }) => ({ kind: 'command', command: { type: 'test.Ask', data } }),
      doneWhen: approved,
      timeoutMs: 60_000,
      retry: { maxAttempts: 1 },
    },
    {
      name: 'hold',
      do: ({ data }) => ({ kind: 'command', command: { type: 'test.Hold', data } }),
      timeoutMs: 30_000,
      retry: { maxAttempts: 1 },
    },
  ],
});

const handler = (type: string) => async (data: unknown) => {
  const { orderId } = data as Order;
  side.sent.push(`${type} ${orderId}`);
  if (side.refuse.has(`${type} ${orderId}`)) throw new ConflictError('TEST.REFUSED', `${type} refused for ${orderId}`);
  return { done: type };
};

const testWorkflows: LedgerWorkflows = {
  workflows: [orderWorkflow],
  commands: () => Object.fromEntries(['test.Reserve', 'test.Release', 'test.Ask', 'test.Hold'].map((type) => [type, handler(type)])),
};

describe('workflows on a ledger (a job step on a real agent; the operator API)', () => {
  let ledger: TestLedger;
  let agent: AgentProcess;
  let stateDir: string;
  let store: EventStore;
  const admin = (method: string, path: string, body?: unknown) => ledger.request(method, path, { token: ledger.adminToken, body });

  beforeAll(async () => {
    ledger = await startTestLedger({}, testWorkflows);
    store = ledger.app.get<EventStore>(EVENT_STORE);
    stateDir = mkdtempSync(join(tmpdir(), 'workflow-e2e-'));
    agent = startAgentProcess({
      LEDGER_URL: ledger.url,
      AGENT_TOKEN: ledger.token({ user: `agent:${HOST}`, project: null, roles: ['agent'], host: HOST }),
      AGENT_HOSTNAME: HOST,
      AGENT_STATE_DIR: stateDir,
      AGENT_DRIVERS: 'simulated',
      AGENT_HEARTBEAT_INTERVAL_S: '1',
    });
    await agent.waitForOutput(/discovery: 4 device\(s\)/);
    // A job is refused until the ledger has the agent's heartbeat.
    await eventually(async () => (await admin('GET', `/api/v1/hosts/${HOST}`)).body?.agentStatus === 'up');
  }, 60_000);

  afterAll(async () => {
    await agent?.stop('SIGKILL');
    await ledger?.close();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  const place = (orderId: string) => store.append(`testorder-${orderId}`, [testEvent('test.OrderPlaced', { orderId, hostname: HOST })], { expected: 'any' });
  const approve = (orderId: string) => store.append(`testorder-${orderId}`, [testEvent('test.Approved', { orderId, by: 'e2e' })], { expected: 'any' });
  const view = async (orderId: string) => (await admin('GET', `/api/v1/workflows/order/${orderId}`)).body;
  const untilAt = (orderId: string, step: string) => eventually(async () => (await view(orderId)).currentStep === step);
  const untilStatus = (orderId: string, status: string) => eventually(async () => (await view(orderId)).status === status);

  it("runs a job step on the host's agent: done on the job's result, with the agent's evidence", async () => {
    await place('o1');
    await untilAt('o1', 'approve');
    const jobId = workflowJobId('workflow-order-o1/discover/do/1');
    const job = (await admin('GET', `/api/v1/jobs/${jobId}`)).body;
    expect(job).toMatchObject({ jobId, hostname: HOST, kind: 'discover', state: 'completed' });
    const requested = (await store.readStream(`job-${jobId}`)).map((event) => [event.type, (event.data as { origin?: unknown }).origin, event.metadata.correlationId]);
    expect(requested[0]).toEqual(['jobs.JobRequested', { workflow: 'order', workflowId: 'o1', key: 'discover/do/1' }, 'workflow-order-o1']);
    expect(requested.at(-1)).toEqual(['jobs.JobCompleted', { workflow: 'order', workflowId: 'o1', key: 'discover/do/1' }, expect.any(String)]);
    await approve('o1');
    await untilStatus('o1', 'completed');
    const done = await view('o1');
    expect(done.steps.map((step: { step: string; phase: string; status: string }) => [step.step, step.phase, step.status])).toEqual([
      ['reserve', 'do', 'done'],
      ['discover', 'do', 'done'],
      ['approve', 'do', 'done'],
      ['hold', 'do', 'done'],
    ]);
    expect(done.steps[1].evidence).toEqual(job.evidence);
    expect(done.steps[0]).toMatchObject({ attempts: 1, sentAt: expect.any(String), durationMs: expect.any(Number) });
  }, 60_000);

  it('lists instances by name and status, a page at a time', async () => {
    await untilStatus('o1', 'completed');
    const list = await admin('GET', '/api/v1/workflows?name=order&status=completed&limit=1');
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([expect.objectContaining({ name: 'order', id: 'o1', status: 'completed' })]);
    expect((await admin('GET', '/api/v1/workflows?cursor=bm9wZQ')).body).toMatchObject({ code: 'WORKFLOW.INVALID' });
    expect((await admin('GET', '/api/v1/workflows/runtime')).body.items).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'workflow:order' }), expect.objectContaining({ name: 'workflow:bind' })]));
  });

  it('answers 401 without a token, 403 to a non-admin, 404 for an unknown workflow or instance, 409 on a bad state', async () => {
    expect((await ledger.request('GET', '/api/v1/workflows')).status).toBe(401);
    const member = ledger.token({ user: 'm', project: 'p', roles: ['member'] });
    expect((await ledger.request('GET', '/api/v1/workflows', { token: member })).status).toBe(403);
    expect((await ledger.request('POST', '/api/v1/workflows/order/o1/cancel', { token: member, body: {} })).status).toBe(403);
    const unknown = await admin('GET', '/api/v1/workflows/order/nope');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'WORKFLOW.NOT_FOUND']);
    expect((await admin('POST', '/api/v1/workflows/nosuch/o1/cancel', {})).body.code).toBe('WORKFLOW.NOT_FOUND');
    const cancel = await admin('POST', '/api/v1/workflows/order/o1/cancel', {});
    expect([cancel.status, cancel.body.code, cancel.body.workflowStatus]).toEqual([409, 'WORKFLOW.BAD_STATE', 'completed']);
    expect((await admin('POST', '/api/v1/workflows/order/o1/retry')).status).toBe(409);
  });

  it('cancels a running instance: the action in flight ends, then what was done is compensated', async () => {
    await place('o2');
    await untilAt('o2', 'approve');
    const cancel = await admin('POST', '/api/v1/workflows/order/o2/cancel', { reason: 'the tenant left' });
    expect(cancel.status).toBe(202);
    expect(cancel.body).toEqual({ inputId: expect.any(String), position: expect.any(Number) });
    expect((await admin('POST', '/api/v1/workflows/order/o2/cancel', {})).status).toBe(202);
    await approve('o2');
    await untilStatus('o2', 'compensated');
    const undone = await view('o2');
    expect([undone.reason, undone.code]).toEqual(['cancelled by admin: the tenant left', 'WORKFLOW.CANCELLED']);
    expect(undone.steps.filter((step: { phase: string }) => step.phase === 'compensate')).toEqual([expect.objectContaining({ step: 'reserve', status: 'compensated' })]);
    expect(side.sent).toContain('test.Release o2');
    expect(side.sent).not.toContain('test.Hold o2');
  }, 60_000);

  it('ends failed when a compensation is refused, and a retry finishes it from where it stopped', async () => {
    side.refuse.add('test.Hold o3').add('test.Release o3');
    await place('o3');
    await untilAt('o3', 'approve');
    await approve('o3');
    await untilStatus('o3', 'failed');
    const failed = await view('o3');
    expect(failed.unresolved).toEqual([{ step: 'reserve', code: 'TEST.REFUSED', reason: 'TEST.REFUSED: test.Release refused for o3' }]);
    side.refuse.delete('test.Release o3');
    const retry = await admin('POST', '/api/v1/workflows/order/o3/retry');
    expect(retry.status).toBe(202);
    await untilStatus('o3', 'compensated');
    expect(side.sent.filter((sent) => sent === 'test.Release o3')).toHaveLength(2);
  }, 60_000);
});
