import { Field, Int, ObjectType } from '@nestjs/graphql';
import { JsonScalar } from '../shared/json.scalar';

@ObjectType('Quota', { description: "A project's limits and usage per resource class." })
export class QuotaObject {
  @Field() project!: string;
  @Field(() => JsonScalar, { description: 'Resource class → limit; a class not named has no limit.' }) limits!: Record<string, number>;
  @Field(() => JsonScalar, { description: 'Resource class → units reserved.' }) usage!: Record<string, number>;
  @Field(() => Int, { nullable: true, description: 'The log position this answer is as of, when `asOf` was given; null for the live quota.' })
  asOfPosition!: number | null;
}
