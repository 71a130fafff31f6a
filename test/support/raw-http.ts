import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';

/** One HTTP/1.1 answer as it came off the wire. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Sends a request over a fresh socket and reads nothing until every byte of
 * it is written, as a simple blocking client does: if the server closes
 * early, the write fails and the answer is lost, which is what a test of
 * early answers must catch. Resolves with every answer the server sent
 * before closing.
 */
export function writeAllThenRead(url: string, requests: readonly Buffer[]): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    socket.pause();
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseAnswers(Buffer.concat(received).toString('latin1'))));
    socket.write(Buffer.concat(requests), (error) => {
      if (error) return;
      socket.resume();
      socket.end();
    });
  });
}

/** The bytes of one request with a Content-Length body (or a declared length longer than the body sent). */
export function rawRequest(method: string, path: string, headers: Record<string, string>, body: Buffer = Buffer.alloc(0)): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'host: ledger', ...Object.entries({ 'content-length': String(body.length), ...headers }).map(([k, v]) => `${k}: ${v}`)];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

/** Node's own client: writes the whole body (chunked when no length is given) while reading the answer as it comes. */
export function nodeClientRequest(url: string, method: string, headers: Record<string, string>, body: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

function parseAnswers(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n');
    const [statusLine, ...headerLines] = rest.slice(0, headEnd).split('\r\n');
    const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(headEnd + 4, headEnd + 4 + length) });
    rest = rest.slice(headEnd + 4 + length);
  }
  return answers;
}
