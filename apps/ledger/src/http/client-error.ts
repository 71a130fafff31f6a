import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { LedgerError } from '@ledger/kernel';
import { MAX_MICROVERSION, MIN_MICROVERSION, formatMicroversion } from '../cyborg-v2/microversion';
import { cyborgErrorOf, isCyborgPath } from './cyborg-error';
import { problemOf } from './problem-details';

/** How far into the bytes the request line is looked for. */
const REQUEST_LINE_BYTES = 64 * 1024;

/**
 * Errors Node's HTTP parser meets before Fastify has a request (a request
 * line and headers over Node's 16 KiB, bytes that are not HTTP): answered
 * on the socket in the ledger's two shapes, as `sendError` answers the
 * rest, then the connection is closed (the parser cannot find where the
 * next request starts). The path, read from the request line when it came
 * whole, picks the shape.
 */
export function answerClientError(error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const answer =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new LedgerError('REQUEST.HEAD_TOO_LARGE', 431, 'the request line and headers are over 16 KiB: send long lists in the body or in several requests')
      : new LedgerError('REQUEST.MALFORMED_HTTP', 400, 'the request is not well-formed HTTP/1.1');
  // Node hands over the bytes it could not parse as a Buffer (Fastify's type says its JSON form).
  const raw: unknown = error.rawPacket;
  const head = Buffer.isBuffer(raw) ? raw.toString('latin1', 0, REQUEST_LINE_BYTES) : '';
  const path = /^[A-Z]+ (\/\S*)/.exec(head)?.[1] ?? '/';
  const cyborg = isCyborgPath(path);
  const body = JSON.stringify(cyborg ? cyborgErrorOf(answer) : problemOf(answer, path.split('?')[0]));
  const headers = [
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`,
    `Content-Type: ${cyborg ? 'application/json' : 'application/problem+json'}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Error-Code: ${answer.code}`,
    ...(cyborg ? [`OpenStack-API-Minimum-Version: ${formatMicroversion(MIN_MICROVERSION)}`, `OpenStack-API-Maximum-Version: ${formatMicroversion(MAX_MICROVERSION)}`] : []),
    'Connection: close',
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}
