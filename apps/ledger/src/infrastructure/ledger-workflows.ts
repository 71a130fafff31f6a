import type { ModuleRef } from '@nestjs/core';
import { bindWorkflow } from '@ledger/allocation';
import { BindWorkflowCommands } from '@ledger/allocation/nest';
import { provisionWorkflow } from '@ledger/provisioning';
import { ProvisionWorkflowCommands } from '@ledger/provisioning/nest';
import { mergeCommandHandlers, type Workflow, type WorkflowCommandHandlers } from '@ledger/workflows';

/** The workflows a ledger runs and the commands they may send. */
export interface LedgerWorkflows {
  /** Each with its own state type (hence `any`), as WorkflowRuntime takes them. */
  readonly workflows: readonly Workflow<any>[];
  /** The command registry: each context contributes its handlers (`mergeCommandHandlers` refuses a type served twice). */
  commands(moduleRef: ModuleRef): WorkflowCommandHandlers;
}

/** Every workflow the ledger runs, in one list, with the command handlers they need (from the conductor's contexts). */
export const ledgerWorkflows = (): LedgerWorkflows => ({
  workflows: [bindWorkflow, provisionWorkflow],
  commands: (moduleRef) =>
    mergeCommandHandlers(moduleRef.get(BindWorkflowCommands, { strict: false }).handlers(), moduleRef.get(ProvisionWorkflowCommands, { strict: false }).handlers()),
});

/** The ledger's workflows plus a test's own. */
export const withWorkflows = (base: LedgerWorkflows, extra: LedgerWorkflows | undefined): LedgerWorkflows =>
  extra === undefined
    ? base
    : {
        workflows: [...base.workflows, ...extra.workflows],
        commands: (moduleRef) => mergeCommandHandlers(base.commands(moduleRef), extra.commands(moduleRef)),
      };
