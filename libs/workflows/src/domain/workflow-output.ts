import type { Failure, StepFailure } from './failure';

/**
 * What a workflow decides. Commands and jobs go out through the ports the
 * app supplies; schedules become durable timers; step notes record what
 * happened to a step (the queries read them); `complete` and `fail` end the
 * workflow. Compensations are ordinary commands and jobs.
 */
export type WorkflowOutput = CommandOutput | JobOutput | ScheduleOutput | UnscheduleOutput | StepNote | CompleteOutput | FailOutput;

interface KeyedOutput {
  /** Unique within the workflow instance; with the stream it makes the output's id (the idempotency key). */
  readonly key: string;
}

/** A command a workflow sends: its type and its data. Each workflow declares the union of its own (`BindCommand`). */
export interface WorkflowCommand<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
}

/** The data the command `Type` of the union `Command` carries. */
export type CommandData<Command extends WorkflowCommand, Type extends Command['type']> = Extract<Command, { readonly type: Type }>['data'];

/** A command to an aggregate of another context, sent through the app's `WorkflowCommandPort`. */
export interface CommandOutput<Command extends WorkflowCommand = WorkflowCommand> extends KeyedOutput {
  readonly kind: 'command';
  readonly command: Command;
}

/** A job for a host's agent, requested through the app's `WorkflowJobPort`. */
export interface JobOutput extends KeyedOutput {
  readonly kind: 'job';
  readonly job: {
    readonly hostname: string;
    readonly kind: string;
    readonly params: Readonly<Record<string, unknown>>;
    /** How long the jobs context waits for the agent's result (JOB.TIMED_OUT after); absent: the kind's default. */
    readonly timeoutSeconds?: number;
    /** The project the job acts for (a bind loads a region for its request's project): recorded as the job's actor project, for provenance. */
    readonly project?: string;
  };
}

/** A timer: at `dueAt` the runtime records a `timer` input with this key. */
export interface ScheduleOutput extends KeyedOutput {
  readonly kind: 'schedule';
  readonly dueAt: string;
}

/** Drops a timer that no longer matters (its step settled), so it never fires an input. */
export interface UnscheduleOutput {
  readonly kind: 'unschedule';
  /** The key of the schedule output to drop. */
  readonly key: string;
}

/** A fact about one step, recorded with the decision; nothing is sent. */
export interface StepNote {
  readonly kind: 'step';
  readonly step: string;
  readonly phase: 'do' | 'compensate';
  /** `skipped`: the step does not apply to this instance (nothing sent, nothing to undo). */
  readonly outcome: 'started' | 'done' | 'failed' | 'skipped';
  readonly attempt: number;
  /** On `failed`: true when no attempt is left (the step is given up). */
  readonly final?: boolean;
  /** On `failed`: the attempt changed something all the same, so the step is compensated too once the workflow stops. */
  readonly tookEffect?: boolean;
  readonly evidence?: unknown;
  /** On `failed`: why, as data (a port's refusal, the job's failure, a timeout). */
  readonly code?: string;
  readonly reason?: string;
}

export interface CompleteOutput {
  readonly kind: 'complete';
  /** `compensated`: it stopped and undid everything it had done. */
  readonly outcome: 'completed' | 'compensated';
  /** On `compensated`: why it stopped (the step given up, an operator's cancel). */
  readonly failure?: Failure;
}

/** The workflow stopped with work it could not undo; an operator must look (and may retry). */
export interface FailOutput {
  readonly kind: 'fail';
  /** Why it stopped (the step given up, an operator's cancel). */
  readonly failure?: Failure;
  /** The compensations given up, and why. */
  readonly unresolved: readonly StepFailure[];
}

/** Outputs that leave the workflow through a port (and are marked sent once they did). */
export type SendableOutput = CommandOutput | JobOutput;

/** An output as recorded: with its id, `<stream>/<key>`. */
export type DecidedOutput = WorkflowOutput & { readonly id?: string };
export type DecidedSendable = SendableOutput & { readonly id: string };

export const isSendable = (output: WorkflowOutput): output is SendableOutput => output.kind === 'command' || output.kind === 'job';

/**
 * Timers are written to the timers table by the runtime around the append
 * of the decision that asks for them (schedule before it, unschedule after
 * it), not sent later: a stray row (a decision that lost a race, a drop a
 * crash skipped) fires an input the workflow ignores.
 */
export const isTimerOutput = (output: WorkflowOutput): output is ScheduleOutput | UnscheduleOutput =>
  output.kind === 'schedule' || output.kind === 'unschedule';
