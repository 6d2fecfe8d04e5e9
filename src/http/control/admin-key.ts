// The control API's guard: `Authorization: Bearer <ADMIN_KEY>`, compared in constant time.
// An organization's token never opens it: the tokenid header is not looked at here.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError } from '../../errors.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

export function adminKeyHook(adminKey: string) {
  const expected = digest(adminKey);
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const header = request.headers.authorization;
    const given = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (given === undefined) {
      reply.header('www-authenticate', 'Bearer realm="orchard-control"');
      done(new AppError('ADMIN_KEY_MISSING', 'The control API needs the admin key: send Authorization: Bearer <ADMIN_KEY>. An organization\'s API token does not open it.'));
      return;
    }
    // Digests of equal length, so the comparison takes the same time whatever was sent.
    if (!timingSafeEqual(digest(given), expected)) {
      reply.header('www-authenticate', 'Bearer realm="orchard-control", error="invalid_token"');
      done(new AppError('ADMIN_KEY_INVALID', 'The admin key sent is not the server\'s ADMIN_KEY. Check the key the server was started with.'));
      return;
    }
    done();
  };
}
