import { ArgsType, Field, type Complexity, Int } from '@nestjs/graphql';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '@ledger/kernel';

@ArgsType()
export class PageArgs {
  @Field(() => Int, { nullable: true, description: `Page size, 1–${MAX_PAGE_LIMIT}; default ${DEFAULT_PAGE_LIMIT}.` })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_LIMIT)
  first?: number;

  @Field(() => String, { nullable: true, description: '`pageInfo.endCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  after?: string;
}

/**
 * The cost of a connection field: its nodes' cost times the page size asked
 * for (the default page when none is), so a query's cost bounds the rows it
 * can make the ledger read.
 */
export const connectionCost: Complexity = ({ args, childComplexity }) => 1 + (Number(args.first) || DEFAULT_PAGE_LIMIT) * childComplexity;

/** `first` and `after` as the query classes take them (`limit`, `cursor`). */
export const pageRequestOf = (args: PageArgs): { limit?: number; cursor?: string } => presentArgs({ limit: args.first, cursor: args.after });

type Present<T> = { [K in keyof T]?: Exclude<T[K], null> };

/** The arguments a query gave, without the ones it left out or set to null (GraphQL's two ways of not filtering). */
export function presentArgs<T extends object>(args: T): Present<T> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined && value !== null)) as Present<T>;
}
