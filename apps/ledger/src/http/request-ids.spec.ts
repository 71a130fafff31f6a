import type { FastifyRequest } from 'fastify';
import { correlationIdOf } from './request-ids';

const UUID = '0193A1B2-7C1E-7000-8000-00000000BEEF';
const request = (headers: Record<string, string>) => ({ id: 'request-1', headers }) as unknown as FastifyRequest;

describe('the correlation id of a request', () => {
  it.each([
    ['X-Correlation-Id, a UUID', { 'x-correlation-id': UUID }, UUID.toLowerCase()],
    ["an OpenStack client's X-OpenStack-Request-ID, its UUID", { 'x-openstack-request-id': `req-${UUID}` }, UUID.toLowerCase()],
    ['X-Correlation-Id before X-OpenStack-Request-ID', { 'x-correlation-id': UUID, 'x-openstack-request-id': 'req-11111111-2222-4333-8444-555555555555' }, UUID.toLowerCase()],
    ['the request id when neither is a UUID', { 'x-correlation-id': 'mine', 'x-openstack-request-id': 'req-nope' }, 'request-1'],
    ['the request id when none is sent', {}, 'request-1'],
  ])('is %s', (_case, headers, expected) => {
    expect(correlationIdOf(request(headers))).toBe(expected);
  });
});
