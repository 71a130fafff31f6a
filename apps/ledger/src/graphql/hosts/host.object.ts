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
  @Field({ description: 'Fenced by an operator or auto-fence (inventory.HostFenced): nothing on it is offered or claimable until unfenced.' }) fenced!: boolean;
  @Field(() => String, { nullable: true, description: "The fence's reason; null while not fenced." }) fencedReason!: string | null;
  @Field(() => String, { nullable: true, description: 'When the fence was made; null while not fenced.' }) fencedAt!: string | null;
}

@ObjectType()
export class HostConnection extends Connection(HostObject, 'Host') {}
