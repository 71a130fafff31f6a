import { once } from 'node:events';
import { connect } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { answerEarlyWithoutReset } from './unread-body';

const BODY_LIMIT = 1024;

/** Declares a long body, sends only `sent` bytes of it, and reports the first answer and whether the server then hung up. */
async function sendPartOf(port: number, declared: number, sent: number): Promise<{ head: string; closed: Promise<void> }> {
  const socket = connect(port, '127.0.0.1');
  const closed = once(socket, 'close').then(() => undefined);
  socket.on('error', () => undefined);
  let text = '';
  socket.on('data', (chunk) => (text += String(chunk)));
  socket.write(`POST /things HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`);
  socket.write(Buffer.alloc(sent, ' '));
  const answered = new Promise<string>((resolve) => socket.on('data', () => text.includes('\r\n\r\n') && resolve(text.slice(0, text.indexOf('\r\n\r\n')))));
  return { head: await answered, closed };
}

describe('answerEarlyWithoutReset', () => {
  let server: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    server = Fastify({ bodyLimit: BODY_LIMIT });
    answerEarlyWithoutReset(server, BODY_LIMIT, { maxBytes: 1_000_000, maxMs: 200 });
    server.post('/things', async () => ({ ok: true }));
    await server.listen({ port: 0, host: '127.0.0.1' });
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  it('keeps the connection to read the rest of a body it answered early, and cuts off a sender that stalls', async () => {
    const { head, closed } = await sendPartOf(port, 500_000, 10_000);
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).not.toMatch(/^connection: close$/im);
    await closed;
  });

  it('does not read a declared body beyond its bound: that answer closes the connection', async () => {
    const { head, closed } = await sendPartOf(port, 2_000_000, 10);
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/^connection: close$/im);
    await closed;
  });
});
