import Fastify, { type FastifyInstance } from 'fastify';
import { type AgentCall, bodyHandedOver, failureHandedOver, type RawAgentCall, RawAgentCalls, type RawOutcome } from './raw-agent-calls';

/**
 * The raw listener in front of a real Fastify: what it answers itself, and
 * that everything else reaches Fastify's route as if it had come straight
 * there (its body readable, a failure of the work to answer).
 */
describe('RawAgentCalls', () => {
  let fastify: FastifyInstance;
  let url: string;
  let ready: boolean;
  const served: RawAgentCall[] = [];
  const answered: [AgentCall, number][] = [];
  const outcomes: Record<string, RawOutcome> = {
    'host-ok': { answer: { hostname: 'host-ok', via: 'raw' } },
    'host-refused': { handOver: true },
    'host-fails': { handOver: true, failure: new Error('the store is closed') },
  };

  beforeAll(async () => {
    const raw = new RawAgentCalls();
    fastify = Fastify({ serverFactory: raw.serverFactory });
    const route = { preParsing: [(request: any, _reply: any, payload: any, done: any) => done(null, bodyHandedOver(request.raw, payload))] };
    fastify.post('/api/v1/hosts/:hostname/heartbeat', route, async (request) => ({ via: 'fastify', body: request.body, failure: (failureHandedOver(request.raw)?.error as Error)?.message }));
    fastify.put('/api/v1/hosts/:hostname/report', route, async (request) => ({ via: 'fastify', body: request.body }));
    raw.attach({
      ready: () => ready,
      bodyLimit: 1024,
      jsonMaxDepth: 4,
      parseJson: (text) => JSON.parse(text),
      serve: async (call) => {
        served.push(call);
        return outcomes[call.hostname];
      },
      answered: (call, status) => answered.push([call, status]),
    });
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`;
  });
  beforeEach(() => {
    ready = true;
    served.length = 0;
    answered.length = 0;
  });
  afterAll(() => fastify.close());

  const send = async (method: string, path: string, body: string, contentType = 'application/json') => {
    const response = await fetch(`${url}${path}`, { method, headers: { 'content-type': contentType, 'x-auth-token': 't' }, body });
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as any };
  };

  it('answers a successful heartbeat itself, with the body parsed, the ids made and the answer counted', async () => {
    const answer = await send('POST', '/api/v1/hosts/host-ok/heartbeat', '{"devices":[]}');
    expect(answer).toEqual({ status: 200, type: 'application/json; charset=utf-8', body: { hostname: 'host-ok', via: 'raw' } });
    expect(served).toEqual([expect.objectContaining({ call: 'heartbeat', hostname: 'host-ok', body: { devices: [] } })]);
    expect(served[0].ids.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(served[0].ids.headers['x-auth-token']).toBe('t');
    expect(answered).toEqual([['heartbeat', 200]]);
  });

  it('hands a call it does not answer to Fastify with the body it read', async () => {
    expect((await send('POST', '/api/v1/hosts/host-refused/heartbeat', '{"devices":[1]}')).body).toEqual({ via: 'fastify', body: { devices: [1] } });
    expect((await send('PUT', '/api/v1/hosts/host-refused/report', '{"devices":[2]}')).body).toEqual({ via: 'fastify', body: { devices: [2] } });
    expect(served.map(({ call }) => call)).toEqual(['heartbeat', 'report']);
    expect(answered).toEqual([]);
  });

  it('hands a failure of the work to Fastify to answer', async () => {
    expect((await send('POST', '/api/v1/hosts/host-fails/heartbeat', '{}')).body).toEqual({ via: 'fastify', body: {}, failure: 'the store is closed' });
  });

  it('leaves to Fastify what it would refuse or route elsewhere, without serving it', async () => {
    expect((await send('POST', '/api/v1/hosts/host-ok/heartbeat', '{"devices":')).status).toBe(400); // Fastify's JSON parser
    expect((await send('POST', '/api/v1/hosts/host-ok/heartbeat', '[[[[[[1]]]]]]')).body).toEqual({ via: 'fastify', body: [[[[[[1]]]]]] }); // too deep: the ledger's parser refuses it
    expect((await send('POST', '/api/v1/hosts/host-ok/heartbeat', '"x"', 'text/plain')).body).toEqual({ via: 'fastify', body: '"x"' }); // the ledger answers 415 there
    expect((await send('POST', '/api/v1/hosts/host-ok/heartbeat/', '{}')).status).toBe(404);
    expect((await send('PUT', '/api/v1/hosts/host-ok/heartbeat', '{}')).status).toBe(404);
    expect((await send('POST', '/api/v1/hosts/host-ok/heartbeat', JSON.stringify({ pad: 'x'.repeat(2000) }))).body.via).toBe('fastify');
    ready = false;
    expect((await send('POST', '/api/v1/hosts/host-ok/heartbeat', '{}')).body).toEqual({ via: 'fastify', body: {} });
    expect(served).toEqual([]);
  });

  it('makes the server Fastify would make: its keep-alive and request timeouts', () => {
    expect(fastify.server.keepAliveTimeout).toBe(72_000);
    expect(fastify.server.requestTimeout).toBe(0);
  });
});
