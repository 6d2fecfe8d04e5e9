// Sends one attempt of a delivery over HTTP (docs/webhooks.md § Delivery): the event as a JSON body,
// the webhook's header fields and the Standard Webhooks signature, with a time limit on the whole
// attempt (connection, request, reply). A 2xx is a success; anything else (a redirect included: it
// is not followed) is a failure. The reply's body is read up to a bound and its start kept for the log.

import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isAppError } from '../errors.js';
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
  private readonly agents = { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) };
  private readonly lookup: net.LookupFunction | undefined;

  constructor(private readonly options: SenderOptions) {
    this.lookup = options.allowPrivate ? undefined : guardedLookup();
  }

  /** One attempt; never throws. `nowSeconds` is the real time the signature carries. */
  send(d: SendWork, nowSeconds: number): Promise<SendOutcome> {
    const started = performance.now();
    const done = (ok: boolean, status: number | null, error: string | null, response: string | null): SendOutcome =>
      ({ ok, status, error: storable(error), response: storable(response), durationMs: Math.round((performance.now() - started) * 10) / 10 });
    let url: URL;
    try {
      url = new URL(d.webhook.url);
    } catch (err) {
      return Promise.resolve(done(false, null, describe(err), null));
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivate && net.isIP(host)) {
      const kind = nonPublicKind(host);
      if (kind) return Promise.resolve(done(false, null, `WEBHOOK_TARGET_FORBIDDEN: ${host} is a ${kind} address`, null));
    }
    const body = Buffer.from(d.payload);
    const headers = {
      ...d.webhook.headers,
      // Node sets header fields by name in any case: the last one given wins.
      'user-agent': Object.entries(d.webhook.headers).find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? this.options.userAgent,
      'content-type': 'application/json',
      'content-length': String(body.length),
      ...signedHeaders(d.webhook.secret, d.id, nowSeconds, d.payload),
    };
    const secure = url.protocol === 'https:';
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = (secure ? https : http).request(url, {
        method: d.webhook.method,
        headers,
        agent: secure ? this.agents.https : this.agents.http,
        ...(this.lookup ? { lookup: this.lookup } : {}),
      }, (reply) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        const status = reply.statusCode ?? null;
        const settle = () => {
          const text = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_BODY_CHARS);
          const ok = status !== null && status >= 200 && status < 300;
          finish(done(ok, status, ok ? null : `HTTP ${status}`, text === '' ? null : text));
        };
        reply.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes <= REPLY_BYTES) chunks.push(chunk);
          else {
            reply.destroy();
            settle();
          }
        });
        reply.on('end', settle);
        reply.on('error', (err) => finish(done(false, status, describe(err), null)));
      });
      const timer = setTimeout(() => {
        request.destroy();
        finish(done(false, null, `TIMEOUT: no complete reply within ${this.options.timeoutMs} ms`, null));
      }, this.options.timeoutMs);
      request.on('error', (err) => finish(done(false, null, describe(err), null)));
      request.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
