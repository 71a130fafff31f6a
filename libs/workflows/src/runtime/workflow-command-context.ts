import type { CommandContext } from '@ledger/eventstore';
import type { WorkflowDispatch } from './workflow-ports';

/**
 * What a workflow's command or job carries into the log: the workflow as
 * the actor (`workflow:<name>`), its stream as the correlation id (an
 * auditor follows one instance across every stream it touched), the
 * dispatch id as the cause.
 */
export function workflowCommandContext(dispatch: WorkflowDispatch<unknown>): CommandContext {
  const stream = dispatch.id.slice(0, dispatch.id.length - dispatch.key.length - 1);
  return {
    actor: { user: `workflow:${dispatch.workflow}`, project: null, roles: ['system'] },
    correlationId: stream,
    causationId: dispatch.id,
  };
}
