// /metrics: requests by route family, method and status (499: the client went away); 429s by
// window; store errors; open organizations and reader threads; notices sent; the optional metrics
// token and organization label.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { familyOf } from '../../src/http/metrics.js';
import { openStores } from '../../src/stores.js';
import { metricSample, rawConnection, tempDir, testContext, type TestContext } from '../helpers.js';
import { sparePort } from '../throwaway-redis.js';
import { assertClosedByClient, loggedContext } from './closed-by-client.js';
import { startReceiver } from '../webhooks/receiver.js';

async function scrape(ctx: TestContext, headers: Record<string, string> = {}): Promise<string> {
  const res = await ctx.request({ method: 'GET', url: '/metrics', token: null, headers });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return res.body;
}

describe('/metrics', () => {
  let ctx: TestContext;
  after(() => ctx?.close());

  test('counts requests by route family, method and status, with latency buckets', async () => {
    ctx = await testContext();
    for (let i = 0; i < 3; i++) assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account' })).statusCode, 200);
    assert.equal((await ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 1, fields: 'accountname' } })).statusCode, 200);
    assert.equal((await ctx.request({ method: 'GET', url: '/nowhere' })).statusCode, 404);
    assert.equal((await ctx.request({ method: 'POST', url: '/live' })).statusCode, 405);
    assert.equal((await ctx.request({ method: 'PATCH', url: '/api/record/account?pagesize=1' })).statusCode, 405);
    const text = await scrape(ctx);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="health",method="POST",status="405"}'), 1, 'a 405 under the family of its path');
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="records",method="PATCH",status="405"}'), 1);
    for (const window of ['minute', 'day', 'address']) assert.equal(metricSample(text, `orchard_rate_limited_total{window="${window}"}`), 0, 'every series there from the start');
    for (const code of ['STORE_UNAVAILABLE', 'STORE_BUSY']) assert.equal(metricSample(text, `orchard_store_errors_total{code="${code}"}`), 0);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="records",method="GET",status="200"}'), 3);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="query",method="POST",status="200"}'), 1);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="unmatched",method="GET",status="404"}'), 1);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_bucket{le="30",family="records",method="GET",status="200"}'), 3);
    assert.equal(metricSample(text, 'orchard_open_organizations'), 1);
    assert.equal(typeof metricSample(text, 'orchard_reader_threads'), 'number');
    assert.equal(metricSample(text, 'orchard_reader_threads_busy'), 0);
    assert.equal(metricSample(text, 'orchard_usage_notices_sent_total'), 0);
    assert.ok(text.includes('process_cpu_seconds_total'), 'the process metrics are there too');
    assert.ok(!text.includes('org='), 'no organization label by default');
  });

  test('counts a 405 asked with doubled slashes under its path\'s family, not other', async () => {
    ctx ??= await testContext();
    assert.equal((await ctx.request({ method: 'PATCH', url: '//api//query' })).statusCode, 405);
    assert.equal((await ctx.request({ method: 'DELETE', url: '//metadata//records' })).statusCode, 405);
    const text = await scrape(ctx);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="query",method="PATCH",status="405"}'), 1);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="metadata",method="DELETE",status="405"}'), 1);
    assert.ok(!text.includes('family="other"'), text.split('\n').filter((l) => l.includes('family="other"')).join('\n'));
  });

  test('names route families from route patterns', () => {
    assert.deepEqual(['/api/record/:obj/:id', '/api/v3/record/:obj/batch/create', '/api/v2/record/:obj', '/api/query', '/metadata/records/:obj/fields', '/ready', '/docs/static/*', '/_orchard/orgs', undefined].map(familyOf),
      ['records', 'v3', 'v2', 'query', 'metadata', 'health', 'docs', 'control', 'unmatched']);
  });
});

test('counts 429s by window: minute, day and address', async () => {
  const ctx = await testContext({ minuteLimit: 2, config: { dailyCap: 3, addressMinuteLimit: 1 } });
  try {
    const LIST = { method: 'GET', url: '/api/record/account' } as const;
    assert.equal((await ctx.request(LIST)).statusCode, 200);
    assert.equal((await ctx.request(LIST)).statusCode, 200);
    assert.equal((await ctx.request(LIST)).headers['x-error-code'], 'LIMIT_MINUTE');
    ctx.clock.advance(61_000);
    assert.equal((await ctx.request(LIST)).statusCode, 200);
    assert.equal((await ctx.request(LIST)).headers['x-error-code'], 'LIMIT_DAY');
    assert.equal((await ctx.request({ ...LIST, token: 'wrong' })).statusCode, 401);
    assert.equal((await ctx.request({ ...LIST, token: 'wrong' })).headers['x-error-code'], 'LIMIT_ADDRESS');
    await ctx.app.limits!.notices.idle();
    const text = await scrape(ctx);
    assert.equal(metricSample(text, 'orchard_rate_limited_total{window="minute"}'), 1);
    assert.equal(metricSample(text, 'orchard_rate_limited_total{window="day"}'), 1);
    assert.equal(metricSample(text, 'orchard_rate_limited_total{window="address"}'), 1);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="records",method="GET",status="429"}'), 3);
    // The third request of the day reached 90 % and 100 % of the cap of 3: two notices, to the outbox.
    assert.equal(metricSample(text, 'orchard_usage_notices_sent_total'), 2);
  } finally {
    await ctx.close();
  }
});

test('counts a request whose client went away before its body ended under status 499, never as a 5xx, and ends its time limit', async () => {
  const LIMIT_MS = 300;
  const { ctx, entries } = await loggedContext((options) => testContext({ ...options, config: { ...options.config, requestTimeoutMs: LIMIT_MS } }));
  try {
    const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const conn = await rawConnection(url);
    conn.write(`POST /api/record/account HTTP/1.1\r\nHost: x\r\ntokenid: ${ctx.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"accountname": "Acme`);
    await conn.leave();
    // Past the time limit: a request whose client left is over, and is not stopped (or logged) again.
    await new Promise((r) => setTimeout(r, 2 * LIMIT_MS));
    await assertClosedByClient(ctx, entries, 'POST', '/api/record/account');
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account' })).json().data.Total_Records, 0);
  } finally {
    await ctx.close();
  }
});

test('counts webhook attempts by result, their time, a delivery\'s time from its write to its success, and webhooks disabled', async () => {
  const MIN = 60_000;
  const ctx = await testContext({ config: { webhooks: { allowPrivate: true, retryBaseMs: MIN, retryCapMs: 4 * MIN, maxAttempts: 6, disableFailures: 2, disableHours: 1, timeoutMs: 2_000 } } });
  const receiver = await startReceiver();
  try {
    const sample = (text: string, name: string) => metricSample(text, name);
    let text = await scrape(ctx);
    for (const result of ['success', 'failure', 'error']) assert.equal(sample(text, `orchard_webhook_attempts_total{result="${result}"}`), 0, 'every series there from the start');
    assert.equal(sample(text, 'orchard_webhooks_disabled_total'), 0);
    receiver.answer = (r) => (r.path.endsWith('/down') ? 500 : 200);
    for (const url of [`${receiver.url}/ok`, `${receiver.url}/down`, `http://127.0.0.1:${await sparePort()}/gone`]) {
      assert.equal((await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url } })).statusCode, 201);
    }
    assert.equal((await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Watched' } })).statusCode, 201);
    await ctx.app.webhooks.idle();
    text = await scrape(ctx);
    assert.deepEqual(['success', 'failure', 'error'].map((result) => sample(text, `orchard_webhook_attempts_total{result="${result}"}`)), [1, 1, 1]);
    assert.equal(sample(text, 'orchard_webhook_attempt_duration_seconds_count'), 3);
    assert.equal(sample(text, 'orchard_webhook_delivery_seconds_count'), 1, 'only a success ends a delivery');
    assert.equal(sample(text, 'orchard_webhook_delivery_seconds_bucket{le="86400"}'), 1);
    // Failing past the hour and two attempts, both failing webhooks are disabled by their next probe.
    ctx.clock.advance(61 * MIN);
    await ctx.app.webhooks.idle();
    ctx.clock.advance(4 * MIN);
    await ctx.app.webhooks.idle();
    text = await scrape(ctx);
    assert.equal(sample(text, 'orchard_webhooks_disabled_total'), 2);
    assert.equal(sample(text, 'orchard_webhook_attempts_total{result="success"}'), 1);
  } finally {
    await ctx.close();
    await receiver.close();
  }
});

test('guards /metrics with METRICS_TOKEN when it is set', async () => {
  const token = 'metrics-secret-0123456789';
  const ctx = await testContext({ config: { metricsToken: token } });
  try {
    for (const authorization of [undefined, 'Bearer wrong-secret-0123456789', token]) {
      const res = await ctx.request({ method: 'GET', url: '/metrics', token: null, headers: authorization ? { authorization } : {} });
      assert.equal(res.statusCode, 401);
      assert.equal(res.headers['x-error-code'], 'METRICS_TOKEN_INVALID');
      assert.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
    }
    assert.match(await scrape(ctx, { authorization: `Bearer ${token}` }), /orchard_open_organizations/);
  } finally {
    await ctx.close();
  }
});

test('labels requests with the organization only when METRICS_ORG_LABEL is on', async () => {
  const ctx = await testContext({ config: { metricsOrgLabel: true } });
  try {
    await ctx.request({ method: 'GET', url: '/api/record/account' });
    await ctx.request({ method: 'GET', url: '/live', token: null });
    const text = await scrape(ctx);
    assert.equal(metricSample(text, `orchard_http_request_duration_seconds_count{family="records",method="GET",status="200",org="${ctx.orgId}"}`), 1);
    assert.equal(metricSample(text, 'orchard_http_request_duration_seconds_count{family="health",method="GET",status="200",org=""}'), 1);
  } finally {
    await ctx.close();
  }
});

test('serves no /metrics when METRICS is off', async () => {
  const ctx = await testContext({ config: { metrics: false } });
  try {
    assert.equal((await ctx.request({ method: 'GET', url: '/metrics', token: null })).statusCode, 404);
  } finally {
    await ctx.close();
  }
});

test('counts store errors by code (PostgreSQL unreachable)', async () => {
  const dir = tempDir();
  const config = loadConfig({}, { dataDir: dir, logLevel: 'silent', databaseUrl: `postgres://postgres@127.0.0.1:${await sparePort()}/none`, databaseSchema: 'unreachable' });
  const stores = openStores(config);
  const app = await buildApp({ ...stores, config, clock: Date.now, logger: false });
  try {
    const res = await app.inject({ method: 'GET', url: '/api/record/account', headers: { tokenid: 'any' } });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['x-error-code'], 'STORE_UNAVAILABLE');
    assert.equal(res.headers['retry-after'], '5', 'it says when to retry');
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    assert.equal(metricSample(text, 'orchard_store_errors_total{code="STORE_UNAVAILABLE"}'), 1);
  } finally {
    await app.close();
    await stores.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('METRICS_TOKEN must be long enough to guard anything', () => {
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN must be 16 to 256 visible ASCII characters/);
  assert.equal(loadConfig({ METRICS_TOKEN: 'x'.repeat(16) }).metricsToken, 'x'.repeat(16));
  assert.throws(() => loadConfig({ METRICS: 'yes' }), /METRICS must be on or off/);
});
