import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from '../shared/connection';

@ObjectType('Host', { description: 'A host that has reported (the inventory projection).' })
export class HostObject {
  @Field() hostname!: string;
  @Field() registeredAt!: string;
  @Field({ description: 'When a report last changed something.' }) lastReportAt!: string;
  @Field(() => Int) deviceCount!: number;
  @Field({ description: '`registered`, `provisioning`, `provisioned` or `provision-failed`.' }) status!: string;
  @Field({ description: '`up`, `lost` or `unknown`.' }) agentStatus!: string;
  @Field(() => String, { nullable: true }) lastSeenAt!: string | null;
}

@ObjectType()
export class HostConnection extends Connection(HostObject, 'Host') {}
