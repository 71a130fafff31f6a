import { Body, Delete, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import {
  CreateDeviceProfileCommand,
  DeleteDeviceProfilesCommand,
  DeviceProfileNotFoundError,
} from '@ledger/allocation';
import type { Principal } from '@ledger/auth';
import { CurrentPrincipal, PolicyRule } from '@ledger/auth/nest';
import { isUuid } from '@ledger/kernel';
import { DeviceProfileQueries, deviceProfilesProjection } from '@ledger/projections/device-profiles';
import { commandContext } from '../../http/command-context';
import { ConsistencyService } from '../../http/consistency.service';
import { baseUrlOf } from '../cyborg-representation';
import { CyborgV2Controller } from '../cyborg-v2.controller';
import { atLeast, type Microversion, versionNotAcceptable } from '../microversion';
import { RequestMicroversion } from '../microversion.interceptor';
import { deletionTargetsOf } from './device-profile-deletion';
import { profileOfPostBody } from './device-profile-post-body';
import { DeviceProfileDeleteQuery, DeviceProfileListQuery } from './device-profile.query.dto';
import { cyborgDeviceProfile, cyborgDeviceProfileDetail } from './device-profile.representation';

/**
 * Cyborg's device profiles (CYBORG-V2.md §1.3). Profiles are global, like
 * flavors: any reader sees all of them, only admins change them. Reads
 * wait for the projection to include every earlier write, because clients
 * create and then show at once.
 */
@CyborgV2Controller('device_profiles')
export class DeviceProfilesV2Controller {
  constructor(
    @Inject(DeviceProfileQueries) private readonly profiles: DeviceProfileQueries,
    @Inject(CommandBus) private readonly commands: CommandBus,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get()
  @PolicyRule('cyborg:device_profile:get_all')
  async list(@Query() query: DeviceProfileListQuery, @Req() request: FastifyRequest) {
    await this.consistency.awaitFresh([deviceProfilesProjection.name]);
    const profiles = await this.profiles.list(query.name?.split(','));
    return { device_profiles: profiles.map((profile) => cyborgDeviceProfile(profile, baseUrlOf(request))) };
  }

  @Get(':uuidOrName')
  @PolicyRule('cyborg:device_profile:get_one')
  async get(@Param('uuidOrName') uuidOrName: string, @RequestMicroversion() version: Microversion, @Req() request: FastifyRequest) {
    const byUuid = isUuid(uuidOrName);
    if (!byUuid && !atLeast(version, 2)) {
      throw versionNotAcceptable('Request not acceptable. The minimal required API version should be 2.2');
    }
    await this.consistency.awaitFresh([deviceProfilesProjection.name]);
    const profile = byUuid ? await this.profiles.getByUuid(uuidOrName) : await this.profiles.getByName(uuidOrName);
    if (!profile) throw new DeviceProfileNotFoundError(byUuid ? 'uuid' : 'name', byUuid ? uuidOrName.toLowerCase() : uuidOrName);
    return { device_profile: cyborgDeviceProfileDetail(profile, baseUrlOf(request)) };
  }

  @Post()
  @HttpCode(201)
  @PolicyRule('cyborg:device_profile:create')
  async create(@Body() body: unknown, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest) {
    // The command checks the profile and a uuid it brings (DeviceProfileIndex): no read model is waited for.
    const { profile } = await this.commands.execute(new CreateDeviceProfileCommand(profileOfPostBody(body), commandContext(principal, request)));
    return cyborgDeviceProfile({ ...profile, groups: [...profile.groups], updatedAt: null }, baseUrlOf(request));
  }

  /** `DELETE /v2/device_profiles/{uuid}`; like Cyborg, a path that is no uuid is read as names. */
  @Delete(':value')
  @HttpCode(204)
  @PolicyRule('cyborg:device_profile:delete')
  async deleteOne(@Param('value') value: string, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<void> {
    await this.delete(value, principal, request);
  }

  /** `DELETE /v2/device_profiles?value=n1,n2`. */
  @Delete()
  @HttpCode(204)
  @PolicyRule('cyborg:device_profile:delete')
  async deleteMany(@Query() query: DeviceProfileDeleteQuery, @CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<void> {
    await this.delete(query.value, principal, request);
  }

  /** Decided by the command from the profiles' streams and the log (DeviceProfileIndex): no read model is waited for. */
  private async delete(value: string, principal: Principal, request: FastifyRequest): Promise<void> {
    await this.commands.execute(new DeleteDeviceProfilesCommand({ profiles: deletionTargetsOf(value) }, commandContext(principal, request)));
  }
}
