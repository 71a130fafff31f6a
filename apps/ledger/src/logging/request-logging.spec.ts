import Fastify, { type FastifyInstance } from 'fastify';
import { createLedgerLog } from './ledger-log';
import { logRequests } from './request-logging';
import { logCapture } from './testing/log-capture';

const CORRELATION = '0193a1b2-0000-7000-8000-00000000c0de';

async function server(logLevel: 'log' | 'debug'): Promise<{ fastify: FastifyInstance; lines: Record<string, unknown>[] }> {
  const capture = logCapture();
  const log = createLedgerLog({ logLevel, logFormat: 'json', instanceId: 'test' }, capture);
  let ids = 0;
  const fastify = Fastify({ genReqId: () => `req-${++ids}` });
  logRequests(fastify, log);
  // A handler logging after a read of its body and a wait, as a command handler does after its append.
  fastify.post('/work', async (request) => {
    await new Promise((resolve) => setImmediate(resolve));
    log.warn({ size: JSON.stringify(request.body).length }, 'handled');
    return { ok: true };
  });
  await fastify.ready();
  return { fastify, lines: capture.lines };
}

describe('request logging', () => {
  it("puts the request's id and the client's correlation id on what the handler logs, after the body was read", async () => {
    const { fastify, lines } = await server('log');
    // Over a socket: its body arrives in events outside the request's async context.
    const url = `${await fastify.listen({ port: 0, host: '127.0.0.1' })}/work`;
    const json = { 'content-type': 'application/json' };
    await fetch(url, { method: 'POST', body: '{"a":1}', headers: { ...json, 'x-correlation-id': CORRELATION.toUpperCase() } });
    await fetch(url, { method: 'POST', body: '{"a":2}', headers: json });
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'handled', requestId: 'req-1', correlationId: CORRELATION }),
      expect.objectContaining({ msg: 'handled', requestId: 'req-2', correlationId: 'req-2' }),
    ]);
    await fastify.close();
  });

  it('logs one line per answered request at debug, with its ids, route and status, and none at the default level', async () => {
    const quiet = await server('log');
    await quiet.fastify.inject({ method: 'POST', url: '/work', payload: {} });
    expect(quiet.lines.map((line) => line.msg)).toEqual(['handled']);
    const verbose = await server('debug');
    await verbose.fastify.inject({ method: 'GET', url: '/missing', headers: { 'x-correlation-id': CORRELATION } });
    expect(verbose.lines).toEqual([
      expect.objectContaining({ level: 'debug', context: 'HTTP', requestId: 'req-1', correlationId: CORRELATION, method: 'GET', url: '/missing', statusCode: 404, msg: 'GET /missing → 404' }),
    ]);
    await Promise.all([quiet.fastify.close(), verbose.fastify.close()]);
  });
});
