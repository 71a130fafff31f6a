import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { WORKFLOW_NAME } from '@ledger/workflows';

const STATUSES = ['running', 'completed', 'compensated', 'failed'] as const;

/** `GET /api/v1/workflows`. */
export class WorkflowListQuery {
  @ApiPropertyOptional({ example: 'bind' })
  @IsOptional()
  @IsString()
  @Matches(WORKFLOW_NAME)
  @MaxLength(64)
  name?: string;

  @ApiPropertyOptional({ enum: STATUSES })
  @IsOptional()
  @IsIn(STATUSES)
  status?: (typeof STATUSES)[number];

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

/** `POST /api/v1/workflows/{name}/{id}/cancel`. */
export class CancelWorkflowBody {
  @ApiPropertyOptional({ example: 'the tenant left', description: 'recorded with the cancel; default "cancelled by an operator"' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  reason?: string;
}
