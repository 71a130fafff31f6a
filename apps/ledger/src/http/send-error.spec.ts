import { Logger, type LoggerService } from '@nestjs/common';
import Fastify, { type FastifyInstance } from 'fastify';
import { LedgerError, NotFoundError } from '@ledger/kernel';
import { sendError } from './send-error';

type Level = 'error' | 'warn' | 'log' | 'debug' | 'verbose' | 'fatal';

function capturingLogger(): LoggerService & { readonly lines: { level: Level; text: string }[] } {
  const lines: { level: Level; text: string }[] = [];
  const at = (level: Level) => (message: unknown, ...rest: unknown[]) => lines.push({ level, text: [message, ...rest].join(' ') });
  return { lines, error: at('error'), warn: at('warn'), log: at('log'), debug: at('debug'), verbose: at('verbose'), fatal: at('fatal') };
}

describe('sendError', () => {
  let server: FastifyInstance;
  let logger: ReturnType<typeof capturingLogger>;

  beforeAll(async () => {
    server = Fastify();
    server.setErrorHandler(sendError);
    server.get('/api/v1/fault', async () => {
      throw new Error('boom');
    });
    server.get('/api/v1/behind', async () => {
      throw new LedgerError('CONSISTENCY.NOT_CAUGHT_UP', 503, 'the projections did not reach position 9 within 5 s; retry', { position: 9 });
    });
    server.get('/api/v1/missing', async () => {
      throw new NotFoundError('INVENTORY.HOST_NOT_FOUND', 'no host compute-9', { hostname: 'compute-9' });
    });
    server.get('/v2/missing', async () => {
      throw new NotFoundError('ARQ.NOT_FOUND', 'no such request');
    });
    await server.ready();
  });
  beforeEach(() => {
    logger = capturingLogger();
    Logger.overrideLogger(logger);
  });
  afterAll(async () => {
    Logger.overrideLogger(true);
    await server.close();
  });

  it('answers a fault of the ledger with INTERNAL, keeping the cause in the log as an ERROR with its stack', async () => {
    const response = await server.inject({ method: 'GET', url: '/api/v1/fault' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'INTERNAL', status: 500 });
    expect(response.body).not.toContain('boom');
    expect(logger.lines).toEqual([{ level: 'error', text: expect.stringMatching(/GET \/api\/v1\/fault → 500 INTERNAL: Error: boom\n\s+at /) }]);
  });

  it('logs a 503 the client can wait out as one warning line without a stack', async () => {
    const response = await server.inject({ method: 'GET', url: '/api/v1/behind' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'CONSISTENCY.NOT_CAUGHT_UP', position: 9 });
    expect(logger.lines).toEqual([{ level: 'warn', text: expect.stringContaining('GET /api/v1/behind → 503 CONSISTENCY.NOT_CAUGHT_UP: the projections') }]);
    expect(logger.lines[0].text).not.toContain('\n');
  });

  it('logs what the client caused at debug only', async () => {
    const response = await server.inject({ method: 'GET', url: '/api/v1/missing' });
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toEqual({
      type: 'urn:accelerator-ledger:problem:INVENTORY.HOST_NOT_FOUND',
      title: 'Not Found',
      status: 404,
      detail: 'no host compute-9',
      code: 'INVENTORY.HOST_NOT_FOUND',
      instance: '/api/v1/missing',
      hostname: 'compute-9',
    });
    expect(logger.lines).toEqual([{ level: 'debug', text: expect.stringContaining('GET /api/v1/missing → 404 INVENTORY.HOST_NOT_FOUND') }]);
  });

  it("answers under /v2 in Cyborg's shape with the code in X-Error-Code", async () => {
    const response = await server.inject({ method: 'GET', url: '/v2/missing' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-error-code']).toBe('ARQ.NOT_FOUND');
    expect(response.json()).toEqual({ error_message: 'no such request', message: 'no such request' });
  });
});
