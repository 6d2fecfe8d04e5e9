// Replies to requests Node's HTTP parser refuses before any route (or Fastify) sees them: header
// fields over 16 KB, malformed request lines, headers or framing, and requests that took longer
// than the server's request timeout. They get the API's error shape like every other error: the
// path, as far as it could be read, picks `{Message}` or the v3 family's `{status, error, message}`;
// always JSON, with X-Request-Id and X-Error-Code; no body to a HEAD; and the connection is closed,
// since the parser cannot find where the next request would begin.

import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppError, timeoutError } from '../errors.js';
import { errorBodyOfPath } from './error-handler.js';
import { endLingering, isClosing } from './lingering-close.js';

/** What the parser's error codes mean to a client, for the message. */
const WHY: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: 'the method is not one HTTP defines',
  HPE_INVALID_URL: 'the path is not a valid request target (spaces and control characters must be percent-encoded)',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of the chunked body is not a hexadecimal number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'it has both Content-Length and Transfer-Encoding, which HTTP forbids',
  HPE_INVALID_HEADER_TOKEN: 'a header field name or value has a character header fields cannot hold',
  HPE_INVALID_CONSTANT: 'the request line or a header line is malformed',
  HPE_INVALID_VERSION: 'the HTTP version is not HTTP/1.0 or HTTP/1.1',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length is not a number',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding is not one the server reads, or comes with Content-Length',
  HPE_LF_EXPECTED: 'a line does not end with CRLF',
  HPE_CR_EXPECTED: 'a line does not end with CRLF',
};

/** The error a parser failure becomes. */
export function clientErrorOf(err: { code?: string }): AppError {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return new AppError('HEADERS_TOO_LARGE', 'The request\'s header fields are over 16 KB in all. Send fewer or shorter header fields.');
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return timeoutError();
  const why = WHY[err.code ?? ''] ?? 'the server cannot parse it';
  return new AppError('REQUEST_MALFORMED', `The request is not valid HTTP/1.1: ${why}. Check how the client writes its requests.`);
}

/** The whole reply, as the bytes to write to the socket. */
export function rawErrorReply(err: AppError, request: { method?: string; path?: string }): string {
  const body = JSON.stringify(errorBodyOfPath(request.path ?? '')(err));
  const head = [
    `HTTP/1.1 ${err.status} ${STATUS_CODES[err.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`,
    `X-Error-Code: ${err.code}`,
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${request.method === 'HEAD' ? '' : body}`;
}

/**
 * Fastify's clientErrorHandler (called with the Fastify instance as `this`): answers in the API's
 * shape, then closes the connection. A client too slow to send its request is logged as a warning.
 */
export function clientErrorHandler(this: { log?: { warn(obj: object, msg: string): void } } | undefined, err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  // Answered already, or being: the parser fails again on the bytes that follow a refusal.
  if (isClosing(socket)) return;
  // Nothing to answer: the client went away, or a reply was already on its way.
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined;
  const line = raw?.toString('latin1', 0, Math.min(raw.length, 8192)).split('\r\n', 1)[0] ?? '';
  const [method, path] = line.split(' ');
  const error = clientErrorOf(err);
  if (error.code === 'REQUEST_TIMEOUT') this?.log?.warn({ code: error.code }, 'a client did not send its request within the time limit');
  // Closed once written, lingering (lingering-close.ts): a client still sending gets its reply, not a reset.
  endLingering(socket, rawErrorReply(error, { method, path }));
}
