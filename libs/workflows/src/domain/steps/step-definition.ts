import type { StartingInput, WorkflowInput } from '../workflow-input';
import type { CommandOutput, JobOutput } from '../workflow-output';
import type { WorkflowRoute } from '../workflow';

/** What a step (or its compensation) sends: a command or a job, without its key (the step machine keys it). */
export type StepAction = Pick<CommandOutput, 'kind' | 'command'> | Pick<JobOutput, 'kind' | 'job'>;

/** What a step knows when it acts: the data the workflow started with and the evidence of the steps done. */
export interface StepContext<Data> {
  readonly data: Data;
  readonly evidence: Readonly<Record<string, unknown>>;
  readonly attempt: number;
  /** Once compensation began: why (the step given up and its reason, or an operator's cancel). */
  readonly failure?: { readonly step: string; readonly reason: string };
}

/** An input's verdict on the action in flight: done (with evidence) or failed (with the reason). */
export type StepVerdict =
  | { readonly done: true; readonly evidence?: unknown }
  /** `tookEffect`: the action changed something though it failed (a region loaded with the wrong function): the step is undone with those done. */
  | { readonly done: false; readonly reason: string; readonly evidence?: unknown; readonly tookEffect?: boolean };

export interface StepDefinition<Data> {
  /** Unique within the workflow; part of every key (`<name>/do/<attempt>`). */
  readonly name: string;
  do(context: StepContext<Data>): StepAction;
  /**
   * The evidence that the action finished, read from an input (an event of
   * another stream routed here). Absent: for a command, the port accepting
   * it (the aggregate recorded it); for a job, its `jobs.JobCompleted`
   * (evidence: the job's) or `jobs.JobFailed` (reason: `<code>: <reason>`)
   * routed back by `jobResultRoute`, matched by the attempt's key.
   */
  doneWhen?(input: WorkflowInput, context: StepContext<Data>): StepVerdict | undefined;
  /**
   * True when the step does not apply to this instance (a bind whose
   * profile names no bitstream programs nothing): it is recorded as
   * skipped, sends nothing and has nothing to undo.
   */
  skip?(context: StepContext<Data>): boolean;
  /** Undoes the step once it is done; absent (or answering undefined for an instance) when there is nothing to undo. */
  compensate?(context: StepContext<Data>): StepAction | undefined;
  compensatedWhen?(input: WorkflowInput, context: StepContext<Data>): StepVerdict | undefined;
  /** How long one attempt (of the action or its compensation) may take before it counts as failed. */
  readonly timeoutMs: number;
  /** Attempts at the action (and at its compensation) before giving up; at least 1. */
  readonly retry: { readonly maxAttempts: number };
}

/** A workflow declared as data: steps run in order; on failure the done ones are compensated in reverse. */
export interface StepWorkflowDefinition<Data> {
  readonly name: string;
  readonly routes: readonly WorkflowRoute[];
  /** The data an instance starts with, read from the input that starts it (undefined: it starts nothing). */
  start(input: StartingInput): Data | undefined;
  readonly steps: readonly StepDefinition<Data>[];
}
