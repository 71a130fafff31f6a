import type { RecordedEvent } from '@ledger/eventstore';
import type { CommandOutput, JobOutput } from '../domain/workflow-output';

/** One output on its way out. `id` (`workflow-<name>-<id>/<step>/<phase>/<attempt>`) is the idempotency key. */
export interface WorkflowDispatch<Payload> {
  /**
   * Dispatch is at least once: after a crash between sending and recording
   * the send, the same id is sent again. The receiving side must treat a
   * second request with the same id as the first (answer it, change nothing).
   */
  readonly id: string;
  readonly workflow: string;
  readonly workflowId: string;
  readonly key: string;
  readonly payload: Payload;
}

/**
 * A port's answer. `rejected` is an answer, not a failure: the aggregate or
 * agent refused (a quota exceeded, a device in maintenance) and the workflow
 * decides what that means. A port that cannot reach the other side throws;
 * the runtime retries the send with backoff and decides nothing.
 */
export type PortAnswer =
  | { readonly outcome: 'accepted'; readonly reply?: unknown }
  | { readonly outcome: 'rejected'; readonly error: { readonly code: string; readonly message: string } };

/** Sends workflow commands to the aggregates of other contexts (the app wires it to its command bus). */
export interface WorkflowCommandPort {
  send(command: WorkflowDispatch<CommandOutput['command']>, signal: AbortSignal): Promise<PortAnswer>;
}

/** Requests jobs of agents (the app wires it to the jobs context); the result comes back as an event routed to the workflow. */
export interface WorkflowJobPort {
  request(job: WorkflowDispatch<JobOutput['job']>, signal: AbortSignal): Promise<PortAnswer>;
}

/**
 * Runs the advance that an event of the log brings to an instance of
 * `workflow`: the ledger's tracing puts a span around it, in the trace the
 * event was appended in. Without one, the advance just runs.
 */
export type AroundEventAdvance = <T>(workflow: string, event: RecordedEvent, advance: () => Promise<T>) => Promise<T>;
