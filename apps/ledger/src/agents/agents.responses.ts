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
