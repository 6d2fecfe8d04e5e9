// v3 condition values the official MCP client sends beyond strings and numbers (docs/compat.md, v3
// query): booleans read as 1 and 0 on number and picklist fields, and the relative dates of its
// list (now, weeks, months, quarters, N-days-after) on the organization's clock; on every store.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestContext } from '../helpers.js';
import { assertV3Error, postV3 } from '../http/v3-reply.js';
import { HTTP_STORES } from './http-stores.js';

const where = (fieldName: string, operator: string, value?: unknown) => [{ type: 'AND', conditions: [{ fieldName, operator, value }] }];

for (const store of HTTP_STORES) {
  describe(`v3 boolean condition values on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    const names = async (objectType: string, filter: object) => {
      const r = await postV3(ctx, '/api/v3/query', { objectType, fields: [{ name: 'name' }], orderBy: [{ name: 'name' }], filter });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data.map((row: { name: string }) => row.name);
    };

    before(async () => {
      ctx = await store.context();
      for (const [name, statecode, closeprobability] of [['yes', 1, 1], ['no', 2, 0], ['other', 2, 50]] as const) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/opportunity', payload: { name, statecode, closeprobability } });
        assert.equal(res.statusCode, 201, res.body);
      }
    });
    after(() => ctx.close());

    test('reads true and false as 1 and 0 on picklist and number fields', async () => {
      assert.deepEqual(await names('opportunity', where('statecode', 'eq', true)), ['yes']);
      assert.deepEqual(await names('opportunity', where('closeprobability', 'eq', false)), ['no']);
      assert.deepEqual(await names('opportunity', where('closeprobability', 'ne', true)), ['no', 'other']);
      assert.deepEqual(await names('opportunity', where('closeprobability', 'eq-in', [true, false])), ['no', 'yes']);
      assert.deepEqual(await names('opportunity', where('closeprobability', 'between', [false, true])), ['no', 'yes']);
    });

    test('refuses a boolean for a text, date or lookup field with 400 naming the field type', async () => {
      for (const [fieldName, type] of [['name', 'text'], ['createdon', 'datetime'], ['accountid', 'lookup']] as const) {
        const r = await postV3(ctx, '/api/v3/query', { objectType: 'opportunity', filter: where(fieldName, 'eq', true) });
        assertV3Error(r, 400, 'Bad Request',
          `filter[0].conditions[0].value is true, but '${fieldName}' is a ${type} field: true and false (read as 1 and 0) compare with number and picklist fields only. Send a ${type} value.`);
      }
      const r = await postV3(ctx, '/api/v3/query', { objectType: 'opportunity', filter: where('name', 'eq-in', ['a', false]) });
      assertV3Error(r, 400, 'Bad Request', /^filter\[0\]\.conditions\[0\]\.value\[1\] is false, but 'name' is a text field/);
    });
  });
}
