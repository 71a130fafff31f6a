import { Field, Int, ObjectType } from '@nestjs/graphql';

@ObjectType('LogPoint', { description: 'A point of the log: its position and the time it was recorded.' })
export class LogPointObject {
  @Field(() => Int) position!: number;
  @Field() time!: string;
}

@ObjectType('DeviceProfileRef')
export class DeviceProfileRefObject {
  @Field() uuid!: string;
  @Field() name!: string;
}

@ObjectType('Tenancy', { description: 'One holding of a device: from its bind to its unbind (open while `to` is null).' })
export class TenancyObject {
  @Field() deviceUuid!: string;
  @Field() deployableUuid!: string;
  @Field() attachHandleUuid!: string;
  @Field(() => String, { nullable: true }) region!: string | null;
  @Field() arqUuid!: string;
  @Field(() => String, { nullable: true }) instanceUuid!: string | null;
  @Field(() => String, { nullable: true }) projectId!: string | null;
  @Field(() => DeviceProfileRefObject, { nullable: true }) deviceProfile!: DeviceProfileRefObject | null;
  @Field(() => String, { nullable: true }) bitstreamId!: string | null;
  @Field(() => LogPointObject) from!: LogPointObject;
  @Field(() => LogPointObject, { nullable: true }) to!: LogPointObject | null;
}

@ObjectType('DeviceTenancy', { description: 'Who held a device, when (GET /api/v1/devices/{uuid}/tenancy).' })
export class DeviceTenancyObject {
  @Field() deviceUuid!: string;
  @Field(() => [TenancyObject]) tenancies!: TenancyObject[];
}

@ObjectType('TimelineEntry', { description: 'One event that touched a device.' })
export class TimelineEntryObject {
  @Field(() => Int) position!: number;
  @Field() type!: string;
  @Field() recordedAt!: string;
  @Field() actor!: string;
  @Field(() => String, { nullable: true, description: "Whose use of the device the event belongs to; null for the operator's own events." }) projectId!: string | null;
  @Field() summary!: string;
}

@ObjectType('DeviceTimeline', { description: 'A page of the events that touched a device, in log order (GET /api/v1/devices/{uuid}/timeline).' })
export class DeviceTimelineObject {
  @Field() deviceUuid!: string;
  @Field(() => [TimelineEntryObject]) entries!: TimelineEntryObject[];
  @Field(() => Int, { nullable: true, description: 'Pass as `after` for the next page; null on the last.' }) next!: number | null;
}
