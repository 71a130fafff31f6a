import type { EventStore } from '@ledger/eventstore';
import { currentLogContext, type LogContext } from '@ledger/kernel';
import { readCheckpoint, rebuildProcessor, type SqlDatabase } from '@ledger/processing';
import { capturingLogger, eventually, testEvent, type TestDatabases } from '@ledger/processing/testing';
import { workflowStream } from '../domain/workflow';
import type { WorkflowRecord } from '../domain/workflow-record';
import { WorkflowQueries } from '../queries/workflow.queries';
import { workflowsProjection } from '../queries/workflows.projection';
import type { WorkflowStepPoint } from '../runtime/advance-workflow';
import { WorkflowRuntime, type WorkflowRuntimeOptions } from '../runtime/workflow-runtime';
import { workflowKey } from '../runtime/workflow-worker';
import { loadWorkflow } from '../runtime/workflow-stream';
import { DEMO_STEP_TIMEOUT_MS, demoWorkflow } from './demo-workflow';
import { FakeAgentPort, FakeCommandPort } from './fake-ports';

export interface WorkflowScenarioSetup {
  readonly databases: () => TestDatabases;
  /** A new, empty event store. */
  readonly store: () => Promise<EventStore>;
}

const HAPPY_COMMANDS = ['reserve/do/1', 'bind/do/1'];

/** The workflow runtime, with the demo workflow and fake ports, against one SqlDatabase adapter and one event store. */
export function workflowRuntimeScenarios(setup: WorkflowScenarioSetup): void {
  let databases: TestDatabases;
  let store: EventStore;
  let db: SqlDatabase;
  let runtimes: WorkflowRuntime[];
  let commands: FakeCommandPort;
  let agent: FakeAgentPort;
  let count = 0;
  let offsetMs: number;

  beforeAll(() => {
    databases = setup.databases();
  });
  afterAll(() => databases.dispose());
  beforeEach(async () => {
    store = await setup.store();
    db = await databases.open(`workflows_${++count}`);
    runtimes = [];
    commands = new FakeCommandPort();
    agent = new FakeAgentPort(store);
    offsetMs = 0;
  });
  afterEach(async () => {
    await Promise.all(runtimes.map((runtime) => runtime.stop()));
    await store.close();
  });

  const start = async (options: Partial<WorkflowRuntimeOptions> = {}): Promise<WorkflowRuntime> => {
    const runtime = new WorkflowRuntime({
      store,
      db,
      owner: 'test-owner',
      workflows: [demoWorkflow],
      commands,
      jobs: agent,
      logger: capturingLogger(),
      initialRetryMs: 5,
      // The tests move time forward to make timers due; leases follow the same clock.
      clock: () => Date.now() + offsetMs,
      ...options,
    });
    runtimes.push(runtime);
    await runtime.start();
    return runtime;
  };
  const place = async (orderId: string): Promise<number> =>
    (await store.append(`order-${orderId}`, [testEvent('demo.OrderPlaced', { orderId, hostname: 'compute-1' })], { expected: 'any' })).position;
  const record = (orderId: string): Promise<WorkflowRecord<(typeof demoWorkflow extends { initialState(): infer S } ? S : never)>> =>
    loadWorkflow(store, demoWorkflow, workflowStream('demo', orderId));
  const ended = (orderId: string) => eventually(async () => (await record(orderId)).status !== 'running' && (await record(orderId)).unsent.length === 0);
  /** The job of attempt `key` was sent, and the advance that sent it recorded so. */
  const jobSent = (orderId: string, key: string) =>
    eventually(async () => {
      const recorded = await record(orderId);
      return agent.keys.includes(key) && recorded.version > 0 && recorded.unsent.length === 0;
    });
  const compensations = (): string[] => [...commands.keys, ...agent.keys].filter((key) => key.includes('/compensate/'));

  it('runs the three steps in order and completes', async () => {
    await start();
    await place('o1');
    await ended('o1');
    const done = await record('o1');
    expect(done.status).toBe('completed');
    expect(done.state).toMatchObject({ done: ['reserve', 'program', 'bind'], evidence: { program: { key: 'program/do/1', ok: true } } });
    expect(commands.keys).toEqual(HAPPY_COMMANDS);
    expect(agent.keys).toEqual(['program/do/1']);
    expect(commands.received[0]).toMatchObject({ id: 'workflow-demo-o1/reserve/do/1', workflow: 'demo', workflowId: 'o1', payload: { type: 'demo.Reserve' } });
  });

  it("sends an instance's commands with the log context of the event that brought the input: its correlation id, its id and the instance", async () => {
    const contexts: (LogContext | undefined)[] = [];
    const send = commands.send.bind(commands);
    commands.send = (command) => {
      contexts.push(currentLogContext());
      return send(command);
    };
    await start();
    const placed = testEvent('demo.OrderPlaced', { orderId: 'o9', hostname: 'compute-1' });
    await store.append('order-o9', [{ ...placed, metadata: { ...placed.metadata, correlationId: 'order-request' } }], { expected: 'any' });
    await ended('o9');
    const [placedEvent] = await store.readStream('order-o9');
    expect(contexts[0]).toEqual({ correlationId: 'order-request', eventId: placedEvent.id, workflow: workflowStream('demo', 'o9') });
  });

  it('runs each advance an event of the log brings inside aroundEvent, and only those', async () => {
    const wrapped: string[] = [];
    await start({
      aroundEvent: async (workflow, event, advance) => {
        wrapped.push(`${workflow} ${event.type} ${event.stream}`);
        return advance();
      },
    });
    await place('o1');
    await ended('o1');
    // The order that starts it and the agent's job result; the runtime's own InputRecorded echoes are not advances of an event.
    expect(wrapped).toEqual(['demo demo.OrderPlaced order-o1', expect.stringMatching(/^demo jobs\.JobCompleted job-/)]);
    expect((await record('o1')).status).toBe('completed');
  });

  it('advances the instances of one batch side by side, each in its own order, and leaves no timer behind', async () => {
    const orders = Array.from({ length: 60 }, (_, n) => `o${n}`);
    for (const orderId of orders) await place(orderId);
    await start();
    await eventually(async () => (await Promise.all(orders.map(record))).every((done) => done.status === 'completed' && done.unsent.length === 0));
    for (const orderId of orders) {
      const sent = [...commands.received, ...agent.received].filter((dispatch) => dispatch.workflowId === orderId).map((dispatch) => dispatch.key);
      expect(sent.sort()).toEqual(['bind/do/1', 'program/do/1', 'reserve/do/1']);
      expect(commands.received.filter((dispatch) => dispatch.workflowId === orderId).map((dispatch) => dispatch.key)).toEqual(HAPPY_COMMANDS);
    }
    // The last step's timer is dropped right after the append that completes its instance.
    await eventually(async () => (await db.all('SELECT output_id FROM workflow_timers')).length === 0);
  });

  describe('a step that fails on every attempt is given up and the steps done are undone in reverse order', () => {
    it.each([
      ['reserve', [], []],
      ['program', ['reserve/compensate/1'], []],
      ['bind', ['program/compensate/1', 'reserve/compensate/1'], ['program/compensate/1']],
    ])('failing at %s undoes %j', async (step, undone, jobsUndone) => {
      for (const attempt of [1, 2]) {
        if (step === 'program') agent.failing.add(`program/do/${attempt}`);
        else commands.refusing.add(`${step}/do/${attempt}`);
      }
      await start();
      await place('o1');
      await ended('o1');
      expect((await record('o1')).status).toBe('compensated');
      expect(compensations().sort()).toEqual([...undone].sort());
      expect(agent.keys.filter((key) => key.includes('compensate'))).toEqual(jobsUndone);
      // Reverse order: each compensation was sent after the one of the step that followed it.
      const order = [...commands.received, ...agent.received].filter((sent) => sent.key.includes('/compensate/')).map((sent) => sent.key);
      expect(order.length).toBe(undone.length);
      const stream = await store.readStream(workflowStream('demo', 'o1'));
      const decided = stream.flatMap((event) => ((event.data as { outputs?: { key?: string }[] }).outputs ?? []).map((output) => output.key ?? ''));
      expect(decided.filter((key) => /\/compensate\/\d+$/.test(key))).toEqual(undone);
    });
  });

  it('ends failed naming the compensation it could not do; an operator’s retry finishes it', async () => {
    commands.refusing.add('bind/do/1').add('bind/do/2');
    agent.failing.add('program/compensate/1').add('program/compensate/2');
    const runtime = await start();
    await place('o1');
    await ended('o1');
    const failed = await record('o1');
    expect(failed.status).toBe('failed');
    expect(failed.state.unresolved).toEqual([{ step: 'program', code: 'DEMO.AGENT_FAILED', reason: 'agent failed program/compensate/2' }]);
    expect(compensations()).toEqual(['reserve/compensate/1', 'program/compensate/1', 'program/compensate/2']);
    await expect(runtime.cancel('demo', 'o1', { by: 'admin', reason: 'x' })).rejects.toMatchObject({ code: 'WORKFLOW.BAD_STATE', status: 409 });
    agent.failing.clear();
    await runtime.retry('demo', 'o1', { by: 'admin' });
    await eventually(async () => (await record('o1')).status === 'compensated');
    expect(agent.keys.at(-1)).toBe('program/compensate/3');
    await expect(runtime.retry('demo', 'o1', { by: 'admin' })).rejects.toMatchObject({ code: 'WORKFLOW.BAD_STATE' });
    await expect(runtime.retry('demo', 'nobody', { by: 'admin' })).rejects.toMatchObject({ code: 'WORKFLOW.NOT_FOUND', status: 404 });
    await expect(runtime.retry('nothing', 'o1', { by: 'admin' })).rejects.toMatchObject({ code: 'WORKFLOW.NOT_FOUND' });
    agent.failing.add('program/compensate/1').add('program/compensate/2');
    await place('o2');
    await ended('o2');

    // The workflows projection, built from the streams alone, shows each step's history.
    const views = await databases.open(`workflow_views_${count}`);
    await rebuildProcessor(store, views, workflowsProjection, { batchSize: 3 });
    const queries = new WorkflowQueries(views);
    expect((await queries.list()).items.map((view) => [view.id, view.status])).toEqual([['o2', 'failed'], ['o1', 'compensated']]);
    // Each instance names what it works on (the stream of the event that started it), and the list finds it from there.
    expect((await queries.list({ subject: 'order-o1' })).items.map((view) => [view.id, view.subject])).toEqual([['o1', 'order-o1']]);
    expect((await queries.list({ subject: 'order-o3' })).items).toEqual([]);
    expect((await queries.list({ status: 'failed' })).items).toMatchObject([
      {
        id: 'o2',
        reason: 'could not undo program (DEMO.AGENT_FAILED: agent failed program/compensate/2) after DEMO.REFUSED: refused bind/do/2',
        code: 'DEMO.REFUSED',
        unresolved: [{ step: 'program', code: 'DEMO.AGENT_FAILED', reason: 'DEMO.AGENT_FAILED: agent failed program/compensate/2' }],
      },
    ]);
    const o1 = (await queries.get('demo', 'o1'))!;
    expect(o1).toMatchObject({ status: 'compensated', currentStep: null, reason: 'DEMO.REFUSED: refused bind/do/2', code: 'DEMO.REFUSED' });
    expect(o1.steps.map((step) => [step.step, step.phase, step.status, step.attempts])).toEqual([
      ['reserve', 'do', 'done', 1],
      ['program', 'do', 'done', 1],
      ['bind', 'do', 'failed', 2],
      ['program', 'compensate', 'compensated', 3],
      ['reserve', 'compensate', 'compensated', 1],
    ]);
    expect(o1.steps[1]).toMatchObject({ evidence: { key: 'program/do/1', ok: true }, reason: null, code: null });
    expect(o1.steps[2]).toMatchObject({ reason: 'DEMO.REFUSED: refused bind/do/2', code: 'DEMO.REFUSED' });
    for (const step of o1.steps) {
      expect(step.sentAt).not.toBeNull();
      expect(step.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(await queries.get('demo', 'nobody')).toBeUndefined();
  });

  it('shows a stream recorded when failures were "CODE: message" sentences as it always did, with each code beside', async () => {
    const stream = workflowStream('demo', 'old');
    const timedOut = `timed out after ${DEMO_STEP_TIMEOUT_MS} ms`;
    const note = (step: string, phase: string, outcome: string, more = {}) => ({ kind: 'step', step, phase, outcome, attempt: 1, ...more });
    // schema version 1 (testEvent's): the outputs as they were written then.
    const placed = { kind: 'event', id: 'e-old', at: new Date().toISOString(), type: 'demo.OrderPlaced', stream: 'order-old', data: { orderId: 'old', hostname: 'compute-1' } };
    await store.append(
      stream,
      [
        testEvent('workflow.InputRecorded', { input: placed }),
        testEvent('workflow.OutputsDecided', {
          inputId: 'e-old',
          outputs: [
            note('bind', 'do', 'started'),
            note('bind', 'do', 'failed', { final: true, reason: 'DEMO.REFUSED: refused bind/do/1' }),
            note('program', 'compensate', 'started'),
            note('program', 'compensate', 'failed', { final: true, reason: timedOut }),
            { kind: 'fail', reason: `could not undo program (${timedOut}) after DEMO.REFUSED: refused bind/do/1`, unresolved: [{ step: 'program', reason: timedOut }] },
          ],
        }),
      ],
      { expected: 'no_stream' },
    );
    const views = await databases.open(`workflow_old_views_${count}`);
    await rebuildProcessor(store, views, workflowsProjection);
    const old = await new WorkflowQueries(views).get('demo', 'old');
    expect(old).toMatchObject({
      status: 'failed',
      reason: `could not undo program (${timedOut}) after DEMO.REFUSED: refused bind/do/1`,
      code: 'DEMO.REFUSED',
      unresolved: [{ step: 'program', code: 'WORKFLOW.STEP_TIMED_OUT', reason: timedOut }],
    });
    expect(old?.steps.map(({ step, phase, reason, code }) => ({ step, phase, reason, code }))).toEqual([
      { step: 'bind', phase: 'do', reason: 'DEMO.REFUSED: refused bind/do/1', code: 'DEMO.REFUSED' },
      { step: 'program', phase: 'compensate', reason: timedOut, code: 'WORKFLOW.STEP_TIMED_OUT' },
    ]);
  });

  it('times a silent step out, retries it per its policy, then compensates', async () => {
    agent.silent.add('program/do/1').add('program/do/2');
    const runtime = await start();
    await place('o1');
    await eventually(() => agent.keys.includes('program/do/1'));
    offsetMs += DEMO_STEP_TIMEOUT_MS + 1;
    runtime.wake();
    await eventually(() => agent.keys.includes('program/do/2'));
    offsetMs += DEMO_STEP_TIMEOUT_MS + 1;
    runtime.wake();
    await ended('o1');
    const done = await record('o1');
    expect(done.status).toBe('compensated');
    expect(done.state.failure).toEqual({ step: 'program', code: 'WORKFLOW.STEP_TIMED_OUT', reason: `timed out after ${DEMO_STEP_TIMEOUT_MS} ms` });
    expect(compensations()).toEqual(['reserve/compensate/1']);
    expect(await db.all('SELECT output_id FROM workflow_timers WHERE due_at <= $1', [Date.now() + offsetMs])).toEqual([]);
  });

  it('ignores a redelivered input: replaying the whole log from position 0 sends and records nothing new', async () => {
    const first = await start();
    await place('o1');
    await ended('o1');
    const before = await store.readStream(workflowStream('demo', 'o1'));
    await first.stop();
    await db.run('UPDATE processor_checkpoints SET position = 0 WHERE name = $1', [workflowKey('demo')]);
    const again = await start();
    await again.waitForPosition(await store.headPosition());
    expect(await store.readStream(workflowStream('demo', 'o1'))).toEqual(before);
    expect(commands.keys).toEqual(HAPPY_COMMANDS);
    expect(agent.keys).toEqual(['program/do/1']);
  });

  describe('a crash at any durable step resumes to the same end on restart', () => {
    // The sends, in order: reserve's command (#1), program's job (#2), bind's command (#3); timers are rows written with the decision.
    // What one advance sends is recorded in its one append at the end: the order's advance sends #1 and #2, the job result's #3.
    it.each<[WorkflowStepPoint, number, number]>([
      ['input-recorded', 1, 0],
      ['decision-recorded', 1, 0],
      ['dispatched', 1, 1],
      ['dispatched', 2, 2],
      ['dispatched', 3, 1],
      ['sent-recorded', 1, 0],
    ])('after %s (#%d): %d output sent twice', async (point, occurrence, sentTwice) => {
      let seen = 0;
      let crashed = false;
      const crashing = await start({
        owner: 'crashing',
        initialRetryMs: 3_600_000,
        onStep: (at) => {
          if (at !== point || crashed || ++seen < occurrence) return;
          crashed = true;
          throw new Error(`simulated crash after ${point}`);
        },
      });
      await place('o1');
      await eventually(() => crashed);
      await crashing.stop();
      expect((await record('o1')).status).toBe('running');
      await start({ owner: 'restarted' });
      await ended('o1');
      expect((await record('o1')).status).toBe('completed');
      const sent = [...commands.keys, ...agent.keys];
      // Nothing lost; a command or job sent but not yet recorded as sent is the only one sent twice (a timer is stored idempotently).
      expect([...new Set(sent)].sort()).toEqual([...HAPPY_COMMANDS, 'program/do/1'].sort());
      expect(sent.length).toBe(3 + sentTwice);
    });
  });

  it("waits for an instance's end, or only until the caller's own view says it is settled", async () => {
    agent.silent.add('program/do/1');
    const runtime = await start();
    await place('o1');
    await jobSent('o1', 'program/do/1');
    await expect(runtime.waitForEnd('demo', 'o1', 50)).rejects.toMatchObject({ code: 'WORKFLOW.WAIT_TIMED_OUT' });
    // The job never reports: the instance runs on, and the caller's view alone ends the wait.
    expect(await runtime.waitForEnd('demo', 'o1', 10_000, async () => true)).toBe('running');
  });

  it("advances the instances an event is routed to in the caller's request (advanceOn), without the workflow's loop", async () => {
    agent.silent.add('program/do/1');
    const looping = await start();
    await place('o1');
    await jobSent('o1', 'program/do/1');
    await looping.stop();
    // A runtime whose loop never runs: only advanceOn can take the job's result.
    const idle = new WorkflowRuntime({ store, db, owner: 'idle', workflows: [demoWorkflow], commands, jobs: agent, logger: capturingLogger() });
    // The result's append also carries a fact of another stream after it (a device job's): the result is found in the append.
    const last = await agent.finish('o1', 'program/do/1', true, true);
    await idle.advanceOn({ last, count: 2 }, new AbortController().signal);
    expect(commands.keys).toEqual(HAPPY_COMMANDS);
    expect((await record('o1')).status).toBe('completed');
  });

  it('cancels at the end of the action in flight and undoes what was done', async () => {
    agent.silent.add('program/do/1');
    const runtime = await start();
    await place('o1');
    await jobSent('o1', 'program/do/1');
    const { position } = await runtime.cancel('demo', 'o1', { by: 'admin', reason: 'tenant left' });
    await runtime.waitForPosition(position);
    expect((await record('o1')).state.cancel).toEqual({ by: 'admin', reason: 'tenant left' });
    await agent.finish('o1', 'program/do/1', true);
    await ended('o1');
    const done = await record('o1');
    expect(done.status).toBe('compensated');
    expect(done.state.failure).toEqual({ step: 'program', code: 'WORKFLOW.CANCELLED', reason: 'cancelled by admin: tenant left' });
    expect(compensations()).toEqual(['reserve/compensate/1', 'program/compensate/1']);
    expect(commands.keys).not.toContain('bind/do/1');
  });

  it('runs each workflow in one of two runtimes sharing a database; the other stands by', async () => {
    // A lease long enough not to lapse on a loaded machine: a takeover mid-dispatch may send an output twice
    // (at least once, by design), and this test is about standing by, not about takeover.
    const a = await start({ owner: 'a', leaseTtlMs: 10_000 });
    const b = await start({ owner: 'b', leaseTtlMs: 10_000 });
    await eventually(async () => {
      const states = [(await a.status())[0].state, (await b.status())[0].state].sort();
      return states[1] === 'standby' && states[0] !== 'standby';
    });
    for (const id of ['o1', 'o2', 'o3']) await place(id);
    for (const id of ['o1', 'o2', 'o3']) await ended(id);
    expect(commands.keys.sort()).toEqual([...HAPPY_COMMANDS, ...HAPPY_COMMANDS, ...HAPPY_COMMANDS].sort());
    expect(await readCheckpoint(db, workflowKey('demo'))).toBeDefined();
  });
}
