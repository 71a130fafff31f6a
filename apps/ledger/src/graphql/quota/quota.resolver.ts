import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import type { Principal } from '@ledger/auth';
import { Allow } from '@ledger/auth/nest';
import { QuotaReader } from '@ledger/quota';
import { QUOTA_AS_OF } from '../../audit/as-of-views';
import { assertMayReadQuota } from '../../quota/quota-project-access';
import { AS_OF_DESCRIPTION, GraphqlAsOf } from '../shared/as-of';
import { GqlPrincipal } from '../shared/gql-principal';
import { QuotaObject } from './quota.object';

/**
 * A project's quota, as GET /api/v1/quotas/{project} serves it: from the
 * project's quota stream, always fresh; admins any project, everyone else
 * their token's project only (QUOTA.PROJECT_FORBIDDEN).
 */
@Resolver(() => QuotaObject)
@Allow('admin', 'manager', 'member', 'reader')
export class QuotaResolver {
  constructor(
    @Inject(QuotaReader) private readonly reader: QuotaReader,
    @Inject(GraphqlAsOf) private readonly asOf: GraphqlAsOf,
  ) {}

  @Query(() => QuotaObject, { description: "Limits and usage of `project` (default: the token's project)." })
  async quota(
    @GqlPrincipal() principal: Principal,
    @Args('project', { type: () => String, nullable: true }) project?: string | null,
    @Args('asOf', { type: () => String, nullable: true, description: AS_OF_DESCRIPTION }) asOf?: string | null,
  ): Promise<QuotaObject> {
    const asked = project ?? principal.project ?? '';
    assertMayReadQuota(principal, asked);
    if (asOf === undefined || asOf === null) {
      const { limits, usage } = await this.reader.read(asked);
      return { project: asked, limits: { ...limits }, usage: { ...usage }, asOfPosition: null };
    }
    // The past of a quota is its projection's (the stream's state is only ever the latest), as on REST.
    const { position, answer } = await this.asOf.past(asOf, QUOTA_AS_OF, (queries) => queries.getProject(asked));
    return { ...answer, limits: { ...answer.limits }, usage: { ...answer.usage }, asOfPosition: position };
  }
}
