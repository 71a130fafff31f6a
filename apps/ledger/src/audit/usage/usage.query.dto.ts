import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { HEALTH_CAUSE_KINDS } from '@ledger/inventory';
import { USAGE_GROUP_BYS } from '@ledger/projections/device-history';

const POINT = 'a global position (digits) or an ISO-8601 time; a bad value is 400 AUDIT.BAD_LOG_POINT';

export class UsageQuery {
  @ApiProperty({ description: `start of the period (included): ${POINT}`, example: '2026-11-01T00:00:00Z' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  from!: string;

  @ApiProperty({ description: `end of the period (excluded); the report is computed at the last position at or before it: ${POINT}`, example: '2026-12-01T00:00:00Z' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  to!: string;

  @ApiPropertyOptional({ description: 'one row per project (default), resource class or device; another value is 400 USAGE.BAD_GROUP_BY', enum: USAGE_GROUP_BYS })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  groupBy?: string;
}

export class HealthHoldersQuery {
  @ApiPropertyOptional({ description: `reports at or after this point: ${POINT}` })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  from?: string;

  @ApiPropertyOptional({ description: `reports before this point: ${POINT}` })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  to?: string;

  @ApiPropertyOptional({ description: 'the reported reason to match exactly (e.g. "Xid 79"); without it, every report that is not ok', example: 'Xid 79' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  cause?: string;

  @ApiPropertyOptional({ description: 'only reports of this cause kind', enum: HEALTH_CAUSE_KINDS, example: 'xid' })
  @IsOptional()
  @IsIn(HEALTH_CAUSE_KINDS)
  causeKind?: string;

  @ApiPropertyOptional({ description: 'only this device: who held it when it failed', format: 'uuid' })
  @IsOptional()
  @IsUUID()
  device?: string;
}
