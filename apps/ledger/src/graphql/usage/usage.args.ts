import { ArgsType, Field } from '@nestjs/graphql';
import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { HEALTH_CAUSE_KINDS } from '@ledger/inventory';

const POINT = 'a position (digits) or an ISO-8601 time; a bad one is AUDIT.BAD_LOG_POINT';

@ArgsType()
export class UsageArgs {
  @Field({ description: `Start of the period (included): ${POINT}.` })
  @IsString()
  @MaxLength(64)
  from!: string;

  @Field({ description: `End of the period (excluded); the report is computed at the last position at or before it: ${POINT}.` })
  @IsString()
  @MaxLength(64)
  to!: string;

  @Field(() => String, { nullable: true, description: 'project (default), resourceClass or device; another value is USAGE.BAD_GROUP_BY.' })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  groupBy?: string | null;
}

@ArgsType()
export class HealthHoldersArgs {
  @Field(() => String, { nullable: true, description: `Reports at or after this point: ${POINT}.` })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  from?: string | null;

  @Field(() => String, { nullable: true, description: `Reports before this point: ${POINT}.` })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  to?: string | null;

  @Field(() => String, { nullable: true, description: 'The reported reason to match exactly; without it, every report that is not ok.' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  cause?: string | null;

  @Field(() => String, { nullable: true, description: `Only reports of this cause kind (${HEALTH_CAUSE_KINDS.join(', ')}).` })
  @IsOptional()
  @IsIn(HEALTH_CAUSE_KINDS)
  causeKind?: string | null;

  @Field(() => String, { nullable: true, description: 'Only this device (uuid): who held it when it failed.' })
  @IsOptional()
  @IsUUID()
  device?: string | null;
}
