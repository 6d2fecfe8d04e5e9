// The contract of a rate-limit store (docs/limits.md): one atomic check-and-count of a key's two windows,
// an exact rolling minute and a UTC calendar day. Embedded: sqlite-rate-limit-store.ts; shared:
// redis-rate-limit-store.ts. test/limits/rate-limit-store.test.ts runs the same suite against each.

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/** UTC days whose counts a store keeps per key: the current one and the 29 before it (docs/limits.md). */
export const DAYS_KEPT = 30;

/** What one key may do. */
export interface Quotas {
  /** Accepted requests allowed in any rolling 60 s; at least 1. */
  readonly minute: number;
  /** Accepted requests allowed per UTC calendar day; null when the key has no daily window (client addresses). */
  readonly day: number | null;
}

/** One window after a hit, in the terms of the RateLimit header fields. */
export interface WindowState {
  /** The quota of the window (the `q` of RateLimit-Policy). */
  readonly quota: number;
  /** Quota left after this hit (the `r` of RateLimit); 0 when refused. */
  readonly remaining: number;
  /**
   * Whole seconds, rounded up, until the window next gives quota back (the `t` of RateLimit): for
   * the minute, until its oldest counted request leaves it; for the day, until 00:00 UTC.
   */
  readonly resetSeconds: number;
}

export interface HitResult {
  /** true: the request was inside both windows and has been counted; false: refused and not counted. */
  readonly allowed: boolean;
  /** The window that refused ('day' when both did, as it is the longer wait); null when allowed. */
  readonly exceeded: 'minute' | 'day' | null;
  /** When refused: whole seconds until a retry can be accepted (Retry-After); 0 when allowed. */
  readonly retryAfter: number;
  readonly minute: WindowState;
  /** null when the quotas had no daily window. */
  readonly day: (WindowState & {
    /** Requests counted on this UTC day, this one included when allowed. */
    readonly used: number;
    /** The UTC day counted, as days since the epoch. */
    readonly dayNumber: number;
  }) | null;
}

/** A key's windows as a hit would find them, and its recent days; reading them counts nothing. */
export interface UsageState {
  /** `used`: requests in the rolling minute now (may exceed a quota lowered since). */
  readonly minute: WindowState & { readonly used: number };
  /** null when the quotas have no daily window. */
  readonly day: (WindowState & { readonly used: number; readonly dayNumber: number }) | null;
  /** Requests counted on each of the DAYS_KEPT UTC days that end with `lastDay`, oldest first. */
  readonly days: readonly number[];
  /** The current UTC day (days since the epoch): `now`'s, or a later one already counted (a clock moved back). */
  readonly lastDay: number;
}

/**
 * Counts requests per key (an organization, a client address). Implementations take a clock
 * (milliseconds since the epoch) when they are made, so tests can move time.
 */
export interface RateLimitStore {
  /**
   * Checks both windows of `key` at `now` (ms; a moved clock's time, docs/control-api.md § Clock),
   * else at the store's current time, and, when the request fits in both,
   * counts it in both: atomically, so concurrent hits on one key (in this process or, for shared
   * stores, any process) never accept more than the quotas allow. A refused hit counts nowhere.
   * Quotas may change from one hit to the next (a plan or override changed); requests already
   * counted stay counted. A key is always hit with a day window or always without one.
   * A store that decides in memory answers at once, a shared one with a promise: callers on the
   * hot path skip an await for the first.
   */
  hit(key: string, quotas: Quotas, now?: number): HitResult | Promise<HitResult>;
  /**
   * The windows of `key` at `now` (else the store's current time) under `quotas`, and its counts
   * of the last DAYS_KEPT days, without counting anything: what a console or a client shows.
   * Days the store no longer keeps, or never counted, are 0.
   */
  usage(key: string, quotas: Quotas, now?: number): UsageState | Promise<UsageState>;
  /**
   * Resolves when the store's backing (the file, Redis) answers; rejects with the reason otherwise
   * (readiness): a CountersUnreachable when it did not answer in time.
   */
  ping(): Promise<void>;
  /** Persists what is pending and releases the store; hits after close are an error. */
  close(): Promise<void>;
}

/** The UTC calendar day of an instant, as days since the epoch. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** `YYYY-MM-DD` of a UTC day number. */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Whole seconds from `now` until `at`, rounded up; at least 0. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The counters' backing (Redis) did not answer in time; the message names no address, so /ready may show it. */
export class CountersUnreachable extends Error {}
