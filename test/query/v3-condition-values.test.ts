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

/** Accounts by pcfsystemfield85 (datetime); the test clock stands at 2026-03-01T12:00:00Z, a Sunday. */
const STAMPS: ReadonlyArray<[string, string | null]> = [
  ['a', '2025-12-31T23:59:59'], ['b', '2026-01-15T00:00:00'], ['c', '2026-02-10T10:00:00'], ['d', '2026-03-01T11:59:59'],
  ['e', '2026-03-01T12:00:00'], ['f', '2026-03-01T12:00:01'], ['g', '2026-03-03T08:00:00'], ['h', '2026-04-01T00:00:00'], ['i', null],
];

for (const store of HTTP_STORES) {
  describe(`v3 relative dates of the MCP client's list on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    const names = async (objectType: string, fieldName: string, operator: string, value: unknown) => {
      const r = await postV3(ctx, '/api/v3/query', {
        objectType, fields: [{ name: objectType === 'account' ? 'accountname' : 'name' }], orderBy: [{ name: objectType === 'account' ? 'accountname' : 'name' }],
        filter: where(fieldName, operator, value),
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.data.map((row: Record<string, string>) => row.accountname ?? row.name).join('');
    };
    const at = (operator: string, value: unknown) => names('account', 'pcfsystemfield85', operator, value);

    before(async () => {
      ctx = await store.context();
      for (const [accountname, pcfsystemfield85] of STAMPS) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname, pcfsystemfield85 } });
        assert.equal(res.statusCode, 201, res.body);
      }
      for (const [name, estimatedclosedate] of [['feb28', '2026-02-28'], ['mar01', '2026-03-01'], ['mar02', '2026-03-02']]) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/opportunity', payload: { name, estimatedclosedate } });
        assert.equal(res.statusCode, 201, res.body);
      }
    });
    after(() => ctx.close());

    test("compares 'now' with a datetime field to the second, and means today on a date field", async () => {
      assert.equal(await at('eq', 'now'), 'e');
      assert.equal(await at('ne', 'Now'), 'abcdfghi');
      assert.equal(await at('lt', 'now'), 'abcd');
      assert.equal(await at('le', 'now'), 'abcde');
      assert.equal(await at('gt', 'now'), 'fgh');
      assert.equal(await at('ge', 'now'), 'efgh');
      assert.equal(await at('between', ['today', 'now']), 'de');
      assert.equal(await names('opportunity', 'estimatedclosedate', 'eq', 'now'), 'mar01');
      assert.equal(await names('opportunity', 'estimatedclosedate', 'lt', 'now'), 'feb28');
    });

    test('takes weeks, months, quarters and N-days-after as spans of whole days', async () => {
      assert.equal(await at('eq', 'last-2-weeks'), 'c');
      assert.equal(await at('eq', 'next-1-weeks'), 'g');
      assert.equal(await at('eq', 'last-2-months'), 'bc');
      assert.equal(await at('ge', 'next-1-months'), 'h');
      assert.equal(await at('eq', 'this-quarterly'), 'bcdefg');
      assert.equal(await at('eq', 'last-quarterly'), 'a');
      assert.equal(await at('eq', 'next-quarterly'), 'h');
      assert.equal(await at('eq', 'quarterly-1'), 'bcdefg');
      assert.equal(await at('ne', 'quarterly-1'), 'ahi');
      assert.equal(await at('between', ['quarterly-1', 'quarterly-2']), 'bcdefgh');
      assert.equal(await at('eq', '2-days-after'), 'g');
      assert.equal(await at('le', '1-day-after'), 'abcdef');
      assert.equal(await names('opportunity', 'estimatedclosedate', 'eq', '1-day-after'), 'mar02');
    });

    test("follows the organization's clock", async () => {
      ctx.clock.advance(Date.parse('2026-04-01T00:00:00Z') - Date.parse('2026-03-01T12:00:00Z'));
      try {
        assert.equal(await at('eq', 'this-quarterly'), 'h');
        assert.equal(await at('eq', 'now'), 'h');
        assert.equal(await at('eq', 'last-1-months'), 'defg');
      } finally {
        ctx.clock.ms = Date.parse('2026-03-01T12:00:00Z');
      }
    });

    test('refuses a relative date with a pattern operator', async () => {
      const r = await postV3(ctx, '/api/v3/query', { objectType: 'account', filter: where('pcfsystemfield85', 'start-with', 'now') });
      assertV3Error(r, 400, 'Bad Request', /'start-with' cannot take a relative date/);
    });
  });
}
