import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { AttachHandleClaim, PartitionRef } from '../../domain/inventory.events';

export interface ClaimAttachHandleInput {
  readonly deviceUuid: string;
  readonly deployableUuid: string;
  readonly arqUuid: string;
  /** The deployable's handle uuids in order of preference (from the inventory read model). */
  readonly candidates: readonly string[];
  /** The bind claiming (its workflow id). */
  readonly bindId?: string;
  /** The request's project, recorded on the claim (a drain names it). */
  readonly projectId?: string;
  /** The candidates are this partition's handle (a bind claiming what it carved): recorded on the claim. */
  readonly partition?: PartitionRef;
}

/** Claims a free attach handle for an accelerator request; answers the claim (the one already held, on a repeat). */
export class ClaimAttachHandleCommand extends LedgerCommand<AttachHandleClaim> {
  constructor(
    readonly input: ClaimAttachHandleInput,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Releases what a request holds on a device; answers how many handles were released (0 or 1). */
export class ReleaseAttachHandleCommand extends LedgerCommand<number> {
  constructor(
    readonly input: { readonly deviceUuid: string; readonly arqUuid: string; readonly bindId?: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
