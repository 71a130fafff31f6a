import { NAMESPACE_LEDGER, uuidV5 } from '@ledger/kernel';

/**
 * The job id of a workflow's job output, derived from its dispatch id
 * (`workflow-<name>-<id>/<step>/<phase>/<attempt>`): a dispatch sent again
 * after a crash asks for the same job, which the jobs context records once.
 */
export const workflowJobId = (dispatchId: string): string => uuidV5(NAMESPACE_LEDGER, `workflow-job:${dispatchId}`);
