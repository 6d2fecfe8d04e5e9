// Requests whose client went away before the reply ended (docs/operations.md § Logs): one info line
// with nginx's status 499 "client closed request", counted under that status by the metrics, and
// never answered or logged as a failure of the server, whatever their work throws once stopped.

import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

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

/**
 * Logs each request whose client goes away before its reply ends, once, in place of Fastify's
 * `request completed` (which only a reply that ends writes), and hands it to `counted`.
 */
export function installClientClosed(app: FastifyInstance, counted?: (request: FastifyRequest, reply: FastifyReply) => void): void {
  app.addHook('onRequest', (request, reply, done) => {
    // 'close' comes after 'finish' when the reply ended, and alone when the connection closed first.
    reply.raw.on('close', () => {
      if (!clientClosed(reply)) return;
      request.log.info({ res: { statusCode: CLIENT_CLOSED }, responseTime: reply.elapsedTime }, 'client closed request');
      counted?.(request, reply);
    });
    done();
  });
}
