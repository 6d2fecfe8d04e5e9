// Sends one attempt of a delivery over HTTP (docs/webhooks.md § Delivery): the event as a JSON body,
// the webhook's header fields and the Standard Webhooks signature, with a time limit on the whole
// attempt (connection, request, reply). A 2xx is a success; anything else (a redirect included: it
// is not followed) is a failure. The reply's body is read up to a bound and its start kept for the log.

import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { urlToHttpOptions } from 'node:url';
import { isAppError } from '../errors.js';
import { signer } from './signing.js';
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

/** What the attempts to one webhook share (WebhookSender.prepare). */
interface Target {
  readonly secure: boolean;
  readonly options: http.RequestOptions;
  readonly headers: Readonly<Record<string, string>>;
  readonly sign: ReturnType<typeof signer>;
}

export class WebhookSender {
  // Connections to a receiver are kept for the next deliveries (most go to a few hosts).
  private readonly agents = { http: new http.Agent({ keepAlive: true, maxSockets: 16 }), https: new https.Agent({ keepAlive: true, maxSockets: 16 }) };
  private readonly lookup: net.LookupFunction | undefined;
  /**
   * What every attempt to one webhook shares, made at its first attempt: the URL parsed and judged,
   * the request's options, its header fields but the signature's, the signing key. Keyed by the
   * webhook's object, which a claim gives once to all the deliveries of a batch to that webhook.
   */
  private readonly targets = new WeakMap<ClaimedDelivery['webhook'], Target | string>();

  constructor(private readonly options: SenderOptions) {
    this.lookup = options.allowPrivate ? undefined : guardedLookup();
  }

  private target(hook: ClaimedDelivery['webhook']): Target | string {
    let t = this.targets.get(hook);
    if (t === undefined) this.targets.set(hook, (t = this.prepare(hook)));
    return t;
  }

  /** The target of `hook`, or why no attempt can be sent to it (the attempt's error). */
  private prepare(hook: ClaimedDelivery['webhook']): Target | string {
    let url: URL;
    try {
      url = new URL(hook.url);
    } catch (err) {
      return describe(err);
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.options.allowPrivate && net.isIP(host)) {
      const kind = nonPublicKind(host);
      if (kind) return `WEBHOOK_TARGET_FORBIDDEN: ${host} is a ${kind} address`;
    }
    const secure = url.protocol === 'https:';
    return {
      secure,
      options: {
        ...urlToHttpOptions(url),
        method: hook.method,
        agent: secure ? this.agents.https : this.agents.http,
        ...(this.lookup ? { lookup: this.lookup } : {}),
      },
      headers: {
        ...hook.headers,
        // Node sets header fields by name in any case: the last one given wins.
        'user-agent': Object.entries(hook.headers).find(([name]) => name.toLowerCase() === 'user-agent')?.[1] ?? this.options.userAgent,
        'content-type': 'application/json',
      },
      sign: signer(hook.secret),
    };
  }

  /** One attempt; never throws. `nowSeconds` is the real time the signature carries. */
  send(d: ClaimedDelivery, nowSeconds: number): Promise<SendOutcome> {
    const started = performance.now();
    const done = (ok: boolean, status: number | null, error: string | null, response: string | null): SendOutcome =>
      ({ ok, status, error, response, durationMs: Math.round((performance.now() - started) * 10) / 10 });
    const target = this.target(d.webhook);
    if (typeof target === 'string') return Promise.resolve(done(false, null, target, null));
    const body = Buffer.from(d.payload);
    const headers = { ...target.headers, 'content-length': String(body.length), ...target.sign(d.id, nowSeconds, d.payload) };
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const request = (target.secure ? https : http).request({ ...target.options, headers }, (reply) => {
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
