import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** `?minutes=`: how far back to read (default: all that is kept, LEDGER_TELEMETRY_HISTORY_MINUTES). */
export class TelemetryHistoryQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 10_080, example: 60 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(10_080)
  minutes?: number;
}
