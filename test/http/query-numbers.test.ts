// Whole numbers in query strings are decimal digits on every route that takes one (the routes' own
// OpenAPI documents list them): `pagesize=0x10` was served as 16 and `pagesize=1e1` as 10. The
// control API's bodies take numbers as JSON numbers or decimal digits: `"0x10"`, `true` and `null`
// were read as 16, 1 and 0; and booleans as JSON booleans: `"true"`, `0` and `null` were read as
// true, false and false. A query parameter given twice is refused naming it, not with Ajv's
// "must be string" for the list the parser made of it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';

const KEY = 'k'.repeat(32);
const bearer = { authorization: `Bearer ${KEY}` };

interface Parameter { in: string; name: string; schema?: { type?: string; maximum?: number } }
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

/** Every GET (or other) operation's query parameters (of `type` only, when given), with a URL that reaches its route. */
function queryParameters(doc: Document, type?: string): Array<{ method: string; path: string; url: string; name: string; maximum?: number }> {
  const out: Array<{ method: string; path: string; url: string; name: string; maximum?: number }> = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query' || (type !== undefined && p.schema?.type !== type)) continue;
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (/^(obj|ot)$/.test(name) ? 'account' : '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60'));
        out.push({ method: method.toUpperCase(), path, url, name: p.name, ...(p.schema?.maximum !== undefined ? { maximum: p.schema.maximum } : {}) });
      }
    }
  }
  return out;
}

describe('integer query parameters', () => {
  let ctx: TestContext;
  let found: Array<{ method: string; path: string; url: string; name: string; maximum?: number; control: boolean }>;
  before(async () => {
    ctx = await testContext({ config: { adminKey: KEY } });
    const service = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json() as Document;
    const control = (await ctx.request({ method: 'GET', url: '/_orchard/openapi.json', token: null, headers: bearer })).json() as Document;
    found = [
      ...queryParameters(service, 'integer').map((p) => ({ ...p, control: false })),
      ...queryParameters(control, 'integer').map((p) => ({ ...p, control: true })),
    ];
  });
  after(() => ctx.close());

  test('are found on every paged route, so the check below covers them', () => {
    const named = new Set(found.map((p) => `${p.method} ${p.path} ${p.name}`));
    for (const expected of [
      'GET /api/record/{obj} pagesize', 'GET /api/record/{obj} pagenumber', 'GET /api/record/{obj}/{id} pagesize', 'GET /api/record/{obj}/{id} pagenumber',
      'GET /api/record/{obj}/{id}/history pagesize', 'GET /api/record/{obj}/{id}/history pagenumber', 'GET /api/changes pagesize',
      'GET /api/webhooks/{id}/deliveries pagesize', 'GET /api/webhooks/{id}/deliveries pagenumber',
    ]) assert.ok(named.has(expected), `${expected} among ${[...named].join('; ')}`);
    assert.ok(found.some((p) => p.control), 'the control API has some (limit)');
  });

  for (const bad of ['0x10', '1e1', '5.0', '0b11', '']) {
    test(`refuses ${bad === '' ? 'an empty value' : `'${bad}'`} with 400 PARAM_INVALID saying decimal digits, on every route`, async () => {
      for (const p of found) {
        const res = await ctx.request({
          method: p.method as 'GET', url: `${p.url}?${p.name}=${bad}`, ...(p.control ? { token: null, headers: bearer } : {}),
        });
        const where = `${p.method} ${p.url} ${p.name}=${bad}: ${res.body}`;
        assert.equal(res.statusCode, 400, where);
        assert.equal(res.headers['x-error-code'], 'PARAM_INVALID', where);
        const message = p.control ? res.json().error.message : res.json().Message;
        assert.match(message, new RegExp(`^Invalid query parameter '${p.name}' must be a whole number( of at least \\d+)? in decimal digits, such as 10; got '${bad.replace('.', '\\.')}'\\.$`), where);
      }
    });
  }

  test('out of range, quotes the text sent, not the number coercion made of it, trimmed when long, on every route', async () => {
    const nines = '9'.repeat(400);
    // Read as a double, 184467440737095517 is 184467440737095520: the message showed that. Too many
    // digits for a double are Infinity, which the schema's bounds let through.
    const below: Array<[string, string]> = [['-184467440737095517', "'-184467440737095517'"], [`-${nines}`, `'-${'9'.repeat(59)}…'`], ['0'.repeat(70), `'${'0'.repeat(60)}…'`]];
    const above: Array<[string, string]> = [['184467440737095517', "'184467440737095517'"], ['9007199254740992', "'9007199254740992'"], [nines, `'${'9'.repeat(60)}…'`]];
    const bounded = found.filter((p) => p.maximum !== undefined);
    for (const expected of ['GET /api/record/{obj} pagenumber', 'GET /api/record/{obj}/{id}/history pagenumber', 'GET /api/webhooks/{id}/deliveries pagenumber']) {
      assert.ok(bounded.some((p) => `${p.method} ${p.path} ${p.name}` === expected), `${expected} has a maximum`);
    }
    for (const p of found) {
      for (const [sent, quoted] of [...below, ...(p.maximum !== undefined ? above : [])]) {
        const res = await ctx.request({ method: p.method as 'GET', url: `${p.url}?${p.name}=${sent}`, ...(p.control ? { token: null, headers: bearer } : {}) });
        const where = `${p.method} ${p.url} ${p.name}=${sent.slice(0, 20)}: ${res.body}`;
        assert.deepEqual([res.statusCode, res.headers['x-error-code']], [400, 'PARAM_INVALID'], where);
        const message: string = p.control ? res.json().error.message : res.json().Message;
        const range = p.maximum !== undefined ? `from 1 to ${p.maximum}` : 'of at least 1';
        assert.equal(message, `Invalid query parameter '${p.name}' must be a whole number ${range}; got ${quoted}.`, where);
      }
    }
  });

  test('serves decimal digits as before, leading zeros and all', async () => {
    for (const r of ['A', 'B', 'C']) await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: r } });
    const page = (q: string) => ctx.request({ method: 'GET', url: `/api/record/account?${q}` }).then((res) => [res.statusCode, res.json().data?.Page_Size, res.json().data?.Records.length]);
    assert.deepEqual(await page('pagesize=2'), [200, 2, 2]);
    assert.deepEqual(await page('pagesize=002&pagenumber=02'), [200, 2, 1]);
    assert.deepEqual(await page('pagesize=50'), [200, 50, 3]);
    assert.deepEqual(await page('pagesize=0'), [400, undefined, undefined], 'the range is the schema\'s, as before');
  });

  test('leaves page numbers in bodies as clients send them: JSON numbers or digit strings', async () => {
    for (const page_size of [50, '50', 500]) {
      const res = await ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 1, page_size, page_number: 1 } });
      assert.equal(res.statusCode, 200, res.body);
    }
    for (const pageSize of [500, '500']) {
      const res = await ctx.request({ method: 'POST', url: '/api/v3/query', payload: { objectType: 1, pageSize, pageNumber: 1 } });
      assert.equal(res.statusCode, 200, res.body);
    }
    const hex = await ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 1, page_size: '0x10' } });
    assert.deepEqual([hex.statusCode, hex.json().Message], [400, '\'page_size\' must be a whole number; got "0x10".']);
  });

  test('tells a page number past 2^53 − 1 sent as a JSON number (1e21, whole) the bound, not that it is not whole, on both query routes', async () => {
    for (const page_number of [1e21, 9007199254740993]) {
      const res = await ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 1, page_number } });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().Message, /^'page_number' must be a whole number up to 9007199254740991; got /);
    }
    const v3 = await ctx.request({ method: 'POST', url: '/api/v3/query', payload: { objectType: 1, pageNumber: 1e21 } });
    assert.deepEqual([v3.statusCode, v3.json().message], [400, "'pageNumber' must be a whole number up to 9007199254740991; got 1e+21."]);
  });
});

describe('a query parameter given more than once', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: KEY } })));
  after(() => ctx.close());

  test('is refused with 400 PARAM_INVALID naming it and saying to give it once, whatever its type, on every route without a body', async () => {
    const service = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json() as Document;
    const control = (await ctx.request({ method: 'GET', url: '/_orchard/openapi.json', token: null, headers: bearer })).json() as Document;
    // A body is validated before the query string, so only the routes that take none are asked.
    const found = [...queryParameters(service).map((p) => ({ ...p, control: false })), ...queryParameters(control).map((p) => ({ ...p, control: true }))]
      .filter((p) => p.method === 'GET' || p.method === 'DELETE');
    const named = new Set(found.map((p) => `${p.method} ${p.path} ${p.name}`));
    for (const expected of ['GET /api/record/{obj} pagesize', 'GET /api/changes since', 'GET /api/changes objecttype', 'GET /api/record/{obj} tokenid']) assert.ok(named.has(expected), expected);
    assert.ok(found.some((p) => p.control), 'the control API\'s too');
    for (const p of found) {
      const res = await ctx.request({ method: p.method as 'GET', url: `${p.url}?${p.name}=1&${p.name}=2`, ...(p.control ? { token: null, headers: bearer } : {}) });
      const where = `${p.method} ${p.url} ${p.name}: ${res.body}`;
      assert.deepEqual([res.statusCode, res.headers['x-error-code']], [400, 'PARAM_INVALID'], where);
      const message = p.control ? res.json().error.message : res.json().Message;
      assert.equal(message, `Invalid query parameter '${p.name}' was given more than once (2 times); it must be given once.`, where);
    }
  });
});

describe('numbers and booleans in the control API\'s bodies', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: KEY, webhooks: { allowPrivate: true, deliver: false } } })));
  after(() => ctx.close());

  const call = (method: 'POST' | 'PATCH', url: string, payload: unknown) => ctx.request({ method, url: `/_orchard${url}`, token: null, headers: bearer, payload: payload as object });

  test('refuse a string not in decimal digits, true and null with 400 BODY_INVALID saying what is taken, and change nothing', async () => {
    const made = await call('POST', `/organizations/${ctx.orgId}/webhooks`, { event: 'created', url: 'http://127.0.0.1:9/hook' });
    assert.equal(made.statusCode, 201, made.body);
    const rotate = `/organizations/${ctx.orgId}/webhooks/${made.json().id}/rotate-secret`;
    const cases: Array<[string, 'POST' | 'PATCH', string, object, string]> = [
      ['0x10', 'POST', rotate, { expiresInHours: '0x10' }, '\'expiresInHours\' must be a whole number of at least 0 in decimal digits, such as 10; got "0x10"'],
      ['1e1', 'POST', rotate, { expiresInHours: '1e1' }, '\'expiresInHours\' must be a whole number of at least 0 in decimal digits, such as 10; got "1e1"'],
      ['null', 'POST', rotate, { expiresInHours: null }, '\'expiresInHours\' must be a whole number of at least 0 in decimal digits, such as 10; got null'],
      ['true', 'PATCH', `/organizations/${ctx.orgId}`, { minuteLimit: true }, '\'minuteLimit\' must be a whole number of at least 1 in decimal digits, such as 10; got true'],
      ['an empty text', 'POST', '/clock/advance', { ms: '' }, '\'ms\' must be a whole number in decimal digits, such as 10; got ""'],
      ['0x1 for a number', 'POST', '/faults', { orgId: ctx.orgId, latencyMs: 1, probability: '0x1' }, '\'probability\' must be a number in decimal digits, such as 10 or 0.5; got "0x1"'],
    ];
    for (const [name, method, url, payload, message] of cases) {
      const res = await call(method, url, payload);
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      assert.deepEqual(res.json(), { error: { code: 'BODY_INVALID', message: `The request body is invalid: ${message}. Check your data.` } }, name);
    }
    const shown = await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/webhooks`, token: null, headers: bearer });
    assert.equal(shown.json().items[0].previousSecretExpiresAt, null, 'not rotated');
    assert.deepEqual((await ctx.request({ method: 'GET', url: '/_orchard/faults', token: null, headers: bearer })).json().items, []);
  });

  test('take JSON numbers and decimal digits as before', async () => {
    const made = await call('POST', `/organizations/${ctx.orgId}/webhooks`, { event: 'created', url: 'http://127.0.0.1:9/other' });
    const rotate = `/organizations/${ctx.orgId}/webhooks/${made.json().id}/rotate-secret`;
    await call('POST', `/organizations/${ctx.orgId}/clock/freeze`, { at: '2030-01-01T00:00:00Z' });
    for (const [hours, until] of [[16, '2030-01-01T16:00:00.000Z'], ['16', '2030-01-01T16:00:00.000Z'], [' 2 ', '2030-01-01T02:00:00.000Z']] as const) {
      const res = await call('POST', rotate, { expiresInHours: hours });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().previousSecretExpiresAt, until, JSON.stringify(hours));
    }
    const fault = await call('POST', '/faults', { orgId: ctx.orgId, latencyMs: '1', probability: '0.5', seed: 7 });
    assert.equal(fault.statusCode, 201, fault.body);
    assert.deepEqual([fault.json().latencyMs, fault.json().probability, fault.json().seed], [1, 0.5, 7]);
    const limited = await call('PATCH', `/organizations/${ctx.orgId}`, { minuteLimit: '120' });
    assert.deepEqual([limited.statusCode, limited.json().minuteLimit], [200, 120]);
  });

  test('refuse a boolean member given as "true", "false", 1, 0 or null with 400 BODY_INVALID saying a JSON boolean is taken, and change nothing', async () => {
    const user = `/users/${ctx.userId}`;
    const cases: Array<[string, string, object, string]> = [
      ['"true"', '/clock/set', { at: '2031-01-01T00:00:00Z', frozen: 'true' }, '\'frozen\' must be a JSON boolean, true or false; got "true"'],
      ['"false"', '/clock/set', { at: '2031-01-01T00:00:00Z', frozen: 'false' }, '\'frozen\' must be a JSON boolean, true or false; got "false"'],
      ['1', `/organizations/${ctx.orgId}/clock/set`, { at: '2031-01-01T00:00:00Z', frozen: 1 }, '\'frozen\' must be a JSON boolean, true or false; got 1'],
      ['"true" (user)', user, { disabled: 'true' }, '\'disabled\' must be a JSON boolean, true or false; got "true"'],
      ['0', user, { disabled: 0 }, '\'disabled\' must be a JSON boolean, true or false; got 0'],
      ['null', user, { disabled: null }, '\'disabled\' must be a JSON boolean, true or false; got null'],
    ];
    const clocks = async () => (await ctx.request({ method: 'GET', url: '/_orchard/clocks', token: null, headers: bearer })).json().items;
    const before = await clocks();
    for (const [name, url, payload, message] of cases) {
      const res = await call(url === user ? 'PATCH' : 'POST', url, payload);
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      assert.deepEqual(res.json(), { error: { code: 'BODY_INVALID', message: `The request body is invalid: ${message}. Check your data.` } }, name);
    }
    assert.deepEqual(await clocks(), before, 'no clock was set');
    const shown = await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/users`, token: null, headers: bearer });
    assert.equal(shown.json().items.find((u: { id: string }) => u.id === ctx.userId).disabled, false, 'the user was not disabled');
  });

  test('take JSON booleans as before', async () => {
    const set = await call('POST', `/organizations/${ctx.orgId}/clock/set`, { at: '2031-01-01T00:00:00Z', frozen: true });
    assert.deepEqual([set.statusCode, set.json().mode], [200, 'frozen'], set.body);
    const running = await call('POST', `/organizations/${ctx.orgId}/clock/set`, { at: '2031-01-01T00:00:00Z', frozen: false });
    assert.equal(running.statusCode, 200, running.body);
    const user = `/users/${ctx.userId}`;
    assert.deepEqual([(await call('PATCH', user, { disabled: true })).json().disabled, (await call('PATCH', user, { disabled: false })).json().disabled], [true, false]);
    await ctx.request({ method: 'DELETE', url: `/_orchard/organizations/${ctx.orgId}/clock`, token: null, headers: bearer });
  });

  test('and in its query strings whole numbers are decimal digits too (every route: above)', async () => {
    const res = await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/journal?limit=0x10`, token: null, headers: bearer });
    assert.deepEqual([res.statusCode, res.json().error.code], [400, 'PARAM_INVALID']);
  });
});
