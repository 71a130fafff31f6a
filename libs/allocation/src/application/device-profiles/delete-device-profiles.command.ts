import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';

/**
 * One profile to delete: by name (with `uuid` only if the name still holds
 * that very profile), or by uuid alone (Cyborg's `DELETE /{uuid}`).
 */
export type DeviceProfileTarget = { readonly name: string; readonly uuid?: string } | { readonly name?: undefined; readonly uuid: string };

export interface DeleteDeviceProfilesResult {
  readonly deleted: readonly { readonly uuid: string; readonly name: string }[];
  /** Global position of the last DeviceProfileDeleted event. */
  readonly position: number;
}

/**
 * Deletes one or more profiles (Cyborg's `?value=n1,n2`). Every target is
 * checked against its stream, and against the live accelerator requests
 * (DeviceProfileIndex), before the first delete is recorded, so one unknown
 * or used profile deletes nothing.
 */
export class DeleteDeviceProfilesCommand extends LedgerCommand<DeleteDeviceProfilesResult> {
  constructor(
    readonly input: { readonly profiles: readonly DeviceProfileTarget[] },
    readonly context: CommandContext,
  ) {
    super();
  }
}
