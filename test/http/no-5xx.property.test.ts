// No input yields a 5xx: arbitrary JSON (deep, wide, odd numbers, lone surrogates) as whole bodies
// and as the members real bodies carry, sent to every write and query route; and the bound on how
// deep a body may nest, with quoting of any value in a message.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { quote } from '../../src/errors.js';
import { MAX_BODY_DEPTH } from '../../src/http/json-body.js';
import { testContext, type TestContext } from '../helpers.js';
import { assertErrorReply } from './error-reply.js';
import { assertV3Error } from './v3-reply.js';

/** Strings with lone surrogates, astral characters, NUL and quotes mixed in. */
const oddText = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', 'Z', ' ', 'é', '\u0000', "'", '"', '\\', '(', ')', '%', '😀'),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 12,
});
const oddNumber = fc.oneof(fc.double(), fc.constantFrom(-0, 1e308, -1e308, 5e-324, 2 ** 53 + 1, 1e21, 0.1 + 0.2), fc.integer());
const scalar = fc.oneof(oddText, oddNumber, fc.boolean(), fc.constant(null));
const anyJson = fc.oneof(
  fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }),
  fc.array(scalar, { maxLength: 40 }),
  fc.dictionary(oddText, scalar, { maxKeys: 20 }),
  scalar,
);
/**
 * A value nested `depth` levels as arrays or objects, kept as JSON text: JSON.stringify and
 * fast-check's reporter recurse, and would overflow on it themselves.
 */
class Deep {
  constructor(readonly depth: number, readonly asArray: boolean) {}
  get text(): string {
    return this.asArray ? '['.repeat(this.depth) + '1' + ']'.repeat(this.depth) : '{"a":'.repeat(this.depth) + '1' + '}'.repeat(this.depth);
  }
  [fc.toStringMethod](): string {
    return `Deep(${this.depth}, ${this.asArray ? 'arrays' : 'objects'})`;
  }
}
const SENTINEL = '\u0001deep\u0001';
const member = fc.oneof(
  { weight: 4, arbitrary: anyJson as fc.Arbitrary<unknown> },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 6000 }), fc.boolean()).map(([d, a]) => new Deep(d, a) as unknown) },
);

/** The JSON text of `payload`, a Deep anywhere in it written out as its text. */
function textOf(payload: unknown, v: unknown): string {
  if (v instanceof Deep) return payload === v ? v.text : JSON.stringify(payload, (_k, x) => (x === v ? SENTINEL : x)).replaceAll(JSON.stringify(SENTINEL), v.text);
  return JSON.stringify(payload) ?? 'null';
}

const ID = '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f';

/** Every route that reads a body, each with the bodies its clients send built around an arbitrary member. */
function routes(v: unknown): Array<{ method: 'POST' | 'PUT'; url: string; payload: unknown }> {
  return [
    { method: 'POST', url: '/api/record/account', payload: { accountname: v } },
    { method: 'POST', url: '/api/record/account', payload: { accountname: 'x', [String(typeof v === 'string' ? v : 'k')]: v } },
    { method: 'PUT', url: `/api/record/account/${ID}`, payload: { telephone1: v } },
    { method: 'POST', url: '/api/v2/record/account', payload: { accountname: 'x', numberofemployees: v } },
    { method: 'PUT', url: `/api/v2/record/account/${ID}`, payload: { pcfsystemfield85: v } },
    { method: 'POST', url: '/api/v2/record/58', payload: { name: v, collectionname: v } },
    { method: 'POST', url: '/api/v2/system-field/1/picklist', payload: { label: 'L', options: [{ label: v, value: v }] } },
    { method: 'POST', url: '/api/v3/record/account/batch/create', payload: { data: [v, { accountname: v }] } },
    { method: 'POST', url: '/api/v3/record/account/batch/update', payload: { data: [{ id: v, record: v }, { id: ID, record: { accountname: v } }] } },
    { method: 'POST', url: '/api/v3/record/account/batch/delete', payload: { data: [v] } },
    { method: 'POST', url: '/api/query', payload: { objecttype: 1, query: v, fields: v, sort_by: v, sort_type: v, page_size: v } },
    { method: 'POST', url: '/api/query', payload: { objecttype: v } },
    { method: 'POST', url: '/api/v3/query', payload: { objectType: 1, fields: [{ name: v }], filter: [{ type: 'AND', conditions: [{ fieldName: 'accountname', operator: 'eq', value: v }] }] } },
    { method: 'POST', url: '/api/v3/query', payload: { objectType: 1, filter: v, orderBy: v, pageSize: v, pageNumber: v } },
    { method: 'POST', url: '/api/v3/query', payload: { objectType: 1, groupBy: [{ name: v }], fields: [{ name: 'accountid', aggrFunc: v, alias: v }], orderBy: [{ name: v }] } },
    { method: 'POST', url: '/api/v3/query', payload: { objectType: 1, groupBy: v, fields: [{ name: v, aggrFunc: 'MAX', alias: 'm' }] } },
    { method: 'POST', url: '/api/v2/system-field/1/picklist', payload: { label: 'L', values: [{ name: v, value: v }] } },
    { method: 'POST', url: '/api/v2/system-field/1/lookup', payload: { label: 'L', relatedObjectId: v, relatedObjectType: v } },
    { method: 'POST', url: '/api/v2/views/account', payload: { name: v, fields: v, query: v, sortBy: v } },
    { method: 'POST', url: '/api/v2/views/account/default', payload: { pageNumber: v, pageSize: v, sortBy: v } },
  ];
}

describe('no input yields a 5xx', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await testContext();
  });
  after(() => ctx.close());

  const send = (r: { method: 'POST' | 'PUT'; url: string; payload: unknown }, v?: unknown) =>
    ctx.request({ method: r.method, url: r.url, payload: textOf(r.payload, v), headers: { 'content-type': 'application/json' } });

  test('arbitrary JSON as every member of every write and query body is answered below 500', async () => {
    await fc.assert(fc.asyncProperty(member, async (v) => {
      for (const r of routes(v)) {
        const res = await send(r, v);
        assert.ok(res.statusCode < 500, `${r.method} ${r.url} → ${res.statusCode} ${res.body.slice(0, 300)}`);
        JSON.parse(res.body);
      }
    }), { numRuns: 60 });
  });

  test('arbitrary JSON as the whole body of every write and query route is answered below 500', async () => {
    const urls = [...new Set(routes(null).map((r) => `${r.method} ${r.url}`))];
    await fc.assert(fc.asyncProperty(member, async (v) => {
      for (const u of urls) {
        const [method, url] = u.split(' ') as ['POST' | 'PUT', string];
        const res = await send({ method, url, payload: v }, v);
        assert.ok(res.statusCode < 500, `${u} → ${res.statusCode} ${res.body.slice(0, 300)}`);
      }
    }), { numRuns: 40 });
  });

  test(`refuses a body nested more than ${MAX_BODY_DEPTH} levels with 400 naming the limit, on every route family`, async () => {
    const deep = '['.repeat(4500) + ']'.repeat(4500);
    for (const r of routes(null)) {
      const res = await ctx.request({ method: r.method, url: r.url, payload: deep, headers: { 'content-type': 'application/json' } });
      const message = `The request body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep. Send records as flat maps of field names to values.`;
      if (r.url.startsWith('/api/v3/')) assertV3Error({ status: res.statusCode, body: res.json(), res }, 400, 'Bad Request', message);
      else assertErrorReply(res, 400, message);
      assert.equal(res.headers['x-error-code'], 'BODY_TOO_DEEP');
    }
    let atLimit: unknown = 'x';
    for (let i = 1; i < MAX_BODY_DEPTH; i++) atLimit = { a: atLimit };
    const ok = await send({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Deep enough', description: atLimit } });
    assert.equal(ok.headers['x-error-code'], 'FIELD_TYPE', `${MAX_BODY_DEPTH} levels are read and judged by content: ${ok.body.slice(0, 200)}`);
  });

  test('quotes any value in a message in at most 81 characters, however deep or wide', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const v of [deep, Array.from({ length: 100_000 }, (_, i) => i), 'x'.repeat(1_000_000), { ['k'.repeat(500)]: 1 }]) {
      const q = quote(v);
      assert.ok(q.length <= 81, q);
      assert.ok(q.includes('…'), q);
    }
    assert.equal(quote({ a: [1, 'two', null, true] }), '{"a":[1,"two",null,true]}', 'short values are their JSON text');
    assert.equal(quote([[[[[1]]]]]), '[[[[[…]]]]]');
  });

  test('refuses a lone surrogate in a text field with 400 naming the field, and stores well-formed text as sent', async () => {
    for (const [value, at] of [['a\ud800b', 1], ['\udc00', 0], ['x😀\udfff', 3]] as const) {
      const res = await send({ method: 'POST', url: '/api/record/account', payload: { accountname: value } });
      assertErrorReply(res, 400, `'accountname' must be a valid Text; it contains a lone UTF-16 surrogate (\\u${value.charCodeAt(at).toString(16)}) at position ${at}, which is not a character. Send well-formed Unicode text.`);
    }
    const batch = await send({ method: 'POST', url: '/api/v3/record/account/batch/create', payload: { data: [{ accountname: 'ok' }, { accountname: '\ud83d' }] } });
    assert.equal(batch.json().data[1].status, 400);
    assert.match(batch.json().data[1].message, /^'accountname' must be a valid Text; it contains a lone UTF-16 surrogate/);
    const astral = await send({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Ünïcødé 😀 𝄞' } });
    assert.equal(astral.statusCode, 201, astral.body);
    assert.equal(astral.json().data.Record.accountname, 'Ünïcødé 😀 𝄞');
    const label = await send({ method: 'POST', url: '/api/v2/system-field/1/text', payload: { label: 'Bad\udc01' } });
    assertErrorReply(label, 400, /^'label': it contains a lone UTF-16 surrogate/);
  });
});
