import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { LimitQuery } from '../inventory/inventory.query.dto';

const POINT = 'a global position (digits) or an ISO-8601 time; a bad value is 400 AUDIT.BAD_LOG_POINT';

export class TenancyRangeQuery {
  @ApiPropertyOptional({ description: `tenancies that had not ended by this point: ${POINT}`, example: '2026-11-01T00:00:00Z' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  from?: string;

  @ApiPropertyOptional({ description: `tenancies that had begun by this point: ${POINT}`, example: '1200' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  to?: string;
}

export class TimelinePageQuery extends LimitQuery {
  @ApiPropertyOptional({ description: 'entries after this position (the `next` of the previous page)', minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after?: number;
}
