import { Controller, Get, Headers, Inject, Param } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Allow } from '@ledger/auth/nest';
import { BitstreamQueries, type ProvenanceEntry } from '@ledger/projections/bitstreams';
import { ConsistencyService, MIN_POSITION_HEADER } from '../http/consistency.service';
import { pathUuid } from '../inventory/inventory-not-found';

@ApiTags('bitstreams')
@ApiHeader({ name: MIN_POSITION_HEADER, required: false, description: 'wait until the projections have reached this position' })
@Controller('api/v1/devices')
export class DeviceProvenanceController {
  constructor(
    @Inject(BitstreamQueries) private readonly queries: BitstreamQueries,
    @Inject(ConsistencyService) private readonly consistency: ConsistencyService,
  ) {}

  @Get(':uuid/provenance')
  @Allow('admin', 'manager')
  @ApiOperation({ summary: "Every image loaded into the device's regions, newest first: which bitstream, when, by which job and request, for which project" })
  async provenance(@Param('uuid') uuid: string, @Headers(MIN_POSITION_HEADER) minPosition?: string): Promise<{ deviceUuid: string; loads: ProvenanceEntry[] }> {
    const deviceUuid = pathUuid(uuid);
    await this.consistency.awaitHeader(minPosition);
    return { deviceUuid, loads: await this.queries.provenance(deviceUuid) };
  }
}
