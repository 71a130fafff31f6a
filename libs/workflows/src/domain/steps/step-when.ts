import type { WorkflowCommand } from '../workflow-output';
import type { StepContext, StepDefinition, StepEvidence } from './step-definition';

/**
 * A step that applies only to the instances whose data passes `applies`
 * (the others skip it): its action, verdicts and compensation see the data
 * narrowed, so a bind's programming steps read `data.program` as there.
 */
export function stepWhen<Data, Narrowed extends Data, Command extends WorkflowCommand, Evidence extends StepEvidence>(
  applies: (data: Data) => data is Narrowed,
  step: Omit<StepDefinition<Narrowed, Command, Evidence>, 'skip'>,
): StepDefinition<Data, Command, Evidence> {
  // The step machine never acts for a skipped step; reaching one here is a bug of the machine, not of the instance.
  const narrowed = <Result>(context: StepContext<Data, Evidence>, act: (context: StepContext<Narrowed, Evidence>) => Result): Result => {
    const { data } = context;
    if (!applies(data)) throw new Error(`step ${step.name} acted for an instance it does not apply to`);
    return act({ ...context, data });
  };
  const { doneWhen, compensate, compensatedWhen } = step;
  return {
    name: step.name,
    timeoutMs: step.timeoutMs,
    retry: step.retry,
    skip: ({ data }) => !applies(data),
    do: (context) => narrowed(context, (inside) => step.do(inside)),
    ...(doneWhen && { doneWhen: (input, context) => narrowed(context, (inside) => doneWhen(input, inside)) }),
    ...(compensate && { compensate: (context) => narrowed(context, (inside) => compensate(inside)) }),
    ...(compensatedWhen && { compensatedWhen: (input, context) => narrowed(context, (inside) => compensatedWhen(input, inside)) }),
  };
}
