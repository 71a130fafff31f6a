import { Inject } from '@nestjs/common';
import { Args, Query, Resolver } from '@nestjs/graphql';
import type { Principal } from '@ledger/auth';
import { Allow } from '@ledger/auth/nest';
import { type HealthTenancy, usageReportText } from '@ledger/projections/device-history';
import { UsageReports } from '../../audit/usage/usage-reports.service';
import { GqlPrincipal } from '../shared/gql-principal';
import { HealthHoldersArgs, UsageArgs } from './usage.args';
import { HealthHolderObject, UsageReportObject } from './usage.object';

/** GET /api/v1/usage and /api/v1/audit/health-holders as queries: the same service, scope and errors. */
@Resolver(() => UsageReportObject)
@Allow('admin', 'manager', 'member', 'reader')
export class UsageResolver {
  constructor(@Inject(UsageReports) private readonly reports: UsageReports) {}

  @Query(() => UsageReportObject, { description: 'Seconds held and GPU memory GiB-seconds per group in [from, to), signed.', complexity: 50 })
  async usage(@Args() args: UsageArgs, @GqlPrincipal() principal: Principal): Promise<UsageReportObject> {
    const report = await this.reports.report(args, principal);
    return { ...report, rows: [...report.rows], canonical: usageReportText(report) };
  }

  @Query(() => [HealthHolderObject], { description: 'Health reports (of a cause, or any unhealthy one) of devices while a project held them, in [from, to).', complexity: 50 })
  healthHolders(@Args() args: HealthHoldersArgs, @GqlPrincipal() principal: Principal): Promise<HealthTenancy[]> {
    return this.reports.healthHolders(args, principal);
  }
}
