// The limit settings (docs/limits.md § Configuration): read from the environment once, with their
// defaults, refused with a message naming the variable when malformed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { openLimits } from '../../src/limits/limits.js';
import { tempDir } from '../helpers.js';

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
  assert.throws(() => loadConfig({ ADDRESS_MINUTE_LIMIT: '2.5' }), /^Error: ADDRESS_MINUTE_LIMIT must be a whole number/);
});

test('refuses REDIS_URL, as this build keeps the counters in limits.db only', () => {
  const dir = tempDir();
  try {
    const config = loadConfig({}, { dataDir: dir, redisUrl: 'redis://localhost:6379' });
    const deps = { config, control: {} as never, clock: Date.now, log: { info() {}, error() {} } };
    assert.throws(() => openLimits(deps), /REDIS_URL is set, but this build of Orchard keeps rate-limit counters in <data>\/limits\.db only/);
    assert.deepEqual(fs.readdirSync(dir), [], 'and opens nothing');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
