// Browsers and proxies (docs/operations.md): CORS for CORS_ORIGINS only (off by default; the
// tokenid header allowed; never on the control API), TRUST_PROXY so the per-address limit counts the
// client behind a proxy, and 405 with Allow for a known path asked with another method.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { testContext, type TestContext } from '../helpers.js';

const KEY = 'test-admin-key-0123456789abcdef';
const APP = 'https://app.example.com';

const preflight = (url: string, origin = APP) => ({
  method: 'OPTIONS' as const, url, token: null,
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'tokenid, content-type' },
});

describe('CORS off (the default)', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext()));
  after(() => ctx.close());

  test('no CORS header field on any reply, and a preflight is not answered', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/record/account', headers: { origin: APP } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const pre = await ctx.request(preflight('/api/record/account'));
    assert.equal(pre.statusCode, 405);
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
  });
});

describe('CORS_ORIGINS set', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { corsOrigins: [APP, 'http://localhost:3000'], adminKey: KEY } })));
  after(() => ctx.close());

  test('an allowed origin may read replies, errors included, and their codes', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/record/account', headers: { origin: APP } });
    assert.equal(res.headers['access-control-allow-origin'], APP);
    assert.match(String(res.headers.vary), /Origin/i);
    assert.match(String(res.headers['access-control-expose-headers']), /x-error-code/);
    const refused = await ctx.request({ method: 'GET', url: '/api/record/account', token: null, headers: { origin: APP } });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.headers['access-control-allow-origin'], APP);
  });

  test('a preflight for the tokenid header is answered 204 for an allowed origin', async () => {
    const pre = await ctx.request(preflight('/api/record/account'));
    assert.equal(pre.statusCode, 204);
    assert.equal(pre.headers['access-control-allow-origin'], APP);
    assert.match(String(pre.headers['access-control-allow-headers']), /tokenid/);
    assert.match(String(pre.headers['access-control-allow-methods']), /PUT/);
  });

  test('an OPTIONS that is not a preflight (no Origin, or no Access-Control-Request-Method) gets the API\'s 405 or 404', async () => {
    const bare = await ctx.request({ method: 'OPTIONS', url: '/api/record/account', token: null });
    assert.equal(bare.statusCode, 405);
    assert.equal(bare.headers['x-error-code'], 'METHOD_NOT_ALLOWED');
    assert.equal(bare.headers['access-control-allow-methods'], undefined);
    const unknown = await ctx.request({ method: 'OPTIONS', url: '/api/nowhere', token: null });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.headers['x-error-code'], 'ROUTE_NOT_FOUND');
    const noMethod = await ctx.request({ method: 'OPTIONS', url: '/api/record/account', token: null, headers: { origin: APP } });
    assert.equal(noMethod.statusCode, 405);
    assert.equal(noMethod.headers['access-control-allow-origin'], APP, 'the page may read the refusal');
  });

  test('another origin gets no Access-Control-Allow-Origin', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/record/account', headers: { origin: 'https://evil.example' } });
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal((await ctx.request(preflight('/api/record/account', 'https://evil.example'))).headers['access-control-allow-origin'], undefined);
  });

  test('the control API answers no origin, nor its preflights', async () => {
    const res = await ctx.request({ method: 'GET', url: '/_orchard/organizations', token: null, headers: { origin: APP, authorization: `Bearer ${KEY}` } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const pre = await ctx.request(preflight('/_orchard/organizations'));
    assert.notEqual(pre.statusCode, 204);
    assert.equal(pre.headers['access-control-allow-origin'], undefined);
  });

  test('the control API answers no origin when its path is percent-encoded (/%5Forchard/, which the router reads as /_orchard/)', async () => {
    for (const url of ['/%5Forchard/organizations', '/%5forchard/organizations', '//%5Forchard/organizations', '/_orch%61rd/organizations']) {
      const res = await ctx.request({ method: 'GET', url, token: null, headers: { origin: APP, authorization: `Bearer ${KEY}` } });
      assert.equal(res.statusCode, 200, `${url} reaches the control API`);
      assert.ok('items' in res.json(), url);
      assert.equal(res.headers['access-control-allow-origin'], undefined, url);
      const pre = await ctx.request(preflight(url));
      assert.notEqual(pre.statusCode, 204, url);
      assert.equal(pre.headers['access-control-allow-origin'], undefined, url);
    }
  });
});

describe('CORS_ORIGINS=*', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { corsOrigins: ['*'] } })));
  after(() => ctx.close());

  test('any origin', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/record/account', headers: { origin: 'https://any.example' } });
    assert.equal(res.headers['access-control-allow-origin'], '*');
  });
});

test('CORS_ORIGINS and TRUST_PROXY are checked when read', () => {
  assert.deepEqual(loadConfig({}).corsOrigins, []);
  assert.deepEqual(loadConfig({ CORS_ORIGINS: 'https://a.example, http://b.example:8080/' }).corsOrigins, ['https://a.example', 'http://b.example:8080']);
  assert.throws(() => loadConfig({ CORS_ORIGINS: 'a.example' }), /CORS_ORIGINS must be/);
  assert.equal(loadConfig({}).trustProxy, false);
  assert.equal(loadConfig({ TRUST_PROXY: 'on' }).trustProxy, true);
  assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy, ['127.0.0.1', '10.0.0.0/8']);
  assert.throws(() => loadConfig({ TRUST_PROXY: 'yes please' }), /TRUST_PROXY must be/);
  for (const bad of ['10.0.0.0/33', '2001:db8::/129', '10.0.0/8', '10.0.0.1/8/8', '::ffff:10.0.0.1/']) {
    assert.throws(() => loadConfig({ TRUST_PROXY: bad }), new RegExp(`^AppError: TRUST_PROXY must be .*; got '${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}'\\.$`), bad);
  }
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 2001:db8::/32,127.0.0.1' }).trustProxy, ['10.0.0.0/8', '2001:db8::/32', '127.0.0.1']);
});

describe('TRUST_PROXY and the per-address limit', () => {
  /** Three requests with a bad token from client A (through the proxy at 127.0.0.1), then one from client B. */
  async function clientB(trustProxy: false | number | string[]): Promise<number> {
    const ctx = await testContext({ config: { addressMinuteLimit: 2, trustProxy } });
    try {
      const from = (client: string) => ctx.request({ method: 'GET', url: '/api/record/account', token: 'nope', headers: { 'x-forwarded-for': client } });
      assert.deepEqual([(await from('203.0.113.1')).statusCode, (await from('203.0.113.1')).statusCode, (await from('203.0.113.1')).statusCode], [401, 401, 429]);
      return (await from('203.0.113.2')).statusCode;
    } finally {
      await ctx.close();
    }
  }

  test('behind a trusted proxy each client is counted apart; otherwise every request is the proxy\'s', async () => {
    assert.equal(await clientB(['127.0.0.1']), 401);
    assert.equal(await clientB(1), 401);
    assert.equal(await clientB(false), 429);
  });
});

describe('405 for a known path asked with another method', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: KEY } })));
  after(() => ctx.close());

  test('lists the path\'s methods in Allow, in the shape of its family, before the token is looked at', async () => {
    const v1 = await ctx.request({ method: 'PATCH', url: '/api/record/account?x=1', token: null });
    assert.equal(v1.statusCode, 405);
    assert.equal(v1.headers.allow, 'GET, HEAD, POST');
    assert.equal(v1.headers['x-error-code'], 'METHOD_NOT_ALLOWED');
    assert.deepEqual(Object.keys(v1.json()), ['Message']);
    assert.match(v1.json().Message, /\/api\/record\/account does not take PATCH; it takes GET, HEAD, POST/);

    const one = await ctx.request({ method: 'POST', url: '/api/record/account/3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f' });
    assert.equal(one.headers.allow, 'DELETE, GET, HEAD, PUT');

    const v3 = await ctx.request({ method: 'GET', url: '/api/v3/query' });
    assert.equal(v3.statusCode, 405);
    assert.equal(v3.headers.allow, 'POST');
    assert.deepEqual(Object.keys(v3.json()).sort(), ['error', 'message', 'status']);
    assert.equal(v3.json().status, 405);

    const control = await ctx.request({ method: 'DELETE', url: '/_orchard/organizations', token: null, headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(control.statusCode, 405);
    assert.equal(control.headers.allow, 'GET, HEAD, POST');
    assert.equal(control.json().error.code, 'METHOD_NOT_ALLOWED');
  });

  test('an unknown path is still a 404', async () => {
    const res = await ctx.request({ method: 'PATCH', url: '/api/nothing/here' });
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers.allow, undefined);
  });
});
