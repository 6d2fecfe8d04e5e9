// Rate limits through HTTP (docs/limits.md): the RateLimit fields on every authenticated reply,
// 429 with Retry-After for the minute and the day, what counts (every outcome but a 429), the scope
// (an organization across its tokens), the per-address limit for tokens that do not resolve, and
// counters that survive a restart of the app. The clock is moved, never waited for.

import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { HitResult, RateLimitStore } from '../../src/limits/rate-limit-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { openStores, type Stores } from '../../src/stores.js';
import { tempDir, testContext, type TestContext } from '../helpers.js';
import { assertErrorReply } from './error-reply.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const LIST = { method: 'GET', url: '/api/record/account' } as const;

let ctx: TestContext;
afterEach(async () => {
  await ctx.close();
});

function assert429(res: LightMyRequestResponse, message: string, retryAfter: number): void {
  assert.equal(res.statusCode, 429, res.body);
  assert.equal(res.headers['content-type'], JSON_TYPE);
  assertErrorReply(res, 429, message);
  assert.equal(res.headers['retry-after'], String(retryAfter));
}

/** The `r` of each policy in the RateLimit field: `{ minute: 99, day: 499 }`. */
function remaining(res: LightMyRequestResponse): Record<string, number> {
  const field = String(res.headers.ratelimit);
  return Object.fromEntries([...field.matchAll(/"(\w+)";r=(\d+);t=\d+/g)].map((m) => [m[1]!, Number(m[2])]));
}

const minuteMessage = (n: number, s: number) => `Too many requests: this organization may make ${n} requests in any 60 seconds, across all its tokens. Retry after ${s} seconds.`;

describe('rate limits over HTTP', () => {
  test('sends RateLimit-Policy and RateLimit for both windows on every authenticated reply, whatever its status', async () => {
    ctx = await testContext({ plan: 'free', minuteLimit: null });
    const created = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Acme' } });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers['ratelimit-policy'], '"minute";q=100;w=60, "day";q=500;w=86400', 'the default minute limit and the free plan\'s cap');
    assert.equal(created.headers.ratelimit, '"minute";r=99;t=60, "day";r=499;t=43200');
    ctx.clock.advance(12_500);
    const statuses = [];
    for (const opts of [
      LIST,
      { method: 'GET', url: '/api/record/account/not-a-uuid' },
      { method: 'GET', url: `/api/record/account/${randomUUID()}` },
      { method: 'DELETE', url: `/api/record/crmuser/${ctx.userId}` },
      { method: 'GET', url: '/api/record/nosuchobject' },
    ] as const) {
      const res = await ctx.request(opts);
      statuses.push(res.statusCode);
      assert.equal(res.headers['ratelimit-policy'], '"minute";q=100;w=60, "day";q=500;w=86400');
      assert.match(String(res.headers.ratelimit), /^"minute";r=\d+;t=48, "day";r=\d+;t=43188$/);
    }
    assert.deepEqual(statuses, [200, 400, 404, 402, 404], 'the free plan has no crmuser: 402, counted like the rest');
    assert.deepEqual(remaining(await ctx.request(LIST)), { minute: 93, day: 493 });
  });

  test('answers 429 LIMIT_MINUTE with Retry-After past the minute limit, and does not count the refused request', async () => {
    ctx = await testContext({ minuteLimit: 3 });
    for (let i = 0; i < 3; i++) assert.equal((await ctx.request(LIST)).statusCode, 200);
    ctx.clock.advance(1_500);
    const refused = await ctx.request(LIST);
    assert429(refused, minuteMessage(3, 59), 59);
    assert.equal(refused.headers['ratelimit-policy'], '"minute";q=3;w=60, "day";q=50000;w=86400');
    assert.equal(refused.headers.ratelimit, '"minute";r=0;t=59, "day";r=49997;t=43199');
    assert.ok(refused.headers['x-request-id']);
    // Regression: were the 429 counted, at +60 s only two requests would fit until +61.5 s.
    ctx.clock.advance(58_500);
    for (let i = 0; i < 3; i++) assert.equal((await ctx.request(LIST)).statusCode, 200, `request ${i + 1} after the window moved`);
    assert.equal((await ctx.request(LIST)).statusCode, 429);
  });

  test('counts every outcome at once: 200, 201, 400, 403, 404 and a 500', async () => {
    ctx = await testContext({ minuteLimit: 6 });
    const store = ctx.stores.records;
    const original = store.org;
    const failing = Object.create(await original.call(store, ctx.orgId)) as OrgRecords;
    failing.get = async () => { throw new Error('disk I/O error'); };
    const outcomes: Array<[number, InjectOptions]> = [
      [200, LIST],
      [201, { method: 'POST', url: '/api/record/account', payload: { accountname: 'Counted' } }],
      [400, { method: 'GET', url: '/api/record/account/not-a-uuid' }],
      [403, { method: 'DELETE', url: `/api/record/crmuser/${ctx.userId}` }],
      [404, { method: 'GET', url: `/api/record/account/${randomUUID()}` }],
    ];
    const left: number[] = [];
    for (const [status, opts] of outcomes) {
      const res = await ctx.request(opts);
      assert.equal(res.statusCode, status, `${opts.method} ${opts.url}: ${res.body}`);
      left.push(remaining(res).minute!);
    }
    store.org = async () => failing;
    try {
      const res = await ctx.request({ method: 'GET', url: `/api/record/account/${randomUUID()}` });
      assert.equal(res.statusCode, 500, res.body);
      left.push(remaining(res).minute!);
    } finally {
      store.org = original;
    }
    assert.deepEqual(left, [5, 4, 3, 2, 1, 0]);
    assert429(await ctx.request(LIST), minuteMessage(6, 60), 60);
  });

  test('counts an organization across all its tokens, apart from any other organization', async () => {
    ctx = await testContext({ minuteLimit: 2 });
    const second = await ctx.stores.admin.createToken(ctx.userId);
    const other = await ctx.stores.admin.createOrganization({ name: 'Other', plan: 'enterprise', email: 'other@example.com', minuteLimit: 2 });
    assert.equal((await ctx.request(LIST)).statusCode, 200);
    assert.equal((await ctx.request({ ...LIST, token: second })).statusCode, 200);
    assert.equal((await ctx.request(LIST)).statusCode, 429);
    assert.equal((await ctx.request({ ...LIST, token: second })).statusCode, 429);
    const res = await ctx.request({ ...LIST, token: other.token });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(remaining(res), { minute: 1, day: 49_999 });
  });

  test('answers 429 LIMIT_DAY at the daily cap until 00:00 UTC, then serves again', async () => {
    ctx = await testContext({ config: { dailyCap: 3 } });
    ctx.clock.ms = Date.parse('2026-03-01T23:59:50.000Z');
    for (let i = 0; i < 3; i++) assert.equal((await ctx.request(LIST)).statusCode, 200);
    ctx.clock.ms = Date.parse('2026-03-01T23:59:59.001Z');
    const refused = await ctx.request(LIST);
    assert429(refused, 'Daily request limit reached: this organization may make 3 requests per UTC day, across all its tokens, and has made them all. The count resets at 00:00 UTC; retry after 1 seconds.', 1);
    assert.match(String(refused.headers.ratelimit), /, "day";r=0;t=1$/);
    ctx.clock.ms = Date.parse('2026-03-02T00:00:00.000Z');
    const next = await ctx.request(LIST);
    assert.equal(next.statusCode, 200);
    assert.equal(next.headers['ratelimit-policy'], '"minute";q=1000000000;w=60, "day";q=3;w=86400');
    assert.match(String(next.headers.ratelimit), /, "day";r=2;t=86400$/);
  });

  test('limits requests whose token does not resolve per client address, counting them against no organization', async () => {
    ctx = await testContext({ minuteLimit: 10, config: { addressMinuteLimit: 2 } });
    const from = (remoteAddress: string, token: string | null) => ctx.request({ ...LIST, token, remoteAddress });
    assert.equal((await from('203.0.113.7', null)).statusCode, 401);
    const second = await from('203.0.113.7', 'not-a-token');
    assert.equal(second.statusCode, 401);
    assert.equal(second.headers['ratelimit-policy'], '"address";q=2;w=60');
    assert.equal(second.headers.ratelimit, '"address";r=0;t=60');
    ctx.clock.advance(10_000);
    assert429(await from('203.0.113.7', randomUUID()),
      'Too many requests without a valid API token from this address: at most 2 in any 60 seconds. Until then every request from this address is refused, whatever its token, so that guesses cannot be told apart; retry after 50 seconds with a valid token in the tokenid header. Behind a proxy, set TRUST_PROXY so that each client has its own address.', 50);
    assert.equal((await from('198.51.100.1', null)).statusCode, 401, 'another address has its own count');
    ctx.clock.advance(50_000);
    assert.equal((await from('203.0.113.7', null)).statusCode, 401);
  });

  test('refuses an address over its limit before looking at its token, so a right token cannot be told from a wrong one', async () => {
    ctx = await testContext({ minuteLimit: 10, config: { addressMinuteLimit: 2 } });
    const from = (token: string | null) => ctx.request({ ...LIST, token, remoteAddress: '203.0.113.9' });
    const control = ctx.stores.control;
    const resolve = control.resolveToken.bind(control);
    let lookedUp = 0;
    control.resolveToken = (hash) => { lookedUp++; return resolve(hash); };
    try {
      assert.equal((await from(randomUUID())).statusCode, 401);
      assert.equal((await from(randomUUID())).statusCode, 401);
      ctx.clock.advance(10_000);
      assert429(await from(randomUUID()),
        'Too many requests without a valid API token from this address: at most 2 in any 60 seconds. Until then every request from this address is refused, whatever its token, so that guesses cannot be told apart; retry after 50 seconds with a valid token in the tokenid header. Behind a proxy, set TRUST_PROXY so that each client has its own address.', 50);
      const before = lookedUp;
      ctx.clock.advance(1_000);
      const right = await from(ctx.token);
      const wrong = await from(randomUUID());
      for (const res of [right, wrong]) {
        assert429(res, 'Too many requests without a valid API token from this address: at most 2 in any 60 seconds. Until then every request from this address is refused, whatever its token, so that guesses cannot be told apart; retry after 49 seconds with a valid token in the tokenid header. Behind a proxy, set TRUST_PROXY so that each client has its own address.', 49);
        assert.equal(res.headers.ratelimit, '"address";r=0;t=49');
      }
      assert.equal(lookedUp, before, 'no token was looked up while the address was over its limit');
      ctx.clock.advance(49_000);
      const valid = await from(ctx.token);
      assert.equal(valid.statusCode, 200, 'served once the window gives the address room');
      assert.deepEqual(remaining(valid), { minute: 9, day: 49_999 }, 'the 401s and the 429s counted nowhere in the organization');
    } finally {
      control.resolveToken = resolve;
    }
  });

  test('counts the per-address limit in real time, whatever the server\'s clock: a frozen one does not block an address for good', async () => {
    ctx = await testContext({ minuteLimit: 10, config: { addressMinuteLimit: 2 } });
    const from = (token: string | null) => ctx.request({ ...LIST, token, remoteAddress: '203.0.113.11' });
    ctx.app.toolkit.clocks.freeze(null, Date.parse('2026-06-01T12:00:00Z'));
    assert.equal((await from(randomUUID())).statusCode, 401);
    assert.equal((await from(randomUUID())).statusCode, 401);
    assert.equal((await from(randomUUID())).statusCode, 429);
    assert.equal((await from(ctx.token)).statusCode, 429, 'over its limit, the address is refused whatever its token');
    ctx.clock.advance(60_000); // real time; the server's clock stands still
    const valid = await from(ctx.token);
    assert.equal(valid.statusCode, 200, valid.body);
    const wrong = await from(randomUUID());
    assert.equal(wrong.statusCode, 401, 'the address\'s window is empty again');
    assert.equal(wrong.headers.ratelimit, '"address";r=1;t=60');
  });

  test('keeps counting across a restart of the app', async () => {
    ctx = await testContext({ minuteLimit: 3 });
    assert.equal((await ctx.request(LIST)).statusCode, 200);
    assert.equal((await ctx.request(LIST)).statusCode, 200);
    await ctx.app.close();
    const app = await buildApp({ ...ctx.stores, config: ctx.config, clock: ctx.clock.now, logger: false });
    try {
      const list = () => app.inject({ ...LIST, headers: { tokenid: ctx.token } });
      const res = await list();
      assert.equal(res.statusCode, 200);
      assert.deepEqual(remaining(res), { minute: 0, day: 49_997 });
      assert.equal((await list()).statusCode, 429);
    } finally {
      await app.close();
    }
  });

  test('sends no RateLimit fields and never 429 with RATE_LIMITS off', async () => {
    ctx = await testContext({ minuteLimit: 1, config: { rateLimits: false, addressMinuteLimit: 1 } });
    for (let i = 0; i < 3; i++) {
      const res = await ctx.request(LIST);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers.ratelimit, undefined);
      assert.equal((await ctx.request({ ...LIST, token: null })).statusCode, 401);
    }
    assert.equal(ctx.app.limits, null);
  });
});

describe('rate limits counted by a store that answers later (Redis)', () => {
  let dir: string;
  let stores: Stores;
  let app: FastifyInstance;
  let token: string;
  /** What happened, in order: the store asked ('hit') and answering ('answer'), a record read or written. */
  const events: string[] = [];

  before(async () => {
    dir = tempDir();
    const config = loadConfig({}, { dataDir: dir, logLevel: 'silent', addressMinuteLimit: 1_000_000 });
    stores = openStores(config);
    ({ token } = await stores.admin.createOrganization({ name: 'Later', plan: 'enterprise', email: 'later@example.com', minuteLimit: 3 }));
    // The embedded counters, answering a little later, as a store over the network does.
    const later = (inner: RateLimitStore): RateLimitStore => ({
      hit(key, quotas, now) {
        events.push('hit');
        const result = inner.hit(key, quotas, now) as HitResult;
        return new Promise((resolve) => setTimeout(() => {
          events.push('answer');
          resolve(result);
        }, 30));
      },
      usage: (key, quotas, now) => inner.usage(key, quotas, now),
      ping: () => inner.ping(),
      close: () => inner.close(),
    });
    const watched = (records: OrgRecords): OrgRecords => new Proxy(records, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (name === 'get' || name === 'create') events.push(name);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    // The store itself, its organizations watched (a spread would lose the methods of its class).
    const records = new Proxy(stores.records, {
      get(target, name) {
        if (name === 'org') return async (id: string) => watched(await target.org(id));
        const value = Reflect.get(target, name, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    app = await buildApp({ ...stores, records, openCounters: (clock, log) => later(stores.openCounters(clock, log)), config, clock: Date.now, logger: false });
    await app.ready();
  });

  after(async () => {
    await app.close();
    await stores.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('reads while the hit is decided, writes after it; a read over the limit is still answered 429 with its fields', async () => {
    const send = (opts: InjectOptions) => app.inject({ ...opts, headers: { tokenid: token } });
    events.length = 0;
    const created = await send({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Later' } });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(events, ['hit', 'answer', 'create'], 'a write waits for the answer');
    const id = JSON.parse(created.body).data.Record.accountid as string;

    events.length = 0;
    const read = await send({ method: 'GET', url: `/api/record/account/${id}` });
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(events, ['hit', 'get', 'answer'], 'a read does not');
    assert.match(String(read.headers.ratelimit), /^"minute";r=1;t=\d+, "day";r=\d+;t=\d+$/);

    assert.equal((await send({ method: 'GET', url: `/api/record/account/${id}` })).statusCode, 200);
    const refused = await send({ method: 'GET', url: `/api/record/account/${id}` });
    assert429(refused, minuteMessage(3, Number(refused.headers['retry-after'])), Number(refused.headers['retry-after']));
    assert.match(String(refused.headers.ratelimit), /^"minute";r=0;t=\d+, "day";r=\d+;t=\d+$/);
    assert.equal(refused.headers['ratelimit-policy'], '"minute";q=3;w=60, "day";q=50000;w=86400');
    const missing = await send({ method: 'GET', url: `/api/record/account/${randomUUID()}` });
    assert.equal(missing.statusCode, 429, `the refusal, not the read's 404: ${missing.body}`);
  });

  test('an export, whose reply is written by hand, waits for the answer: its fields, and 429 past the limit', async () => {
    const { token: own } = await stores.admin.createOrganization({ name: 'Exporter', plan: 'enterprise', email: 'exporter@example.com', minuteLimit: 1 });
    const exported = await app.inject({ method: 'GET', url: '/api/record/account/export', headers: { tokenid: own } });
    assert.equal(exported.statusCode, 200, exported.body);
    assert.equal(exported.headers['ratelimit-policy'], '"minute";q=1;w=60, "day";q=50000;w=86400');
    assert.match(String(exported.headers.ratelimit), /^"minute";r=0;t=60, "day";r=49999;t=\d+$/);
    const refused = await app.inject({ method: 'GET', url: '/api/record/account/export', headers: { tokenid: own } });
    assert429(refused, minuteMessage(1, Number(refused.headers['retry-after'])), Number(refused.headers['retry-after']));
  });
});
