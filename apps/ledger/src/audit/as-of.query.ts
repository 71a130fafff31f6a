import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** The `asOf` query parameter of a read route, documented once. */
export const AsOfParameter = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      description:
        'answer as the read model was at this point of the log: a global position (digits) or an ISO-8601 time. ' +
        'The projection is rebuilt up to it (docs/audit.md gives the cost); 400 AUDIT.BAD_LOG_POINT or AUDIT.AS_OF_BEYOND_HEAD for a bad one',
      examples: ['1200', '2026-11-22T10:00:00Z'],
    }),
    IsOptional(),
    IsString(),
    MaxLength(64),
  );

/** The query of a one-item read route that can answer as of a point of the log. */
export class AsOfQuery {
  @AsOfParameter()
  asOf?: string;
}
