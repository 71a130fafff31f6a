import type { UseCase } from '@ledger/workflows';
import { reclaimWorkflow } from './reclaim-workflow';
import { ReclaimWorkflowCommands } from './reclaim-workflow.commands';

/**
 * Reclaiming idle partitions carved on demand (docs/partitions.md,
 * "Reclaim"): the workflow its PartitionIdle starts and its command
 * handlers. The release that makes a partition idle is the attach handle
 * release's (LEDGER_PARTITION_RECLAIM, PARTITION_RECLAIM); it owns no reactor.
 */
export const reclaimPartitionUseCase: UseCase = {
  name: 'reclaim-partition',
  workflows: [reclaimWorkflow],
  commands: (providers) => providers.get(ReclaimWorkflowCommands).handlers(),
  reactors: () => [],
};
