// Replies that close the connection before the request's body was read to its end (a body past its
// size limit, a request past the time limit). Closing the socket at once with the client's bytes
// still unread makes the kernel answer them with a reset, and a reset can reach the client before
// it read the reply, which it then never sees (RFC 9112 §9.6). So, as nginx and Apache do, the
// server sends the reply and its end of the connection, then reads and drops whatever the client
// still sends until the client closes its end too, for at most LINGER_MS (Apache's 2 s): long
// enough for a client to read a reply already sent, short enough that a client that never stops
// sending holds no socket.

import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';

/** How long a connection closed after a reply waits for the client to close its end. */
export const LINGER_MS = 2_000;

/**
 * Connections that serve nothing more: their reply under way or sent is their last (closeAfterReply),
 * or the parser's refusal was written (endLingering).
 */
const closing = new WeakSet<Socket>();

/**
 * Marks `reply` as the connection's last: `Connection: close`, and, when its request's body has not
 * been read to its end, a lingering close in place of Node's immediate one once the reply is written.
 */
export function closeAfterReply(reply: FastifyReply): FastifyReply {
  reply.header('connection', 'close');
  const request = reply.request.raw;
  const socket = request.socket as Socket | null;
  if (socket === null || socket.destroyed) return reply;
  closing.add(socket);
  if (request.readableEnded) return reply;
  // Node's server calls destroySoon once the last reply is written: end, then destroy.
  socket.destroySoon = () => {
    socket.end();
    // What still comes is parsed as the request's body and dropped.
    lingerThenDestroy(socket, () => request.resume());
  };
  return reply;
}

/**
 * Ends `socket` with `reply` (a whole reply in bytes, written past Node's server), then lingers:
 * for a request the HTTP parser refused, whose bytes after the refusal nothing can parse.
 */
export function endLingering(socket: Socket, reply: string): void {
  closing.add(socket);
  socket.end(reply);
  lingerThenDestroy(socket, () => socket.on('data', () => {}).resume());
}

/**
 * Serves a connection's requests one after the other, and none after a reply that closes it. Node
 * hands the app a request pipelined behind one whose reply is not yet written at once, queueing
 * only its reply: its work ran beside the earlier one's, and a write could land before a write
 * sent ahead of it, where RFC 9112 §9.3.2 allows only safe requests to run in parallel. Such a
 * request is served when its reply gets the connection, the one before it written. A request behind
 * a reply that closes the connection (pipelined, or the bytes after a body the server did not
 * read) is dropped unanswered with the rest (RFC 9112 §9.6). Wraps the server's own request
 * listeners (Fastify's).
 */
export function serveInTurn(server: Server): void {
  const listeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (closing.has(req.socket)) {
      req.resume();
      return;
    }
    for (const listener of listeners) listener.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // Without the connection, its reply waits behind another; Node gives it the connection then.
    if (res.socket === null) res.once('socket', () => serve(req, res));
    else serve(req, res);
  });
}

/** Whether `socket` serves nothing more: its last reply is under way or sent (the parser may still fail on what follows). */
export function isClosing(socket: Socket): boolean {
  return closing.has(socket);
}

/** Destroys `socket`, ended on this side, once the client ends its side or LINGER_MS passed; `read` keeps what comes flowing meanwhile. */
function lingerThenDestroy(socket: Socket, read: () => void): void {
  if (socket.readableEnded) {
    socket.destroy();
    return;
  }
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
  read();
}
