// Whole numbers in query strings are decimal digits on every route that takes one (the routes' own
// OpenAPI documents list them): `pagesize=0x10` was served as 16 and `pagesize=1e1` as 10.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';

const KEY = 'k'.repeat(32);
const bearer = { authorization: `Bearer ${KEY}` };

interface Parameter { in: string; name: string; schema?: { type?: string } }
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

/** Every GET (or other) operation's integer query parameters, with a URL that reaches its route. */
function integerQueryParameters(doc: Document): Array<{ method: string; path: string; url: string; name: string }> {
  const out: Array<{ method: string; path: string; url: string; name: string }> = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      for (const p of op.parameters ?? []) {
        if (p.in !== 'query' || p.schema?.type !== 'integer') continue;
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (/^(obj|ot)$/.test(name) ? 'account' : '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60'));
        out.push({ method: method.toUpperCase(), path, url, name: p.name });
      }
    }
  }
  return out;
}

describe('integer query parameters', () => {
  let ctx: TestContext;
  let found: Array<{ method: string; path: string; url: string; name: string; control: boolean }>;
  before(async () => {
    ctx = await testContext({ config: { adminKey: KEY } });
    const service = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json() as Document;
    const control = (await ctx.request({ method: 'GET', url: '/_orchard/openapi.json', token: null, headers: bearer })).json() as Document;
    found = [
      ...integerQueryParameters(service).map((p) => ({ ...p, control: false })),
      ...integerQueryParameters(control).map((p) => ({ ...p, control: true })),
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
});
