import { Inject, Injectable } from '@nestjs/common';
import { DeviceProfileInUseError, DeviceProfileNotFoundError, type DeviceProfileTarget } from '@ledger/allocation';
import { isUuid } from '@ledger/kernel';
import { ArqQueries } from '@ledger/projections/arqs';
import { DeviceProfileQueries, type DeviceProfileView } from '@ledger/projections/device-profiles';

/**
 * What a DELETE names, checked before the command: Cyborg's `value` is one
 * uuid or comma-separated names. Every profile must exist and no live
 * accelerator request may use it; otherwise nothing is deleted (Cyborg
 * deletes name by name until one fails, and answers a used profile with a
 * database error).
 */
@Injectable()
export class DeviceProfileDeletion {
  constructor(
    @Inject(DeviceProfileQueries) private readonly profiles: DeviceProfileQueries,
    @Inject(ArqQueries) private readonly arqs: ArqQueries,
  ) {}

  async targetsOf(value: string): Promise<DeviceProfileTarget[]> {
    const found = isUuidLike(value) ? [await this.byUuid(value)] : await this.byNames([...new Set(value.split(','))]);
    for (const { name, uuid } of found) {
      const requests = await this.arqs.countLiveByProfile(uuid);
      if (requests > 0) throw new DeviceProfileInUseError(name, uuid, requests);
    }
    return found.map(({ name, uuid }) => ({ name, uuid }));
  }

  private async byUuid(uuid: string): Promise<DeviceProfileView> {
    const profile = await this.profiles.getByUuid(uuid);
    if (!profile) throw new DeviceProfileNotFoundError('uuid', uuid.toLowerCase());
    return profile;
  }

  private async byNames(names: readonly string[]): Promise<DeviceProfileView[]> {
    const found: DeviceProfileView[] = [];
    for (const name of names) {
      const profile = await this.profiles.getByName(name);
      if (!profile) throw new DeviceProfileNotFoundError('name', name);
      found.push(profile);
    }
    return found;
  }
}

/** isUuid without narrowing: a string that is no uuid is still a string (names). */
const isUuidLike = (value: string): boolean => isUuid(value);
