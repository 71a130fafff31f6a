import { eventLogContext, type RecordedEvent } from '@ledger/eventstore';
import { forEachConcurrently, withLogContext } from '@ledger/kernel';
import {
  type Checkpoint,
  ProcessorWorker,
  type PreparedProcessor,
  readCheckpoint,
  restartCheckpoint,
  type SqlExecutor,
  type WorkerSettings,
} from '@ledger/processing';
import { type Workflow, workflowIdOf, workflowStream } from '../domain/workflow';
import { WorkflowEventTypes } from '../domain/workflow.events';
import type { WorkflowRecord } from '../domain/workflow-record';
import { advanceWorkflow, type AdvanceContext, type Arrival } from './advance-workflow';
import type { AroundEventAdvance } from './workflow-ports';
import { dueTimers } from './workflow-timers';

/** An input routed from an event, with the event. */

/** Workflows are not rebuilt: their checkpoint has one version. */
const WORKFLOW_VERSION = 1;
/**
 * Instances whose record is remembered as last advanced: the runtime's own
 * appends coming back through the log cost nothing, and the next advance
 * reads only what was appended since.
 */
const RECORD_CACHE_SIZE = 10_000;
/** How often a loop that keeps reading looks for due timers. */
const TIMER_LOOK_MS = 250;
/** Instances of one batch advanced at once: as many as a batch (100 events) can name. */
const ADVANCE_CONCURRENCY = 100;

export const workflowKey = (name: string): string => `workflow:${name}`;

/**
 * Runs one workflow on the shared processor loop, under its own lease and
 * checkpoint: routes each event it reads to its instance as an input, and
 * advances the instance (decide, send, record). Its own `InputRecorded`
 * events come back through the log too, which is how inputs recorded
 * elsewhere (an operator's cancel on another replica) get decided, and how
 * a crash anywhere is resumed. Before each read it fires the due timers.
 */
export class WorkflowWorker extends ProcessorWorker {
  private readonly records = new Map<string, WorkflowRecord<unknown>>();
  private timersLookedAt = Number.NEGATIVE_INFINITY;
  /** The advance running per stream: the next one waits for it. */
  private readonly inFlight = new Map<string, Promise<WorkflowRecord<unknown>>>();

  constructor(
    readonly workflow: Workflow<unknown>,
    settings: WorkerSettings,
    private readonly ports: Omit<AdvanceContext, 'signal' | 'clock'>,
    private readonly aroundEvent: AroundEventAdvance = (_workflow, _event, advance) => advance(),
  ) {
    const types = [...new Set([...workflow.routes.flatMap((route) => route.types), WorkflowEventTypes.inputRecorded])];
    super({ key: workflowKey(workflow.name), version: WORKFLOW_VERSION, filter: { types } }, settings);
  }

  protected async prepareIn(tx: SqlExecutor, now: Date): Promise<PreparedProcessor> {
    const stored = await readCheckpoint(tx, this.identity.key);
    if (stored) return { checkpoint: stored, rebuilt: false };
    await restartCheckpoint(tx, this.identity.key, WORKFLOW_VERSION, now);
    return { checkpoint: { version: WORKFLOW_VERSION, position: 0 }, rebuilt: true };
  }

  /**
   * Inputs are deduplicated by message id on each instance's stream, so
   * resuming at the restored head re-routes nothing twice and skips nothing
   * appended from now on.
   */
  protected async restartAheadOfLog(tx: SqlExecutor, now: Date, head: number): Promise<Checkpoint> {
    await restartCheckpoint(tx, this.identity.key, WORKFLOW_VERSION, now, head);
    return { version: WORKFLOW_VERSION, position: head };
  }

  /** Looks for due timers at the next turn too (a clock moved, an operator's request was recorded). */
  override wake(): void {
    this.timersLookedAt = Number.NEGATIVE_INFINITY;
    super.wake();
  }

  protected override async beforeRead(): Promise<boolean> {
    const now = this.settings.clock();
    // A busy loop reads many times a second: due timers are looked for at most every TIMER_LOOK_MS (or at once after wake()).
    if (now - this.timersLookedAt < TIMER_LOOK_MS) return true;
    this.timersLookedAt = now;
    for (const timer of await dueTimers(this.settings.db, this.workflow.name, now)) {
      const input = { kind: 'timer' as const, id: timer.outputId, at: new Date(timer.dueAt).toISOString(), key: timer.key };
      await this.advance(timer.stream, { input, starts: false });
      await this.ports.timers.drop(timer.outputId);
    }
    return true;
  }

  /**
   * Instances are independent: the batch's arrivals are grouped by instance,
   * each instance's advanced in log order, and up to ADVANCE_CONCURRENCY
   * instances at once, so their appends share the store's group commits
   * instead of paying one write each. The checkpoint moves once all are done.
   */
  protected async process(from: Checkpoint, to: number, events: readonly RecordedEvent[]): Promise<boolean> {
    // Per instance, in log order: a routed input, or the version of an input recorded on its stream; with the event that brought it.
    const byStream = new Map<string, { arrival: Arrival | number; event: RecordedEvent }[]>();
    const arrive = (stream: string, arrival: Arrival | number, event: RecordedEvent) => {
      const arrivals = byStream.get(stream);
      if (arrivals) arrivals.push({ arrival, event });
      else byStream.set(stream, [{ arrival, event }]);
    };
    for (const event of events) {
      if (event.type === WorkflowEventTypes.inputRecorded) {
        if (workflowIdOf(this.workflow.name, event.stream) !== undefined) arrive(event.stream, event.version, event);
        continue;
      }
      for (const { stream, arrival } of this.routed(event)) arrive(stream, arrival, event);
    }
    await forEachConcurrently([...byStream], ADVANCE_CONCURRENCY, async ([stream, arrivals]) => {
      for (const { arrival, event } of arrivals) {
        // What an advance logs carries the correlation id of the event that brought the input, and the instance.
        await withLogContext({ ...eventLogContext(event), workflow: stream }, async () => {
          if (typeof arrival !== 'number') await this.aroundEvent(this.workflow.name, event, () => this.advance(stream, arrival));
          // The log's echo of an advance (this one's or an earlier one's) costs nothing; an input recorded elsewhere is decided.
          else if ((this.records.get(stream)?.version ?? 0) < arrival) await this.advance(stream);
        });
      }
    });
    await this.commit(from, to);
    return true;
  }

  /**
   * Advances an instance now, in the caller's request (an HTTP handler
   * starting a bind), instead of when the log brings the input round: the
   * caller gets the outcome without waiting a loop. Serialised with this
   * worker's own advances of the same stream, and its record remembered so
   * the log's echo of it costs nothing. Any process may do it (another
   * replica's worker only meets a version conflict and reloads); it needs no lease.
   */
  advanceNow(stream: string, arrival: Arrival, signal: AbortSignal): Promise<WorkflowRecord<unknown>> {
    return this.advance(stream, arrival, signal);
  }

  /**
   * Advances now, in the caller's request, the instances `event` is routed
   * to (a job's result, as the agent's POST records it), instead of when
   * the log brings it round; the log's echo of it then costs nothing.
   */
  async advanceOnEvent(event: RecordedEvent, signal: AbortSignal): Promise<void> {
    await Promise.all(this.routed(event).map(({ stream, arrival }) => this.advance(stream, arrival, signal)));
  }

  /** The instances an event of another stream is an input of, by this workflow's routes. */
  private routed(event: RecordedEvent): { stream: string; arrival: Arrival }[] {
    return this.workflow.routes.flatMap((route) => {
      const id = route.types.includes(event.type) ? route.workflowId(event) : undefined;
      if (id === undefined) return [];
      const input = { kind: 'event' as const, id: event.id, at: event.recordedAt, type: event.type, stream: event.stream, data: event.data };
      return [{ stream: workflowStream(this.workflow.name, id), arrival: { input, starts: route.starts ?? false } }];
    });
  }

  private async advance(stream: string, arrival?: Arrival, signal: AbortSignal = this.runSignal): Promise<WorkflowRecord<unknown>> {
    const before = this.inFlight.get(stream);
    const run = (async () => {
      await before?.catch(() => undefined);
      const context = { ...this.ports, signal, clock: this.settings.clock };
      const record = await advanceWorkflow(context, this.workflow, stream, arrival, this.records.get(stream));
      this.records.delete(stream);
      this.records.set(stream, record);
      if (this.records.size > RECORD_CACHE_SIZE) this.records.delete(this.records.keys().next().value!);
      return record;
    })();
    this.inFlight.set(stream, run);
    try {
      return await run;
    } finally {
      if (this.inFlight.get(stream) === run) this.inFlight.delete(stream);
    }
  }
}
