import type { CommandBus } from '@nestjs/cqrs';
import { mergeCommandHandlers, type Workflow, type WorkflowCommandHandlers } from '@ledger/workflows';

/** The workflows a ledger runs and the commands they may send. */
export interface LedgerWorkflows {
  /** Each with its own state type (hence `any`), as WorkflowRuntime takes them. */
  readonly workflows: readonly Workflow<any>[];
  /** The command registry: each context contributes its handlers (`mergeCommandHandlers` refuses a type served twice). */
  commands(bus: CommandBus): WorkflowCommandHandlers;
}

/**
 * Every workflow the ledger runs, in one list, with the command handlers
 * they need. Empty until the bind and provisioning workflows land; tests
 * hand their own to `createLedgerApp`.
 */
export const ledgerWorkflows = (): LedgerWorkflows => ({
  workflows: [],
  commands: () => mergeCommandHandlers(),
});
