import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import type { Principal } from '@ledger/auth';
import { Allow } from '@ledger/auth/nest';
import { isUuid } from '@ledger/kernel';
import { arqProjection, ArqQueries, type ArqView } from '@ledger/projections/arqs';
import { visibilityOf } from '../../http/arq-visibility';
import { ConsistencyService } from '../../http/consistency.service';
import { ARQS_AS_OF } from '../../audit/as-of-views';
import { AS_OF_ARG, GraphqlAsOf } from '../shared/as-of';
import { type ConnectionOf, toConnection } from '../shared/connection';
import { GqlPrincipal } from '../shared/gql-principal';
import { connectionCost } from '../shared/page.args';
import { pageOfArqs } from './arq-page';
import { ArqConnection, ArqObject } from './arq.object';
import { ArqListArgs } from './arqs.args';

/**
 * Accelerator requests, as GET /v2/accelerator_requests serves them: any
 * reader, each seeing only their own project's requests (admins all),
 * filtered in the query; fresh as of the request's arrival, as on /v2.
 */
@Resolver(() => ArqObject)
@Allow('reader')
export class ArqsResolver {
  constructor(
    @Inject(ArqQueries) private readonly arqs: ArqQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @Query(() => ArqConnection, { description: 'Oldest first.', complexity: connectionCost })
  async acceleratorRequests(@Args() args: ArqListArgs, @GqlPrincipal() principal: Principal): Promise<ConnectionOf<ArqView>> {
    const { asOf } = args;
    // A past answer needs no wait: it is rebuilt from the log up to its point.
    if (asOf === undefined || asOf === null) await this.consistency.awaitFresh([arqProjection.name]);
    const filter = args.instanceUuid !== undefined && args.instanceUuid !== null ? { instanceUuid: args.instanceUuid } : {};
    const { position, answer } = await this.asOf.root(asOf, ARQS_AS_OF, this.arqs, (arqs) => arqs.list(visibilityOf(principal), filter));
    return toConnection(pageOfArqs(answer, args), position);
  }

  @Query(() => ArqObject, { nullable: true, description: 'Null when missing or of another project.' })
  async acceleratorRequest(@Args('uuid') uuid: string, @GqlPrincipal() principal: Principal, @Args(AS_OF_ARG) asOf?: string | null): Promise<ArqView | undefined> {
    if (!isUuid(uuid)) return undefined;
    if (asOf === undefined || asOf === null) await this.consistency.awaitFresh([arqProjection.name]);
    return this.asOf.node(asOf, ARQS_AS_OF, this.arqs, (arqs) => arqs.get(uuid.toLowerCase(), visibilityOf(principal)));
  }
}
