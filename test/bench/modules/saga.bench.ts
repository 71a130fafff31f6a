import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent } from '@ledger/eventstore';
import type { SqlDatabase } from '@ledger/processing';
import {
  type PortAnswer,
  type WorkflowCommandPort,
  type WorkflowDispatch,
  type WorkflowJobPort,
  type WorkflowStepPoint,
  WorkflowRuntime,
  workflowJobId,
  workflowStream,
} from '@ledger/workflows';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import type { BenchContext } from '../bench-context';
import type { BenchModule, Measurement } from '../bench-module';
import { LAST_STEP, TEN_STEP_WORKFLOW, TEN_STEPS, tenStepWorkflow } from '../fixtures/ten-step-saga';
import { bestWindow, runClosedLoop, windowRates } from '../measure/closed-loop';
import { cpuBetween, readCpu } from '../measure/cpu-usage';
import { percentile } from '../measure/statistics';

/** Runs of the saga in flight at once (the figure). */
const CONCURRENT = 100;

/**
 * The workflow runtime driving ten-step sagas (fixtures/ten-step-saga.ts)
 * on this store: CONCURRENT callers each start a run and wait for it to
 * complete, back to back. The ports answer at once (zero-latency hardware):
 * commands are accepted, and each job's result is appended to the log as
 * the jobs context appends an agent's, from where it is routed back.
 * saga_ten_step_per_s: runs completed per second (best window);
 * saga_step_overhead_*: per step, the time from one action leaving the
 * runtime to the next one leaving it (the first from the start call), so
 * recording the answer, the log's routing of a job result, the decision
 * and the next send, with nothing of the hardware's.
 */
export const sagaBench: BenchModule = {
  records: [
    { name: 'saga_ten_step_per_s', unit: 'workflows/s' },
    { name: 'saga_step_overhead_p50_ms', unit: 'ms', min: 0 },
    { name: 'saga_step_overhead_p99_ms', unit: 'ms', min: 0 },
    { name: 'saga_step_cpu_ms', unit: 'ms', min: 0 },
  ],
  async run(context) {
    const store = await context.target.openEventStore('saga');
    const db = await context.target.openReadModel('saga');
    try {
      return await measureSagas(context, store, db);
    } finally {
      await store.close();
    }
  },
};

/**
 * Notes when each action of a run left the runtime, and settles a run once
 * the decision after its last step's answer (the one that completes it) is
 * recorded.
 */
class StepClock {
  private readonly sent = new Map<string, number[]>();
  private readonly lastSent = new Set<string>();
  private readonly decided = new Map<string, () => void>();
  readonly gapsMs: number[] = [];
  measuring = false;

  begin(id: string): Promise<void> {
    this.sent.set(id, [performance.now()]);
    return new Promise((resolve) => this.decided.set(workflowStream(TEN_STEP_WORKFLOW, id), resolve));
  }

  note(dispatch: WorkflowDispatch<unknown>): void {
    const times = this.sent.get(dispatch.workflowId);
    if (!times) return;
    const now = performance.now();
    if (this.measuring) this.gapsMs.push(now - times[times.length - 1]);
    times.push(now);
    if (dispatch.key.startsWith(`${LAST_STEP}/do/`)) {
      this.sent.delete(dispatch.workflowId);
      this.lastSent.add(workflowStream(TEN_STEP_WORKFLOW, dispatch.workflowId));
    }
  }

  step(point: WorkflowStepPoint, stream: string): void {
    if (point !== 'decision-recorded' || !this.lastSent.has(stream)) return;
    this.lastSent.delete(stream);
    this.decided.get(stream)?.();
    this.decided.delete(stream);
  }
}

async function measureSagas(context: BenchContext, store: EventStore, db: SqlDatabase): Promise<Measurement[]> {
  const clock = new StepClock();
  const commands: WorkflowCommandPort = {
    send: (command) => {
      clock.note(command);
      return Promise.resolve({ outcome: 'accepted', reply: { type: command.payload.type } });
    },
  };
  const jobs: WorkflowJobPort = {
    request: async (job): Promise<PortAnswer> => {
      clock.note(job);
      const jobId = workflowJobId(job.id);
      await store.append(`job-${jobId}`, [jobCompleted(jobId, job)], { expected: 'any' });
      return { outcome: 'accepted', reply: { jobId } };
    },
  };
  const runtime = new WorkflowRuntime({ store, db, owner: 'bench', workflows: [tenStepWorkflow], commands, jobs, onStep: (point, stream) => clock.step(point, stream) });
  await runtime.start();
  const never = new AbortController().signal;
  try {
    const runOne = async (): Promise<void> => {
      const id = randomUUID().replaceAll('-', '_');
      const decidedLast = clock.begin(id);
      await runtime.begin(TEN_STEP_WORKFLOW, id, { requestId: id, data: { hostname: `compute-${id.slice(0, 8)}`, arqUuid: id } }, never);
      await decidedLast;
      // Completed by now: one read of its stream says so.
      const status = await runtime.waitForEnd(TEN_STEP_WORKFLOW, id, 0);
      if (status !== 'completed') throw new Error(`saga ${workflowStream(TEN_STEP_WORKFLOW, id)} ended ${status}`);
    };
    const timing = context.sizes.flowTiming;
    const ownCpu = () => readCpu(() => 0);
    let cpuStart = ownCpu();
    const windowsBegin = setTimeout(() => {
      clock.measuring = true;
      cpuStart = ownCpu();
    }, timing.warmupMs);
    const windows = await runClosedLoop(CONCURRENT, timing, runOne).finally(() => clearTimeout(windowsBegin));
    const cpu = cpuBetween(cpuStart, ownCpu());
    const best = bestWindow(windows);
    const runs = windows.reduce((sum, window) => sum + window.operations, 0);
    if (best.operations === 0) throw new Error(`saga_ten_step_per_s: no saga completed within a ${timing.measureMs} ms window`);
    const value = best.operations / best.seconds;
    const [p50, p99] = [percentile(clock.gapsMs, 50), percentile(clock.gapsMs, 99)];
    const cpuMsPerStep = (cpu.bench * 1000) / (runs * TEN_STEPS);
    context.progress(
      `saga ${Math.round(value)} ten-step workflows/s with ${CONCURRENT} in flight (best of windows ${windowRates(windows)}),` +
        ` step overhead p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms over ${clock.gapsMs.length} steps; CPU ${cpuMsPerStep.toFixed(3)} ms/step (the whole process: runtime, store, ports and callers)`,
    );
    return [
      { name: 'saga_ten_step_per_s', value },
      { name: 'saga_step_overhead_p50_ms', value: p50 },
      { name: 'saga_step_overhead_p99_ms', value: p99 },
      { name: 'saga_step_cpu_ms', value: cpuMsPerStep },
    ];
  } finally {
    await runtime.stop();
  }
}

/** What the jobs context appends when an agent reports a job done, with the origin that routes it back to the run. */
function jobCompleted(jobId: string, job: WorkflowDispatch<unknown>): NewEvent {
  return {
    type: 'jobs.JobCompleted',
    data: { jobId, origin: { workflow: job.workflow, workflowId: job.workflowId, key: job.key }, evidence: { zeroLatency: true } },
    metadata: { correlationId: job.workflowId, causationId: null, actor: SYSTEM_ACTOR, schemaVersion: 1 },
  };
}
