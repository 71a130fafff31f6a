import { Controller, Get, Headers, Inject, Param } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import { LiveViewQueries } from '@ledger/projections/inventory';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { hostNotFound } from '../inventory/inventory-not-found';
import { HostTelemetryResponse } from './agents.responses';
import { TelemetryLiveView } from './telemetry-live-view';

@ApiTags('agents')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections (agent status) have reached this position' })
@Controller('api/v1/hosts')
export class TelemetryController {
  constructor(
    @Inject(LiveViewQueries) private readonly queries: LiveViewQueries,
    @Inject(TelemetryLiveView) private readonly liveView: TelemetryLiveView,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get(':hostname/telemetry')
  @Allow('admin', 'manager')
  @ApiOperation({
    summary: "What the host's last heartbeat said: agent status, last sighting, each device's health and telemetry",
    description: 'From the live view: this replica\'s latest samples, other replicas\' at most LEDGER_TELEMETRY_FLUSH_MS old.',
  })
  @ApiOkResponse({ type: HostTelemetryResponse })
  async telemetry(@Param('hostname') hostname: string, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<HostTelemetryResponse> {
    await this.consistency.awaitHeader(minPosition);
    // This replica's own samples first, so an operator reading after a heartbeat sees it.
    await this.liveView.flush();
    const telemetry = await this.queries.hostTelemetry(hostname);
    if (!telemetry) throw hostNotFound(hostname);
    return telemetry;
  }
}
