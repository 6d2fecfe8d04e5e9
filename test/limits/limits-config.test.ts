// The limit settings (docs/limits.md § Configuration): read from the environment once, with their
// defaults, refused with a message naming the variable when malformed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.js';
import { openLimits, orgKey, type Limits } from '../../src/limits/limits.js';
import { openStores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { needsRedis, REDIS_URL } from '../services.js';

test('reads the limit settings from the environment, with their defaults', () => {
  const defaults = loadConfig({});
  assert.deepEqual(
    { rateLimits: defaults.rateLimits, dailyCap: defaults.dailyCap, addressMinuteLimit: defaults.addressMinuteLimit, mailFrom: defaults.mailFrom },
    { rateLimits: true, dailyCap: null, addressMinuteLimit: 30, mailFrom: 'Orchard <orchard@localhost>' },
  );
  const set = loadConfig({ RATE_LIMITS: 'off', DAILY_CAP: '1000000', ADDRESS_MINUTE_LIMIT: '5', MAIL_FROM: 'Ops <ops@example.com>' });
  assert.deepEqual(
    { rateLimits: set.rateLimits, dailyCap: set.dailyCap, addressMinuteLimit: set.addressMinuteLimit, mailFrom: set.mailFrom },
    { rateLimits: false, dailyCap: 1_000_000, addressMinuteLimit: 5, mailFrom: 'Ops <ops@example.com>' },
  );
  assert.equal(loadConfig({ RATE_LIMITS: 'on' }).rateLimits, true);
});

test('refuses malformed limit settings with a message naming the variable', () => {
  assert.throws(() => loadConfig({ RATE_LIMITS: 'no' }), { message: "RATE_LIMITS must be on or off; got 'no'." });
  assert.throws(() => loadConfig({ DAILY_CAP: '0' }), { message: "DAILY_CAP must be a whole number from 1 to 999999999999999; got '0'." });
  assert.throws(() => loadConfig({ ADDRESS_MINUTE_LIMIT: '2.5' }), /^AppError: ADDRESS_MINUTE_LIMIT must be a whole number/);
  assert.throws(() => loadConfig({ REDIS_TIMEOUT_MS: '0' }), { message: "REDIS_TIMEOUT_MS must be a whole number from 1 to 60000; got '0'." });
  assert.equal(loadConfig({}).redisTimeoutMs, 250);
  assert.equal(loadConfig({ REDIS_TIMEOUT_MS: '5000' }).redisTimeoutMs, 5000);
});

test('counts in Redis when REDIS_URL is set, where every process sees the same counts', { skip: needsRedis }, async () => {
  const dir = tempDir();
  const orgId = randomUUID(); // its keys are this test's own: orchard:{org:<id>}:m and :d
  const redis = new Redis(REDIS_URL!);
  const opened: Limits[] = [];
  // A hit Redis does not answer within REDIS_TIMEOUT_MS is counted in the process (docs/limits.md §
  // Redis unreachable), which this test would read as counts not shared: on a loaded machine the
  // default 250 ms was exceeded once (the first hit, [1, 1, 4]); the test is of the sharing, not the wait.
  const config = loadConfig({ REDIS_TIMEOUT_MS: '10000' }, { dataDir: dir, redisUrl: REDIS_URL });
  const stores = openStores(config);
  try {
    const log = { info() {}, error() {} };
    const open = () => {
      const limits = openLimits({ config, directory: stores.control, ledger: stores.ledger, counters: stores.openCounters(Date.now, log), clock: Date.now, log });
      opened.push(limits);
      return limits;
    };
    const quotas = { minute: 5, day: 10 };
    const first = await open().store.hit(orgKey(orgId), quotas);
    const second = await open().store.hit(orgKey(orgId), quotas); // another process on the same Redis
    assert.deepEqual([first.day?.used, second.day?.used, second.minute.remaining], [1, 2, 3]);
    assert.equal(await redis.zcard(`orchard:{${orgKey(orgId)}}:m`), 2);
    assert.equal(await redis.hget(`orchard:{${orgKey(orgId)}}:d`, 'n'), '2');
    await opened[0]!.close();
    await assert.rejects(async () => opened[0]!.store.hit(orgKey(orgId), quotas), /closed/, 'closing the limits closes the store');
  } finally {
    for (const limits of opened) await limits.close();
    await stores.close();
    await redis.del(`orchard:{${orgKey(orgId)}}:m`, `orchard:{${orgKey(orgId)}}:d`);
    await redis.quit();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
