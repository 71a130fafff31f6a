import { type EventStore, WrongExpectedVersionError } from '@ledger/eventstore';
import { SYSTEM_ACTOR } from '@ledger/kernel';
import type { Workflow } from '../domain/workflow';
import { WORKFLOW_EVENT_SCHEMA_VERSIONS, type WorkflowEvent } from '../domain/workflow.events';
import { upcastWorkflowEvent } from '../domain/workflow-event-upcast';
import { emptyRecord, evolveRecord, type WorkflowRecord } from '../domain/workflow-record';

/**
 * Reads a workflow's stream and folds it; from `known` (a record of the
 * same stream folded earlier) only the events after it are read: a stream
 * only grows, so whatever was appended since, by anyone, is among them.
 */
export async function loadWorkflow<State>(
  store: Pick<EventStore, 'readStream'>,
  workflow: Workflow<State>,
  stream: string,
  known?: WorkflowRecord<State>,
): Promise<WorkflowRecord<State>> {
  let record = known ?? emptyRecord(workflow, stream);
  for (const event of await store.readStream(stream, { fromVersion: record.version + 1 })) {
    record = evolveRecord(workflow, record, upcastWorkflowEvent(event), event.version);
  }
  return record;
}

/**
 * Appends `events` to the workflow's stream, expecting the version the
 * record was folded at, and folds them into it. Another writer in between
 * (an operator's cancel, a second runtime) makes it throw
 * WrongExpectedVersionError: reload and go again. Resolves to the new
 * record and the position of the last event appended.
 */
export async function appendToWorkflow<State>(
  store: Pick<EventStore, 'append'>,
  workflow: Workflow<State>,
  record: WorkflowRecord<State>,
  events: readonly WorkflowEvent[],
  causationId: string,
): Promise<{ record: WorkflowRecord<State>; position: number }> {
  const metadata = { correlationId: record.stream, causationId, actor: SYSTEM_ACTOR };
  const { position } = await store.append(
    record.stream,
    events.map((event) => ({ type: event.type, data: event.data, metadata: { ...metadata, schemaVersion: WORKFLOW_EVENT_SCHEMA_VERSIONS[event.type] } })),
    { expected: record.version },
  );
  return { record: foldEvents(workflow, record, events), position };
}

/** The record as it will be once `events` are appended after it. */
export function foldEvents<State>(workflow: Workflow<State>, record: WorkflowRecord<State>, events: readonly WorkflowEvent[]): WorkflowRecord<State> {
  return events.reduce((current, event, index) => evolveRecord(workflow, current, event, record.version + index + 1), record);
}

/** Runs `attempt` again from a fresh read while another writer keeps moving the stream (up to `maxAttempts`). */
export async function withStreamRetries<T>(attempt: () => Promise<T>, maxAttempts = 10): Promise<T> {
  for (let round = 1; ; round++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError) || round >= maxAttempts) throw error;
    }
  }
}
