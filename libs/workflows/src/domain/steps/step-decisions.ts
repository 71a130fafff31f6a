import { WorkflowFailureCodes } from '../failure';
import { jobResultOf } from '../job-results';
import { isStartingInput, type WorkflowInput } from '../workflow-input';
import type { StepNote, WorkflowCommand, WorkflowOutput } from '../workflow-output';
import type { StepContext, StepDefinition, StepEvidence, StepVerdict, StepWorkflowDefinition } from './step-definition';
import { applyStepOutput, type CurrentAction, receiveInput, type StepWorkflowState } from './step-state';

/**
 * Decides as the step machine: collects outputs and folds each into a local
 * state as it goes, so that what follows a note (the next step, the next
 * compensation, the end) is read from the state `evolve` will also reach.
 */
class Decision<Data, Command extends WorkflowCommand, Evidence extends StepEvidence> {
  readonly outputs: WorkflowOutput[] = [];

  constructor(
    private readonly definition: StepWorkflowDefinition<Data, Command, Evidence>,
    public state: StepWorkflowState<Data>,
    private readonly at: string,
  ) {}

  emit(output: WorkflowOutput): void {
    this.outputs.push(output);
    this.state = applyStepOutput(this.definition, this.state, output);
  }

  context(attempt: number): StepContext<Data, Evidence> {
    // Each step's evidence is recorded under its name as it is done; the workflow declared what each one is.
    return { data: this.state.data as Data, evidence: this.state.evidence as Evidence, attempt, failure: this.state.failure };
  }

  /** Sends attempt `attempt` of a step's action or compensation, with its timeout. */
  begin(step: StepDefinition<Data, Command, Evidence>, phase: 'do' | 'compensate', attempt: number): void {
    const key = `${step.name}/${phase}/${attempt}`;
    const action = phase === 'do' ? step.do(this.context(attempt)) : step.compensate!(this.context(attempt));
    this.emit({ kind: 'step', step: step.name, phase, outcome: 'started', attempt });
    if (!action) {
      // Nothing to undo for this instance: the compensation is done as it starts.
      this.emit({ kind: 'step', step: step.name, phase, outcome: 'done', attempt, evidence: { nothingToUndo: true } });
      return this.proceed();
    }
    this.emit({ ...action, key } as WorkflowOutput);
    if (awaitsMore(step, phase, action)) this.emit({ kind: 'schedule', key: `${key}/timeout`, dueAt: new Date(Date.parse(this.at) + step.timeoutMs).toISOString() });
  }

  /** The next step, the next compensation, or the end. */
  proceed(): void {
    const { state, definition } = this;
    if (state.phase === 'doing' || state.phase === 'new') {
      for (;;) {
        const next = definition.steps[this.state.done.length];
        if (!next) return this.emit({ kind: 'complete', outcome: 'completed' });
        const attempt = (this.state.attempts[`${next.name}/do`] ?? 0) + 1;
        if (!next.skip?.(this.context(attempt))) return this.begin(next, 'do', attempt);
        this.emit({ kind: 'step', step: next.name, phase: 'do', outcome: 'skipped', attempt: 0 });
      }
    }
    if (state.phase !== 'compensating') return;
    const undo = state.toUndo[0];
    if (undo !== undefined) {
      const step = definition.steps.find((candidate) => candidate.name === undo)!;
      return this.begin(step, 'compensate', (state.attempts[`${undo}/compensate`] ?? 0) + 1);
    }
    const failure = state.failure && { code: state.failure.code, reason: state.failure.reason };
    if (state.unresolved.length === 0) return this.emit({ kind: 'complete', outcome: 'compensated', ...(failure && { failure }) });
    this.emit({ kind: 'fail', ...(failure && { failure }), unresolved: state.unresolved });
  }

  /** The action in flight ended: done, or failed (then retried while attempts are left and no cancel waits). */
  settle(current: CurrentAction, verdict: StepVerdict): void {
    const step = this.definition.steps[current.step];
    const note: Omit<StepNote, 'outcome'> = { kind: 'step', step: step.name, phase: current.phase, attempt: current.attempt, evidence: verdict.evidence };
    // The attempt ended: its timeout (if it had one) must not fire an input later.
    const action = current.phase === 'do' ? step.do(this.context(current.attempt)) : step.compensate!(this.context(current.attempt));
    const timed = action !== undefined && awaitsMore(step, current.phase, action);
    const unschedule = () => timed && this.emit({ kind: 'unschedule', key: `${step.name}/${current.phase}/${current.attempt}/timeout` });
    if (verdict.done) {
      this.emit({ ...note, outcome: 'done' });
      unschedule();
      return this.proceed();
    }
    const retry = current.attempt < current.lastAttempt && !(current.phase === 'do' && this.state.cancel);
    this.emit({ ...note, outcome: 'failed', code: verdict.code, reason: verdict.reason, final: !retry, ...(verdict.tookEffect ? { tookEffect: true } : {}) });
    unschedule();
    if (retry) return this.begin(step, current.phase, current.attempt + 1);
    this.proceed();
  }
}

/**
 * Whether an action waits for something after its port answers, and so
 * needs a timeout timer: a job (its result comes back later), or a command
 * whose step names its evidence (`doneWhen` / `compensatedWhen`). A plain
 * command is settled by the port's answer, recorded in the advance that
 * sends it; after a crash in between, the resumed advance sends it again.
 */
function awaitsMore<Data, Command extends WorkflowCommand, Evidence extends StepEvidence>(
  step: StepDefinition<Data, Command, Evidence>,
  phase: 'do' | 'compensate',
  action: { readonly kind: string },
): boolean {
  return action.kind === 'job' || (phase === 'do' ? step.doneWhen : step.compensatedWhen) !== undefined;
}

/**
 * A job's default evidence: its result routed back (`jobResultRoute`),
 * matched by the origin key. A completion of any attempt of this action
 * counts (the job ran, even if a later attempt was sent after a timeout);
 * a failure counts only for the attempt in flight.
 */
function jobResultVerdict(workflow: string, prefix: string, key: string) {
  return (input: WorkflowInput): StepVerdict | undefined => {
    const result = jobResultOf(workflow, input);
    if (!result?.key.startsWith(prefix)) return undefined;
    if (result.done) return { done: true, evidence: result.evidence };
    return result.key === key ? { done: false, code: result.code, reason: result.reason, evidence: result.evidence } : undefined;
  };
}

/**
 * The verdict of `input` on the action in flight, or undefined when it says
 * nothing about it. A command is done when the port accepts it; a job when
 * its result comes back (the port accepting the request proves nothing
 * ran); `doneWhen` / `compensatedWhen`, when given, say it instead.
 */
function verdictOn<Data, Command extends WorkflowCommand, Evidence extends StepEvidence>(
  workflow: string,
  step: StepDefinition<Data, Command, Evidence>,
  current: CurrentAction,
  input: WorkflowInput,
  context: StepContext<Data, Evidence>,
): StepVerdict | undefined {
  const prefix = `${step.name}/${current.phase}/`;
  const key = `${prefix}${current.attempt}`;
  const action = current.phase === 'do' ? step.do(context) : step.compensate!(context);
  const awaits = (current.phase === 'do' ? step.doneWhen : step.compensatedWhen) ?? (action?.kind === 'job' ? jobResultVerdict(workflow, prefix, key) : undefined);
  switch (input.kind) {
    case 'reply':
      if (input.outcome === 'rejected') {
        return input.key === key ? { done: false, code: input.error?.code ?? 'REJECTED', reason: input.error?.message ?? 'refused' } : undefined;
      }
      // A late acceptance of an earlier attempt of the same action counts: the action happened.
      return !awaits && input.key.startsWith(prefix) ? { done: true, evidence: input.reply } : undefined;
    case 'timer':
      return input.key === `${key}/timeout` ? { done: false, code: WorkflowFailureCodes.stepTimedOut, reason: `timed out after ${step.timeoutMs} ms` } : undefined;
    case 'event':
      return awaits?.(input, context);
    default:
      return undefined;
  }
}

export function decideStep<Data, Command extends WorkflowCommand, Evidence extends StepEvidence>(
  definition: StepWorkflowDefinition<Data, Command, Evidence>,
  input: WorkflowInput,
  state: StepWorkflowState<Data>,
): WorkflowOutput[] {
  const received = receiveInput(definition, state, input);
  const decision = new Decision(definition, received, input.at);
  if (state.phase === 'new') {
    if (isStartingInput(input) && received.data !== undefined) decision.proceed();
    return decision.outputs;
  }
  if (input.kind === 'retry' && state.phase === 'failed') {
    decision.proceed();
    return decision.outputs;
  }
  const current = received.current;
  if (!current || (received.phase !== 'doing' && received.phase !== 'compensating')) return decision.outputs;
  const step = definition.steps[current.step];
  const verdict = verdictOn(definition.name, step, current, input, decision.context(current.attempt));
  if (verdict) decision.settle(current, verdict);
  return decision.outputs;
}
