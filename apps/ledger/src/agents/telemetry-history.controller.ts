import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import type { LedgerConfig } from '@ledger/config';
import { LiveViewQueries, type TelemetryHistoryQuery } from '@ledger/projections/inventory';
import { LEDGER_CONFIG } from '../infrastructure/tokens';
import { pathUuid } from '../inventory/inventory-not-found';
import { TelemetryHistoryQueryDto } from './telemetry-history.query.dto';
import { TelemetryHistoryResponse } from './agents.responses';
import { TelemetryLiveView } from './telemetry-live-view';

/**
 * Utilisation over time: the telemetry the live view keeps, one sample per
 * device per LEDGER_TELEMETRY_HISTORY_STEP_SECONDS, for the last
 * LEDGER_TELEMETRY_HISTORY_MINUTES (the console's charts).
 */
@ApiTags('agents')
@Controller('api/v1')
@Allow('admin', 'manager')
export class TelemetryHistoryController {
  constructor(
    @Inject(LiveViewQueries) private readonly queries: LiveViewQueries,
    @Inject(TelemetryLiveView) private readonly liveView: TelemetryLiveView,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  @Get('hosts/:hostname/telemetry/history')
  @ApiOperation({ summary: "Each of the host's devices' telemetry over the last `minutes`, oldest sample first" })
  @ApiOkResponse({ type: TelemetryHistoryResponse })
  hostHistory(@Param('hostname') hostname: string, @Query() query: TelemetryHistoryQueryDto): Promise<TelemetryHistoryResponse> {
    return this.history({ hostname, sinceMs: this.since(query) });
  }

  @Get('devices/:uuid/telemetry/history')
  @ApiOperation({ summary: "The device's telemetry over the last `minutes`, oldest sample first" })
  @ApiOkResponse({ type: TelemetryHistoryResponse })
  deviceHistory(@Param('uuid') uuid: string, @Query() query: TelemetryHistoryQueryDto): Promise<TelemetryHistoryResponse> {
    return this.history({ deviceUuid: pathUuid(uuid), sinceMs: this.since(query) });
  }

  private since(query: TelemetryHistoryQueryDto): number {
    return Date.now() - (query.minutes ?? this.config.telemetryHistoryMinutes) * 60_000;
  }

  private async history(query: TelemetryHistoryQuery): Promise<TelemetryHistoryResponse> {
    // This replica's own samples first, as the latest-telemetry read does.
    await this.liveView.flush();
    return {
      stepSeconds: this.config.telemetryHistoryStepSeconds,
      keptMinutes: this.config.telemetryHistoryMinutes,
      devices: await this.queries.telemetryHistory(query),
    };
  }
}
