import type { ModuleRef } from '@nestjs/core';
import { mergeCommandHandlers, type Workflow, type WorkflowCommandHandlers } from '@ledger/workflows';
import { LEDGER_USE_CASES } from '../ledger-use-cases';

/** The workflows a ledger runs and the commands they may send. */
export interface LedgerWorkflows {
  /** Each with its own state type (hence `any`), as WorkflowRuntime takes them. */
  readonly workflows: readonly Workflow<any>[];
  /** The command registry: each use case contributes its handlers (`mergeCommandHandlers` refuses a type served twice). */
  commands(moduleRef: ModuleRef): WorkflowCommandHandlers;
}

/** The use cases' workflows, with the command handlers they need (from the conductor's providers). */
export const ledgerWorkflows = (): LedgerWorkflows => ({
  workflows: LEDGER_USE_CASES.flatMap((useCase) => useCase.workflows),
  commands: (moduleRef) => {
    const providers = { get: <T>(type: abstract new (...args: never[]) => T): T => moduleRef.get(type, { strict: false }) };
    return mergeCommandHandlers(...LEDGER_USE_CASES.map((useCase) => useCase.commands(providers)));
  },
});

/** The ledger's workflows plus a test's own. */
export const withWorkflows = (base: LedgerWorkflows, extra: LedgerWorkflows | undefined): LedgerWorkflows =>
  extra === undefined
    ? base
    : {
        workflows: [...base.workflows, ...extra.workflows],
        commands: (moduleRef) => mergeCommandHandlers(base.commands(moduleRef), extra.commands(moduleRef)),
      };
