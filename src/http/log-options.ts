// The server's log (docs/operations.md § Logs): pino through Fastify, one JSON object a line, or
// readable lines (pino-pretty) for a person at a terminal; LOG_FORMAT chooses, `auto` by whether
// the stream is a terminal. No token ever reaches a line: the URL a request line shows has the value
// of every tokenid query parameter masked, and the tokenid and authorization header fields are
// redacted should anything log them.

import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { prettyFactory } from 'pino-pretty';
import type { LogFormat } from '../config.js';


/** Where log lines go: a process stream, or a test's fake. */
export interface LogStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** What a masked value reads. */
export const MASK = '***';

/**
 * The URL with the value of every `tokenid` query parameter (its name in any case, percent-encoded
 * or not, as the token check reads it) replaced by `***`.
 */
export function maskTokens(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const masked = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    let name = rawName.replace(/\+/g, ' ');
    try {
      name = decodeURIComponent(name);
    } catch {
      // Malformed: compared as sent.
    }
    return name.toLowerCase() === 'tokenid' && eq >= 0 ? `${rawName}=${MASK}` : pair;
  });
  return `${url.slice(0, q + 1)}${masked.join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}

/** Fastify's request serializer, with the URL masked. */
function requestLine(request: FastifyRequest): object {
  return {
    method: request.method,
    url: maskTokens(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The text Fastify is given to log once per address it listens on; that line is dropped, since the
 * server logs one line of its own when it starts (server.ts).
 */
export const LISTENING_TEXT = 'orchard: listening';

/** Whether `format` comes out as readable lines on `stream`. */
export function isPretty(format: LogFormat, stream: LogStream): boolean {
  return format === 'pretty' || (format === 'auto' && stream.isTTY === true);
}

/** A stream that writes each JSON line pino gives it as a readable line, at once (nothing buffered, no worker thread). */
function prettyStream(stream: LogStream): LogStream {
  const pretty = prettyFactory({ colorize: stream.isTTY === true, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l', ignore: 'pid,hostname' });
  return { write: (line: string) => stream.write(pretty(line)) };
}

/** Fastify's `logger` option for a level, a format and a stream (stdout by default). */
export function loggerOptions(options: { level: string; format: LogFormat; stream?: LogStream }): FastifyServerOptions['logger'] {
  const stream = options.stream ?? process.stdout;
  return {
    level: options.level,
    stream: isPretty(options.format, stream) ? prettyStream(stream) : stream,
    serializers: { req: requestLine as never },
    redact: { paths: ['req.headers.tokenid', 'req.headers.authorization', 'headers.tokenid', 'headers.authorization'], censor: MASK },
    hooks: {
      logMethod(args, method) {
        if (args[0] === LISTENING_TEXT) return;
        method.apply(this, args);
      },
    },
  };
}
