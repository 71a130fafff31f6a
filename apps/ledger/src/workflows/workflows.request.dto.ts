import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { WORKFLOW_NAME } from '@ledger/workflows';
import { PageQuery } from '../inventory/inventory.query.dto';
import { AsOfParameter } from '../audit/as-of.query';

const STATUSES = ['running', 'completed', 'compensated', 'failed'] as const;

/** `GET /api/v1/workflows`. */
export class WorkflowListQuery extends PageQuery {
  @AsOfParameter()
  asOf?: string;

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

  @ApiPropertyOptional({ format: 'uuid', description: "only the instances that work on this accelerator request (its binds)" })
  @IsOptional()
  @IsUUID()
  arq?: string;
}

/** `POST /api/v1/workflows/{name}/{id}/cancel`. */
export class CancelWorkflowBody {
  @ApiPropertyOptional({ example: 'the tenant left', description: 'recorded with the cancel; default "cancelled by an operator"' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  reason?: string;
}
