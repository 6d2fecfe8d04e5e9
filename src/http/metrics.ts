// Prometheus metrics at /metrics (docs/operations.md § Metrics), with prom-client on a registry of
// the app's own. The request path pays one histogram observation in an onResponse hook (a child
// series looked up by its labels, made once), or, for a reply that did not finish, under 499 (its client
// went away) or the status of the failure that cut it (client-closed.ts); the
// gauges are read only when /metrics is scraped.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import type { SendOutcome } from '../webhooks/sender.js';
import { sendError, v1ErrorBody } from './error-handler.js';

/** What the gauges read from the record store at scrape time (RecordStore.stats). */
export interface StoreGauges {
  stats(): { readonly openOrganizations: number; readonly readerThreads: number; readonly busyReaderThreads: number };
}

/** Seconds; from a cached GET (about 0.2 ms) to the request time limit. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The route family of a route pattern (`/api/record/:obj/:id` → records); undefined: no route matched. */
export function familyOf(url: string | undefined): string {
  if (url === undefined) return 'unmatched';
  const u = url.toLowerCase();
  if (u.startsWith('/api/v3')) return 'v3';
  if (u.startsWith('/api/v2')) return 'v2';
  if (u.startsWith('/api/query')) return 'query';
  if (u.startsWith('/api/record')) return 'records';
  if (u.startsWith('/metadata')) return 'metadata';
  if (u === '/live' || u === '/ready' || u === '/metrics') return 'health';
  if (u.startsWith('/_orchard')) return 'control';
  if (u.startsWith('/docs') || u === '/openapi.json') return 'docs';
  return 'other';
}

/** Seconds; an attempt ends by WEBHOOK_TIMEOUT_MS (at most 30 s). */
const ATTEMPT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Seconds from a write's commit to its delivery's success: the first attempt's ~2 ms to retries hours later. */
const DELIVERY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600, 86400];

/** An attempt's result: its receiver answered 2xx, answered something else, or did not answer (refused, time limit, target not allowed). */
export function attemptResult(outcome: Pick<SendOutcome, 'ok' | 'status'>): 'success' | 'failure' | 'error' {
  return outcome.ok ? 'success' : outcome.status === null ? 'error' : 'failure';
}

const LIMIT_WINDOWS: Readonly<Record<string, string>> = { LIMIT_MINUTE: 'minute', LIMIT_DAY: 'day', LIMIT_ADDRESS: 'address' };
const STORE_ERRORS = new Set(['STORE_UNAVAILABLE', 'STORE_BUSY']);

export interface AppMetrics {
  readonly registry: Registry;
  /** Counts a usage notice sent (given to the limits). */
  noticeSent(): void;
  /** Counts a reply that did not finish under `status`: 499, its client went away; else the failure that cut it (client-closed.ts). */
  unfinished(request: FastifyRequest, reply: FastifyReply, status: number): void;
  /** Counts a webhook attempt of this process; `sinceWriteMs`: real time from its write to the attempt's end. */
  webhookAttempt(outcome: SendOutcome, sinceWriteMs: number): void;
  /** Counts a webhook this process disabled for failing too long. */
  webhookDisabled(): void;
}

/**
 * Adds the request hook and the /metrics route to `app` (the root, before the route families, so
 * every route and the not-found replies are observed). Null when METRICS is off.
 */
export function installMetrics(app: FastifyInstance, config: Config, store: StoreGauges): AppMetrics | null {
  if (!config.metrics) return null;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = config.metricsOrgLabel ? ['family', 'method', 'status', 'org'] as const : ['family', 'method', 'status'] as const;
  const duration = new Histogram({
    name: 'orchard_http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its reply, by route family, method and status; its _count is the requests answered (under status 499, those whose client went away first).',
    labelNames, buckets: LATENCY_BUCKETS, registers: [registry],
  });
  const limited = new Counter({ name: 'orchard_rate_limited_total', help: 'Requests refused with 429, by window: minute, day (an organization), address (no valid token).', labelNames: ['window'], registers: [registry] });
  const storeErrors = new Counter({ name: 'orchard_store_errors_total', help: 'Requests answered 503 because of the store, by error code: STORE_UNAVAILABLE (database unreachable), STORE_BUSY (write lock held too long).', labelNames: ['code'], registers: [registry] });
  // Every series from the start, at 0, so rate() and absence alerts work before the first event.
  for (const window of Object.values(LIMIT_WINDOWS)) limited.inc({ window }, 0);
  for (const code of STORE_ERRORS) storeErrors.inc({ code }, 0);
  const attempts = new Counter({ name: 'orchard_webhook_attempts_total', help: 'Webhook delivery attempts made by this process, by result: success (2xx), failure (another status), error (no answer: refused, time limit, target not allowed).', labelNames: ['result'], registers: [registry] });
  // Children made once (and every series at 0 from the start): an attempt's count hashes no labels.
  const attemptsBy = { success: attempts.labels('success'), failure: attempts.labels('failure'), error: attempts.labels('error') };
  for (const child of Object.values(attemptsBy)) child.inc(0);
  const attemptTime = new Histogram({ name: 'orchard_webhook_attempt_duration_seconds', help: 'Time a webhook attempt took, from its request to the end of the answer (or the failure).', buckets: ATTEMPT_BUCKETS, registers: [registry] });
  const deliveryLag = new Histogram({ name: 'orchard_webhook_delivery_seconds', help: 'Time from the commit of a write to the end of the successful attempt of its delivery (retries included), in real time.', buckets: DELIVERY_BUCKETS, registers: [registry] });
  const disabled = new Counter({ name: 'orchard_webhooks_disabled_total', help: 'Webhooks this process disabled because their deliveries failed for too long.', registers: [registry] });
  const notices = new Counter({ name: 'orchard_usage_notices_sent_total', help: 'Usage notices (90 % and 100 % of a daily cap) sent by this process.', registers: [registry] });
  new Gauge({ name: 'orchard_open_organizations', help: 'Organizations whose records this process holds open.', registers: [registry], collect() { this.set(store.stats().openOrganizations); } });
  new Gauge({ name: 'orchard_reader_threads', help: 'SQLite reader threads started.', registers: [registry], collect() { this.set(store.stats().readerThreads); } });
  new Gauge({ name: 'orchard_reader_threads_busy', help: 'SQLite reader threads running a read at the moment of the scrape.', registers: [registry], collect() { this.set(store.stats().busyReaderThreads); } });

  // One child series per label combination, made once: observe() on a child skips hashing the labels.
  const series = new Map<string, { observe(v: number): void }>();
  const families = new Map<string | undefined, string>();
  const observe = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    const url = request.routeOptions.url;
    let family = families.get(url);
    if (family === undefined) families.set(url, (family = familyOf(url)));
    // A 405 matched no route but names a path that exists: its family, not `unmatched` (404s).
    // Not cached: the paths are the client's, doubled slashes and all (the router ignores them).
    if (url === undefined && status === 405) family = familyOf(request.url.split('?')[0]!.replace(/\/{2,}/g, '/'));
    const org = config.metricsOrgLabel ? (request.identity?.org.id ?? '') : '';
    const key = `${family} ${request.method} ${status} ${org}`;
    let child = series.get(key);
    if (!child) {
      const labels: Record<string, string> = { family, method: request.method, status: String(status) };
      if (config.metricsOrgLabel) labels.org = org;
      series.set(key, (child = duration.labels(labels)));
    }
    child.observe(reply.elapsedTime / 1000);
  };
  app.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    observe(request, reply, status);
    if (status === 429 || status === 503) {
      const code = reply.getHeader('x-error-code');
      if (typeof code === 'string') {
        if (LIMIT_WINDOWS[code]) limited.inc({ window: LIMIT_WINDOWS[code] });
        else if (STORE_ERRORS.has(code)) storeErrors.inc({ code });
      }
    }
    done();
  });

  const expected = config.metricsToken === undefined ? null : digest(`Bearer ${config.metricsToken}`);
  app.get('/metrics', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (expected && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(reply, new AppError('METRICS_TOKEN_INVALID', 'The metrics are guarded by METRICS_TOKEN: send the header Authorization: Bearer <METRICS_TOKEN>.'), v1ErrorBody);
    }
    reply.type(registry.contentType);
    return registry.metrics();
  });
  return {
    registry, noticeSent: () => notices.inc(), unfinished: observe,
    webhookAttempt(outcome, sinceWriteMs) {
      attemptsBy[attemptResult(outcome)].inc();
      attemptTime.observe(outcome.durationMs / 1000);
      if (outcome.ok) deliveryLag.observe(Math.max(0, sinceWriteMs) / 1000);
    },
    webhookDisabled: () => disabled.inc(),
  };
}

/** Compared as digests, so the comparison takes the same time whatever the header's length. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
