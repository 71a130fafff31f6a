import type { EventStore } from '@ledger/eventstore';
import { uuidV7 } from '@ledger/kernel';
import { ensureProcessingTables, type ProcessorStatus, WorkerPool, type WorkerPoolOptions } from '@ledger/processing';
import { type Workflow, WORKFLOW_NAME, workflowStream } from '../domain/workflow';
import { WorkflowEventTypes } from '../domain/workflow.events';
import type { WorkflowInput } from '../domain/workflow-input';
import type { WorkflowStatus } from '../domain/workflow-record';
import type { WorkflowStepPoint } from './advance-workflow';
import { WorkflowNotFoundError, WorkflowStateError, WorkflowWaitTimedOutError } from './workflow.errors';
import type { AroundEventAdvance, WorkflowCommandPort, WorkflowJobPort } from './workflow-ports';
import { appendToWorkflow, loadWorkflow, withStreamRetries } from './workflow-stream';
import { ensureWorkflowTimersTable, WorkflowTimerWrites } from './workflow-timers';
import { WorkflowWorker } from './workflow-worker';

export interface WorkflowRuntimeOptions extends WorkerPoolOptions {
  readonly store: Pick<EventStore, 'readAll' | 'waitForAppend' | 'headPosition' | 'append' | 'readStream'>;
  /** Each with its own state type (hence `any`): the runtime only hands a state back to the workflow that made it. */
  readonly workflows: readonly Workflow<any>[];
  readonly commands: WorkflowCommandPort;
  readonly jobs: WorkflowJobPort;
  /** Sees each durable step of an advance as it happens: for tracing, and for tests that crash there. */
  readonly onStep?: (point: WorkflowStepPoint, stream: string) => void;
  /** Wraps each advance an event of the log brings (the ledger's tracing: a span in the event's trace). */
  readonly aroundEvent?: AroundEventAdvance;
}

/** What `begin` starts an instance with: the request id (it dedupes), the data, and the stream it works on. */
export interface WorkflowStart {
  readonly requestId: string;
  readonly data: unknown;
  readonly subject?: string;
}

/** What an operator's request recorded: the input and the position of the event that carries it. */
export interface OperatorRequestResult {
  readonly inputId: string;
  readonly position: number;
}

/**
 * Runs the workflows of this process, each under its own lease and
 * checkpoint (`workflow:<name>`) on the shared processor loop. `cancel` and
 * `retry` record an operator's input on the instance's stream from any
 * process; the one that holds the lease decides on it.
 */
export class WorkflowRuntime {
  private readonly pool: WorkerPool<WorkflowWorker>;

  constructor(private readonly options: WorkflowRuntimeOptions) {
    const bad = options.workflows.find((workflow) => !WORKFLOW_NAME.test(workflow.name));
    if (bad) throw new RangeError(`workflow name ${bad.name} must match ${WORKFLOW_NAME}`);
    const ports = { store: options.store, timers: new WorkflowTimerWrites(options.db), commands: options.commands, jobs: options.jobs, onStep: options.onStep };
    this.pool = new WorkerPool(options, { batchSize: 100 }, (settings) => options.workflows.map((workflow) => new WorkflowWorker(workflow, settings, ports, options.aroundEvent)));
  }

  /** Creates the checkpoint, lease and timer tables and starts every workflow's loop. */
  start(): Promise<void> {
    return this.pool.start(async () => {
      await ensureProcessingTables(this.options.db);
      await ensureWorkflowTimersTable(this.options.db);
    });
  }

  /** Aborts the sends in flight (sent again by whoever runs the workflow next) and releases the leases. */
  stop(): Promise<void> {
    return this.pool.stop('the workflow runtime stopped');
  }

  async status(): Promise<ProcessorStatus[]> {
    const head = await this.options.store.headPosition();
    return this.pool.workers.map((worker) => worker.status(head));
  }

  /** Resolves once every workflow has processed the log up to `position`; for tests and tools. */
  waitForPosition(position: number, options: { readonly timeoutMs?: number } = {}): Promise<void> {
    return this.pool.waitForPosition(position, options.timeoutMs ?? 10_000);
  }

  /** Makes every loop look now: for due timers after the clock moved, or a request just recorded. */
  wake(): void {
    for (const worker of this.pool.workers) worker.wake();
  }

  /**
   * Starts instance `id` of workflow `name` with `data` and advances it in
   * this call, as far as it goes without waiting for an outside event or a
   * timer. `requestId` dedupes: starting again with the same request id
   * records nothing. `subject` (the stream it works on) is recorded with
   * the start, for the workflows list. Resolves to the instance's status then.
   */
  async begin(name: string, id: string, start: WorkflowStart, signal: AbortSignal): Promise<WorkflowStatus> {
    const worker = this.workerOf(name);
    const { requestId, data, subject } = start;
    const input: WorkflowInput = { kind: 'start', id: requestId, at: new Date(this.pool.settings.clock()).toISOString(), data, ...(subject ? { subject } : {}) };
    const record = await worker.advanceNow(workflowStream(name, id), { input, starts: true }, signal);
    if (record.version === 0) throw new WorkflowNotFoundError(name, id);
    return record.status;
  }

  /**
   * Advances now, in the caller's request, the instances the events of one
   * append are inputs of (a job's result the agent just posted, with the
   * fact recorded beside it), rather than when each workflow's loop reads
   * them: what the workflow does next (a bind's claim) is done before the
   * caller answers, and before whatever its client sends next (the agent's
   * fresh report). `appended`: the append's last position and its count of
   * events. Resolves once they were advanced; the loops later find them so.
   */
  async advanceOn(appended: { readonly last: number; readonly count: number }, signal: AbortSignal): Promise<void> {
    const { events } = await this.options.store.readAll({ after: appended.last - appended.count, max: appended.count });
    for (const event of events.filter((read) => read.position <= appended.last)) {
      await Promise.all(this.pool.workers.map((worker) => worker.advanceOnEvent(event, signal)));
    }
  }

  /**
   * Resolves once instance `id` is no longer running (completed, compensated
   * or failed), reading its stream each time the log grows; rejects with
   * WORKFLOW.WAIT_TIMED_OUT after `timeoutMs`, and at once with
   * WORKFLOW.NOT_FOUND when no such instance was ever started (a bind made
   * without a workflow has an id, but nothing to wait for). `settled`, when
   * given, is the caller's own view of the outcome (a request bound by the
   * last step): once it holds, the wait resolves with the instance still
   * `running`, without waiting for the append that records its end.
   */
  async waitForEnd(name: string, id: string, timeoutMs: number, settled?: () => Promise<boolean>, signal?: AbortSignal): Promise<WorkflowStatus> {
    const worker = this.workerOf(name);
    const deadline = this.pool.settings.clock() + timeoutMs;
    for (;;) {
      const { status, version } = await loadWorkflow(this.options.store, worker.workflow, workflowStream(name, id));
      if (version === 0) throw new WorkflowNotFoundError(name, id);
      if (status !== 'running') return status;
      if (settled && (await settled())) return status;
      const left = deadline - this.pool.settings.clock();
      if (left <= 0) throw new WorkflowWaitTimedOutError(name, id, timeoutMs);
      await this.options.store.waitForAppend(left, signal);
    }
  }

  private workerOf(name: string): WorkflowWorker {
    const worker = this.pool.workers.find((candidate) => candidate.workflow.name === name);
    if (!worker) throw new WorkflowNotFoundError(name);
    return worker;
  }

  /** Asks a running instance to stop: the action in flight ends (done, failed or timed out), then the steps done are compensated. */
  cancel(name: string, id: string, request: { readonly by: string; readonly reason: string }): Promise<OperatorRequestResult> {
    return this.request(name, id, (status) => (status === 'running' ? undefined : 'only a running workflow can be cancelled'), {
      kind: 'cancel',
      ...request,
    });
  }

  /** Asks a failed instance to try again from where it stopped (the compensations it gave up). */
  retry(name: string, id: string, request: { readonly by: string }): Promise<OperatorRequestResult> {
    return this.request(name, id, (status) => (status === 'failed' ? undefined : 'only a failed workflow can be retried'), { kind: 'retry', ...request });
  }

  private async request(
    name: string,
    id: string,
    refusal: (status: WorkflowStatus) => string | undefined,
    input: Omit<Extract<WorkflowInput, { kind: 'cancel' | 'retry' }>, 'id' | 'at'>,
  ): Promise<OperatorRequestResult> {
    const worker = this.workerOf(name);
    const inputId = uuidV7();
    const at = new Date(this.pool.settings.clock()).toISOString();
    const position = await withStreamRetries(async () => {
      const record = await loadWorkflow(this.options.store, worker.workflow, workflowStream(name, id));
      if (record.version === 0) throw new WorkflowNotFoundError(name, id);
      const refused = refusal(record.status);
      if (refused !== undefined) throw new WorkflowStateError(name, id, record.status, refused);
      const recorded = { type: WorkflowEventTypes.inputRecorded, data: { input: { ...input, id: inputId, at } as WorkflowInput } };
      return (await appendToWorkflow(this.options.store, worker.workflow, record, [recorded], inputId)).position;
    });
    worker.wake();
    return { inputId, position };
  }
}
