import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { httpExchange, HttpTimeoutError } from './http-exchange';

describe('httpExchange', () => {
  let server: Server;
  let url: URL;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/silent') return; // never answers
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => response.writeHead(201).end(JSON.stringify({ method: request.method, url: request.url, token: request.headers['x-auth-token'], body })));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  });
  afterAll(() => server.close());

  it('sends the method, path with its query, headers and body, and gives back the status and the whole body', async () => {
    const reply = await httpExchange(new URL('/a/b?c=d', url), { method: 'POST', headers: { 'x-auth-token': 't' }, body: '{"x":1}', timeoutMs: 5000 });
    expect(reply.status).toBe(201);
    expect(JSON.parse(reply.text)).toEqual({ method: 'POST', url: '/a/b?c=d', token: 't', body: '{"x":1}' });
  });

  it('gives up with HttpTimeoutError when no answer comes in time', async () => {
    await expect(httpExchange(new URL('/silent', url), { method: 'GET', headers: {}, timeoutMs: 100 })).rejects.toBeInstanceOf(HttpTimeoutError);
  });

  it("rejects with Node's own error, code included, when nothing listens", async () => {
    const closed = createServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as { port: number };
    closed.close();
    await once(closed, 'close');
    await expect(httpExchange(new URL(`http://127.0.0.1:${port}/`), { method: 'GET', headers: {}, timeoutMs: 1000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
