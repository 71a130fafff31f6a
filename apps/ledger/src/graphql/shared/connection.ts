import type { Type } from '@nestjs/common';
import { Field, Int, ObjectType } from '@nestjs/graphql';
import { stampedAt } from './as-of';

@ObjectType({ description: 'Where a page ends (Relay cursor connections).' })
export class PageInfo {
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null on the last page.' })
  endCursor!: string | null;

  @Field()
  hasNextPage!: boolean;
}

export interface Edge<T> {
  readonly cursor: string | null;
  readonly node: T;
}

export interface ConnectionOf<T> {
  readonly edges: Edge<T>[];
  readonly pageInfo: PageInfo;
  readonly asOfPosition: number | null;
}

/**
 * A Relay connection type for `node`. The ledger's lists are keyset pages
 * that resume from the end of a page, so an edge's cursor is set on the
 * last edge of a page that has more (it equals `pageInfo.endCursor`).
 */
export function Connection<T>(node: Type<T>, name: string): Type<ConnectionOf<T>> {
  @ObjectType(`${name}Edge`)
  class EdgeType {
    @Field(() => String, { nullable: true, description: 'Set on the last edge of a page that has more: resume `after` it.' })
    cursor!: string | null;

    @Field(() => node)
    node!: T;
  }

  @ObjectType(`${name}Connection`, { isAbstract: true })
  class ConnectionType {
    @Field(() => [EdgeType])
    edges!: Edge<T>[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;

    @Field(() => Int, { nullable: true, description: 'The log position this page is as of, when `asOf` was given (or a parent was read as of one); null for a live page.' })
    asOfPosition!: number | null;
  }
  return ConnectionType;
}

/** A query class's page (`items`, `nextCursor`) as a connection, live or as of a position (the fields under its nodes then read that position too). */
export function toConnection<T extends object>(page: { readonly items: readonly T[]; readonly nextCursor: string | null }, asOfPosition: number | null = null): ConnectionOf<T> {
  const last = page.items.length - 1;
  return {
    edges: stampedAt(asOfPosition, page.items).map((node, index) => ({ node, cursor: index === last ? page.nextCursor : null })),
    pageInfo: { endCursor: page.nextCursor, hasNextPage: page.nextCursor !== null },
    asOfPosition,
  };
}
