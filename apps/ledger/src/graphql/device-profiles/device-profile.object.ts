import { Field, ObjectType } from '@nestjs/graphql';
import { Connection } from '../shared/connection';
import { JsonScalar } from '../shared/json.scalar';

@ObjectType('DeviceProfile', { description: 'What an instance asks for: groups of resources and traits (Cyborg device profile).' })
export class DeviceProfileObject {
  @Field() uuid!: string;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => [JsonScalar], { description: 'String keys (`resources:FPGA`) to string values, as stored.' }) groups!: Record<string, string>[];
  @Field() createdAt!: string;
  @Field(() => String, { nullable: true }) updatedAt!: string | null;
}

@ObjectType()
export class DeviceProfileConnection extends Connection(DeviceProfileObject, 'DeviceProfile') {}
