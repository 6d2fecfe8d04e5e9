// /live and /ready on both stores: no token, no rate limit, 503 naming what does not answer
// (a Redis or a PostgreSQL on a port nobody listens on, an organizations directory gone).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openStores } from '../../src/stores.js';
import { loggerOptions } from '../../src/http/log-options.js';
import { captureLog, logEntries, tempDir, testContext, type TestContext } from '../helpers.js';
import { HTTP_STORES } from '../query/http-stores.js';
import { needsRedis, REDIS_URL } from '../services.js';
import { sparePort } from '../throwaway-redis.js';

for (const store of HTTP_STORES) {
  describe(`/live and /ready on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    after(() => ctx?.close());

    test('answer 200 without a token, checking the control plane, the records and the counters', async () => {
      ctx = await store.context();
      for (let i = 0; i < 3; i++) {
        const live = await ctx.request({ method: 'GET', url: '/live', token: null });
        assert.equal(live.statusCode, 200);
        assert.deepEqual(live.json(), { status: 'live' });
        const ready = await ctx.request({ method: 'GET', url: '/ready', token: null });
        assert.equal(ready.statusCode, 200);
        assert.deepEqual(ready.json(), { status: 'ready', checks: { control: 'ok', records: 'ok', counters: 'ok' } });
        assert.equal(ready.headers.ratelimit, undefined);
      }
    });
  });
}

describe('/ready answers 503 with the reason', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  test('but 200 degraded when only Redis does not answer (REDIS_URL on a closed port): the process serves, counting in memory', async () => {
    const port = await sparePort();
    const ctx = await testContext({ config: { redisUrl: `redis://127.0.0.1:${port}` } });
    try {
      const res = await ctx.request({ method: 'GET', url: '/ready', token: null });
      assert.equal(res.statusCode, 200, 'a load balancer routing on /ready keeps the process');
      const body = res.json();
      assert.equal(body.status, 'degraded');
      assert.deepEqual([body.checks.control, body.checks.records], ['ok', 'ok']);
      assert.match(body.checks.redis, /Redis is not reachable/);
      assert.match(body.Message, /^Serving without redis: Redis is not reachable.*\. The rate limits count in this process's memory until Redis answers\.$/);
      assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account?pagesize=1' })).statusCode, 200, 'and it does serve');
    } finally {
      await ctx.close();
    }
  });

  test('when PostgreSQL does not answer (DATABASE_URL on a closed port)', async () => {
    const port = await sparePort();
    const dir = tempDir();
    dirs.push(dir);
    const config = loadConfig({}, { dataDir: dir, logLevel: 'silent', databaseUrl: `postgres://postgres@127.0.0.1:${port}/none`, databaseSchema: 'unreachable' });
    const stores = openStores(config);
    const app = await buildApp({ ...stores, config, clock: Date.now, logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/ready' });
      assert.equal(res.statusCode, 503);
      const body = res.json();
      assert.deepEqual(Object.keys(body.checks).sort(), ['control', 'counters', 'records']);
      assert.match(body.checks.control, /database is unreachable/);
      assert.match(body.checks.records, /database is unreachable/);
    } finally {
      await app.close();
      await stores.close();
    }
  });

  test('when the organizations directory is gone (SQLite), naming the system error but not the data directory\'s path', async () => {
    const log = captureLog();
    const ctx = await testContext({ logger: loggerOptions({ level: 'info', format: 'json', stream: log }) });
    try {
      fs.rmSync(path.join(ctx.dir, 'orgs'), { recursive: true, force: true });
      const res = await ctx.request({ method: 'GET', url: '/ready', token: null });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().checks.records, 'failed (ENOENT); the server log has the cause');
      assert.equal(res.json().checks.control, 'ok');
      assert.ok(!res.body.includes(ctx.dir), `the unauthenticated reply names no path: ${res.body}`);
      assert.ok(!res.body.includes('orgs'), res.body);
      const logged = logEntries(log.lines).find((e) => e.check === 'records');
      assert.equal(logged?.level, 40, 'the full reason is a warning in the log');
      assert.ok(String(logged?.err?.message).includes(`ENOENT: no such file or directory, access '${path.join(ctx.dir, 'orgs')}'`), String(logged?.err?.message));
    } finally {
      await ctx.close();
    }
  });
});

describe('/ready with Redis', { skip: needsRedis }, () => {
  test('checks Redis by name when the counters are there', async () => {
    const ctx = await testContext({ config: { redisUrl: REDIS_URL } });
    try {
      const res = await ctx.request({ method: 'GET', url: '/ready', token: null });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json().checks, { control: 'ok', records: 'ok', redis: 'ok' });
    } finally {
      await ctx.close();
    }
  });
});

test('/ready has no rate-limit check when RATE_LIMITS is off', async () => {
  const ctx = await testContext({ config: { rateLimits: false } });
  try {
    assert.deepEqual((await ctx.request({ method: 'GET', url: '/ready', token: null })).json().checks, { control: 'ok', records: 'ok' });
  } finally {
    await ctx.close();
  }
});

test('/live and /ready count against no address limit, however often an unauthenticated client asks', async () => {
  const ctx = await testContext({ config: { addressMinuteLimit: 1 } });
  try {
    for (let i = 0; i < 5; i++) {
      for (const url of ['/live', '/ready']) {
        const res = await ctx.request({ method: 'GET', url, token: null, remoteAddress: '203.0.113.5' });
        assert.equal(res.statusCode, 200, url);
        assert.equal(res.headers.ratelimit, undefined);
      }
    }
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account', token: null, remoteAddress: '203.0.113.5' })).statusCode, 401);
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account', token: null, remoteAddress: '203.0.113.5' })).statusCode, 429, 'the API routes are limited');
  } finally {
    await ctx.close();
  }
});
