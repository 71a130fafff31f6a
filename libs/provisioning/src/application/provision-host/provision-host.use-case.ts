import type { UseCase } from '@ledger/workflows';
import { provisionWorkflow } from './provision-workflow';
import { ProvisionWorkflowCommands } from './provision-workflow.commands';

/** Bringing a host into service: the provision workflow and its command handlers; it owns no reactor. */
export const provisionHostUseCase: UseCase = {
  name: 'provision-host',
  workflows: [provisionWorkflow],
  commands: (providers) => providers.get(ProvisionWorkflowCommands).handlers(),
  reactors: () => [],
};
