import { ApiProperty } from '@nestjs/swagger';

/** What a heartbeat recorded, and whether jobs wait. */
export class HeartbeatResponse {
  @ApiProperty({ example: 'compute-1' })
  hostname!: string;

  @ApiProperty({ example: 0, description: 'events appended (AgentBack, DeviceHealthChanged); 0 when nothing changed' })
  appended!: number;

  @ApiProperty({ nullable: true, example: null, description: 'global position of the last appended event' })
  position!: number | null;

  @ApiProperty({ example: 0, description: 'jobs queued for the host: poll for them at once when above 0' })
  jobsWaiting!: number;

  @ApiProperty({ type: [String], example: [], description: 'PCI addresses the host has not reported: ignored until a report lists them' })
  unknownDevices!: string[];
}

export class DeviceTelemetryResponse {
  @ApiProperty({ format: 'uuid' })
  deviceUuid!: string;

  @ApiProperty({ example: '0000:3b:00.0' })
  pciAddress!: string;

  @ApiProperty({ enum: ['ok', 'degraded', 'failed'] })
  health!: string;

  @ApiProperty({ nullable: true })
  healthReason!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, example: { utilizationPct: 37 } })
  telemetry!: Record<string, number>;

  @ApiProperty({ format: 'date-time' })
  observedAt!: string;
}

/** GET /api/v1/hosts/{hostname}/telemetry */
export class HostTelemetryResponse {
  @ApiProperty({ example: 'compute-1' })
  hostname!: string;

  @ApiProperty({ nullable: true, format: 'date-time' })
  lastSeenAt!: string | null;

  @ApiProperty({ nullable: true, example: '0.1.0' })
  agentVersion!: string | null;

  @ApiProperty({ nullable: true, example: 15 })
  intervalSeconds!: number | null;

  @ApiProperty({ enum: ['up', 'lost', 'unknown'] })
  status!: string;

  @ApiProperty({ type: [DeviceTelemetryResponse] })
  devices!: DeviceTelemetryResponse[];
}

/** One kept sample: the last heartbeat of its step. */
export class TelemetrySampleResponse {
  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, example: { utilizationPct: 42 } })
  telemetry!: Record<string, number>;
}

export class DeviceTelemetrySeriesResponse {
  @ApiProperty({ format: 'uuid' })
  deviceUuid!: string;

  @ApiProperty({ example: 'compute-1' })
  hostname!: string;

  @ApiProperty({ type: [TelemetrySampleResponse], description: 'oldest first' })
  samples!: TelemetrySampleResponse[];
}

/** GET /api/v1/hosts/{hostname}/telemetry/history, /api/v1/devices/{uuid}/telemetry/history */
export class TelemetryHistoryResponse {
  @ApiProperty({ example: 60, description: 'one sample per device per step (LEDGER_TELEMETRY_HISTORY_STEP_SECONDS)' })
  stepSeconds!: number;

  @ApiProperty({ example: 60, description: 'how far back samples are kept (LEDGER_TELEMETRY_HISTORY_MINUTES; 0: none)' })
  keptMinutes!: number;

  @ApiProperty({ type: [DeviceTelemetrySeriesResponse], description: 'by device uuid' })
  devices!: DeviceTelemetrySeriesResponse[];
}
