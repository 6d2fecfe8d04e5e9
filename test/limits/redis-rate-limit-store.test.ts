// What the Redis store adds to the shared contract (rate-limit-store.test.ts runs that against it):
// one decision across processes, keys hash-tagged per key and expiring, and the fault policy — a
// Redis that is down or hangs is replaced by the process's own memory until it answers again.

import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { HitResult, Quotas, RateLimitStore } from '../../src/limits/rate-limit-store.js';
import { RedisRateLimitStore, type RedisRateLimitStoreOptions } from '../../src/limits/redis-rate-limit-store.js';
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { openStores } from '../../src/stores.js';
import { TestClock, tempDir } from '../helpers.js';
import { needsRedis, REDIS_URL, uniqueName } from '../services.js';
import { needsRedisServer, ThrowawayRedis } from '../throwaway-redis.js';
import { deleteKeys, keysUnder } from './stores.js';

describe('the redis rate-limit store on a shared Redis', { skip: needsRedis }, () => {
  let prefix: string;
  let redis: Redis;
  const stores: RateLimitStore[] = [];
  const open = (options: Partial<RedisRateLimitStoreOptions> = {}) => {
    // Exact counts need Redis to decide every hit; on a loaded machine a reply can take longer than
    // the default 250 ms, and such a hit is decided in memory (the outage policy, tested below).
    const store = new RedisRateLimitStore({ redis: REDIS_URL!, keyPrefix: prefix, commandTimeoutMs: 10_000, ...options });
    stores.push(store);
    return store;
  };

  before(() => {
    redis = new Redis(REDIS_URL!);
  });
  after(async () => {
    await redis.quit();
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await deleteKeys(prefix);
  });
  // A prefix per test, so deleteKeys removes exactly what the test made.
  const fresh = () => {
    prefix = `${uniqueName('limits')}:`;
  };

  test('accepts exactly the quota from 300 concurrent hits by two processes on one key, on Redis time', async () => {
    fresh();
    const [first, second] = [open(), open()]; // two connections, as two API processes have
    const burst = (quotas: Quotas) => Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? first : second).hit('org:a', quotas)));

    const minute = await burst({ minute: 100, day: null });
    assert.equal(minute.filter((r) => r.allowed).length, 100);
    assert.ok(minute.every((r) => r.allowed || r.exceeded === 'minute'));

    const day = await burst({ minute: 1000, day: 100 });
    const used = day.filter((r) => r.allowed).map((r) => r.day!.used).sort((a, b) => a - b);
    assert.deepEqual(used, Array.from({ length: 100 }, (_, i) => i + 1), 'each accepted hit saw the count of the ones before it, once');
    assert.ok(day.every((r) => r.allowed || r.exceeded === 'day'));
    assert.equal(await redis.zcard(`${prefix}{org:a}:m`), 200, 'the minute log holds every accepted hit, refused ones nowhere');
  });

  test('keeps both windows of a key under one hash tag, so they share a Redis Cluster slot', async () => {
    fresh();
    const store = open({ clock: new TestClock().now });
    await store.hit('org:7f3a', { minute: 5, day: 10 });
    await store.hit('addr:::1', { minute: 5, day: null });
    const keys = (await keysUnder(redis, prefix)).sort();
    assert.deepEqual(keys, [`${prefix}{addr:::1}:m`, `${prefix}{org:7f3a}:d`, `${prefix}{org:7f3a}:h`, `${prefix}{org:7f3a}:m`]);
    assert.deepEqual(await redis.hgetall(`${prefix}{org:7f3a}:d`), { day: '20513', n: '1' });
    assert.deepEqual(await redis.hgetall(`${prefix}{org:7f3a}:h`), { 20513: '1' }, 'the history of daily counts');
  });

  test('lets every key expire once no decision can need it: the log a minute after its newest request, the day at 00:00 UTC', async () => {
    fresh();
    const clock = new TestClock(Date.parse('2026-03-01T12:00:00.000Z'));
    const store = open({ clock: clock.now });
    const quotas = { minute: 1, day: 10 };
    await store.hit('org:a', quotas);
    const ttl = async () => [await redis.pttl(`${prefix}{org:a}:m`), await redis.pttl(`${prefix}{org:a}:d`)];
    // The history lasts until the current day leaves the 30 days kept.
    const history = await redis.pttl(`${prefix}{org:a}:h`);
    assert.ok(history <= 12 * 3_600_000 + 29 * 86_400_000 + 1_000 && history > 12 * 3_600_000 + 29 * 86_400_000 - 5_000, `history TTL ${history}`);
    const near = ([m, d]: number[], [em, ed]: number[]) => m! <= em! && m! > em! - 5_000 && d! <= ed! && d! > ed! - 5_000;
    // One second of margin past the instant each key stops mattering.
    assert.ok(near(await ttl(), [61_000, 12 * 3_600_000 + 1_000]), `TTLs ${await ttl()}`);
    clock.advance(30_000);
    assert.equal((await store.hit('org:a', quotas)).allowed, false);
    assert.ok(near(await ttl(), [61_000, 12 * 3_600_000 + 1_000]), `a refused hit writes nothing: ${await ttl()}`);
    clock.advance(31_000);
    assert.equal((await store.hit('org:a', quotas)).allowed, true);
    assert.ok(near(await ttl(), [61_000, 12 * 3_600_000 - 61_000 + 1_000]), `counted again: ${await ttl()}`);
  });
});

describe('the redis rate-limit store on a frozen clock', { skip: needsRedis }, () => {
  test('keeps the day counted when its key expired in real time while the clock stood still', async () => {
    const prefix = uniqueName('orchard-frozen:');
    const redis = new Redis(REDIS_URL!);
    const store = new RedisRateLimitStore({ redis: REDIS_URL!, keyPrefix: prefix, commandTimeoutMs: 10_000 });
    try {
      const frozen = Date.parse('2026-03-01T23:59:30.000Z'); // the day key expires 31 s of real time later
      const quotas = { minute: 100, day: 3 };
      for (let i = 0; i < 3; i++) assert.equal((await store.hit('org:a', quotas, frozen)).allowed, true);
      await redis.del(`${prefix}{org:a}:d`); // as its expiry does, while the clock still reads 23:59:30
      const usage = await store.usage('org:a', quotas, frozen);
      assert.equal(usage.day?.used, 3);
      const refused = await store.hit('org:a', quotas, frozen);
      assert.deepEqual([refused.allowed, refused.exceeded, refused.day?.used], [false, 'day', 3]);
      const nextDay = await store.hit('org:a', quotas, frozen + 31_000);
      assert.deepEqual([nextDay.allowed, nextDay.day?.used], [true, 1]);
    } finally {
      await store.close();
      await deleteKeys(prefix);
      await redis.quit();
    }
  });
});

describe('the redis rate-limit store when Redis is unreachable', { skip: needsRedisServer }, () => {
  let server: ThrowawayRedis;
  const stores: RateLimitStore[] = [];
  let errors: unknown[];
  let recoveries: number[];
  const clock = new TestClock();
  const quotas = { minute: 3, day: 10 };
  const open = () => {
    const store = new RedisRateLimitStore({
      redis: server.url, keyPrefix: 'limits:', clock: clock.now,
      onError: (err) => errors.push(err), onRecovered: (ms) => recoveries.push(ms),
    });
    stores.push(store);
    return store;
  };
  const allowed = async (store: RateLimitStore, n: number, key = 'org:a') => {
    const out: HitResult[] = [];
    for (let i = 0; i < n; i++) out.push(await store.hit(key, quotas));
    return out.map((r) => r.allowed);
  };
  /** Hits another key until the store says Redis answers again (ioredis reconnects with a back-off). */
  const untilRecovered = async (store: RateLimitStore) => {
    const deadline = Date.now() + 15_000;
    while (recoveries.length === 0) {
      assert.ok(Date.now() < deadline, 'the store went back to Redis within 15 s');
      await store.hit('org:probe', quotas);
      await sleep(50);
    }
  };

  before(async () => {
    server = await ThrowawayRedis.start();
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });
  after(async () => {
    await server.kill();
  });

  test('serves every hit from memory while Redis is down, logs the outage once, and goes back to Redis by itself', async () => {
    errors = [];
    recoveries = [];
    const store = open();
    assert.deepEqual(await allowed(store, 2), [true, true]);

    await server.kill();
    const during = [];
    for (let i = 0; i < 4; i++) during.push(await store.hit('org:a', quotas));
    assert.deepEqual(during.map((r) => [r.allowed, r.exceeded, r.day!.used]), [[true, null, 1], [true, null, 2], [true, null, 3], [false, 'minute', 3]],
      'the same windows, counted from nothing in this process');
    const usage = await store.usage('org:a', quotas);
    assert.deepEqual([usage.minute.used, usage.day!.used, usage.days.at(-1), usage.days.length], [3, 3, 3, 30], 'usage reads what memory counted');
    const started = Date.now();
    assert.deepEqual(await allowed(store, 100, 'org:b'), [true, true, true, ...Array(97).fill(false)]);
    assert.ok(Date.now() - started < 2_500, 'without waiting for Redis on each hit');
    assert.equal(errors.length, 1, 'one error for the whole outage');
    assert.equal(recoveries.length, 0);

    await server.start(); // empty, and without the script: EVALSHA falls back to EVAL
    await untilRecovered(store);
    assert.equal(errors.length, 1);
    const back = await store.hit('org:a', quotas);
    assert.deepEqual([back.allowed, back.day!.used], [true, 1], 'the counts made in memory are not carried into Redis');
    const other = await open().hit('org:a', quotas);
    assert.deepEqual([other.allowed, other.day!.used, other.minute.remaining], [true, 2, 1], 'another process sees the count in Redis');
  });

  test('decides in memory after the command timeout when Redis keeps the connection but does not answer', async () => {
    errors = [];
    recoveries = [];
    const store = open();
    assert.deepEqual(await allowed(store, 1, 'org:c'), [true]);
    server.pause(true);
    try {
      let started = Date.now();
      assert.deepEqual(await allowed(store, 1, 'org:c'), [true]);
      const waited = Date.now() - started;
      assert.ok(waited >= 200 && waited < 2_000, `the first hit waited for the 250 ms timeout (${waited} ms)`);
      assert.equal(errors.length, 1);
      started = Date.now();
      assert.deepEqual(await allowed(store, 3, 'org:c'), [true, true, false]);
      assert.ok(Date.now() - started < 200, 'the next hits do not wait: Redis is tried again at most once a second');
    } finally {
      server.pause(false);
    }
    await untilRecovered(store);
    assert.equal(errors.length, 1);
  });

  test('the counters a server opens wait REDIS_TIMEOUT_MS for a Redis that does not answer', async () => {
    const dir = tempDir();
    const opened = openStores(loadConfig({ REDIS_URL: server.url, REDIS_TIMEOUT_MS: '700' }, { dataDir: dir }));
    const counters = opened.openCounters(Date.now, { error: () => {}, info: () => {} });
    try {
      await counters.hit('org:t', quotas);
      server.pause(true);
      const started = Date.now();
      await counters.hit('org:t', quotas);
      const waited = Date.now() - started;
      assert.ok(waited >= 650, `waited ${waited} ms, the configured 700 ms and not the default 250 ms`);
    } finally {
      server.pause(false);
      await counters.close();
      await opened.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
