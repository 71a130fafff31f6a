import { Inject, Injectable } from '@nestjs/common';
import { ArgsType, Field } from '@nestjs/graphql';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ValidationError } from '@ledger/kernel';
import { AsOfRebuilds, parseLogPoint } from '@ledger/processing';
import { type AsOfView, readAsOf } from '../../audit/as-of-reads.service';

/** Where a node read as of a point of the log keeps that point, so the fields under it read the same point. */
const AS_OF_POSITION = Symbol('asOfPosition');

type Stamped = { readonly [AS_OF_POSITION]?: number };

/** An answer and the position it is as of; null for a live answer. */
export interface AsOfAnswer<T> {
  readonly position: number | null;
  readonly answer: T;
}

export const AS_OF_DESCRIPTION =
  'Answer as the read model was at this point of the log: a position (digits) or an ISO-8601 time (AUDIT.BAD_LOG_POINT, AUDIT.AS_OF_BEYOND_HEAD). Fields under the answer read the same point.';

/** The `asOf` argument of a root field that answers one node. */
export const AS_OF_ARG = { name: 'asOf', type: () => String, nullable: true, description: AS_OF_DESCRIPTION } as const;

/** A root list's arguments with `asOf` (one argument class per field: the validation pipe refuses properties a class does not declare). */
export function WithAsOf<Base extends new (...args: any[]) => object>(base: Base) {
  @ArgsType()
  class AsOfArgs extends base {
    @Field(() => String, { nullable: true, description: AS_OF_DESCRIPTION })
    @IsOptional()
    @IsString()
    @MaxLength(64)
    asOf?: string | null;
  }
  return AsOfArgs;
}

/** The nodes of an as-of answer, each carrying its position for the fields under it; live nodes as they are. */
export function stampedAt<T extends object>(position: number | null, nodes: readonly T[]): T[] {
  return position === null ? [...nodes] : nodes.map((node) => ({ ...node, [AS_OF_POSITION]: position }));
}

/** A field under a node with no as-of read model of its own: refused under `asOf` rather than answered live beside a past parent. */
export function refuseUnderAsOf(parent: object, field: string): void {
  const position = (parent as Stamped)[AS_OF_POSITION];
  if (position !== undefined) {
    throw new ValidationError('GRAPHQL.AS_OF_NOT_NESTABLE', `${field} has no as-of read model: ask it without asOf`, { field, position });
  }
}

/**
 * GraphQL's `asOf`: the same parsing, errors and rebuilds (AsOfRebuilds) as
 * the REST `?asOf=`. A root field reads live or as of the point it was
 * given; a field under a node read as of a position reads its own read
 * model rebuilt up to that same position, so one answer never mixes times.
 */
@Injectable()
export class GraphqlAsOf {
  constructor(@Inject(AsOfRebuilds) private readonly rebuilds: AsOfRebuilds) {}

  async root<Queries, T>(asOf: string | null | undefined, view: AsOfView<Queries>, live: Queries, read: (queries: Queries) => Promise<T>): Promise<AsOfAnswer<T>> {
    if (asOf === undefined || asOf === null) return { position: null, answer: await read(live) };
    return this.past(asOf, view, read);
  }

  /** The answer of `read` on the view's projection rebuilt up to `asOf`, for a field whose live read is not that projection's (quota). */
  async past<Queries, T>(asOf: string, view: AsOfView<Queries>, read: (queries: Queries) => Promise<T>): Promise<AsOfAnswer<T>> {
    return readAsOf(this.rebuilds, parseLogPoint(asOf, 'asOf'), view, read);
  }

  /** One node, live or as of `asOf`, carrying its position for the fields under it. */
  async node<Queries, T extends object>(asOf: string | null | undefined, view: AsOfView<Queries>, live: Queries, read: (queries: Queries) => Promise<T | undefined>): Promise<T | undefined> {
    const { position, answer } = await this.root(asOf, view, live, read);
    return answer === undefined ? undefined : stampedAt(position, [answer])[0];
  }

  async under<Queries, T>(parent: object, view: AsOfView<Queries>, live: Queries, read: (queries: Queries) => Promise<T>): Promise<AsOfAnswer<T>> {
    const position = (parent as Stamped)[AS_OF_POSITION];
    if (position === undefined) return { position: null, answer: await read(live) };
    return readAsOf(this.rebuilds, { position }, view, read);
  }
}
