import type { Failure, StepFailure } from '../failure';
import type { StartingInput, WorkflowInput } from '../workflow-input';
import type { CommandData, CommandOutput, JobOutput, WorkflowCommand } from '../workflow-output';
import type { WorkflowRoute } from '../workflow';

/** What a step (or its compensation) sends: one of the workflow's commands or a job, without its key (the step machine keys it). */
export type StepAction<Command extends WorkflowCommand = WorkflowCommand> = Pick<CommandOutput<Command>, 'kind' | 'command'> | Pick<JobOutput, 'kind' | 'job'>;

/**
 * The typed constructor of a workflow's commands: `const command =
 * commandsOf<BindCommand>()`, then `command('allocation.StartBind', {…})`
 * checks the data against that type's.
 */
export const commandsOf =
  <Command extends WorkflowCommand>() =>
  <Type extends Command['type']>(type: Type, data: CommandData<Command, Type>): StepAction<Command> => ({
    kind: 'command',
    // The pair is one member of the union by the signature above; TypeScript cannot see it through Extract.
    command: { type, data } as WorkflowCommand as Command,
  });

/** What each step's evidence is, by step name, as a workflow declares it (`{ 'claim-handle': ClaimEvidence }`). */
export type StepEvidence = Readonly<Record<string, unknown>>;

/** What a step knows when it acts: the data the workflow started with and the evidence of the steps done. */
export interface StepContext<Data, Evidence extends StepEvidence = StepEvidence> {
  readonly data: Data;
  /** The evidence of the steps done, by name: a step reads that of steps before it (a skipped one has none). */
  readonly evidence: Evidence;
  readonly attempt: number;
  /** Once compensation began: why (the step given up, its code and reason, or an operator's cancel). */
  readonly failure?: StepFailure;
}

/** An input's verdict on the action in flight: done (with evidence) or failed (with its code and reason). */
export type StepVerdict =
  | { readonly done: true; readonly evidence?: unknown }
  /** `tookEffect`: the action changed something though it failed (a region loaded with the wrong function): the step is undone with those done. */
  | (Failure & { readonly done: false; readonly evidence?: unknown; readonly tookEffect?: boolean });

export interface StepDefinition<Data, Command extends WorkflowCommand = WorkflowCommand, Evidence extends StepEvidence = StepEvidence> {
  /** Unique within the workflow; part of every key (`<name>/do/<attempt>`). */
  readonly name: string;
  do(context: StepContext<Data, Evidence>): StepAction<Command>;
  /**
   * The evidence that the action finished, read from an input (an event of
   * another stream routed here). Absent: for a command, the port accepting
   * it (the aggregate recorded it); for a job, its `jobs.JobCompleted`
   * (evidence: the job's) or `jobs.JobFailed` (its code and reason)
   * routed back by `jobResultRoute`, matched by the attempt's key.
   */
  doneWhen?(input: WorkflowInput, context: StepContext<Data, Evidence>): StepVerdict | undefined;
  /**
   * True when the step does not apply to this instance (a bind whose
   * profile names no bitstream programs nothing): it is recorded as
   * skipped, sends nothing and has nothing to undo.
   */
  skip?(context: StepContext<Data, Evidence>): boolean;
  /** Undoes the step once it is done; absent (or answering undefined for an instance) when there is nothing to undo. */
  compensate?(context: StepContext<Data, Evidence>): StepAction<Command> | undefined;
  compensatedWhen?(input: WorkflowInput, context: StepContext<Data, Evidence>): StepVerdict | undefined;
  /** How long one attempt (of the action or its compensation) may take before it counts as failed. */
  readonly timeoutMs: number;
  /** Attempts at the action (and at its compensation) before giving up; at least 1. */
  readonly retry: { readonly maxAttempts: number };
}

/**
 * A workflow declared as data: steps run in order; on failure the done ones
 * are compensated in reverse. `Command` is the union of the commands its
 * steps send, `Evidence` what the steps whose evidence it reads prove.
 */
export interface StepWorkflowDefinition<Data, Command extends WorkflowCommand = WorkflowCommand, Evidence extends StepEvidence = StepEvidence> {
  readonly name: string;
  readonly routes: readonly WorkflowRoute[];
  /** The data an instance starts with, read from the input that starts it (undefined: it starts nothing). */
  start(input: StartingInput): Data | undefined;
  readonly steps: readonly StepDefinition<Data, Command, Evidence>[];
}
