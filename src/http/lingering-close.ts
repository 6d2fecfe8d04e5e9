// Replies that close the connection before the request's body was read to its end (a body past its
// size limit, a request past the time limit). Closing the socket at once with the client's bytes
// still unread makes the kernel answer them with a reset, and a reset can reach the client before
// it read the reply, which it then never sees (RFC 9112 §9.6). So, as nginx and Apache do, the
// server sends the reply and its end of the connection, then reads and drops whatever the client
// still sends until the client closes its end too, for at most LINGER_MS (Apache's 2 s): long
// enough for a client to read a reply already sent, short enough that a client that never stops
// sending holds no socket.

import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';

/** How long a connection closed after a reply waits for the client to close its end. */
export const LINGER_MS = 2_000;

/**
 * Marks `reply` as the connection's last: `Connection: close`, and, when its request's body has not
 * been read to its end, a lingering close in place of Node's immediate one once the reply is written.
 */
export function closeAfterReply(reply: FastifyReply): FastifyReply {
  reply.header('connection', 'close');
  const request = reply.request.raw;
  const socket = request.socket as Socket | null;
  if (request.readableEnded || socket === null || socket.destroyed) return reply;
  // Node's server calls destroySoon once the last reply is written: end, then destroy.
  socket.destroySoon = () => {
    socket.end();
    if (socket.readableEnded) {
      socket.destroy();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('end', () => socket.destroy());
    socket.once('close', () => clearTimeout(timer));
    // What still comes is read off the socket and dropped, so none is left for a reset.
    request.resume();
  };
  return reply;
}
