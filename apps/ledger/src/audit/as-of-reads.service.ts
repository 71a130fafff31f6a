import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AsOfRebuilds, type LogPoint, parseLogPoint, type Processor, type SqlDatabase } from '@ledger/processing';
import type { ConsistencyService } from '../http/consistency.service';

/** The position an as-of answer reflects, on every such answer. */
export const AS_OF_POSITION_HEADER = 'x-ledger-as-of-position';

/** A read model a route can answer from as of a point: its projection, and its query class on a database. */
export interface AsOfView<Queries> {
  readonly projection: Processor;
  readonly queries: (db: SqlDatabase) => Queries;
}

/** `read` on the view's projection rebuilt up to `point`, and the position it reflects: every as-of answer, REST's and GraphQL's. */
export function readAsOf<Queries, T>(rebuilds: AsOfRebuilds, point: LogPoint, view: AsOfView<Queries>, read: (queries: Queries) => Promise<T>): Promise<{ position: number; answer: T }> {
  return rebuilds.read(view.projection, point, (db) => read(view.queries(db)));
}

/** What a read route hands over: `?asOf=`, the reply (for the position header), and its usual freshness wait for a live read. */
export interface AsOfRequest {
  readonly asOf: string | undefined;
  readonly reply: FastifyReply;
  readonly fresh: () => Promise<unknown>;
}

/** The request of a native route whose live read waits for the X-Ledger-Min-Position it was sent. */
export const asOfOrMinPosition = (consistency: ConsistencyService, minPosition: string | undefined, asOf: string | undefined, reply: FastifyReply): AsOfRequest => ({
  asOf,
  reply,
  fresh: () => consistency.awaitHeader(minPosition),
});

/**
 * One read route's two ways to answer: without `asOf`, on the live query
 * class (after the route's usual freshness wait); with
 * `?asOf=`, on the same query class over the projection rebuilt up to that
 * point (AsOfRebuilds). One `read` serves both, so tenant filtering is the
 * same for both.
 */
@Injectable()
export class AsOfReads {
  constructor(@Inject(AsOfRebuilds) private readonly rebuilds: AsOfRebuilds) {}

  async read<Queries, T>(request: AsOfRequest, view: AsOfView<Queries>, live: Queries, read: (queries: Queries) => Promise<T>): Promise<T> {
    if (request.asOf === undefined) {
      await request.fresh();
      return read(live);
    }
    return this.past(request.asOf, request.reply, view, read);
  }

  /** The answer of `read` on the view's projection rebuilt up to `asOf`, for a route whose live read is not that projection's. */
  async past<Queries, T>(asOf: string, reply: FastifyReply, view: AsOfView<Queries>, read: (queries: Queries) => Promise<T>): Promise<T> {
    const { position, answer } = await readAsOf(this.rebuilds, parseLogPoint(asOf, 'asOf'), view, read);
    reply.header(AS_OF_POSITION_HEADER, String(position));
    return answer;
  }
}
