import type { FastifyRequest } from 'fastify';

export interface CyborgLink {
  readonly href: string;
  readonly rel: 'self' | 'bookmark';
}

/** The URL clients reached us at: the links Cyborg puts in every resource are absolute. */
export const baseUrlOf = (request: FastifyRequest): string => `${request.protocol}://${request.headers.host ?? 'localhost'}`;

/**
 * `links` of a v2 resource. Cyborg's hrefs carry the `/accelerator` prefix of
 * its uwsgi mount; ours point where we really serve (`/v2/...`).
 */
export function cyborgLinks(baseUrl: string, collection: string, uuid: string, withBookmark = false): CyborgLink[] {
  const self: CyborgLink = { href: `${baseUrl}/v2/${collection}/${uuid}`, rel: 'self' };
  return withBookmark ? [self, { href: `${baseUrl}/${collection}/${uuid}`, rel: 'bookmark' }] : [self];
}

/** Cyborg's timestamp form, `2026-11-22T01:30:02+00:00` (seconds, explicit UTC offset); null stays null. */
export function cyborgTime(iso: string | null | undefined): string | null {
  if (iso === null || iso === undefined) return null;
  return `${new Date(iso).toISOString().slice(0, 19)}+00:00`;
}
