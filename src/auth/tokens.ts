// API tokens: random UUID v4 strings shown once; only their SHA-256 digest is stored.

import { createHash, randomUUID } from 'node:crypto';

/** A new token, in the shape clients of the public service expect (an RFC 4122 UUID). */
export function newToken(): string {
  return randomUUID();
}

/** The digest stored and looked up; tokens are compared case-insensitively as UUIDs are. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token.trim().toLowerCase()).digest('hex');
}
