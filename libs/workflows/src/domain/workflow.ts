import type { WorkflowInput } from './workflow-input';
import type { DecidedOutput, WorkflowOutput } from './workflow-output';

/** An event of the log as a route sees it (a RecordedEvent fits). */
export interface RoutedEvent {
  readonly id: string;
  readonly type: string;
  readonly stream: string;
  readonly data: unknown;
  readonly recordedAt: string;
  readonly metadata: { readonly correlationId: string; readonly causationId: string | null };
}

/** Which events of other streams are inputs of which workflow instance. */
export interface WorkflowRoute {
  readonly types: readonly string[];
  /** The instance the event is an input of (its id), or undefined when it is none's. */
  workflowId(event: RoutedEvent): string | undefined;
  /** True when the event may start a new instance; otherwise it only feeds one already started. */
  readonly starts?: boolean;
}

/** What `evolve` folds: an input once it was decided on, then each output of that decision. */
export type WorkflowMessage =
  | { readonly kind: 'input'; readonly input: WorkflowInput }
  | { readonly kind: 'output'; readonly output: DecidedOutput };

/**
 * A durable workflow: a pure decider with its own stream,
 * `workflow-<name>-<id>`. `decide` sees the state before the input; the
 * runtime then folds the input and the outputs with `evolve`. Both are pure:
 * time comes in the input (`at`), ids are the outputs' keys.
 */
export interface Workflow<State = unknown> {
  /** Lower-case letters, digits and underscores: the stream is `workflow-<name>-<id>`. */
  readonly name: string;
  readonly routes: readonly WorkflowRoute[];
  initialState(): State;
  decide(input: WorkflowInput, state: State): readonly WorkflowOutput[];
  evolve(state: State, message: WorkflowMessage): State;
}

export const WORKFLOW_CATEGORY = 'workflow';
export const WORKFLOW_NAME = /^[a-z][a-z0-9_]*$/;

export const workflowStream = (name: string, id: string): string => `${WORKFLOW_CATEGORY}-${name}-${id}`;

/** The instance id of a stream of workflow `name`, or undefined when the stream is not one of its. */
export function workflowIdOf(name: string, stream: string): string | undefined {
  const prefix = `${WORKFLOW_CATEGORY}-${name}-`;
  return stream.startsWith(prefix) ? stream.slice(prefix.length) : undefined;
}
