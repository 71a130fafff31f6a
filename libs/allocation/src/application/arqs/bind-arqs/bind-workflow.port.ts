import type { WorkflowStart } from '@ledger/workflows';

/** How a workflow instance stands, as the bind handler needs to know. */
export type BindWorkflowStatus = 'running' | 'completed' | 'compensated' | 'failed';

/**
 * Starts and watches bind workflows (the app wires it to the workflow
 * runtime). `begin` records the start and advances the instance in the
 * caller's request as far as it goes without waiting for an agent or a timer.
 */
export interface BindWorkflows {
  begin(name: string, id: string, start: WorkflowStart, signal: AbortSignal): Promise<BindWorkflowStatus>;
  /**
   * Resolves once the instance is no longer running, or once `settled` holds
   * (then still `running`); rejects (WORKFLOW.WAIT_TIMED_OUT, WORKFLOW.NOT_FOUND) otherwise.
   */
  waitForEnd(name: string, id: string, timeoutMs: number, settled?: () => Promise<boolean>): Promise<BindWorkflowStatus>;
}

export const BIND_WORKFLOWS = Symbol('BIND_WORKFLOWS');
/** How long a bind request waits for its workflow (LEDGER_BIND_TIMEOUT_MS); after that it answers with the bind still starting. */
export const BIND_WAIT_MS = Symbol('BIND_WAIT_MS');
