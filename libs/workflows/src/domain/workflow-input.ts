/** What every input carries: a message id (inputs are deduplicated by it) and its time (decide never reads a clock). */
interface InputBase {
  readonly id: string;
  /** ISO-8601 time of the input: an event's recorded time, a timer's due time, an operator's request time. */
  readonly at: string;
}

/** An event of another stream routed to this workflow; `id` is the source event's id. */
export interface EventInput extends InputBase {
  readonly kind: 'event';
  readonly type: string;
  readonly stream: string;
  readonly data: unknown;
}

/**
 * What an instance starts with when the app starts it itself (an HTTP
 * request, an operator), rather than an event of another stream; `id` is
 * the request's id.
 */
export interface StartInput extends InputBase {
  readonly kind: 'start';
  readonly data: unknown;
  /** The stream of what the instance works on (`arq-<uuid>` for a bind), so an operator finds it from there; absent on instances started before it was recorded. */
  readonly subject?: string;
}

/** How the port answered a command or job this workflow sent; `id` is the output's id. */
export interface ReplyInput extends InputBase {
  readonly kind: 'reply';
  readonly key: string;
  readonly outcome: 'accepted' | 'rejected';
  /** What an accepting port returned (a command's position, a job id), for evidence. */
  readonly reply?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
}

/** A timer this workflow scheduled came due; `id` is the schedule output's id. */
export interface TimerInput extends InputBase {
  readonly kind: 'timer';
  readonly key: string;
}

/** An operator asks to stop and undo what was done. */
export interface CancelInput extends InputBase {
  readonly kind: 'cancel';
  readonly by: string;
  readonly reason: string;
}

/** An operator asks a failed workflow to try again from where it stopped. */
export interface RetryInput extends InputBase {
  readonly kind: 'retry';
  readonly by: string;
}

export type WorkflowInput = StartInput | EventInput | ReplyInput | TimerInput | CancelInput | RetryInput;

/** The inputs that can start an instance. */
export type StartingInput = StartInput | EventInput;

export const isStartingInput = (input: WorkflowInput): input is StartingInput => input.kind === 'start' || input.kind === 'event';
