import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { WorkflowStatus } from '@ledger/workflows';

/** How a provisioning request was answered: the workflow's id (its instance of `provision`) and where it stood when the request returned. */
export interface ProvisionStarted {
  readonly workflow: 'provision';
  readonly workflowId: string;
  readonly status: WorkflowStatus;
  /** The log's head once the request returned: read the instance with X-Ledger-Min-Position set to it. */
  readonly position: number;
}

/**
 * An operator brings a host into service (`POST /api/v1/hosts/{hostname}/provision`):
 * checked first, recording nothing on refusal — BITSTREAM.NOT_FOUND (404)
 * or PROVISION.BITSTREAM_RETIRED / BITSTREAM_UNTRUSTED (409) for the shell, INVENTORY.HOST_NOT_FOUND
 * (404) for a host that never reported, INVENTORY.HOST_PROVISIONING (409)
 * while another provisioning runs, PROVISION.NO_FPGA / DEVICE_REQUIRED (409)
 * and PROVISION.DEVICE_NOT_FOUND (404) for the FPGA — then the provision
 * workflow starts.
 */
export class ProvisionHostCommand extends LedgerCommand<ProvisionStarted> {
  constructor(
    readonly input: {
      readonly hostname: string;
      readonly shell: string;
      readonly vfs: number;
      readonly device?: string;
    },
    readonly context: CommandContext,
  ) {
    super();
  }
}
