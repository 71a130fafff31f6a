import type { CommandContext } from '@ledger/eventstore';
import type { CommandData, CommandOutput, WorkflowCommand } from '../domain/workflow-output';
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

/**
 * A workflow's handlers, one for each type of its command union, each
 * taking that type's data: a type left out, one the union lacks, or data
 * read as another shape is a compile error.
 */
export type TypedCommandHandlers<Command extends WorkflowCommand> = {
  readonly [Type in Command['type']]: (data: CommandData<Command, Type>, context: CommandContext, dispatch: WorkflowCommandDispatch) => Promise<unknown>;
};

/**
 * The registry's entries for a workflow's typed handlers. The data a
 * workflow sends is what its steps built through `commandsOf` (its shape is
 * the workflow's, not a caller's), so each handler takes it as its type's.
 */
export function typedCommandHandlers<Command extends WorkflowCommand>(handlers: TypedCommandHandlers<Command>): WorkflowCommandHandlers {
  const entries = Object.entries<TypedCommandHandlers<Command>[Command['type']]>(handlers);
  return Object.fromEntries(
    entries.map(([type, handle]): [string, WorkflowCommandHandler] => [type, (data, dispatch, context) => handle(data as CommandData<Command, Command['type']>, context, dispatch)]),
  );
}

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
