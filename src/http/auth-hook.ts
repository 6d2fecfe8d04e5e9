// Authenticates every request of the routes it is added to: the `tokenid` header (any case,
// as Node lowercases header names) or a `tokenid` query parameter (any case).

import type { FastifyRequest } from 'fastify';
import type { Authenticator } from '../auth/authenticator.js';
import type { TokenIdentity } from '../auth/identity.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on authenticated routes. */
    identity: TokenIdentity;
  }
}

export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.tokenid;
  if (typeof header === 'string' && header !== '') return header;
  if (Array.isArray(header) && header[0]) return header[0];
  const query = request.query as Record<string, unknown> | undefined;
  if (query) {
    for (const [k, v] of Object.entries(query)) {
      if (k.toLowerCase() === 'tokenid' && typeof v === 'string') return v;
    }
  }
  return undefined;
}

export function authHook(auth: Authenticator) {
  return async (request: FastifyRequest): Promise<void> => {
    // A path no route matches is 404 with or without a token (a family's own not-found handler
    // runs its scope's hooks).
    if (request.is404) return;
    request.identity = await auth.authenticate(tokenOf(request));
  };
}
