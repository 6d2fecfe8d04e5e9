// Numbers a double cannot hold (docs/api.md § Numbers), on every store: 1e-400 would be 0 and 1e400
// Infinity, so a numeric field's value or a filter's number out of that range is refused with the
// field's 400 ('x' must be a valid Number) on v1, v2 and v3 and in imports, never stored or compared as 0.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';

const RANGE = /'price' must be a valid Number; got '-?1[eE][-+]?400'.*\. A Number holds 0 and magnitudes from 5e-324 to about 1\.8e308/;
/** A JSON body written as text, so that its numbers reach the server as the client wrote them. */
const raw = (body: string) => ({ headers: { 'content-type': 'application/json' }, payload: body });

for (const store of HTTP_STORES) {
  describe(`numbers out of a double's range on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let zero: string;
    before(async () => {
      ctx = await store.context();
      const made = await ctx.request({ method: 'POST', url: '/api/record/product', payload: { productname: 'Free', price: 0 } });
      assert.equal(made.statusCode, 201, made.body);
      zero = made.json().data.Record.productid;
    });
    after(() => ctx.close());

    const refused = (res: { statusCode: number; body: string }, what: string) => {
      assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
      assert.match(res.body, RANGE, what);
    };

    test('a numeric field\'s value is refused on create and update, v1, v2 and v3, as a JSON number and as text', async () => {
      for (const value of ['1e-400', '-1e-400', '1e400', '-1E+400', '"1e-400"', '"1e400"']) {
        const body = `{"productname": "Tiny", "price": ${value}}`;
        refused(await ctx.request({ method: 'POST', url: '/api/record/product', ...raw(body) }), `v1 create ${value}`);
        refused(await ctx.request({ method: 'POST', url: '/api/v2/record/product', ...raw(body) }), `v2 create ${value}`);
        refused(await ctx.request({ method: 'PUT', url: `/api/record/product/${zero}`, ...raw(body) }), `v1 update ${value}`);
        // A v3 batch answers each item: this one refused, nothing written.
        const batch = await ctx.request({ method: 'POST', url: '/api/v3/record/product/batch/create', ...raw(`{"data": [${body}]}`) });
        assert.deepEqual([batch.json().successCount, batch.json().data[0].status], [0, 400], `v3 batch ${value}: ${batch.body}`);
        assert.match(batch.json().data[0].message, RANGE, `v3 batch ${value}`);
      }
      // An import's NDJSON lines, as a body's JSON; its CSV cells, as text.
      for (const [format, body] of [['ndjson', '{"productname": "Tiny", "price": 1e-400}\n'], ['csv', 'productname,price\nTiny,1e-400\n']] as const) {
        const imported = await ctx.request({ method: 'POST', url: `/api/record/product/import?format=${format}`, headers: { 'content-type': format === 'csv' ? 'text/csv' : 'application/x-ndjson' }, payload: body });
        assert.equal(imported.statusCode, 200, imported.body);
        const { created, errors } = imported.json().data;
        assert.deepEqual([created, errors.length, errors[0]?.code], [0, 1, 'FIELD_TYPE'], `${format}: ${imported.body}`);
        assert.match(errors[0].message, RANGE, format);
      }
      // The smallest a double holds is kept as sent, and rounded by the field's precision like any other.
      const smallest = await ctx.request({ method: 'POST', url: '/api/record/product', ...raw('{"productname": "Smallest", "price": 5e-324, "description": 1e-400}') });
      assert.equal(smallest.statusCode, 201, smallest.body);
      assert.deepEqual([smallest.json().data.Record.price, smallest.json().data.Record.description], [0, '1e-400'], 'a text field keeps the text sent');
    });

    test('a body of 16 MB holding one long string and a number out of range is read, and refused for its values, not as JSON', async () => {
      // Read by a regular expression, the string overflowed the stack (RangeError), and the body was
      // answered 'not valid JSON' (BODY_INVALID) though it was.
      const body = `{"productname": "Long", "description": "${'x'.repeat(16 * 1024 * 1024)}", "price": 1e-400}`;
      const res = await ctx.request({ method: 'POST', url: '/api/record/product', ...raw(body) });
      assert.equal(res.statusCode, 400, res.body.slice(0, 300));
      assert.notEqual(res.headers['x-error-code'], 'BODY_INVALID', res.body.slice(0, 300));
      assert.match(res.body, /'description' is 16777216 characters long|'price' must be a valid Number/);
    });

    test('a filter\'s number is refused in a v1 query and a v3 query, not compared as 0', async () => {
      for (const value of ['1e-400', '1e400']) {
        refused(await ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 14, query: `price = ${value}` } }), `v1 query ${value}`);
        refused(await ctx.request({ method: 'POST', url: '/api/v3/query', ...raw(`{"objectType": 14, "filter": [{"type": "AND", "conditions": [{"fieldName": "price", "operator": "eq", "value": ${value}}]}]}`) }), `v3 query ${value}`);
      }
      const exact = await ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 14, query: 'price = 0' } });
      assert.equal(exact.statusCode, 200, exact.body);
      assert.ok(exact.json().data.Data.some((r: { productid: string }) => r.productid === zero));
    });
  });
}
