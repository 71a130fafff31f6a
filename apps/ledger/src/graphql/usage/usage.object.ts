import { Field, Int, ObjectType } from '@nestjs/graphql';
import { LogPointObject } from '../device-history/device-history.object';

@ObjectType('UsageRow', { description: "One group's use of devices in the period; decimals fixed to 3 places." })
export class UsageRowObject {
  @Field(() => String, { nullable: true, description: 'The project, resource class or device uuid.' }) group!: string | null;
  @Field(() => Int, { description: 'Tenancies that overlap the period.' }) tenancies!: number;
  @Field() heldSeconds!: string;
  @Field({ description: 'GiB of GPU memory × seconds held, where the device reports its memory.' }) gpuMemoryGiBSeconds!: string;
  @Field(() => String, { nullable: true, description: 'MIG slices × seconds held; null until devices report slices.' }) migSliceSeconds!: string | null;
}

@ObjectType('UsageReport', { description: 'Usage in [from, to) computed at `position`, signed with the checkpoint key (GET /api/v1/usage).' })
export class UsageReportObject {
  @Field() kind!: string;
  @Field(() => LogPointObject) from!: LogPointObject;
  @Field(() => LogPointObject) to!: LogPointObject;
  @Field() groupBy!: string;
  @Field(() => String, { nullable: true, description: "The one project a tenant's report covers; null for every project's." }) project!: string | null;
  @Field(() => Int, { description: 'The log position the report was computed at.' }) position!: number;
  @Field(() => [UsageRowObject]) rows!: UsageRowObject[];
  @Field(() => String, { nullable: true, description: "Ed25519 (base64) over the report's canonical JSON without this field." }) signature!: string | null;
  @Field({ description: 'The whole report as canonical JSON: the bytes GET /api/v1/usage answers and `ledgerctl audit usage --file` recomputes.' }) canonical!: string;
}

@ObjectType('HealthCause', { description: 'What the agent said made the device unhealthy (docs/agent-protocol.md, "Heartbeats").' })
export class HealthCauseObject {
  @Field() kind!: string;
  @Field(() => Int, { nullable: true, description: 'The Xid, where the cause has a number.' }) code?: number;
  @Field(() => Int, { nullable: true, description: 'How many (ECC errors, remapped rows).' }) count?: number;
  @Field(() => String, { nullable: true, description: 'Which variant (uncorrected, pending, fatal…).' }) detail?: string;
}

@ObjectType('HealthHolder', { description: 'A health report of a device, and the project and request that held it then.' })
export class HealthHolderObject {
  @Field(() => String, { nullable: true }) projectId!: string | null;
  @Field() deviceUuid!: string;
  @Field() arqUuid!: string;
  @Field() health!: string;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => HealthCauseObject, { nullable: true }) cause!: HealthCauseObject | null;
  @Field({ description: "The health policy's effect: none, watch, reserve or drain." }) effect!: string;
  @Field(() => String, { nullable: true, description: 'The health policy version that judged it; null before policies.' }) policyVersion!: string | null;
  @Field(() => Int) position!: number;
  @Field() recordedAt!: string;
}
