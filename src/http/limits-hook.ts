// Rate limits at the HTTP edge (docs/limits.md): once the token resolves, the organization's two windows
// are checked and counted before the request is handled; a token that does not resolve counts
// against the client address instead. Sets the RateLimit fields and answers 429 with Retry-After;
// opens the limits with the app and closes them with it.

import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppError, isAppError } from '../errors.js';
import { addressKey, openLimits, orgKey, type Limits, type LimitsDeps } from '../limits/limits.js';
import type { HitResult, Quotas, WindowState } from '../limits/rate-limit-store.js';
import type { AppDeps } from './app-deps.js';
import type { Organization } from '../auth/identity.js';

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Addresses remembered as over their limit; past this, expired ones are forgotten, then all. */
const MAX_BLOCKED = 100_000;

/**
 * The fields follow draft-ietf-httpapi-ratelimit-headers-11 (docs/limits.md): structured-field lists
 * of named policies; RateLimit-Policy gives each one's quota `q` and window `w` in seconds, RateLimit
 * its remaining quota `r` and the seconds `t` until it gives quota back.
 */
const policyItem = (name: string, quota: number, seconds: number) => `"${name}";q=${quota};w=${seconds}`;
const limitItem = (name: string, w: WindowState) => `"${name}";r=${w.remaining};t=${w.resetSeconds}`;

/** What the hot path needs of an organization, made once per organization object (a new one comes with a changed plan or limit). */
interface OrgLimits {
  readonly key: string;
  readonly quotas: Quotas;
  readonly policy: string;
}

/** A hit of a read whose answer the reply waits for (see deferredLimitsHook). */
interface PendingHit {
  readonly answer: Promise<HitResult>;
  readonly org: Organization;
  readonly policy: string;
}

const kPendingHit = Symbol('orchard.pendingHit');
type WithPendingHit = FastifyRequest & { [kPendingHit]?: PendingHit | undefined };

/**
 * Methods that change nothing: their hit may be answered while the handler reads. A request refused
 * then has done a read for nothing, but the reply is the refusal all the same.
 */
const READS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * The auth hook with limits, in the order of docs/internals/architecture.md (auth → limits). A request whose token
 * resolves is counted against its organization before it is handled: 429 LIMIT_MINUTE or LIMIT_DAY
 * when over either window. One that `auth` refuses with 401 counts against the client address
 * instead, and past the address's minute limit the answer is 429 LIMIT_ADDRESS, so guessing tokens
 * is slow; it counts against no organization. Once an address is over that limit, its requests are
 * refused before their token is looked at, whatever the token, until the window gives it room: were
 * a right token served, the 429s and the 200 would tell guesses apart at full speed. One hook rather
 * than two, and no await when the store answers at once: each costs on the hot path (bench/limits.ts).
 */
/** The 429 of an organization over a window, with the message the real refusal has (a forced one too, http/fault-hook.ts). */
export function limitError(window: 'minute' | 'day', quota: number, retryAfter: number): AppError {
  return window === 'day'
    ? new AppError('LIMIT_DAY', `Daily request limit reached: this organization may make ${quota} requests per UTC day, across all its tokens, and has made them all. The count resets at 00:00 UTC; retry after ${retryAfter} seconds.`)
    : new AppError('LIMIT_MINUTE', `Too many requests: this organization may make ${quota} requests in any 60 seconds, across all its tokens. Retry after ${retryAfter} seconds.`);
}

/** RateLimit-Policy of an organization's quotas. */
export const policyOf = (quotas: Quotas): string =>
  [policyItem('minute', quotas.minute, 60), ...(quotas.day === null ? [] : [policyItem('day', quotas.day, 86_400)])].join(', ');

/** RateLimit of an organization's windows. */
export const rateLimitOf = (minute: WindowState, day: WindowState | null): string =>
  day ? `${limitItem('minute', minute)}, ${limitItem('day', day)}` : limitItem('minute', minute);

/** The moved clocks the limits follow, or do not (docs/control-api.md § Clock); toolkit/clocks.ts. */
export interface LimitClocks {
  /** The time of an organization whose clock is moved, else undefined: its windows are counted at that time rather than on the store's clock. */
  movedNow(orgId: string): number | undefined;
  /** Real time while the server's clock (the store's) is moved, else undefined: the per-address limit follows no moved clock. */
  realIfMoved(): number | undefined;
}

const UNMOVED: LimitClocks = { movedNow: () => undefined, realIfMoved: () => undefined };

export function limitedAuthHook(auth: Hook, limits: Limits, clocks: LimitClocks = UNMOVED): Hook {
  const { movedNow } = clocks;
  /** The per-address window's time: real, as a frozen server clock must not block an address for good. */
  const addressNow = (): number => clocks.realIfMoved() ?? limits.clock();
  const cache = new WeakMap<Organization, OrgLimits>();
  const limitsOf = (org: Organization): OrgLimits => {
    let entry = cache.get(org);
    if (!entry) {
      const quotas = limits.quotasOf(org);
      cache.set(org, (entry = { key: orgKey(org.id), quotas, policy: policyOf(quotas) }));
    }
    return entry;
  };

  /** Addresses over their limit, and when (clock ms) they may present a token again. */
  const blocked = new Map<string, number>();
  const addressRefusal = (reply: FastifyReply, quota: number, retryAfter: number): AppError => {
    reply.header('ratelimit-policy', policyItem('address', quota, 60));
    reply.header('ratelimit', limitItem('address', { quota, remaining: 0, resetSeconds: retryAfter }));
    reply.header('retry-after', String(retryAfter));
    return new AppError('LIMIT_ADDRESS', `Too many requests without a valid API token from this address: at most ${quota} in any 60 seconds. Until then every request from this address is refused, whatever its token, so that guesses cannot be told apart; retry after ${retryAfter} seconds with a valid token in the tokenid header. Behind a proxy, set TRUST_PROXY so that each client has its own address.`);
  };
  const block = (ip: string, retryAfter: number): void => {
    const now = addressNow();
    if (blocked.size >= MAX_BLOCKED) for (const [k, until] of blocked) if (until <= now) blocked.delete(k);
    if (blocked.size >= MAX_BLOCKED) blocked.clear();
    blocked.set(ip, now + retryAfter * 1000);
  };

  const refuseAddress = async (request: FastifyRequest, reply: FastifyReply, err: unknown): Promise<never> => {
    if (!isAppError(err) || err.status !== 401) throw err;
    const result = await limits.store.hit(addressKey(request.ip), limits.addressQuotas, clocks.realIfMoved());
    if (!result.allowed) {
      block(request.ip, result.retryAfter);
      throw addressRefusal(reply, result.minute.quota, result.retryAfter);
    }
    reply.header('ratelimit-policy', policyItem('address', result.minute.quota, 60));
    reply.header('ratelimit', limitItem('address', result.minute));
    throw err;
  };

  return async (request, reply) => {
    // Unknown routes count against no limit (see authHook).
    if (request.is404) return;
    const until = blocked.get(request.ip);
    if (until !== undefined) {
      const wait = Math.ceil((until - addressNow()) / 1000);
      if (wait > 0) throw addressRefusal(reply, limits.addressQuotas.minute, wait);
      blocked.delete(request.ip);
    }
    try {
      await auth(request, reply);
    } catch (err) {
      return refuseAddress(request, reply, err);
    }
    // Reading the usage (account-routes.ts) is not a request against it.
    if (request.routeOptions.config.uncounted === true) return;
    const { org } = request.identity;
    const { key, quotas, policy } = limitsOf(org);
    const answer = limits.store.hit(key, quotas, movedNow(org.id));
    if (answer instanceof Promise && READS.has(request.method) && request.routeOptions.config.writesReply !== true) {
      // A shared store (Redis) answers over the network: a read need not wait for it, the reply does.
      answer.catch(() => {}); // a reply that never gets sent must not leave the rejection unhandled
      (request as WithPendingHit)[kPendingHit] = { answer, org, policy };
      return;
    }
    const refusal = applyHit(limits, reply, org, policy, answer instanceof Promise ? await answer : answer);
    if (refusal) throw refusal;
  };
}

/** Sets the RateLimit fields of a hit's result; the 429 to answer when it was refused. */
function applyHit(limits: Limits, reply: FastifyReply, org: Organization, policy: string, result: HitResult): AppError | undefined {
  const { minute, day } = result;
  reply.header('ratelimit-policy', policy);
  reply.header('ratelimit', rateLimitOf(minute, day));
  if (day) limits.notices.observe(org.id, day);
  if (result.allowed) return undefined;
  reply.header('retry-after', String(result.retryAfter));
  return result.exceeded === 'day' ? limitError('day', day!.quota, result.retryAfter) : limitError('minute', minute.quota, result.retryAfter);
}

/**
 * The onSend hook that completes a read's hit left pending by limitedAuthHook: the reply waits for
 * its answer, gets its RateLimit fields, and is replaced by the 429 (through the route family's error
 * handler) when the request was over a limit. Nothing pending: it passes the reply on at once.
 */
export function deferredLimitsHook(limits: Limits) {
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: HookHandlerDoneFunction & ((err: Error | null, value?: unknown) => void)): void => {
    const pending = (request as WithPendingHit)[kPendingHit];
    if (!pending) return done(null, payload);
    (request as WithPendingHit)[kPendingHit] = undefined;
    pending.answer.then((result) => {
      const refusal = applyHit(limits, reply, pending.org, pending.policy, result);
      done(refusal ?? null, payload);
    }, (err: unknown) => done(err as Error));
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The handler writes its reply itself (reply.hijack(): a streamed export), so no onSend hook runs
     * for it: a read's hit is then waited for before the handler, as a write's is.
     */
    writesReply?: boolean;
  }
  interface FastifyInstance {
    /** The app's limits (null when RATE_LIMITS is off); tests wait on `limits.notices.idle()`. */
    limits: Limits | null;
  }
}

/** Opens the limits the configuration asks for, exposes them as `app.limits` and closes them with the app. */
export function installLimits(app: FastifyInstance, deps: AppDeps, onNoticeSent?: LimitsDeps['onNoticeSent']): Limits | null {
  const { config, control, ledger, clock } = deps;
  const limits = config.rateLimits
    ? openLimits({ config, directory: control, ledger, counters: deps.openCounters(() => clock(), app.log), clock, log: app.log, ...(onNoticeSent ? { onNoticeSent } : {}) })
    : null;
  app.decorate('limits', limits);
  if (limits) app.addHook('onClose', () => limits.close());
  return limits;
}
