import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Allow } from '@ledger/auth/nest';
import { isUuid } from '@ledger/kernel';
import { DeviceProfileQueries, type DeviceProfileView } from '@ledger/projections/device-profiles';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { pageOfList } from '../shared/list-page';
import { connectionCost } from '../shared/page.args';
import { DeviceProfileConnection, DeviceProfileObject } from './device-profile.object';
import { DeviceProfileListArgs } from './device-profiles.args';

/** Device profiles, as GET /v2/device_profiles serves them: any reader (profiles are not tenant data). */
@Resolver(() => DeviceProfileObject)
@Allow('reader')
export class DeviceProfilesResolver {
  constructor(@Inject(DeviceProfileQueries) private readonly profiles: DeviceProfileQueries) {}

  @Query(() => DeviceProfileConnection, { description: 'Oldest first.', complexity: connectionCost })
  async deviceProfiles(@Args() args: DeviceProfileListArgs): Promise<ConnectionOf<DeviceProfileView>> {
    const profiles = await this.profiles.list(args.names ?? undefined);
    return toConnection(pageOfList(profiles, (profile) => [profile.createdAt, profile.name], args));
  }

  @Query(() => DeviceProfileObject, { nullable: true, description: 'By uuid or by name.' })
  async deviceProfile(@Args('uuidOrName') uuidOrName: string): Promise<DeviceProfileView | undefined> {
    return isUuid(uuidOrName) ? this.profiles.getByUuid(uuidOrName) : this.profiles.getByName(uuidOrName);
  }
}
