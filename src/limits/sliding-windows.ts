// The exact limiter of one key, in memory: the accepted timestamps of the last 60 s (a sliding log)
// and the count of the current UTC day. Pure decisions on a state and an instant; keeping and
// persisting the states is the store's job.

import { MINUTE_MS, DAY_MS, DAYS_KEPT, secondsUntil, utcDay, type HitResult, type Quotas, type UsageState } from './rate-limit-store.js';

export interface KeyWindows {
  /** Accepted timestamps (ms), ascending; entries before `head` have left the minute window. */
  log: number[];
  head: number;
  /** The UTC day `dayCount` counts (days since the epoch). */
  day: number;
  dayCount: number;
}

export function emptyWindows(now: number): KeyWindows {
  return { log: [], head: 0, day: utcDay(now), dayCount: 0 };
}

/** Drops the timestamps that have left the window at `now`: a request at t is inside while t > now − 60 s. */
export function prune(w: KeyWindows, now: number): number {
  const cutoff = now - MINUTE_MS;
  const { log } = w;
  let head = w.head;
  while (head < log.length && log[head]! <= cutoff) head++;
  // Amortized O(1): copy the live tail once the dead prefix is over half the array.
  if (head > 64 && head * 2 > log.length) {
    w.log = log.slice(head);
    head = 0;
  }
  w.head = head;
  return w.log.length - head;
}

/**
 * Decides a request at `now` against `quotas` and, when it fits in both windows, counts it.
 * Returns the result and the timestamp recorded (null when refused), which the store persists.
 * A clock that steps back (by up to a minute: see movedBack) never lets more through: the timestamp
 * recorded is never before the newest one already in the log, and a day already counted is not left
 * for an earlier one.
 */
export function hitWindows(w: KeyWindows, now: number, quotas: Quotas): { result: HitResult; countedAt: number | null } {
  let inWindow = prune(w, now);
  const today = utcDay(now);
  if (today > w.day) {
    w.day = today;
    w.dayCount = 0;
  }
  const minuteOver = inWindow >= quotas.minute;
  const dayOver = quotas.day !== null && w.dayCount >= quotas.day;
  let countedAt: number | null = null;
  if (!minuteOver && !dayOver) {
    countedAt = inWindow > 0 ? Math.max(now, w.log[w.log.length - 1]!) : now;
    w.log.push(countedAt);
    if (quotas.day !== null) w.dayCount++;
    inWindow++;
  }
  return {
    countedAt,
    result: windowResult({
      now, quotas, allowed: countedAt !== null, inWindow,
      oldest: inWindow > 0 ? w.log[w.head]! : null,
      leaving: minuteOver ? w.log[w.head + inWindow - quotas.minute]! : null,
      day: w.day, dayCount: w.dayCount,
    }),
  };
}

/**
 * The usage of a key's windows at `now`, counting nothing; `past(dayNumber)` gives the counts of
 * the DAYS_KEPT − 1 days before the current one, oldest first (the store's history).
 */
export function peekWindows(w: KeyWindows, now: number, quotas: Quotas, past: (dayNumber: number) => number[]): UsageState {
  const inWindow = prune(w, now);
  const today = utcDay(now);
  if (today > w.day) {
    w.day = today;
    w.dayCount = 0;
  }
  const result = windowResult({ now, quotas, allowed: true, inWindow, oldest: inWindow > 0 ? w.log[w.head]! : null, leaving: null, day: w.day, dayCount: w.dayCount });
  return usageOf(result, inWindow, [...past(w.day), w.dayCount], w.day);
}

/** A UsageState from the facts of a look (windowResult of an `allowed` look) and the days' counts. */
export function usageOf(look: HitResult, inWindow: number, days: number[], lastDay: number): UsageState {
  if (days.length !== DAYS_KEPT) throw new Error(`expected ${DAYS_KEPT} days of counts, got ${days.length}`);
  return {
    minute: { ...look.minute, used: inWindow },
    day: look.day && { quota: look.day.quota, remaining: look.day.remaining, resetSeconds: look.day.resetSeconds, used: look.day.used, dayNumber: look.day.dayNumber },
    days,
    lastDay,
  };
}

/**
 * What a decision found about a key's windows, from which its HitResult follows. The in-memory
 * windows and the Redis script (redis-rate-limit-store.ts) find the same facts, so one function
 * turns them into results and the two stores cannot drift apart.
 */
export interface WindowFacts {
  readonly now: number;
  readonly quotas: Quotas;
  /** Whether the request was counted; when not, the counts below are those that refused it. */
  readonly allowed: boolean;
  /** Requests in the minute window after this hit (this one included when allowed). */
  readonly inWindow: number;
  /** The oldest timestamp in the window; null when it is empty. */
  readonly oldest: number | null;
  /** When the minute refused: the timestamp that must leave for one more to fit (the quota-th newest). */
  readonly leaving: number | null;
  /** The UTC day counted (days since the epoch) and its count after this hit. */
  readonly day: number;
  readonly dayCount: number;
}

/** The result of a hit, in the terms of the RateLimit header fields, from what the decision found. */
export function windowResult(f: WindowFacts): HitResult {
  const { now, quotas, inWindow } = f;
  const minuteOver = !f.allowed && inWindow >= quotas.minute;
  const dayOver = !f.allowed && quotas.day !== null && f.dayCount >= quotas.day;
  const dayReset = secondsUntil((f.day + 1) * DAY_MS, now);
  // The minute gives quota back when its oldest request leaves; an empty log holds the whole quota for a full window.
  const minuteReset = f.oldest !== null ? secondsUntil(f.oldest + MINUTE_MS, now) : MINUTE_MS / 1000;
  let retryAfter = 0;
  if (dayOver) retryAfter = dayReset;
  // Enough requests must leave for one more to fit: more than one if the quota was lowered since.
  if (minuteOver) retryAfter = Math.max(retryAfter, secondsUntil(f.leaving! + MINUTE_MS, now));
  return {
    allowed: f.allowed,
    exceeded: dayOver ? 'day' : minuteOver ? 'minute' : null,
    retryAfter,
    minute: { quota: quotas.minute, remaining: Math.max(0, quotas.minute - inWindow), resetSeconds: minuteReset },
    day: quotas.day === null ? null : {
      quota: quotas.day,
      remaining: Math.max(0, quotas.day - f.dayCount),
      resetSeconds: dayReset,
      used: f.dayCount,
      dayNumber: f.day,
    },
  };
}

/** How far before its counts a clock must be for them to be forgotten (movedBack): a minute. */
export const MOVED_BACK_MS = MINUTE_MS;

/**
 * Whether `now` is more than a minute before what `w` counted (its newest request, or the start of
 * its day): its clock was put back, as a test clock returned to real time is, rather than stepped
 * back a little by the system's clock, which must never let more through (docs/limits.md).
 */
export function movedBack(w: KeyWindows, now: number): boolean {
  const newest = w.log.length > w.head ? w.log[w.log.length - 1]! : -Infinity;
  return newest - now > MOVED_BACK_MS || w.day * DAY_MS - now > MOVED_BACK_MS;
}

/**
 * Forgets what `w` counted after `now`, as if the clock had never gone there: the requests counted
 * later, and a later day, for now's day with the `todayCount` requests counted on it.
 */
export function rewindWindows(w: KeyWindows, now: number, todayCount: number): void {
  let end = w.log.length;
  while (end > w.head && w.log[end - 1]! > now) end--;
  w.log.length = end;
  const today = utcDay(now);
  if (w.day > today) {
    w.day = today;
    w.dayCount = todayCount;
  }
}

/** Whether the key holds nothing a decision at `now` or later could need (it may be forgotten). */
export function isIdle(w: KeyWindows, now: number): boolean {
  return prune(w, now) === 0 && (w.dayCount === 0 || w.day < utcDay(now));
}
