import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { HttpFleetTransport, parseReply } from './http-fleet-transport';

describe('parseReply', () => {
  it('reads a Content-Length answer once whole, its body as UTF-8', () => {
    const body = Buffer.from('{"detail":"héllo"}').toString('latin1');
    const whole = `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    expect(parseReply(whole.slice(0, whole.length - 3))).toBeUndefined();
    expect(parseReply(whole)).toEqual({ status: 404, text: '{"detail":"héllo"}', close: false });
  });

  it('reads a chunked answer once its last chunk arrived, and says when the ledger closes', () => {
    const whole = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n';
    expect(parseReply(whole.slice(0, -4))).toBeUndefined();
    expect(parseReply(whole)).toEqual({ status: 200, text: '{"a":1}', close: true });
  });
});

describe('HttpFleetTransport', () => {
  let server: Server;
  let seen: Array<{ method?: string; url?: string; token?: string; body: string }>;

  beforeEach(async () => {
    seen = [];
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, token: request.headers['x-auth-token'] as string, body });
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoed: body.length }));
      });
    });
    // Idle connections closed at once: the next call on one must go again on a new connection.
    server.keepAliveTimeout = 1;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends the agent's calls and reads their answers, also after the ledger closed an idle connection", async () => {
    const transport = new HttpFleetTransport([`http://127.0.0.1:${(server.address() as AddressInfo).port}`], 'boot-1');
    const send = (body: string) =>
      new Promise<[number, string]>((resolve) => transport.send({ replica: 0, method: 'PUT', path: '/api/v1/hosts/sim-00001/report', token: 'tok', body }, (status, text) => resolve([status, text])));
    const closed = new Promise((resolve) => server.once('connection', (socket: Socket) => socket.once('close', resolve)));
    try {
      expect(await send('{"devices":[]}')).toEqual([200, '{"echoed":14}']);
      await closed;
      expect(await send('{"devices":["é"]}')).toEqual([200, '{"echoed":17}']);
      expect(seen.map(({ method, url, token }) => [method, url, token])).toEqual([
        ['PUT', '/api/v1/hosts/sim-00001/report', 'tok'],
        ['PUT', '/api/v1/hosts/sim-00001/report', 'tok'],
      ]);
    } finally {
      transport.close();
    }
  });
});
