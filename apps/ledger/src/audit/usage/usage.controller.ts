import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Principal } from '@ledger/auth';
import { Allow, CurrentPrincipal } from '@ledger/auth/nest';
import { type HealthTenancy, usageReportText } from '@ledger/projections/device-history';
import { UsageReports } from './usage-reports.service';
import { HealthHoldersQuery, UsageQuery } from './usage.query.dto';

/**
 * Usage accounting and health beside tenancy (docs/audit.md, "Usage"). A
 * tenant's answers cover its own project only, as every audit read.
 */
@ApiTags('audit')
@Controller('api/v1')
export class UsageController {
  constructor(@Inject(UsageReports) private readonly reports: UsageReports) {}

  @Get('usage')
  @Allow('admin', 'manager', 'member', 'reader')
  @ApiOperation({
    summary: 'Seconds held and GPU memory GiB-seconds per project, resource class or device in [from, to), signed with the checkpoint key',
    description: 'The body is canonical JSON (sorted keys): the same period at the same position gives the same bytes, and `ledgerctl audit usage --file` recomputes and verifies it from an export.',
  })
  async usage(@Query() query: UsageQuery, @CurrentPrincipal() principal: Principal): Promise<unknown> {
    // Parsed back from its canonical text so the JSON serializer writes the keys in canonical order.
    return JSON.parse(usageReportText(await this.reports.report(query, principal)));
  }

  @Get('audit/health-holders')
  @Allow('admin', 'manager', 'member', 'reader')
  @ApiOperation({ summary: 'Which projects held devices that reported a health cause (or any unhealthy report) in [from, to)' })
  async healthHolders(@Query() query: HealthHoldersQuery, @CurrentPrincipal() principal: Principal): Promise<{ projects: (string | null)[]; reports: HealthTenancy[] }> {
    const reports = await this.reports.healthHolders(query, principal);
    return { projects: [...new Set(reports.map((report) => report.projectId))].sort(), reports };
  }
}
