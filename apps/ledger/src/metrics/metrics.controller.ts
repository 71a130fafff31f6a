import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import { LEDGER_METRICS } from '../infrastructure/tokens';
import type { LedgerMetrics } from './ledger-metrics';
import { ScrapeGauges } from './scrape-gauges';

/** Prometheus's text exposition format, version 0.0.4: what prom-client writes. */
const EXPOSITION = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * Prometheus metrics of this process, for the admin role: quota usage
 * names projects, so the route is no less protected than the quotas
 * themselves (docs/operations.md, Metrics, says why not a separate listener).
 */
@ApiTags('metrics')
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(LEDGER_METRICS) private readonly metrics: LedgerMetrics,
    @Inject(ScrapeGauges) private readonly gauges: ScrapeGauges,
  ) {}

  @Get()
  @Allow('admin')
  @Header('content-type', EXPOSITION)
  @ApiOperation({ summary: "Prometheus metrics of this process (text exposition format): HTTP, event store, processors, Placement, workflows, jobs, agents, quota" })
  @ApiProduces(EXPOSITION)
  @ApiOkResponse({ description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } })
  async scrape(): Promise<string> {
    await this.gauges.refresh();
    return this.metrics.registry.metrics();
  }
}
