import { IsInt, IsString, Min } from 'class-validator';

/**
 * POST /v2/attributes. Shape only: the key and value rules are the
 * attribute decider's (ATTRIBUTE.INVALID), so they live in one place.
 */
export class CreateAttributeRequest {
  @IsInt()
  @Min(1)
  deployable_id!: number;

  @IsString()
  key!: string;

  @IsString()
  value!: string;
}
