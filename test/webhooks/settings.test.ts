// The webhook settings (docs/webhooks.md § Settings): read from the environment once, with their
// defaults, refused with a message naming the variable when malformed; given one by one in code.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { retryDelay } from '../../src/webhooks/delivery-worker.js';

test('reads the webhook settings from the environment, with their defaults', () => {
  assert.deepEqual(loadConfig({}).webhooks, {
    allowPrivate: false, timeoutMs: 10_000, retryBaseMs: 10_000, retryCapMs: 3_600_000, maxAttempts: 30,
    disableFailures: 20, disableHours: 24, pollMs: 5_000, concurrency: 32, gatherMs: 10, logDays: 7, deliver: true,
  });
  // Longer on PostgreSQL, where a batch's claim and outcomes are round trips.
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://localhost/orchard' }).webhooks.gatherMs, 50);
  assert.equal(loadConfig({}, { databaseUrl: 'postgres://localhost/orchard' }).webhooks.gatherMs, 50);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://localhost/orchard', WEBHOOK_GATHER_MS: '5' }).webhooks.gatherMs, 5);
  assert.deepEqual(loadConfig({
    WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '500', WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_CAP_MS: '800', WEBHOOK_MAX_ATTEMPTS: '3',
    WEBHOOK_DISABLE_FAILURES: '2', WEBHOOK_DISABLE_HOURS: '0', WEBHOOK_POLL_MS: '50', WEBHOOK_CONCURRENCY: '4', WEBHOOK_LOG_DAYS: '1',
    WEBHOOK_DELIVER: 'false', WEBHOOK_GATHER_MS: '0',
  }).webhooks, {
    allowPrivate: true, timeoutMs: 500, retryBaseMs: 100, retryCapMs: 800, maxAttempts: 3, disableFailures: 2, disableHours: 0, pollMs: 50, concurrency: 4, logDays: 1,
    deliver: false, gatherMs: 0,
  });
  assert.equal(loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'false' }).webhooks.allowPrivate, false);
  assert.deepEqual({ ...loadConfig({ WEBHOOK_MAX_ATTEMPTS: '9' }, { webhooks: { allowPrivate: true } }).webhooks }, { ...loadConfig({}).webhooks, allowPrivate: true, maxAttempts: 9 });
});

test('refuses malformed webhook settings with a message naming the variable', () => {
  assert.throws(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' }), { message: "WEBHOOK_ALLOW_PRIVATE must be true or false; got 'yes'." });
  assert.throws(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '0' }), { message: "WEBHOOK_TIMEOUT_MS must be a whole number from 1 to 300000; got '0'." });
  assert.throws(() => loadConfig({ WEBHOOK_MAX_ATTEMPTS: '1.5' }), /^AppError: WEBHOOK_MAX_ATTEMPTS must be a whole number/);
  assert.throws(() => loadConfig({ WEBHOOK_DELIVER: 'no' }), { message: "WEBHOOK_DELIVER must be true or false; got 'no'." });
  assert.throws(() => loadConfig({ WEBHOOK_CONCURRENCY: '0' }), /^AppError: WEBHOOK_CONCURRENCY must be a whole number from 1/);
  assert.throws(() => loadConfig({ WEBHOOK_GATHER_MS: '1001' }), { message: "WEBHOOK_GATHER_MS must be a whole number from 0 to 1000; got '1001'." });
});

test('retries wait the base, then twice as long each time, never past the cap: about 21 hours over 30 attempts', () => {
  const settings = loadConfig({}).webhooks;
  assert.deepEqual([1, 2, 3, 9, 10, 11, 29].map((n) => retryDelay(settings, n)), [10_000, 20_000, 40_000, 2_560_000, 3_600_000, 3_600_000, 3_600_000]);
  let total = 0;
  for (let attempt = 1; attempt < settings.maxAttempts; attempt++) total += retryDelay(settings, attempt);
  assert.equal(Math.round(total / 3_600_000), 21);
});
