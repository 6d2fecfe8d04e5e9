// The shared rate-limit store (docs/limits.md): every process counts in Redis, where one Lua script checks
// and counts both windows of a key atomically on Redis's own clock. While Redis cannot be reached,
// each process counts in its own memory with the same windows (docs/limits.md § Redis unreachable).

import { createHash } from 'node:crypto';
import { Redis, type Cluster } from 'ioredis';
import { CountersUnreachable, DAY_MS, DAYS_KEPT, MINUTE_MS, type HitResult, type Quotas, type RateLimitStore, type UsageState } from './rate-limit-store.js';
import { emptyWindows, hitWindows, isIdle, movedBack, MOVED_BACK_MS, peekWindows, rewindWindows, usageOf, windowResult, type KeyWindows } from './sliding-windows.js';

export interface RedisRateLimitStoreOptions {
  /**
   * A Redis URL (the store connects and disconnects on close), or a client the caller owns and
   * closes; create such a client with `redisClientOptions` so a lost Redis fails calls fast.
   */
  readonly redis: string | Redis | Cluster;
  /** Put before every key (default `orchard:`); deployments or test suites sharing one Redis use their own. */
  readonly keyPrefix?: string;
  /**
   * Milliseconds since the epoch, for tests: passed to the script instead of Redis `TIME`, and used
   * by the in-memory fallback. Without it the script reads `TIME`, so all processes share one clock.
   */
  readonly clock?: () => number;
  /** How long a call may wait for Redis before the hit is decided in memory (default 250 ms). */
  readonly commandTimeoutMs?: number;
  /** Told once when Redis stops answering (hits are then counted in this process's memory). */
  readonly onError?: (err: unknown) => void;
  /** Told once when Redis answers again (hits are counted in Redis again), with how long it did not, in ms. */
  readonly onRecovered?: (outageMs: number) => void;
}

const DEFAULT_TIMEOUT_MS = 250;
const PROBE_EVERY_MS = 1_000;

/**
 * Options for an ioredis client fit for the hot path: no offline queue, so a call made while the
 * connection is down fails at once instead of waiting for a reconnection; a command timeout; and
 * calls in flight when the connection drops fail at once (no retries) and are not sent again once
 * it is back, as they were decided in memory meanwhile. ioredis keeps reconnecting by itself (its
 * default back-off, at most every 2 s).
 */
export function redisClientOptions(commandTimeoutMs = DEFAULT_TIMEOUT_MS) {
  return { enableOfflineQueue: false, commandTimeout: commandTimeoutMs, connectTimeout: 2_000, maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false } as const;
}

/**
 * KEYS[1]: the minute log, a sorted set (score: the instant a request was counted, in ms; member:
 * that instant and a sequence number, unique even for hits in the same millisecond).
 * KEYS[2]: the day, a hash {day: days since the epoch, n: requests counted on it}; one key rather
 * than one per day, because a script must be given its keys and the day comes from `TIME` inside it.
 * KEYS[3]: the history, a hash {day number: requests counted that day} of the last DAYS_KEPT days,
 * read by usage(); the days out of it are deleted when a new day is first counted.
 * ARGV: minute quota, day quota ('' for none), now in ms ('' to read Redis `TIME`).
 * The same decision as hitWindows (sliding-windows.ts): a request at t is in the minute while
 * t > now − 60 s; a counted instant is never before the newest one in the log and a day already
 * counted is not left for an earlier one, so a clock that steps back by up to a minute never lets
 * more through; one put back further forgets what was counted after it (movedBack, rewindWindows).
 * Returns {allowed 0|1, in window, oldest or −1, leaving or −1, day, day count, now}: the facts
 * windowResult turns into a HitResult. Each key expires once no decision can need it.
 */
const HIT_SCRIPT = `
local log, daykey, history = KEYS[1], KEYS[2], KEYS[3]
local minuteQuota, dayQuota, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local newest = redis.call('ZRANGE', log, -1, -1, 'WITHSCORES')[2]
local countedDay = tonumber(redis.call('HGET', daykey, 'day'))
if (newest and tonumber(newest) - now > ${MOVED_BACK_MS}) or (countedDay and countedDay * ${DAY_MS} - now > ${MOVED_BACK_MS}) then
  -- The clock was put back (movedBack): what was counted after now is forgotten (rewindWindows).
  redis.call('ZREMRANGEBYSCORE', log, '(' .. now, '+inf')
  local today = math.floor(now / ${DAY_MS})
  if countedDay and countedDay > today then
    redis.call('HSET', daykey, 'day', today, 'n', tonumber(redis.call('HGET', history, today)) or 0)
    for _, kept in ipairs(redis.call('HKEYS', history)) do
      if tonumber(kept) > today then redis.call('HDEL', history, kept) end
    end
  end
end
redis.call('ZREMRANGEBYSCORE', log, '-inf', now - ${MINUTE_MS})
local inWindow = redis.call('ZCARD', log)
local day, dayCount, newDay = math.floor(now / ${DAY_MS}), 0, false
if dayQuota then
  local stored = redis.call('HMGET', daykey, 'day', 'n')
  local storedDay = tonumber(stored[1])
  if storedDay and storedDay >= day then day, dayCount = storedDay, tonumber(stored[2])
  else
    -- The day key expires in real time: a frozen clock's day outlives it, and the history still counts it.
    newDay, dayCount = true, tonumber(redis.call('HGET', history, day)) or 0
  end
end
local allowed = inWindow < minuteQuota and not (dayQuota and dayCount >= dayQuota)
if allowed then
  local at, seq = now, 0
  if inWindow > 0 then
    local last = tonumber(redis.call('ZRANGE', log, -1, -1, 'WITHSCORES')[2])
    if last >= now then at, seq = last, redis.call('ZCOUNT', log, last, last) end
  end
  redis.call('ZADD', log, at, string.format('%d:%d', at, seq))
  redis.call('PEXPIRE', log, at + ${MINUTE_MS} - now + 1000)
  inWindow = inWindow + 1
  if dayQuota then
    dayCount = dayCount + 1
    redis.call('HSET', daykey, 'day', day, 'n', dayCount)
    redis.call('PEXPIRE', daykey, (day + 1) * ${DAY_MS} - now + 1000)
    redis.call('HINCRBY', history, day, 1)
    if newDay then
      for _, kept in ipairs(redis.call('HKEYS', history)) do
        if tonumber(kept) <= day - ${DAYS_KEPT} then redis.call('HDEL', history, kept) end
      end
    end
    redis.call('PEXPIRE', history, (day + ${DAYS_KEPT}) * ${DAY_MS} - now + 1000)
  end
end
local oldest, leaving = -1, -1
if inWindow > 0 then oldest = tonumber(redis.call('ZRANGE', log, 0, 0, 'WITHSCORES')[2]) end
if not allowed and inWindow >= minuteQuota then
  local i = inWindow - minuteQuota
  leaving = tonumber(redis.call('ZRANGE', log, i, i, 'WITHSCORES')[2])
end
return {allowed and 1 or 0, inWindow, oldest, leaving, day, dayCount, now}
`;
const HIT_SHA = createHash('sha1').update(HIT_SCRIPT).digest('hex');

/**
 * The same keys read, nothing written: the minute's count and oldest instant after `now` − 60 s,
 * the current day (the stored one when it is not before now's) and its count, and the history's
 * counts of the DAYS_KEPT − 1 days before it. ARGV: now in ms ('' to read Redis `TIME`).
 * Returns {in window, oldest or −1, day, day count, now, count of each earlier day, oldest first}.
 */
const USAGE_SCRIPT = `
local log, daykey, history = KEYS[1], KEYS[2], KEYS[3]
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local after = '(' .. (now - ${MINUTE_MS})
local day, dayCount = math.floor(now / ${DAY_MS}), 0
local stored = redis.call('HMGET', daykey, 'day', 'n')
local storedDay = tonumber(stored[1])
local newest = redis.call('ZRANGE', log, -1, -1, 'WITHSCORES')[2]
-- A clock put back: read as the next hit will leave them (what was counted after now forgotten).
local back = (newest and tonumber(newest) - now > ${MOVED_BACK_MS}) or (storedDay and storedDay * ${DAY_MS} - now > ${MOVED_BACK_MS})
local upto = back and now or '+inf'
local inWindow = redis.call('ZCOUNT', log, after, upto)
local oldest = -1
if inWindow > 0 then oldest = tonumber(redis.call('ZRANGEBYSCORE', log, after, upto, 'WITHSCORES', 'LIMIT', 0, 1)[2]) end
if storedDay and storedDay == day then dayCount = tonumber(stored[2])
elseif not storedDay then dayCount = tonumber(redis.call('HGET', history, day)) or 0
elseif storedDay and storedDay > day then
  if back then dayCount = tonumber(redis.call('HGET', history, day)) or 0 else day, dayCount = storedDay, tonumber(stored[2]) end
end
local out = {inWindow, oldest, day, dayCount, now}
for d = day - ${DAYS_KEPT - 1}, day - 1 do
  out[#out + 1] = tonumber(redis.call('HGET', history, d)) or 0
end
return out
`;
const USAGE_SHA = createHash('sha1').update(USAGE_SCRIPT).digest('hex');

type Reply = [number, number, number, number, number, number, number];

export class RedisRateLimitStore implements RateLimitStore {
  private readonly client: Redis | Cluster;
  private readonly owned: boolean;
  private readonly prefix: string;
  private readonly clock: (() => number) | undefined;
  private readonly timeoutMs: number;
  private readonly onError: (err: unknown) => void;
  private readonly onRecovered: (outageMs: number) => void;
  /** When Redis stopped answering (wall clock, ms); null while it answers. */
  private outageSince: number | null = null;
  /** During an outage, one hit at a time tries Redis again; the others do not wait for it. */
  private probing = false;
  /** Wall-clock ms (not the store's clock, which tests stop) before which no hit tries Redis again. */
  private nextProbe = 0;
  /** The windows counted in memory during an outage, forgotten when Redis answers again. */
  private readonly local = new Map<string, KeyWindows>();
  private lastSweep = 0;
  private connecting: Promise<void> | null = null;
  private closed = false;

  constructor(options: RedisRateLimitStoreOptions) {
    this.timeoutMs = options.commandTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.owned = typeof options.redis === 'string';
    if (typeof options.redis === 'string') {
      this.client = new Redis(options.redis, redisClientOptions(this.timeoutMs));
      // Connection errors are reported once per outage through onError; ioredis would print each one.
      this.client.on('error', () => {});
    } else {
      this.client = options.redis;
    }
    this.prefix = options.keyPrefix ?? 'orchard:';
    this.clock = options.clock;
    this.onError = options.onError ?? (() => {});
    this.onRecovered = options.onRecovered ?? (() => {});
  }

  /** The keys of `key`: hash-tagged by it, so both windows and the history land in one Redis Cluster slot. */
  keysOf(key: string): { minute: string; day: string; history: string } {
    return { minute: `${this.prefix}{${key}}:m`, day: `${this.prefix}{${key}}:d`, history: `${this.prefix}{${key}}:h` };
  }

  /** One round trip (EVALSHA) when Redis answers; never rejects for Redis's sake (see the file header). */
  async hit(key: string, quotas: Quotas, at?: number): Promise<HitResult> {
    if (this.closed) throw new Error('the rate-limit store is closed');
    const probe = this.outageSince !== null;
    if (probe) {
      // Redis is tried again once it is connected, by one hit at a time and at most every PROBE_EVERY_MS,
      // so a Redis that accepts connections but does not answer costs a timeout a second, not one a hit.
      if (this.probing || this.client.status !== 'ready' || Date.now() < this.nextProbe) return this.hitLocally(key, quotas, at);
      this.probing = true;
      this.nextProbe = Date.now() + PROBE_EVERY_MS;
    }
    try {
      if (this.client.status !== 'ready') await this.connected();
      const [allowed, inWindow, oldest, leaving, day, dayCount, now] = await this.run(key, quotas, at);
      if (this.outageSince !== null) this.recovered();
      return windowResult({
        now, quotas, allowed: allowed === 1, inWindow,
        oldest: oldest < 0 ? null : oldest, leaving: leaving < 0 ? null : leaving, day, dayCount,
      });
    } catch (err) {
      if (this.closed) throw err;
      this.lost(err);
      return this.hitLocally(key, quotas, at);
    } finally {
      if (probe) this.probing = false;
    }
  }

  /** One EVALSHA that writes nothing; while Redis does not answer, what this process counted in memory (no history). */
  async usage(key: string, quotas: Quotas, at?: number): Promise<UsageState> {
    if (this.closed) throw new Error('the rate-limit store is closed');
    if (this.outageSince === null) {
      try {
        if (this.client.status !== 'ready') await this.connected();
        const { minute, day, history } = this.keysOf(key);
        const reply = (await this.script(USAGE_SHA, USAGE_SCRIPT, [minute, day, history, at ?? (this.clock ? this.clock() : '')])) as number[];
        const [inWindow, oldest, dayNumber, dayCount, now, ...past] = reply as [number, number, number, number, number, ...number[]];
        const look = windowResult({ now, quotas, allowed: true, inWindow, oldest: oldest < 0 ? null : oldest, leaving: null, day: dayNumber, dayCount });
        return usageOf(look, inWindow, [...past, quotas.day === null ? 0 : dayCount], dayNumber);
      } catch (err) {
        if (this.closed) throw err;
        this.lost(err);
      }
    }
    const now = at ?? this.now();
    return peekWindows(this.localWindows(key, now) ?? emptyWindows(now), now, quotas, () => new Array<number>(DAYS_KEPT - 1).fill(0));
  }

  /** One PING; a connection being made is waited for at most the command timeout, as a hit waits. */
  async ping(): Promise<void> {
    if (this.client.status !== 'ready') await this.connected();
    await this.client.ping();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (!this.owned) return;
    try {
      if (this.client.status === 'ready') await this.client.quit();
    } catch {
      // Redis went away meanwhile: nothing is pending on our side, so dropping the socket loses nothing.
    } finally {
      this.client.disconnect();
    }
  }

  /** The script by its digest; sent whole once when Redis does not have it (a new or restarted server). */
  private async run(key: string, quotas: Quotas, at: number | undefined): Promise<Reply> {
    const { minute, day, history } = this.keysOf(key);
    // A moved clock's time is passed like a test's clock; otherwise the script reads Redis TIME.
    return (await this.script(HIT_SHA, HIT_SCRIPT, [minute, day, history, quotas.minute, quotas.day ?? '', at ?? (this.clock ? this.clock() : '')])) as Reply;
  }

  /** A script of three keys by its digest, sent whole when Redis does not have it. */
  private async script(sha: string, text: string, args: Array<string | number>): Promise<unknown> {
    try {
      return await this.client.evalsha(sha, 3, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return await this.client.eval(text, 3, ...args);
    }
  }

  /** Waits for a connection being made (at start, or a reconnection) at most the command timeout. */
  private connected(): Promise<void> {
    return (this.connecting ??= new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.connecting = null;
        if (err) reject(err);
        else resolve();
      };
      const onReady = () => done();
      const timer = setTimeout(() => done(new CountersUnreachable(`Redis is not reachable (connection ${this.client.status} after ${this.timeoutMs} ms)`)), this.timeoutMs);
      this.client.once('ready', onReady);
    }));
  }

  private lost(err: unknown): void {
    if (this.outageSince !== null) return;
    this.nextProbe = Date.now() + PROBE_EVERY_MS;
    this.outageSince = Date.now();
    this.onError(err);
  }

  private recovered(): void {
    const outageMs = Date.now() - this.outageSince!;
    this.outageSince = null;
    // What was counted locally is not carried into Redis (docs/limits.md § Redis unreachable).
    this.local.clear();
    this.onRecovered(outageMs);
  }

  private now(): number {
    return this.clock ? this.clock() : Date.now();
  }

  /** The embedded windows, in this process's memory only; idle keys are forgotten every minute. */
  private hitLocally(key: string, quotas: Quotas, at: number | undefined): HitResult {
    const now = at ?? this.now();
    if (now - this.lastSweep >= MINUTE_MS) {
      this.lastSweep = now;
      for (const [k, w] of this.local) if (isIdle(w, now)) this.local.delete(k);
    }
    let windows = this.localWindows(key, now);
    if (!windows) this.local.set(key, (windows = emptyWindows(now)));
    return hitWindows(windows, now, quotas).result;
  }

  /** A key's windows in memory, if any, rewound if its clock was put back (no history: its day starts at 0). */
  private localWindows(key: string, now: number): KeyWindows | undefined {
    const windows = this.local.get(key);
    if (windows && movedBack(windows, now)) rewindWindows(windows, now, 0);
    return windows;
  }
}
