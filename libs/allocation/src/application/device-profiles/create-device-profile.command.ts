import { LedgerCommand } from '@ledger/kernel';
import type { CommandContext } from '@ledger/eventstore';
import type { DeviceProfileData } from '../../domain/device-profile.events';

export interface CreateDeviceProfileResult {
  /** The profile as recorded. */
  readonly profile: DeviceProfileData;
  /** Global position of the DeviceProfileCreated event. */
  readonly position: number;
}

/**
 * Creates a device profile from one profile of a POST body (`{name, groups,
 * description?, uuid?}`, checked by the domain). Without a uuid the ledger
 * picks one; `createdAt` defaults to now.
 */
export class CreateDeviceProfileCommand extends LedgerCommand<CreateDeviceProfileResult> {
  constructor(
    readonly input: unknown,
    readonly context: CommandContext,
    readonly createdAt?: string,
  ) {
    super();
  }
}
