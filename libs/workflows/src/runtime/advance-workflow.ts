import type { EventStore } from '@ledger/eventstore';
import type { Clock } from '@ledger/processing';
import type { Workflow } from '../domain/workflow';
import { workflowIdOf } from '../domain/workflow';
import { type WorkflowEvent, WorkflowEventTypes } from '../domain/workflow.events';
import type { WorkflowInput } from '../domain/workflow-input';
import type { DecidedSendable } from '../domain/workflow-output';
import { decidePending, hasEnded, type WorkflowRecord } from '../domain/workflow-record';
import type { PortAnswer, WorkflowCommandPort, WorkflowJobPort } from './workflow-ports';
import type { WorkflowTimerWrites } from './workflow-timers';
import { appendToWorkflow, foldEvents, loadWorkflow, withStreamRetries } from './workflow-stream';

/** The durable steps of an advance, in order; an observer sees each right after it happened (tests crash there). */
export type WorkflowStepPoint = 'input-recorded' | 'decision-recorded' | 'dispatched' | 'sent-recorded';

export interface AdvanceContext {
  readonly store: Pick<EventStore, 'append' | 'readStream'>;
  readonly timers: WorkflowTimerWrites;
  readonly commands: WorkflowCommandPort;
  readonly jobs: WorkflowJobPort;
  readonly signal: AbortSignal;
  /** The time of the ports' answers. */
  readonly clock: Clock;
  readonly onStep?: (point: WorkflowStepPoint, stream: string) => void;
}

/** A new input and whether it may start an instance that has no stream yet. */
export interface Arrival {
  readonly input: WorkflowInput;
  readonly starts: boolean;
}

/** Whether an input is recorded: not seen before, the workflow not ended, and a new instance only from a starting route. */
export function accepts(record: WorkflowRecord<unknown>, arrival: Arrival): boolean {
  if (record.inputIds.has(arrival.input.id)) return false;
  if (record.version === 0) return arrival.starts;
  return !hasEnded(record.status);
}

/**
 * Brings one workflow instance up to date: records `arrival` (once) with the
 * decision on it, sends every output not yet sent, and records each send
 * with the port's answer (an input in turn) and the decision on that answer,
 * until nothing is left. What is sent in one advance is recorded in one
 * append at its end (docs/workflows.md, "One append per advance"): a crash
 * before it leaves the stream as it was, and the next advance decides the
 * same outputs again (their ids are their keys) and sends them again, which
 * every port takes as the same send. An arrival that exists only in this
 * call (a start) is recorded before anything is sent, so that a crash
 * cannot lose it, and so is an event that starts an instance, so that the
 * instance is there to be seen and cancelled while its first step runs; an
 * event for a running instance is recorded with the sends, the log
 * bringing it again after a crash. Each append expects the version
 * the record was folded at. Resolves to the record as it stands. `known`, a
 * record of the stream folded earlier, saves reading what it already holds.
 */
export async function advanceWorkflow<State>(
  context: AdvanceContext,
  workflow: Workflow<State>,
  stream: string,
  arrival?: Arrival,
  known?: WorkflowRecord<State>,
): Promise<WorkflowRecord<State>> {
  return withStreamRetries(async () => {
    let record = await loadWorkflow(context.store, workflow, stream, known);
    known = record;
    let staged: Staged<State> | undefined;
    if (arrival && accepts(record, arrival)) {
      const recorded: WorkflowEvent[] = [{ type: WorkflowEventTypes.inputRecorded, data: { input: arrival.input } }];
      // An event for a running instance goes with the sends it causes; one that starts an instance is recorded first, like a
      // start: until the first send returns (a step may wait long) the instance would otherwise not exist to be seen or cancelled.
      if (arrival.input.kind === 'event' && record.version > 0) staged = stage(workflow, nothingStaged(record, arrival.input.id), recorded);
      else {
        record = await appendDecided(context, workflow, record, recorded, arrival.input.id);
        context.onStep?.('input-recorded', stream);
      }
    } else if (record.pending.length > 0) {
      record = await appendDecided(context, workflow, record, [], record.pending[0].id);
    }
    for (;;) {
      const output = (staged?.record ?? record).unsent[0];
      if (!output) break;
      const answer = await send(context, workflow, stream, output);
      context.onStep?.('dispatched', stream);
      const sent: WorkflowEvent[] = [{ type: WorkflowEventTypes.outputSent, data: { outputId: output.id } }];
      if (answer) sent.push({ type: WorkflowEventTypes.inputRecorded, data: { input: replyInput(output, answer, new Date(context.clock()).toISOString()) } });
      staged = stage(workflow, staged ?? nothingStaged(record, output.id), sent);
    }
    if (!staged) return record;
    record = await appendStaged(context, workflow, staged);
    if (arrival?.input.kind === 'event' && staged.events[0]?.type === WorkflowEventTypes.inputRecorded) context.onStep?.('input-recorded', stream);
    if (staged.events.some((event) => event.type === WorkflowEventTypes.outputSent)) context.onStep?.('sent-recorded', stream);
    return record;
  });
}

/** Events folded into the record but not appended yet: they are appended together after `base`, caused by the first input or send. */
interface Staged<State> {
  readonly base: WorkflowRecord<State>;
  readonly events: readonly WorkflowEvent[];
  /** `base` with `events` folded in: what the next send is read from. */
  readonly record: WorkflowRecord<State>;
  readonly causationId: string;
}

const nothingStaged = <State>(record: WorkflowRecord<State>, causationId: string): Staged<State> => ({ base: record, events: [], record, causationId });

/** Adds `events`, then the decisions on every input then pending: a reply and what it made the workflow do go together. */
function stage<State>(workflow: Workflow<State>, staged: Staged<State>, events: readonly WorkflowEvent[]): Staged<State> {
  const { decisions } = decidePending(workflow, foldEvents(workflow, staged.record, events));
  const all: WorkflowEvent[] = [...events, ...decisions];
  return { ...staged, events: [...staged.events, ...all], record: foldEvents(workflow, staged.record, all) };
}

/** Appends `events` followed by the decisions on every input then pending, in one append. */
function appendDecided<State>(
  context: AdvanceContext,
  workflow: Workflow<State>,
  record: WorkflowRecord<State>,
  events: readonly WorkflowEvent[],
  causationId: string,
): Promise<WorkflowRecord<State>> {
  return appendStaged(context, workflow, stage(workflow, nothingStaged(record, causationId), events));
}

/**
 * Appends what is staged. The timers its decisions ask for are written
 * first (so none is lost to a crash after the append), the ones they drop after.
 */
async function appendStaged<State>(context: AdvanceContext, workflow: Workflow<State>, staged: Staged<State>): Promise<WorkflowRecord<State>> {
  const outputs = staged.events.flatMap((event) => (event.type === WorkflowEventTypes.outputsDecided ? event.data.outputs : []));
  await Promise.all(
    outputs.flatMap((output) =>
      output.kind === 'schedule'
        ? [context.timers.schedule(workflow.name, { outputId: output.id!, stream: staged.base.stream, key: output.key, dueAt: Date.parse(output.dueAt) })]
        : [],
    ),
  );
  const appended = (await appendToWorkflow(context.store, workflow, staged.base, staged.events, staged.causationId)).record;
  if (staged.events.some((event) => event.type === WorkflowEventTypes.outputsDecided)) context.onStep?.('decision-recorded', staged.base.stream);
  await Promise.all(outputs.flatMap((output) => (output.kind === 'unschedule' ? [context.timers.drop(output.id!)] : [])));
  return appended;
}

/** Sends one output through its port. Resolves to the port's answer. */
async function send(context: AdvanceContext, workflow: Workflow<unknown>, stream: string, output: DecidedSendable): Promise<PortAnswer> {
  const workflowId = workflowIdOf(workflow.name, stream)!;
  const base = { id: output.id, workflow: workflow.name, workflowId, key: output.key };
  return output.kind === 'command'
    ? context.commands.send({ ...base, payload: output.command }, context.signal)
    : context.jobs.request({ ...base, payload: output.job }, context.signal);
}

function replyInput(output: DecidedSendable, answer: PortAnswer, at: string): WorkflowInput {
  const base = { kind: 'reply' as const, id: `reply:${output.id}`, at, key: output.key, outcome: answer.outcome };
  return answer.outcome === 'accepted' ? { ...base, reply: answer.reply } : { ...base, error: answer.error };
}

