// The HTTP contract around errors and requests (docs/api.md): unknown routes, doubled slashes,
// X-Request-Id on every reply, the 20 MB limit, a 500 that leaks nothing, content types, and the
// `{Message}` shape of every error body.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { OrgRecords } from '../../src/store/types.js';
import type { RecordRow } from '../../src/schema/types.js';
import { testContext, type TestContext } from '../helpers.js';
import { assertErrorReply } from './error-reply.js';
import { assertV3Error } from './v3-reply.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const JSON_TYPE = 'application/json; charset=utf-8';
const MiB = 1024 * 1024;

function body(res: LightMyRequestResponse): any {
  return JSON.parse(res.body);
}

/** An error reply: the status, a JSON content type and a body with exactly one key, Message. */
describe('HTTP errors and request handling', () => {
  let ctx: TestContext;
  let record: RecordRow;

  before(async () => {
    ctx = await testContext();
    const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Acme' } });
    record = body(res).data.Record;
  });

  after(async () => {
    await ctx.close();
  });

  describe('routes', () => {
    test('answers an unknown route with 404 {Message}, with or without a token', async () => {
      const message = (m: string, p: string) =>
        `No route matches ${m} ${p}. The record routes are /api/record/{object} and /api/record/{object}/{id}; see /docs for all routes.`;
      assertErrorReply(await ctx.request({ method: 'GET', url: '/nope' }), 404, message('GET', '/nope'));
      assertErrorReply(await ctx.request({ method: 'GET', url: '/nope?tokenid=secret', token: null }), 404, message('GET', '/nope'));
      assertErrorReply(await ctx.request({ method: 'GET', url: '/api/records/account' }), 404, message('GET', '/api/records/account'));
      assertErrorReply(await ctx.request({ method: 'GET', url: `/api/record/account/${record.accountid}/extra` }), 404,
        message('GET', `/api/record/account/${record.accountid}/extra`));
    });

    test('answers an unknown route under /api/v3 with 404 in the v3 shape, with or without a token', async () => {
      for (const token of [undefined, null]) {
        const res = await ctx.request({ method: 'GET', url: '/api/v3/record/account/nothing', ...(token === null ? { token } : {}) });
        assertV3Error({ status: res.statusCode, body: res.json(), res }, 404, 'Not Found', /^No route matches GET \/api\/v3\/record\/account\/nothing\./);
      }
    });

    test('answers 404 and 405 under /api/v3 in the v3 shape when the path has doubled slashes before v3', async () => {
      // A base URL with a trailing slash yields //api/v3/…; Fastify's not-found scopes do not collapse those slashes.
      for (const url of ['//api/v3/nothing', '/api//v3/nothing', '//api//v3', '//api/v3/record/account/nothing?x=1']) {
        const res = await ctx.request({ method: 'POST', url, payload: {} });
        assertV3Error({ status: res.statusCode, body: res.json(), res }, 404, 'Not Found', new RegExp(`^No route matches POST ${url.split('?')[0]!.replace(/\//g, '\\/')}\\.`));
      }
      for (const url of ['//api/v3/query', '/api//v3/record/account/batch/create']) {
        const res = await ctx.request({ method: 'GET', url });
        assertV3Error({ status: res.statusCode, body: res.json(), res }, 405, 'Method Not Allowed', /does not take GET; it takes POST/);
        assert.equal(res.headers.allow, 'POST');
      }
      // Outside /api/v3 the doubled slashes keep {Message}.
      assertErrorReply(await ctx.request({ method: 'GET', url: '//api/v33/nothing' }), 404, /^No route matches GET \/\/api\/v33\/nothing\./);
    });

    test('answers an unknown method on a known path with 405 {Message} and Allow', async () => {
      const id = record.accountid as string;
      for (const [method, url, allow] of [
        ['PATCH', '/api/record/account', 'GET, HEAD, POST'], ['PATCH', `/api/record/account/${id}`, 'DELETE, GET, HEAD, PUT'],
        ['PUT', '/api/record/account', 'GET, HEAD, POST'], ['DELETE', '/api/record/account', 'GET, HEAD, POST'], ['POST', `/api/record/account/${id}`, 'DELETE, GET, HEAD, PUT'],
        ['OPTIONS', '/api/record/account', 'GET, HEAD, POST'],
      ] as const) {
        const res = await ctx.request({ method, url, payload: method === 'OPTIONS' ? undefined : { accountname: 'x' } });
        assertErrorReply(res, 405, new RegExp(`^${url.replace(/[/.]/g, '\\$&')} does not take ${method}; it takes ${allow} \\(listed in the Allow header\\)\\.$`));
        assert.equal(res.headers.allow, allow);
      }
      assert.equal(body(await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).data.Record.accountname, 'Acme');
    });

    test('tolerates doubled slashes on every record route', async () => {
      const list = await ctx.request({ method: 'GET', url: '//api//record//account' });
      assert.equal(list.statusCode, 200, list.body);
      assert.equal(body(list).data.PrimaryKey, 'accountid');

      const created = await ctx.request({ method: 'POST', url: '//api//record//account', payload: { accountname: 'Slashes' } });
      assert.equal(created.statusCode, 201, created.body);
      const id = body(created).data.Record.accountid;
      assert.equal(created.headers.location, `http://orchard.test/api/record/account/${id}`);

      const one = await ctx.request({ method: 'GET', url: `//api//record//account//${id}` });
      assert.equal(body(one).data.Record.accountname, 'Slashes');
      const put = await ctx.request({ method: 'PUT', url: `/api//record/account//${id}`, payload: { accountname: 'Doubled' } });
      assert.equal(body(put).data.Record.accountname, 'Doubled');
      const del = await ctx.request({ method: 'DELETE', url: `//api/record//account/${id}/` });
      assert.deepEqual(body(del), { success: true, data: null, message: '' });
    });

    test('answers a path with malformed percent-encoding with 400 {Message}, not Fastify\'s own body', async () => {
      const res = await ctx.request({ method: 'GET', url: '/api/record/account/%E0%A4%A' });
      assertErrorReply(res, 400, 'The request path is not a valid URL: it has a malformed percent-encoding. Encode path segments with encodeURIComponent.');
      assert.match(String(res.headers['x-request-id']), UUID);
    });

    test('answers an over-long path segment with 400 {Message}', async () => {
      for (const url of [`/api/record/account/${'a'.repeat(150)}`, `/api/record/${'x'.repeat(150)}`]) {
        const res = await ctx.request({ method: 'GET', url });
        assertErrorReply(res, 400, 'A path segment is too long to be an object name or a record id. Check the path.');
        assert.match(String(res.headers['x-request-id']), UUID);
      }
    });
  });

  describe('X-Request-Id', () => {
    test('is on every reply: success, 400, 401, 404, 413 and 500', async () => {
      const requests: Array<[number, InjectOptions & { token?: string | null }]> = [
        [200, { method: 'GET', url: '/api/record/account' }],
        [201, { method: 'POST', url: '/api/record/account', payload: { accountname: 'Id' } }],
        [400, { method: 'GET', url: '/api/record/account/not-a-uuid' }],
        [400, { method: 'POST', url: '/api/record/account', payload: '{', headers: { 'content-type': 'application/json' } }],
        [401, { method: 'GET', url: '/api/record/account', token: null }],
        [403, { method: 'DELETE', url: `/api/record/crmuser/${ctx.userId}` }],
        [404, { method: 'GET', url: '/nope' }],
        [404, { method: 'GET', url: `/api/record/account/${randomUUID()}` }],
        [413, { method: 'POST', url: '/api/record/account', payload: 'x'.repeat(21 * MiB), headers: { 'content-type': 'application/json' } }],
      ];
      const seen = new Set<string>();
      for (const [status, opts] of requests) {
        const res = await ctx.request(opts);
        assert.equal(res.statusCode, status, `${opts.method} ${opts.url}: ${res.body.slice(0, 200)}`);
        const id = String(res.headers['x-request-id']);
        assert.match(id, UUID, `${opts.method} ${opts.url}`);
        seen.add(id);
      }
      assert.equal(seen.size, requests.length, 'each request gets its own id');
    });

    test('echoes a sane client-sent id and replaces one that is not', async () => {
      for (const given of ['abc-123', 'trace.2025:01_x', 'a'.repeat(128)]) {
        const ok = await ctx.request({ method: 'GET', url: '/api/record/account', headers: { 'x-request-id': given } });
        assert.equal(ok.headers['x-request-id'], given);
        const missing = await ctx.request({ method: 'GET', url: '/api/record/account', token: null, headers: { 'x-request-id': given } });
        assert.equal(missing.headers['x-request-id'], given, 'echoed on errors too');
      }
      for (const bad of ['has space', 'a'.repeat(129), 'semi;colon', '<script>', '']) {
        const res = await ctx.request({ method: 'GET', url: '/api/record/account', headers: { 'x-request-id': bad } });
        assert.match(String(res.headers['x-request-id']), UUID, JSON.stringify(bad));
      }
    });
  });

  describe('request size', () => {
    test('answers a body over 20 MB with 413 {Message}', async () => {
      const payload = JSON.stringify({ accountname: 'Big', description: 'a'.repeat(21 * MiB) });
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload, headers: { 'content-type': 'application/json' } });
      assertErrorReply(res, 413, 'The request body is over the 20 MB limit. Send fewer records per request.');
      const put = await ctx.request({ method: 'PUT', url: `/api/record/account/${record.accountid}`, payload, headers: { 'content-type': 'text/plain' } });
      assertErrorReply(put, 413, 'The request body is over the 20 MB limit. Send fewer records per request.');
    });

    test('reads a body just under 20 MB (and judges its content, not its size)', async () => {
      const payload = JSON.stringify({ accountname: 'Big', description: 'a'.repeat(20 * MiB - 100) });
      assert.ok(Buffer.byteLength(payload) < 20 * MiB);
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload, headers: { 'content-type': 'application/json' } });
      assertErrorReply(res, 400, `'description' is ${20 * MiB - 100} characters long; its maxlength is 10000. Shorten the value.`);
    });
  });

  describe('a failure inside the server', () => {
    test('is a 500 with only a Message that leaks neither the error nor a stack', async () => {
      const secret = 'SQLITE secret /path/x.db';
      const store = ctx.stores.records;
      const original = store.org;
      const real = await original.call(store, ctx.orgId);
      // The real records with list and get failing the way a broken database would.
      const failing = Object.create(real) as OrgRecords;
      failing.list = async () => { throw new Error(secret); };
      failing.get = async () => { throw Object.assign(new TypeError(`${secret} at Object.<anonymous> (/src/x.ts:1:1)`), { code: 'SQLITE_IOERR' }); };
      store.org = async () => failing;
      try {
        for (const url of ['/api/record/account', `/api/record/account/${record.accountid}`]) {
          const res = await ctx.request({ method: 'GET', url, headers: { 'x-request-id': 'trace-500' } });
          assertErrorReply(res, 500, 'The server failed to handle this request. Check your data and try again; if it keeps failing, report request id trace-500.');
          assert.equal(res.headers['x-request-id'], 'trace-500');
          for (const leak of ['SQLITE', 'secret', '/path/x.db', 'Error', 'stack', ' at ', '.ts:', '.js:']) {
            assert.ok(!res.body.includes(leak), `the body leaks ${JSON.stringify(leak)}: ${res.body}`);
          }
          // The catalogue code is all a header says of the failure.
          assert.equal(res.headers['x-error-code'], 'INTERNAL');
          assert.deepEqual(Object.keys(res.headers).filter((h) => h !== 'x-error-code' && /sqlite|error|stack/i.test(h)), []);
        }
      } finally {
        store.org = original;
      }
      assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account' })).statusCode, 200, 'the server serves on');
    });
  });

  describe('content types', () => {
    test('serves a GET that carries Content-Type: application/json and no body', async () => {
      for (const url of ['/api/record/account', `/api/record/account/${record.accountid}`]) {
        const res = await ctx.request({ method: 'GET', url, headers: { 'content-type': 'application/json' } });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], JSON_TYPE);
      }
    });

    test('serves a DELETE that carries Content-Type: application/json and no body', async () => {
      const created = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'To delete' } });
      const id = body(created).data.Record.accountid;
      const res = await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}`, headers: { 'content-type': 'application/json' } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(body(res), { success: true, data: null, message: '' });
    });

    test('reads a JSON body whatever content type it is sent with', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'application/json; charset=utf-8', 'application/vnd.api+json']) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: JSON.stringify({ accountname: `Sent as ${type}` }), headers: { 'content-type': type } });
        assert.equal(res.statusCode, 201, `${type}: ${res.body}`);
        assert.equal(body(res).data.Record.accountname, `Sent as ${type}`);
      }
      const put = await ctx.request({ method: 'PUT', url: `/api/record/account/${record.accountid}`, payload: '{"accountnumber":"T-1"}', headers: { 'content-type': 'text/plain' } });
      assert.equal(body(put).data.Record.accountnumber, 'T-1');
    });

    test('reads a JSON body sent without any content type', async () => {
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: Buffer.from('{"accountname":"No type"}') });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(body(res).data.Record.accountname, 'No type');
    });

    test('refuses a form-encoded body as invalid JSON', async () => {
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: 'accountname=Acme', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assertErrorReply(res, 400, 'The request body is not valid JSON. Check your data.');
    });
  });

  test('every error body is JSON with exactly one key, Message', async () => {
    const id = record.accountid as string;
    const cases: Array<[number, InjectOptions & { token?: string | null }]> = [
      [400, { method: 'GET', url: '/api/record/account?pagesize=0' }],
      [400, { method: 'GET', url: '/api/record/account/123' }],
      [400, { method: 'GET', url: '/api/record/account/%ZZ' }],
      [400, { method: 'POST', url: '/api/record/account', payload: { nosuchfield: 1 } }],
      [400, { method: 'POST', url: '/api/record/account', payload: { accountname: 'x', accounttypecode: 'zz' } }],
      [400, { method: 'POST', url: '/api/record/account', payload: {} }],
      [400, { method: 'POST', url: '/api/record/account', payload: '[]', headers: { 'content-type': 'application/json' } }],
      [400, { method: 'PUT', url: `/api/record/account/${id}`, payload: 'not json', headers: { 'content-type': 'application/json' } }],
      [401, { method: 'GET', url: '/api/record/account', token: null }],
      [401, { method: 'GET', url: '/api/record/account', token: randomUUID() }],
      [403, { method: 'POST', url: '/api/record/crmuser', payload: { fullname: 'x' } }],
      [404, { method: 'GET', url: '/api/record/nosuchobject' }],
      [404, { method: 'GET', url: `/api/record/account/${randomUUID()}` }],
      [405, { method: 'PATCH', url: '/api/record/account' }],
      [413, { method: 'PUT', url: `/api/record/account/${id}`, payload: 'x'.repeat(21 * MiB) }],
    ];
    for (const [status, opts] of cases) {
      const res = await ctx.request(opts);
      assertErrorReply(res, status);
      assert.match(String(res.headers['x-request-id']), UUID);
    }
  });
});
