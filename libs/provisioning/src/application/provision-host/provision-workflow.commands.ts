import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext } from '@ledger/eventstore';
import { type HostProvisioningCommand as HostCommand, RunHostProvisioningCommand } from '@ledger/inventory';
import { typedCommandHandlers, type WorkflowCommandHandlers } from '@ledger/workflows';
import { PlacementNotInSyncError } from '../../domain/provisioning.errors';
import { verifyShell } from '../../domain/shell-check';
import { PROVISION_PLACEMENT, type ProvisionPlacement } from '../provisioning.ports';
import type { ProvisionCommand } from './provision-workflow';

/** How long one attempt of sync-placement watches the sync status before it counts as failed (the step retries). */
const PLACEMENT_WAIT_MS = 30_000;
const PLACEMENT_POLL_MS = 500;

/**
 * The commands of the provision workflow, by type: each one idempotent,
 * keyed by the host and the workflow's id (the host stream's provisioning),
 * or a check that changes nothing (the Placement wait, the shell check).
 */
@Injectable()
export class ProvisionWorkflowCommands {
  constructor(
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(PROVISION_PLACEMENT) private readonly placement: ProvisionPlacement,
  ) {}

  handlers(): WorkflowCommandHandlers {
    // Each handler's data type comes from the union, through the handler it returns.
    const host =
      <Data>(make: (data: Data, at: string) => HostCommand) =>
      (data: Data, context: CommandContext) =>
        this.commands.execute(new RunHostProvisioningCommand(make(data, new Date().toISOString()), context)).then(nothing);
    return typedCommandHandlers<ProvisionCommand>({
      'inventory.StartHostProvisioning': host((data, at) => ({ type: 'StartHostProvisioning', hostname: data.hostname, provisionId: data.provisionId, at })),
      'inventory.CompleteHostProvisioning': host((data, at) => ({ type: 'CompleteHostProvisioning', hostname: data.hostname, provisionId: data.provisionId, at })),
      'inventory.FailHostProvisioning': host((data, at) => ({ type: 'FailHostProvisioning', hostname: data.hostname, provisionId: data.provisionId, code: data.code, reason: data.reason, at })),
      'provisioning.AwaitPlacementSync': (data) => this.awaitPlacement(data.hostname),
      'provisioning.VerifyShell': async (data) => verifyShell(data.expected, data.evidence),
    });
  }

  /**
   * Waits (a bounded while) for the reconciler to report the host in sync;
   * without Placement there is nothing to wait for, and the evidence says so.
   * The sync status is a read model, not an event, hence the polling.
   */
  private async awaitPlacement(hostname: string): Promise<unknown> {
    if (!this.placement.configured) return { placement: 'not configured (LEDGER_PLACEMENT_URL unset): no providers to sync' };
    const deadline = Date.now() + PLACEMENT_WAIT_MS;
    for (;;) {
      const status = await this.placement.hostState(hostname);
      if (status?.state === 'in-sync') return { placement: 'in-sync', since: status.since };
      if (Date.now() >= deadline) throw new PlacementNotInSyncError(hostname, status?.state ?? 'not compared yet', PLACEMENT_WAIT_MS);
      await new Promise((resolve) => setTimeout(resolve, PLACEMENT_POLL_MS));
    }
  }
}

const nothing = (): undefined => undefined;

