import { type DynamicModule, Module } from '@nestjs/common';
import { LEDGER_METRICS } from '../infrastructure/tokens';
import type { LedgerMetrics } from './ledger-metrics';
import { MetricsController } from './metrics.controller';
import { ScrapeGauges } from './scrape-gauges';

/**
 * GET /metrics, and the app's LedgerMetrics for whoever reports to it (the
 * event store, the processor runtimes). Imported only while LEDGER_METRICS
 * is on; off, nothing is measured and the route is absent.
 */
@Module({})
export class MetricsModule {
  static forRoot(metrics: LedgerMetrics): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      providers: [{ provide: LEDGER_METRICS, useValue: metrics }, ScrapeGauges],
      controllers: [MetricsController],
      exports: [LEDGER_METRICS],
    };
  }
}
