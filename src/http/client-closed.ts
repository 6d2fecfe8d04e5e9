// Replies that do not finish (docs/operations.md § Logs): a request whose client went away before
// the reply ended gets one info line with nginx's status 499 "client closed request", is counted
// under that status by the metrics, and is never answered or logged as a failure of the server,
// whatever its work throws once stopped. A streamed reply the server cuts after its head was sent
// (an export's store failure or time limit) is logged and counted under its failure's status.

import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../errors.js';

/** nginx's status for a request whose client closed the connection before the reply ended; never sent. */
export const CLIENT_CLOSED = 499;

/** Errors of a connection's own reads and writes that say its other end is gone. */
const PEER_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT']);

/**
 * Whether the client of `reply`'s request went away before the reply ended: the connection is
 * closed, and the client ended it or it broke under the server. A connection the server cut (the
 * time limit, a failed export; destroyed with that failure) is not the client's doing.
 */
export function clientClosed(reply: FastifyReply): boolean {
  const socket = reply.request.raw.socket as Socket | null;
  if (reply.raw.writableFinished || socket?.destroyed !== true) return false;
  return socket.readableEnded || PEER_GONE.has((socket.errored as NodeJS.ErrnoException | null)?.code ?? '');
}

/** What the work of a request whose client went away ended with: no failure of the server, so at debug only. */
export function logClosedWork(request: FastifyRequest, err: unknown): void {
  request.log.debug({ err }, 'work of a closed request stopped');
}

/** The status a cut reply is counted under, by reply (cutReply). */
const cutStatus = new WeakMap<FastifyReply, number>();

/**
 * Cuts a streamed reply whose head is already sent, after `err` stopped it: the client sees an
 * incomplete transfer. Logged as the error handler logs a failure of that status (an AppError's,
 * else 500: an `error` line with its stack; a time limit's 408, a `warn` line with its code), and
 * counted under it once the connection closes. A client that went away is not a cut (logClosedWork).
 */
export function cutReply(request: FastifyRequest, reply: FastifyReply, err: unknown, what: string): void {
  if (clientClosed(reply)) logClosedWork(request, err);
  else {
    const status = isAppError(err) ? err.status : 500;
    if (status >= 500) request.log.error({ err, res: { statusCode: status } }, `${what} cut short by a failure`);
    else request.log.warn({ code: isAppError(err) ? err.code : undefined, res: { statusCode: status } }, `${what} cut short`);
    cutStatus.set(reply, status);
  }
  reply.raw.destroy();
}

/** Hears each request whose reply did not end (unfinished), with the status it is counted under. */
export type UnfinishedListener = (request: FastifyRequest, reply: FastifyReply, status: number) => void;

/**
 * Logs each request whose client goes away before its reply ends, once, in place of Fastify's
 * `request completed` (which only a reply that ends writes), and hands it to the listeners added
 * with 499; a reply the server cut (cutReply) goes to them with its status. Listeners are the
 * metrics and the request journal, which Fastify's onResponse never reaches for such a request.
 */
export function installClientClosed(app: FastifyInstance): { add(listener: UnfinishedListener): void } {
  const listeners: UnfinishedListener[] = [];
  const tell = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    for (const listener of listeners) listener(request, reply, status);
  };
  app.addHook('onRequest', (request, reply, done) => {
    // 'close' comes after 'finish' when the reply ended, and alone when the connection closed first.
    reply.raw.on('close', () => {
      if (reply.raw.writableFinished) return;
      const cut = cutStatus.get(reply);
      if (cut !== undefined) {
        tell(request, reply, cut);
        return;
      }
      if (!clientClosed(reply)) return;
      request.log.info({ res: { statusCode: CLIENT_CLOSED }, responseTime: reply.elapsedTime }, 'client closed request');
      tell(request, reply, CLIENT_CLOSED);
    });
    done();
  });
  return { add: (listener) => listeners.push(listener) };
}
