import type { CommandContext } from '@ledger/eventstore';
import type { WorkflowDispatch } from './workflow-ports';

/**
 * What a workflow's command or job carries into the log: the workflow as
 * the actor (`workflow:<name>`), its stream as the correlation id (an
 * auditor follows one instance across every stream it touched), the
 * dispatch id as the cause. `project`: the project it acts for, when it
 * acts for one.
 */
export function workflowCommandContext(dispatch: WorkflowDispatch<unknown>, project: string | null = null): CommandContext {
  const stream = dispatch.id.slice(0, dispatch.id.length - dispatch.key.length - 1);
  return {
    actor: { user: `workflow:${dispatch.workflow}`, project, roles: ['system'] },
    correlationId: stream,
    causationId: dispatch.id,
  };
}
