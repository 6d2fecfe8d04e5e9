// Sends one attempt of a delivery over HTTP (docs/webhooks.md § Delivery): the event as a JSON body,
// the webhook's header fields and the Standard Webhooks signature, with a time limit on the whole
// attempt (connection, request, reply). A 2xx is a success; anything else (a redirect included: it
// is not followed) is a failure. The reply's body is read up to a bound and its start kept for the log.

import net from 'node:net';
import { isAppError } from '../errors.js';
import { FIELD_VALUE_FIX, Http1Client, Http1Error } from './http1-client.js';
import { signedHeaders } from './signing.js';
import { guardedLookup, nonPublicKind } from './target-guard.js';
import { RESPONSE_BODY_CHARS, type ClaimedDelivery } from './webhook-types.js';

/** Bytes of a reply read at most; past them the connection is dropped rather than drained. */
const REPLY_BYTES = 64 * 1024;

export interface SenderOptions {
  /** Milliseconds an attempt may take in all (WEBHOOK_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** Sends to loopback and private addresses too (WEBHOOK_ALLOW_PRIVATE). */
  readonly allowPrivate: boolean;
  readonly userAgent: string;
}

/** What an attempt reads of a claimed delivery. */
export type SendWork = Pick<ClaimedDelivery, 'id' | 'webhook' | 'payload'>;

export interface SendOutcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly response: string | null;
}

const describe = (err: unknown): string => {
  if (isAppError(err)) return `${err.code}: ${err.message}`;
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : String(e?.message ?? err);
};

/** A text kept in the delivery log: PostgreSQL's text holds no NUL character, and a reply's body may. */
const storable = (text: string | null): string | null => (text === null ? null : text.replace(/\u0000/g, '\uFFFD'));

export class WebhookSender {
  // Connections to a receiver are kept for the next deliveries (most go to a few hosts).
  private readonly client = new Http1Client();
  private readonly lookup: net.LookupFunction | undefined;

  constructor(private readonly options: SenderOptions) {
    this.lookup = options.allowPrivate ? undefined : guardedLookup();
  }

  /** One attempt; never throws. `nowSeconds` is the real time the signature carries. */
  async send(d: SendWork, nowSeconds: number): Promise<SendOutcome> {
    const started = performance.now();
    const done = (ok: boolean, status: number | null, error: string | null, response: string | null): SendOutcome =>
      ({ ok, status, error: storable(error), response: storable(response), durationMs: Math.round((performance.now() - started) * 10) / 10 });
    let url: URL;
    try {
      url = new URL(d.webhook.url);
    } catch (err) {
      return done(false, null, describe(err), null);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return done(false, null, `ERR_INVALID_PROTOCOL: ${url.protocol} is neither http: nor https:`, null);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivate && net.isIP(host)) {
      const kind = nonPublicKind(host);
      if (kind) return done(false, null, `WEBHOOK_TARGET_FORBIDDEN: ${host} is a ${kind} address`, null);
    }
    // The webhook's fields are unique by name and none is the server's own (webhook-definition.ts),
    // but for User-Agent, whose value the webhook may give.
    const headers: Array<[string, string]> = [];
    let userAgent = this.options.userAgent;
    for (const [name, value] of Object.entries(d.webhook.headers)) {
      if (name.toLowerCase() === 'user-agent') userAgent = value;
      else headers.push([name, value]);
    }
    headers.push(['user-agent', userAgent], ['content-type', 'application/json']);
    for (const field of Object.entries(signedHeaders(d.webhook.secret, d.id, nowSeconds, d.payload, d.webhook.previousSecret))) headers.push(field);
    try {
      const reply = await this.client.request({
        url, method: d.webhook.method, headers, body: Buffer.from(d.payload), maxBodyBytes: REPLY_BYTES, timeoutMs: this.options.timeoutMs, lookup: this.lookup,
      });
      const text = reply.body.toString('utf8').slice(0, RESPONSE_BODY_CHARS);
      const ok = reply.status >= 200 && reply.status < 300;
      return done(ok, reply.status, ok ? null : `HTTP ${reply.status}`, text === '' ? null : text);
    } catch (err) {
      // Refused at definition since; a webhook stored before keeps failing until it is made again.
      if (err instanceof Http1Error && err.code === 'ERR_INVALID_CHAR') return done(false, null, `${describe(err)}: delete the webhook and make it again; ${FIELD_VALUE_FIX}`, null);
      // A reply cut short (its connection lost, its time run out) still had a status: the log keeps it.
      return done(false, err instanceof Http1Error ? err.status : null, describe(err), null);
    }
  }

  close(): void {
    this.client.close();
  }
}
