import type { CommandContext } from '@ledger/eventstore';
import type { CommandOutput } from '../domain/workflow-output';
import { answerOf } from './port-answer';
import { workflowCommandContext } from './workflow-command-context';
import type { PortAnswer, WorkflowCommandPort, WorkflowDispatch } from './workflow-ports';

export type WorkflowCommandDispatch = WorkflowDispatch<CommandOutput['command']>;

/**
 * Sends one kind of workflow command to its aggregate and resolves to what
 * the command side answered (evidence for the step). It must be idempotent
 * by `dispatch.id`: a dispatch may arrive twice. A LedgerError below 500
 * becomes a refusal; anything else makes the runtime send again.
 */
export type WorkflowCommandHandler = (data: unknown, dispatch: WorkflowCommandDispatch, context: CommandContext) => Promise<unknown>;

/** Command type (`inventory.ClaimAttachHandle`) → its handler; each context contributes its own. */
export type WorkflowCommandHandlers = Readonly<Record<string, WorkflowCommandHandler>>;

/** A handler for data a workflow itself decided (its shape is the workflow's, not a caller's), so it is taken as typed. */
export const typedCommandHandler =
  <Data>(handle: (data: Data, context: CommandContext) => Promise<unknown>): WorkflowCommandHandler =>
  (data, _dispatch, context) =>
    handle(data as Data, context);

/**
 * The command port from a registry of handlers keyed by command type. Each
 * runs with the workflow as the actor and its stream as the correlation id.
 * A type no handler serves is a wiring mistake, not a refusal: it throws,
 * and the runtime's status shows it until the ledger is deployed right.
 */
export class RegistryCommandPort implements WorkflowCommandPort {
  constructor(private readonly handlers: WorkflowCommandHandlers) {}

  send(command: WorkflowCommandDispatch): Promise<PortAnswer> {
    const handler = this.handlers[command.payload.type];
    if (!handler) return Promise.reject(new Error(`no handler for the workflow command ${command.payload.type} (workflow ${command.workflow}); is it in the ledger's workflow command registry?`));
    return answerOf(() => handler(command.payload.data, command, workflowCommandContext(command)));
  }
}

/** One registry from each context's contribution; a command type served twice is refused at start-up. */
export function mergeCommandHandlers(...contributions: readonly WorkflowCommandHandlers[]): WorkflowCommandHandlers {
  const merged: Record<string, WorkflowCommandHandler> = {};
  for (const handlers of contributions) {
    for (const [type, handler] of Object.entries(handlers)) {
      if (type in merged) throw new RangeError(`two workflow command handlers for ${type}`);
      merged[type] = handler;
    }
  }
  return merged;
}
