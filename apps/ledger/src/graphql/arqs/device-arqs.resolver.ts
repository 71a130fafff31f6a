import { Inject } from '@nestjs/common';
import { Args, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import type { Principal } from '@ledger/auth';
import { Allow } from '@ledger/auth/nest';
import { ArqQueries, type ArqView } from '@ledger/projections/arqs';
import type { DeviceView } from '@ledger/projections/inventory';
import { visibilityOf } from '../../http/arq-visibility';
import { DeviceObject } from '../devices/device.object';
import { ARQS_AS_OF } from '../../audit/as-of-views';
import { GraphqlAsOf } from '../shared/as-of';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { GqlPrincipal } from '../shared/gql-principal';
import { connectionCost, PageArgs } from '../shared/page.args';
import { pageOfArqs } from './arq-page';
import { ArqConnection } from './arq.object';

/**
 * The requests bound to a device, as its reader may see them: a manager of
 * project A reading the fleet sees A's requests on a device, never B's —
 * the same project filter as the top-level list. Under a device read as
 * of a position, the requests as they were at that position.
 */
@Resolver(() => DeviceObject)
@Allow('admin', 'manager')
export class DeviceArqsResolver {
  constructor(
    @Inject(ArqQueries) private readonly arqs: ArqQueries,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @ResolveField(() => ArqConnection, { description: "Requests bound to this device (the caller's project's only, admins all).", complexity: connectionCost })
  async acceleratorRequests(@Parent() device: DeviceView, @Args() page: PageArgs, @GqlPrincipal() principal: Principal): Promise<ConnectionOf<ArqView>> {
    const { position, answer } = await this.asOf.under(device, ARQS_AS_OF, this.arqs, (arqs) => arqs.list(visibilityOf(principal)));
    return toConnection(pageOfArqs(answer.filter((arq) => arq.deviceUuid === device.uuid), page), position);
  }
}
