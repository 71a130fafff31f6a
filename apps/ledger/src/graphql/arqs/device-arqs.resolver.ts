import { Inject } from '@nestjs/common';
import { Args, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import { Allow, type Principal } from '@ledger/auth';
import { ArqQueries, type ArqView } from '@ledger/projections/arqs';
import type { DeviceView } from '@ledger/projections/inventory';
import { visibilityOf } from '../../http/arq-visibility';
import { DeviceObject } from '../devices/device.object';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { GqlPrincipal } from '../shared/gql-principal';
import { connectionCost, PageArgs } from '../shared/page.args';
import { pageOfArqs } from './arq-page';
import { ArqConnection } from './arq.object';

/**
 * The requests bound to a device, as its reader may see them: a manager of
 * project A reading the fleet sees A's requests on a device, never B's —
 * the same project filter as the top-level list.
 */
@Resolver(() => DeviceObject)
@Allow('admin', 'manager')
export class DeviceArqsResolver {
  constructor(@Inject(ArqQueries) private readonly arqs: ArqQueries) {}

  @ResolveField(() => ArqConnection, { description: "Requests bound to this device (the caller's project's only, admins all).", complexity: connectionCost })
  async acceleratorRequests(@Parent() device: DeviceView, @Args() page: PageArgs, @GqlPrincipal() principal: Principal): Promise<ConnectionOf<ArqView>> {
    const visible = await this.arqs.list(visibilityOf(principal));
    return toConnection(pageOfArqs(visible.filter((arq) => arq.deviceUuid === device.uuid), page));
  }
}
