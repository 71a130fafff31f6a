import { ArgsType, Field, Int } from '@nestjs/graphql';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

const POINT = 'a position (digits) or an ISO-8601 time; a bad one is AUDIT.BAD_LOG_POINT';

@ArgsType()
export class TenancyRangeArgs {
  @Field({ description: 'The device uuid.' })
  @IsString()
  @MaxLength(64)
  device!: string;

  @Field(() => String, { nullable: true, description: `Tenancies that had not ended by this point: ${POINT}.` })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  from?: string | null;

  @Field(() => String, { nullable: true, description: `Tenancies that had begun by this point: ${POINT}.` })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  to?: string | null;
}

@ArgsType()
export class TimelinePageArgs {
  @Field({ description: 'The device uuid.' })
  @IsString()
  @MaxLength(64)
  device!: string;

  @Field(() => Int, { nullable: true, description: 'Entries after this position (`next` of the previous page).' })
  @IsOptional()
  @IsInt()
  @Min(0)
  after?: number | null;

  @Field(() => Int, { nullable: true, description: 'Page size, 1–1000; default 100.' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number | null;
}
