// Signatures of deliveries as Standard Webhooks defines them (https://www.standardwebhooks.com):
// `webhook-id`, `webhook-timestamp` (seconds) and `webhook-signature` = `v1,` + base64 of the
// HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's bytes; the secret is `whsec_` + base64.
// During a rotation's overlap the header carries a signature under each secret, space-separated,
// which the standard allows: a receiver that knows either secret finds its own.

import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes. */
export function newSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

/** Whether `s` is a secret this server can sign with: `whsec_` and the base64 of 24 to 64 bytes. */
export function isSecret(s: string): boolean {
  if (!s.startsWith(PREFIX)) return false;
  const b64 = s.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) return false;
  const bytes = Buffer.from(b64, 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/** The `webhook-signature` value of a delivery attempt. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/**
 * The header fields that sign an attempt: `timestampSeconds` is real time, which receivers compare
 * with their own clock. With `previousSecret` (a rotation's overlap), the new secret's signature
 * comes first, then the previous one's.
 */
export function signedHeaders(secret: string, id: string, timestampSeconds: number, body: string, previousSecret?: string): Record<string, string> {
  const signed = signature(secret, id, timestampSeconds, body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': previousSecret === undefined ? signed : `${signed} ${signature(previousSecret, id, timestampSeconds, body)}`,
  };
}
