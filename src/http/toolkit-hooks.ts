// The integrator's tools at the HTTP edge of the service's routes (docs/control-api.md): fault rules
// answer matching requests with a forced failure in the route family's own reply shape, and the
// journal records each request of an organization with its reply. They sit here rather than in the
// service layer because both are about HTTP: the route family, the status, headers and reply bodies.

import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Organization } from '../auth/identity.js';
import type { Config } from '../config.js';
import { storeUnavailableError, timeoutError, type AppError } from '../errors.js';
import { quotasOf } from '../limits/limits.js';
import { DAY_MS, secondsUntil, utcDay } from '../limits/rate-limit-store.js';
import type { Service } from '../service/service.js';
import type { Clock } from '../toolkit/clocks.js';
import type { Fault, FaultRules, RouteFamily } from '../toolkit/fault-rules.js';
import { cut, type JournalSecrets, type RequestJournal } from '../toolkit/request-journal.js';
import type { UnfinishedListener } from './client-closed.js';
import { FORCED_BY, internalError } from './error-handler.js';
import { limitError, policyOf } from './limits-hook.js';
import { closeAfterReply } from './lingering-close.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The secrets the route's request bodies and replies hold, which the journal masks when it is read. */
    journalSecrets?: JournalSecrets;
  }
}

/** A part of a multipart body as the journal shows it: never its content. */
export interface MultipartPartNote {
  readonly name: string;
  /** A file part's: the name and type sent, and its bytes when its route read it. */
  readonly filename?: string;
  readonly contentType?: string;
  readonly bytes?: number;
}

/** The parts each multipart request's route read, in order (files-routes.ts): kept with the request, for the journal. */
const multipartParts = new WeakMap<FastifyRequest, MultipartPartNote[]>();

/** Notes a part the route read of the request's multipart body (the journal shows names and sizes). */
export function noteMultipartPart(request: FastifyRequest, part: MultipartPartNote): void {
  const parts = multipartParts.get(request);
  if (parts) parts.push(part);
  else multipartParts.set(request, [part]);
}

/**
 * The request's body as the journal keeps it: its JSON; null without one, or for a stream its route
 * reads (an import). A multipart body (a file upload) is its size and the parts its route read, as
 * `{"multipart": {"bytes", "parts"}}` (parts null when the route read none: refused before), never the files.
 */
function journalBody(request: FastifyRequest): string | null {
  if (request.body instanceof Readable) return null;
  const type = request.headers['content-type'];
  if (typeof type === 'string' && /^multipart\//i.test(type)) {
    const length = Number(request.headers['content-length']);
    return JSON.stringify({ multipart: { bytes: Number.isSafeInteger(length) && length >= 0 ? length : null, parts: multipartParts.get(request) ?? null } });
  }
  return request.body === undefined ? null : JSON.stringify(request.body);
}

/** The route family of a route, from its URL pattern. */
export function familyOf(url: string | undefined): RouteFamily | undefined {
  if (url === undefined) return undefined;
  if (url.startsWith('/api/v3/')) return 'v3';
  if (url.startsWith('/api/v2/')) return 'v2';
  if (url.startsWith('/api/query')) return 'query';
  // The change feed answers in the records routes' shape, and rules name it with them.
  if (url.startsWith('/api/record') || url.startsWith('/api/changes')) return 'records';
  if (url.startsWith('/metadata')) return 'metadata';
  if (url.startsWith('/api/webhooks')) return 'webhooks';
  if (url === '/api/me' || url.startsWith('/api/objects') || url === '/api/usage') return 'organization';
  return undefined;
}

/** The object a request names: in its path, the objecttype of a query body, or the change feed's `objecttype` parameter. */
function objectRef(request: FastifyRequest): string | undefined {
  const params = request.params as Record<string, unknown> | undefined;
  const body = request.body as Record<string, unknown> | null | undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const ref = params?.obj ?? params?.ot ?? (body && typeof body === 'object' ? body.objecttype ?? body.objectType : undefined) ?? query?.objecttype;
  return typeof ref === 'string' || typeof ref === 'number' ? String(ref) : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The forced 429's header fields: those of a real refusal of `window` (docs/limits.md). */
function limitHeaders(reply: FastifyReply, config: Config, org: Organization, fault: Fault, now: number): AppError {
  const quotas = quotasOf(config, org);
  const dayReset = secondsUntil((utcDay(now) + 1) * DAY_MS, now);
  const window = fault.window === 'day' && quotas.day !== null ? 'day' : 'minute';
  const retryAfter = fault.retryAfter ?? (window === 'day' ? dayReset : 60);
  const real = reply.getHeader('ratelimit');
  let limit: string;
  if (typeof real === 'string') {
    // The real counts of the other window stay; the refused one has nothing left.
    limit = real.replace(new RegExp(`"${window}";r=\\d+;t=\\d+`), `"${window}";r=0;t=${retryAfter}`);
  } else {
    const minute = window === 'minute' ? `r=0;t=${retryAfter}` : `r=${quotas.minute};t=60`;
    limit = `"minute";${minute}${quotas.day === null ? '' : `, "day";${window === 'day' ? `r=0;t=${retryAfter}` : `r=${quotas.day};t=${dayReset}`}`}`;
  }
  reply.header('ratelimit-policy', policyOf(quotas));
  reply.header('ratelimit', limit);
  reply.header('retry-after', String(retryAfter));
  return limitError(window, window === 'day' ? quotas.day! : quotas.minute, retryAfter);
}

/** `err` marked as the forced reply of `fault`'s rule: the error handler logs it as such, not as a failure. */
function forcedBy(fault: Fault, err: AppError): AppError {
  return Object.assign(err, { [FORCED_BY]: fault.ruleId });
}

/**
 * A preHandler of the service's routes: once a request is authenticated and counted, the first fault
 * rule that fires delays it and/or throws the failure its status names, which the route family's
 * error handler answers in its shape. With no rule it returns at once.
 */
export function faultHook(rules: FaultRules, service: Service, config: Config, clock: Clock) {
  const apply = async (request: FastifyRequest, reply: FastifyReply, family: RouteFamily): Promise<void> => {
    const { identity } = request;
    const ref = objectRef(request);
    const fault = await rules.decide({
      orgId: identity.org.id,
      method: request.method,
      family,
      ...(request.routeOptions.config.uncounted === true ? { namedOnly: true } : {}),
      ...(ref !== undefined ? {
        isObject: async (object: string) => {
          const obj = await service.objectNamed(identity, ref);
          return obj !== null && (obj.systemName === object || String(obj.objectType) === object);
        },
      } : {}),
    });
    if (fault === null) return;
    request.log.info({ fault }, 'fault rule fired');
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    switch (fault.status) {
      case undefined: return;
      case 429: throw forcedBy(fault, limitHeaders(reply, config, identity.org, fault, clock(identity.org.id)));
      case 500: throw forcedBy(fault, internalError(request.id));
      case 503:
        // Without one of the rule's, the real reply's (the error handler's).
        if (fault.retryAfter !== undefined) reply.header('retry-after', String(fault.retryAfter));
        throw forcedBy(fault, storeUnavailableError());
      case 408:
        closeAfterReply(reply);
        throw forcedBy(fault, timeoutError());
    }
  };
  // A callback rather than a promise: with no rule held, a request pays one property read.
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    if (rules.empty) return done();
    const family = familyOf(request.routeOptions.url);
    if (family === undefined || request.is404) return done();
    apply(request, reply, family).then(() => done(), done);
  };
}

/**
 * Records each request of an organization, with its reply, in the journal (installed only when it
 * keeps any). The hot path keeps references and cuts long texts; masking (the tokens, and the
 * secrets the route's config names) and formatting wait for a read of the journal. A request whose reply did not end (the client went away: 499; an export
 * the server cut: its failure's status) is recorded when its connection closes, with the reply's
 * text only if one was ready.
 */
export function installJournal(scope: FastifyInstance, journal: RequestJournal, clock: Clock, unfinished: { add(listener: UnfinishedListener): void }): void {
  const limit = journal.bodyLimit;
  const seen = new WeakMap<FastifyRequest, { at: number; reply: string | null; cut: boolean }>();
  // Reading the usage (an uncounted route) is left out, so a console watching it does not fill the journal.
  const orgOf = (request: FastifyRequest) => request.routeOptions.config.uncounted === true ? undefined : (request as Partial<Pick<FastifyRequest, 'identity'>>).identity?.org.id;
  // After the token check (added before this): the organization's time when the request arrived.
  scope.addHook('onRequest', (request, _reply, done) => {
    const orgId = orgOf(request);
    if (orgId !== undefined) seen.set(request, { at: clock(orgId), reply: null, cut: false });
    done();
  });
  scope.addHook('onSend', (request, _reply, payload, done) => {
    const orgId = orgOf(request);
    if (orgId !== undefined) {
      // A request refused by the limits never reached the hook above: the time it was answered.
      let entry = seen.get(request);
      if (!entry) seen.set(request, (entry = { at: clock(orgId), reply: null, cut: false }));
      const text = cut(typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null, limit);
      entry.reply = text.text;
      entry.cut = text.cut;
    }
    done(null, payload);
  });
  const record = (request: FastifyRequest, reply: FastifyReply, status: number) => {
    // Requests whose token did not resolve belong to no organization.
    const orgId = orgOf(request);
    const entry = orgId === undefined ? undefined : seen.get(request);
    if (!entry) return;
    seen.delete(request);
    const body = cut(journalBody(request), limit);
    journal.record(orgId!, {
      at: entry.at,
      requestId: request.id,
      method: request.method,
      url: request.url,
      query: (request.query ?? {}) as Record<string, unknown>,
      headers: request.headers,
      body: body.text,
      status,
      reply: entry.reply,
      durationMs: reply.elapsedTime,
      truncated: body.cut || entry.cut,
      secrets: request.routeOptions.config.journalSecrets,
    }, Date.now() - reply.elapsedTime);
  };
  scope.addHook('onResponse', (request, reply, done) => {
    record(request, reply, reply.statusCode);
    done();
  });
  unfinished.add(record);
}
