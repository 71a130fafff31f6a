import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow as Accepted, IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { JOB_KINDS } from '@ledger/jobs';

/**
 * `POST /api/v1/hosts/{hostname}/jobs`. The members are checked by the
 * jobs domain, not here, so that an unknown kind or bad params answer
 * JOB.INVALID with the path of the member (`params.numVfs`).
 */
export class RequestJobBody {
  @ApiProperty({ type: 'string', enum: JOB_KINDS })
  @Accepted()
  kind!: unknown;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'per kind, see docs/agent-protocol.md' })
  @Accepted()
  params!: unknown;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 86_400, description: 'default: program 600, driver jobs 1800, others 120' })
  @Accepted()
  timeoutSeconds?: unknown;
}

/** `POST /api/v1/jobs/{jobId}/result`. */
export class JobResultBody {
  @ApiProperty({ enum: ['completed', 'failed'] })
  @IsIn(['completed', 'failed'])
  outcome!: 'completed' | 'failed';

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'what the agent read back; at most 64 KiB as JSON' })
  @IsObject()
  evidence!: Record<string, unknown>;

  @ApiPropertyOptional({ example: 'DRIVER.PLAYBOOK_FAILED', description: 'failures only; default JOB.FAILED' })
  @IsOptional()
  @IsString()
  code?: string;

  @ApiPropertyOptional({ description: 'failures only' })
  @IsOptional()
  @IsString()
  reason?: string;
}

/** `GET /api/v1/hosts/{hostname}/jobs/next`. */
export class NextJobsQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 60, default: 25, description: 'how long to wait for a job when none waits' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(60)
  waitSeconds?: number;
}

/** `GET /api/v1/jobs`. */
export class JobListQuery {
  @ApiPropertyOptional({ example: 'compute-1' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  hostname?: string;

  @ApiPropertyOptional({ enum: ['requested', 'dispatched', 'completed', 'failed'] })
  @IsOptional()
  @IsIn(['requested', 'dispatched', 'completed', 'failed'])
  state?: string;

  @ApiPropertyOptional({ enum: JOB_KINDS })
  @IsOptional()
  @IsIn(JOB_KINDS)
  kind?: string;

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
  @MaxLength(64)
  cursor?: string;
}
