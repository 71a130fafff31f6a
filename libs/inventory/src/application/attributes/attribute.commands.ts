import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { AttributeCreated } from '../../domain/inventory.events';
import type { InventoryCommandResult } from '../inventory-command.result';
import type { DeployableTarget } from '../deployable-on-host';

export interface CreatedAttribute {
  readonly attribute: AttributeCreated['data'];
  /** Global position of the event, for read-your-writes. */
  readonly position: number | undefined;
}

/**
 * Sets `key` = `value` on a deployable its host reports (Cyborg's POST
 * /v2/attributes). `createdAt` defaults to the time the handler runs.
 */
export class CreateAttributeCommand extends LedgerCommand<CreatedAttribute> {
  constructor(
    readonly input: DeployableTarget & { readonly key: string; readonly value: string },
    readonly context: CommandContext,
    readonly createdAt?: string,
  ) {
    super();
  }
}

/** Deletes an operator's attribute (Cyborg's DELETE /v2/attributes/{uuid}). */
export class DeleteAttributeCommand extends LedgerCommand<InventoryCommandResult> {
  constructor(
    readonly uuid: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
