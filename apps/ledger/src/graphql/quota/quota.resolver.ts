import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import { Allow, type Principal } from '@ledger/auth';
import { QuotaReader } from '@ledger/quota';
import { assertMayReadQuota } from '../../quota/quota-project-access';
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
  constructor(@Inject(QuotaReader) private readonly reader: QuotaReader) {}

  @Query(() => QuotaObject, { description: "Limits and usage of `project` (default: the token's project)." })
  async quota(@GqlPrincipal() principal: Principal, @Args('project', { type: () => String, nullable: true }) project?: string | null): Promise<QuotaObject> {
    const asked = project ?? principal.project ?? '';
    assertMayReadQuota(principal, asked);
    const { limits, usage } = await this.reader.read(asked);
    return { project: asked, limits: { ...limits }, usage: { ...usage } };
  }
}
