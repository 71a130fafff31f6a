import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';

/** One profile to delete: by name, and with `uuid` only if the name still holds that very profile. */
export interface DeviceProfileTarget {
  readonly name: string;
  readonly uuid?: string;
}

export interface DeleteDeviceProfilesResult {
  readonly deleted: readonly { readonly uuid: string; readonly name: string }[];
  /** Global position of the last DeviceProfileDeleted event. */
  readonly position: number;
}

/**
 * Deletes one or more profiles (Cyborg's `?value=n1,n2`). Every target is
 * checked against its stream before the first delete is recorded, so one
 * unknown profile deletes nothing. Whether accelerator requests still use a
 * profile is the caller's check: it lives in another read model.
 */
export class DeleteDeviceProfilesCommand extends LedgerCommand<DeleteDeviceProfilesResult> {
  constructor(
    readonly input: { readonly profiles: readonly DeviceProfileTarget[] },
    readonly context: CommandContext,
  ) {
    super();
  }
}
