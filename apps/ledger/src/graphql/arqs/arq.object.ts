import { Field, Int, ObjectType } from '@nestjs/graphql';
import { Connection } from '../shared/connection';
import { JsonScalar } from '../shared/json.scalar';

@ObjectType('AcceleratorRequest', { description: "An accelerator request (ARQ): one device profile group's claim for an instance." })
export class ArqObject {
  @Field() uuid!: string;
  @Field({ description: '`Initial`, `BindStarted`, `Bound`, `BindFailed` or `Unbound`.' }) state!: string;
  @Field() deviceProfileUuid!: string;
  @Field() deviceProfileName!: string;
  @Field(() => Int) deviceProfileGroupId!: number;
  @Field() resourceClass!: string;
  @Field(() => String, { nullable: true }) hostname!: string | null;
  @Field(() => String, { nullable: true }) deviceRpUuid!: string | null;
  @Field(() => String, { nullable: true }) instanceUuid!: string | null;
  @Field() projectId!: string;
  @Field(() => String, { nullable: true }) deviceUuid!: string | null;
  @Field(() => String, { nullable: true }) attachHandleUuid!: string | null;
  @Field() attachHandleType!: string;
  @Field(() => JsonScalar) attachHandleInfo!: Record<string, string>;
  @Field() createdAt!: string;
  @Field(() => String, { nullable: true }) updatedAt!: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      'The id of its latest bind, kept after an unbind; null before its first bind. A bind that programs is the workflow `workflow(name: "bind", id: …)`, ' +
      'and `workflows(arq: uuid)` lists them; a bind with nothing to program is decided at once and runs no workflow.',
  })
  lastBindId!: string | null;
}

@ObjectType()
export class ArqConnection extends Connection(ArqObject, 'Arq') {}
