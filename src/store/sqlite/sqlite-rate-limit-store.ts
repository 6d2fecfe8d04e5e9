// The embedded rate-limit store: exact windows in memory are the authority (sliding-windows.ts), and
// what they count is written behind to <data>/limits.db in one transaction every flush period and
// on close; a key is loaded from the file the first time it is hit, so counters survive a restart.
// The file keeps the sliding log to the second: a restored request counts as made at the end of its
// second, which can only keep it in the window longer (at most 1 s), never let one more through.

import { prepared, type Db } from './sqlite-db.js';
import { openLimitsDb } from './limits-db.js';
import { DAYS_KEPT, MINUTE_MS, utcDay, type HitResult, type Quotas, type RateLimitStore, type UsageState } from '../../limits/rate-limit-store.js';
import { emptyWindows, hitWindows, isIdle, movedBack, peekWindows, rewindWindows, type KeyWindows } from '../../limits/sliding-windows.js';

export interface SqliteRateLimitStoreOptions {
  readonly dataDir: string;
  /** Milliseconds since the epoch. */
  readonly clock: () => number;
  /** Write-behind period in ms (default 100): at most this much counting is lost if the process dies. */
  readonly flushEveryMs?: number;
  /** Told about a failed flush (the counts stay pending and are retried on the next one). */
  readonly onError?: (err: unknown) => void;
}

/** Counted but not yet written, for one key: requests per second (ascending) and per day. */
interface Pending {
  /** The last millisecond of each second with requests (what the file stores), and their counts. */
  seconds: number[];
  counts: number[];
  days: Map<number, number>;
  /** The key's time at its latest count (its own clock's when it has one): its minute ends there. */
  at: number;
}

/** The instant a request is restored at: the last millisecond of its second. */
const endOfSecond = (ms: number): number => ms - (ms % 1000) + 999;

/** How far from the store's clock a hit's time must be to be a clock of its own rather than the same one read twice. */
const OWN_TIME_MS = 1_000;

/** How often idle keys are forgotten from memory (in clock time). */
const SWEEP_EVERY_MS = MINUTE_MS;

export class SqliteRateLimitStore implements RateLimitStore {
  private readonly db: Db;
  private readonly clock: () => number;
  private readonly onError: (err: unknown) => void;
  private readonly windows = new Map<string, KeyWindows>();
  /**
   * Keys last hit at a time of their own (an organization's moved clock, docs/control-api.md § Clock),
   * with the store's time of that hit: the sweep, on the store's clock, cannot tell whether their
   * minute is over (a frozen one never is), so it never expires their rows; it forgets them from
   * memory once a sweep went by without a hit (an organization deleted, or back on the real clock
   * and idle), and a later hit reloads them from the file, where their seconds are exact.
   */
  private readonly ownTime = new Map<string, number>();
  private pending = new Map<string, Pending>();
  /** When the oldest count not yet written was made (clock ms); meaningful while pending is not empty. */
  private pendingSince = 0;
  private readonly flushEveryMs: number;
  private readonly timer: NodeJS.Timeout;
  private lastSweep: number;
  /** The UTC day whose expired day counts were last deleted. */
  private prunedDay: number;
  private closed = false;

  constructor(options: SqliteRateLimitStoreOptions) {
    this.clock = options.clock;
    this.onError = options.onError ?? (() => {});
    this.db = openLimitsDb(options.dataDir, 'normal');
    this.lastSweep = this.clock();
    this.prunedDay = utcDay(this.lastSweep);
    this.removeStale(this.lastSweep);
    this.flushEveryMs = options.flushEveryMs ?? 100;
    this.timer = setInterval(() => this.flushQuietly(), this.flushEveryMs);
    this.timer.unref();
  }

  hit(key: string, quotas: Quotas, at?: number): HitResult {
    if (this.closed) throw new Error('the rate-limit store is closed');
    const now = at ?? this.clock();
    const own = at !== undefined && Math.abs(at - this.clock()) >= OWN_TIME_MS;
    if (own) this.ownTime.set(key, this.clock());
    else if (this.ownTime.size > 0) this.ownTime.delete(key);
    const windows = this.windowsOf(key, now);
    const { result, countedAt } = hitWindows(windows, now, quotas);
    if (countedAt !== null) {
      // A timer's turn can come late under load; the requests that make the load cannot, so the
      // hit that finds the oldest pending count a flush period old writes it (one comparison a hit).
      if (this.pending.size > 0 && now - this.pendingSince >= this.flushEveryMs) {
        this.flushQuietly();
        // Written, or failed and retried a period from now rather than on every hit.
        this.pendingSince = now;
      }
      if (this.pending.size === 0) this.pendingSince = now;
      let p = this.pending.get(key);
      if (!p) this.pending.set(key, (p = { seconds: [], counts: [], days: new Map(), at: now }));
      p.at = now;
      // A key on a clock of its own is kept to the millisecond: the sweep forgets it from memory
      // while its minute may still be full, and reloaded it must decide as it would have.
      const second = own ? countedAt : endOfSecond(countedAt);
      const last = p.seconds.length - 1;
      if (last >= 0 && p.seconds[last] === second) p.counts[last]!++;
      else {
        p.seconds.push(second);
        p.counts.push(1);
      }
      if (quotas.day !== null) p.days.set(windows.day, (p.days.get(windows.day) ?? 0) + 1);
    }
    return result;
  }

  usage(key: string, quotas: Quotas, at?: number): UsageState {
    if (this.closed) throw new Error('the rate-limit store is closed');
    const now = at ?? this.clock();
    const windows = this.windowsOf(key, now);
    return peekWindows(windows, now, quotas, (today) => {
      const first = today - DAYS_KEPT + 1;
      const days = new Array<number>(DAYS_KEPT - 1).fill(0);
      const rows = prepared(this.db, 'SELECT day, count FROM day_counts WHERE key = ? AND day >= ? AND day < ?').all(key, first, today) as Array<{ day: number; count: number }>;
      for (const { day, count } of rows) days[day - first] = count;
      // Counted but not yet written.
      for (const [day, n] of this.pending.get(key)?.days ?? []) if (day >= first && day < today) days[day - first]! += n;
      return days;
    });
  }

  /** How many keys this store holds in memory (windows, clocks of their own); for tests. */
  heldKeys(): number {
    return new Set([...this.windows.keys(), ...this.ownTime.keys()]).size;
  }

  async ping(): Promise<void> {
    prepared(this.db, 'SELECT 1 FROM day_counts LIMIT 1').get();
  }

  /** Writes everything counted since the last flush, in one transaction. Throws if the write fails (nothing is lost). */
  flush(): void {
    const now = this.clock();
    if (this.pending.size > 0) {
      const batch = this.pending;
      try {
        this.db.transaction(() => {
          const addMinute = prepared(this.db, 'INSERT INTO minute_log (key, ts, n, own) VALUES (?, ?, ?, ?) ON CONFLICT (key, ts) DO UPDATE SET n = n + excluded.n, own = excluded.own');
          const addDay = prepared(this.db, 'INSERT INTO day_counts (key, day, count) VALUES (?, ?, ?) ON CONFLICT (key, day) DO UPDATE SET count = count + excluded.count');
          const expire = prepared(this.db, 'DELETE FROM minute_log WHERE key = ? AND ts <= ?');
          for (const [key, p] of batch) {
            // The key's minute ends at its own time (a frozen clock's never ends on the store's):
            // seconds already out of it are not written, and those in the file leave.
            const cutoff = p.at - MINUTE_MS;
            const own = this.ownTime.has(key) ? 1 : 0;
            p.seconds.forEach((second, i) => {
              if (second > cutoff) addMinute.run(key, second, p.counts[i], own);
            });
            for (const [day, n] of p.days) addDay.run(key, day, n);
            expire.run(key, cutoff);
          }
        })();
        this.pending = new Map();
      } catch (err) {
        // Kept for the next flush; the seconds that expire meanwhile are dropped, so a long outage
        // of the disk costs at most a minute of seconds in memory.
        for (const p of batch.values()) {
          const keep = p.seconds.findIndex((second) => second > p.at - MINUTE_MS);
          p.seconds.splice(0, keep < 0 ? p.seconds.length : keep);
          p.counts.splice(0, p.counts.length - p.seconds.length);
        }
        throw err;
      }
    }
    if (now - this.lastSweep >= SWEEP_EVERY_MS) this.sweep(now);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    try {
      this.flush();
    } finally {
      this.db.close();
    }
  }

  private flushQuietly(): void {
    try {
      this.flush();
    } catch (err) {
      this.onError(err);
    }
  }

  /** The key's windows at `now`: in memory, else as the file has them; rewound if its clock was put back. */
  private windowsOf(key: string, now: number): KeyWindows {
    const windows = this.windows.get(key) ?? this.load(key, now);
    if (movedBack(windows, now)) this.rewind(key, windows, now);
    return windows;
  }

  /** Forgets, in memory, pending and in the file, what the key counted after `now` (rewindWindows). */
  private rewind(key: string, windows: KeyWindows, now: number): void {
    const today = utcDay(now);
    // The file and the pending counts keep a request at the end of its second.
    const last = endOfSecond(now);
    const p = this.pending.get(key);
    if (p) {
      let end = p.seconds.length;
      while (end > 0 && p.seconds[end - 1]! > last) end--;
      p.seconds.length = end;
      p.counts.length = end;
      for (const day of [...p.days.keys()]) if (day > today) p.days.delete(day);
      p.at = now;
    }
    this.db.transaction(() => {
      prepared(this.db, 'DELETE FROM minute_log WHERE key = ? AND ts > ?').run(key, last);
      prepared(this.db, 'DELETE FROM day_counts WHERE key = ? AND day > ?').run(key, today);
    })();
    const stored = prepared(this.db, 'SELECT count FROM day_counts WHERE key = ? AND day = ?').get(key, today) as { count: number } | undefined;
    rewindWindows(windows, now, (stored?.count ?? 0) + (p?.days.get(today) ?? 0));
  }

  /** The windows of a key not in memory, as the file has them (nothing: a fresh key). */
  private load(key: string, now: number): KeyWindows {
    const windows = emptyWindows(now);
    const rows = prepared(this.db, 'SELECT ts, n FROM minute_log WHERE key = ? AND ts > ? ORDER BY ts').all(key, now - MINUTE_MS) as Array<{ ts: number; n: number }>;
    for (const { ts, n } of rows) for (let i = 0; i < n; i++) windows.log.push(ts);
    const day = prepared(this.db, 'SELECT count FROM day_counts WHERE key = ? AND day = ?').get(key, windows.day) as { count: number } | undefined;
    windows.dayCount = day?.count ?? 0;
    this.windows.set(key, windows);
    return windows;
  }

  /**
   * Forgets keys whose windows are empty (a later hit reloads the same nothing) with their expired
   * rows, so memory holds only keys in use; index lookups only, so the event loop never stalls here.
   */
  private sweep(now: number): void {
    const previous = this.lastSweep;
    this.lastSweep = now;
    this.db.transaction(() => {
      const expire = prepared(this.db, 'DELETE FROM minute_log WHERE key = ? AND ts <= ?');
      for (const [key, windows] of this.windows) {
        if (this.pending.has(key)) continue;
        const ownHit = this.ownTime.get(key);
        if (ownHit !== undefined) {
          // Its rows stay (only its own clock can expire them): the file has what memory had.
          if (ownHit >= previous) continue;
          this.ownTime.delete(key);
          this.windows.delete(key);
          continue;
        }
        if (!isIdle(windows, now)) continue;
        this.windows.delete(key);
        expire.run(key, now - MINUTE_MS);
      }
      // Days out of DAYS_KEPT, once a day: the table holds up to DAYS_KEPT rows per organization.
      if (utcDay(now) !== this.prunedDay) {
        this.prunedDay = utcDay(now);
        this.pruneDays();
      }
    })();
  }

  /**
   * At open: rows nothing needs any more (timestamps out of the window, days out of DAYS_KEPT).
   * Seconds counted on the store's clock leave by it; those counted on a clock of the key's own, by
   * the key's latest second: the request restored there was made up to 999 ms before it, and the
   * key's clock stood at least there, so what is over 61 s before it has left its window.
   */
  private removeStale(now: number): void {
    this.db.transaction(() => {
      prepared(this.db, 'DELETE FROM minute_log WHERE own = 0 AND ts <= ?').run(now - MINUTE_MS);
      prepared(this.db, 'DELETE FROM minute_log WHERE own = 1 AND ts <= (SELECT max(m.ts) FROM minute_log m WHERE m.key = minute_log.key) - ?').run(MINUTE_MS + 1_000);
      this.pruneDays();
    })();
  }

  /**
   * Deletes each key's days out of the DAYS_KEPT that end with the latest day it counted: by the
   * key's own clock (an organization's may be moved far from the store's), so the day it counts on
   * now, and the days Usage shows, are never among them.
   */
  private pruneDays(): void {
    prepared(this.db, 'DELETE FROM day_counts WHERE day <= (SELECT max(d.day) FROM day_counts d WHERE d.key = day_counts.key) - ?').run(DAYS_KEPT);
  }
}
