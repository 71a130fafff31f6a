import type { FastifyInstance } from 'fastify';
import { LedgerError } from '@ledger/kernel';
import { exceedsJsonDepth } from './json-nesting-depth';
import { keepRequestBodyText } from './request-body-digest';

/**
 * Fastify's JSON parser (prototype-poisoning checks included) behind a
 * nesting-depth check. A body nested a thousand levels deep is small, yet
 * class-transformer and class-validator recurse into it and overflow the
 * stack (a 500); JSON.parse itself copes. So the depth is read from the raw
 * text before anything parses it, and a body deeper than `maxDepth` is
 * refused with REQUEST.TOO_DEEP. No request of the ledger nests more than a
 * handful of levels. The text is kept for `requestBodyDigest` (an unchanged
 * agent report is recognised by it).
 */
export function parseJsonWithDepthLimit(fastify: FastifyInstance, maxDepth: number): void {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = raw.toString(); // a string already: parseAs 'string'
    if (exceedsJsonDepth(body, maxDepth)) {
      done(new LedgerError('REQUEST.TOO_DEEP', 400, `the body nests arrays and objects more than ${maxDepth} levels deep`, { limit: maxDepth }), undefined);
      return;
    }
    keepRequestBodyText(request, body);
    parse(request, body, done);
  });
}
