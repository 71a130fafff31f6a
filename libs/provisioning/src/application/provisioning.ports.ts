import type { WorkflowStart, WorkflowStatus } from '@ledger/workflows';

/** Starts provision workflows (the app wires it to the workflow runtime); `begin` advances the instance in the caller's request as far as it goes. */
export interface ProvisionWorkflows {
  begin(name: string, id: string, start: WorkflowStart, signal: AbortSignal): Promise<WorkflowStatus>;
}

export const PROVISION_WORKFLOWS = Symbol('PROVISION_WORKFLOWS');

/** Where a host stands with Placement, as the sync-placement step reads it (the reconciler's sync status). */
export interface ProvisionPlacement {
  /** False when LEDGER_PLACEMENT_URL is unset: no reconciler runs, and there is nothing to wait for. */
  readonly configured: boolean;
  hostState(hostname: string): Promise<{ readonly state: string; readonly since: string; readonly detail?: string } | undefined>;
}

export const PROVISION_PLACEMENT = Symbol('PROVISION_PLACEMENT');
