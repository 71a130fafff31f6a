import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import {
  DEVICE_HEALTH_LEVELS,
  type DeviceHealth,
  HEALTH_CAUSE_KINDS,
  type HealthCauseKind,
  HEARTBEAT_LIMITS,
  MAX_HEALTH_CAUSE_DETAIL_LENGTH,
  MAX_HEALTH_CAUSE_NUMBER,
  MAX_HEALTH_REASON_LENGTH,
} from '@ledger/inventory';
import { IsTelemetryRecord } from './telemetry-record.validator';

const PCI_ADDRESS = /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/i;

/** What made a device unhealthy, as data the health policy matches (docs/agent-protocol.md, "Heartbeats"). */
export class HealthCauseDto {
  @ApiProperty({ enum: HEALTH_CAUSE_KINDS, example: 'xid' })
  @IsIn(HEALTH_CAUSE_KINDS)
  kind!: HealthCauseKind;

  @ApiPropertyOptional({ nullable: true, example: 79, description: 'the Xid, where the cause has a number' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_HEALTH_CAUSE_NUMBER)
  code?: number | null;

  @ApiPropertyOptional({ nullable: true, example: 2, description: 'how many: ECC errors, remapped rows, AER errors' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_HEALTH_CAUSE_NUMBER)
  count?: number | null;

  @ApiPropertyOptional({ nullable: true, example: 'uncorrected', description: 'which variant: uncorrected / corrected (ecc), pending / failed (row-remap), fatal / nonfatal (aer)' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_HEALTH_CAUSE_DETAIL_LENGTH)
  detail?: string | null;
}

export class HeartbeatDeviceDto {
  @ApiProperty({ example: '0000:3b:00.0' })
  @Matches(PCI_ADDRESS, { message: 'pciAddress must be a PCI address like 0000:3b:00.0' })
  pciAddress!: string;

  @ApiProperty({ enum: DEVICE_HEALTH_LEVELS, description: 'a change of level is recorded (inventory.DeviceHealthChanged)' })
  @IsIn(DEVICE_HEALTH_LEVELS)
  health!: DeviceHealth;

  @ApiPropertyOptional({ nullable: true, example: 'Xid 79', description: 'short text when not ok' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_HEALTH_REASON_LENGTH)
  healthReason?: string | null;

  @ApiPropertyOptional({ type: HealthCauseDto, nullable: true, description: 'what made it unhealthy: the health policy judges by it (docs/operations.md, "Health policy")' })
  @IsOptional()
  @ValidateNested()
  @Type(() => HealthCauseDto)
  cause?: HealthCauseDto | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number' },
    example: { utilizationPct: 37, memoryUsedGiB: 12.5, temperatureC: 61, powerW: 180 },
    description: `at most ${HEARTBEAT_LIMITS.telemetryMembers} numbers; kept in the live view, never recorded as events`,
  })
  @IsOptional()
  @IsTelemetryRecord(HEARTBEAT_LIMITS.telemetryMembers)
  telemetry?: Record<string, number>;
}

/** POST /api/v1/hosts/{hostname}/heartbeat (docs/agent-protocol.md, "Heartbeats"). */
export class HeartbeatRequest {
  @ApiProperty({ example: '0.1.0' })
  @IsString()
  @MaxLength(64)
  agentVersion!: string;

  @ApiProperty({ example: 15, description: 'seconds until the next heartbeat: the ledger marks the host lost after a few missed ones' })
  @IsInt()
  @Min(HEARTBEAT_LIMITS.minIntervalSeconds)
  @Max(HEARTBEAT_LIMITS.maxIntervalSeconds)
  intervalSeconds!: number;

  @ApiProperty({ type: [HeartbeatDeviceDto] })
  @IsArray()
  @ArrayMaxSize(HEARTBEAT_LIMITS.devices)
  @ValidateNested({ each: true })
  @Type(() => HeartbeatDeviceDto)
  devices!: HeartbeatDeviceDto[];
}
