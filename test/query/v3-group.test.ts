// Grouped v3 queries (docs/compat.md, v3 grouped query): groupBy with SUM, COUNT, MIN and MAX under
// aliases, rows without _id, the order of groups, paging with an exact isLastPage, filters, related
// fields, and the refusals (types, aliases, hidden fields); the same answers on every store.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestContext } from '../helpers.js';
import { assertV3Error, postV3 } from '../http/v3-reply.js';
import { HTTP_STORES } from './http-stores.js';

/** Opportunities: [name, account (index into ACCOUNTS or null), estimatedvalue, closeprobability, estimatedclosedate]. */
const ACCOUNTS = [['Acme', 'Lisbon'], ['acme', 'Porto'], ['Beta', 'Lisbon']] as const;
const OPPORTUNITIES: ReadonlyArray<[string, number | null, number | null, number | null, string | null]> = [
  ['o1', 0, 0.1, 10, '2025-01-05'],
  ['o2', 0, 0.2, 30, '2025-03-01'],
  ['o3', 1, 5, null, '2025-02-01'],
  ['o4', 2, 100.25, 50, null],
  ['o5', 2, null, 70, '2025-06-30'],
  ['o6', null, 7.5, 20, '2024-12-31'],
  ['o7', 2, -0.25, 40, '2025-01-01'],
];

/** The aggregates most tests ask for. */
const AGGREGATES = [
  { name: 'estimatedvalue', aggrFunc: 'SUM', alias: 'total' },
  { name: 'opportunityid', aggrFunc: 'count', alias: 'n' },
  { name: 'closeprobability', aggrFunc: 'Min', alias: 'lo' },
  { name: 'estimatedclosedate', aggrFunc: 'MAX', alias: 'last' },
];

for (const store of HTTP_STORES) {
  describe(`grouped v3 queries on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    const v3 = (payload: object, token?: string) => postV3(ctx, '/api/v3/query', { objectType: 'opportunity', ...payload }, token);
    const ok = async (payload: object, token?: string) => {
      const r = await v3(payload, token);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };
    let hiddenToken: string;

    before(async () => {
      ctx = await store.context();
      const accountIds: string[] = [];
      for (const [accountname, billingcity] of ACCOUNTS) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname, billingcity } });
        accountIds.push(JSON.parse(res.body).data.Record.accountid);
      }
      for (const [name, account, estimatedvalue, closeprobability, estimatedclosedate] of OPPORTUNITIES) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/opportunity', payload: {
          name, accountid: account === null ? null : accountIds[account], estimatedvalue, closeprobability, estimatedclosedate,
        } });
        assert.equal(res.statusCode, 201, res.body);
      }
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'novalue', grant: 'opportunity:read;account:read', hide: 'opportunity:estimatedvalue,account:billingcity' });
      hiddenToken = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'novalue@example.com', role: 'novalue' })).token;
    });
    after(() => ctx.close());

    test('groups by a field with SUM, COUNT, MIN and MAX under their aliases: no _id, empty group first, case variants apart', async () => {
      const body = await ok({ groupBy: [{ name: 'accountname' }], fields: [{ name: 'accountname' }, ...AGGREGATES] });
      assert.deepEqual(body, {
        data: [
          { accountname: null, total: 7.5, n: 1, lo: 20, last: '2024-12-31' },
          { accountname: 'Acme', total: 0.3, n: 2, lo: 10, last: '2025-03-01' },
          { accountname: 'acme', total: 5, n: 1, lo: null, last: '2025-02-01' },
          { accountname: 'Beta', total: 100, n: 3, lo: 40, last: '2025-06-30' },
        ],
        isLastPage: true, pageNumber: 1, pageSize: 50, message: '',
      });
    });

    test('groups by a related field and by several fields, the group fields first in groupBy order', async () => {
      const related = await ok({ groupBy: ['accountid_billingcity'], fields: [{ name: 'estimatedvalue', aggrFunc: 'SUM', alias: 'total' }] });
      assert.deepEqual(related.data, [{ accountid_billingcity: null, total: 7.5 }, { accountid_billingcity: 'Lisbon', total: 100.3 }, { accountid_billingcity: 'Porto', total: 5 }]);
      const two = await ok({ groupBy: [{ name: 'accountid_billingcity' }, { name: 'accountname' }], fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'n' }] });
      assert.deepEqual(two.data, [
        { accountid_billingcity: null, accountname: null, n: 1 },
        { accountid_billingcity: 'Lisbon', accountname: 'Acme', n: 2 },
        { accountid_billingcity: 'Lisbon', accountname: 'Beta', n: 3 },
        { accountid_billingcity: 'Porto', accountname: 'acme', n: 1 },
      ]);
    });

    test('orders groups by an alias or a group field in either direction, ties by the group fields', async () => {
      const byCount = await ok({ groupBy: [{ name: 'accountname' }], fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'n' }], orderBy: [{ name: 'N', order: 'DESC' }] });
      assert.deepEqual(byCount.data.map((r: { accountname: string | null }) => r.accountname), ['Beta', 'Acme', null, 'acme']);
      const byName = await ok({ groupBy: [{ name: 'accountname' }], orderBy: [{ name: 'accountname', order: 'desc' }] });
      assert.deepEqual(byName.data, [{ accountname: 'Beta' }, { accountname: 'acme' }, { accountname: 'Acme' }, { accountname: null }]);
      const bySum = await ok({ groupBy: [{ name: 'accountname' }], fields: AGGREGATES.slice(0, 1), orderBy: [{ name: 'total' }] });
      assert.deepEqual(bySum.data.map((r: { total: number }) => r.total), [0.3, 5, 7.5, 100]);
    });

    test('pages groups with an exact isLastPage and shows each group once', async () => {
      const pages = [];
      for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
        const body = await ok({ groupBy: [{ name: 'accountname' }], fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'n' }], pageSize: 2, pageNumber });
        pages.push([body.data.map((r: { accountname: string | null }) => r.accountname), body.isLastPage, body.pageNumber, body.pageSize]);
      }
      assert.deepEqual(pages, [[[null, 'Acme'], false, 1, 2], [['acme', 'Beta'], true, 2, 2], [[], true, 3, 2]]);
    });

    test('aggregates every chosen record in one group when there is no groupBy, even when none is chosen', async () => {
      const all = await ok({ fields: AGGREGATES });
      assert.deepEqual(all.data, [{ total: 112.8, n: 7, lo: 10, last: '2025-06-30' }]);
      const filtered = await ok({ fields: AGGREGATES, filter: [{ type: 'AND', conditions: [{ fieldName: 'closeprobability', operator: 'ge', value: 40 }] }] });
      assert.deepEqual(filtered.data, [{ total: 100, n: 3, lo: 40, last: '2025-06-30' }]);
      const none = await ok({ fields: [...AGGREGATES, { name: 'estimatedvalue', aggrFunc: 'COUNT', alias: 'valued' }], filter: [{ type: 'AND', conditions: [{ fieldName: 'name', operator: 'eq', value: 'nosuch' }] }] });
      assert.deepEqual(none, { data: [{ total: null, n: 0, lo: null, last: null, valued: 0 }], isLastPage: true, pageNumber: 1, pageSize: 50, message: '' });
    });

    test('counts only the records where the field has a value, and names an aggregate without an alias by its function and field', async () => {
      const body = await ok({ groupBy: [{ name: 'accountname' }], fields: [{ name: 'closeprobability', aggrFunc: 'COUNT' }, { name: '*', aggrFunc: 'COUNT' }, { name: 'estimatedvalue', aggrFunc: 'MAX' }],
        filter: [{ type: 'OR', conditions: [{ fieldName: 'accountname', operator: 'eq', value: 'acme' }, { fieldName: 'accountname', operator: 'is-null' }] }] });
      assert.deepEqual(body.data, [
        { accountname: null, count_closeprobability: 1, count: 1, max_estimatedvalue: 7.5 },
        { accountname: 'Acme', count_closeprobability: 2, count: 2, max_estimatedvalue: 0.2 },
        { accountname: 'acme', count_closeprobability: 0, count: 1, max_estimatedvalue: 5 },
      ]);
    });

    test('refuses what it cannot answer with 400 naming the member to fix', async () => {
      const cases: Array<[object, string, RegExp]> = [
        [{ groupBy: [{ name: 'accountname' }], fields: [{ name: 'name' }] }, 'PARAM_INVALID', /fields\[0\] 'name' is neither in groupBy nor aggregated/],
        [{ fields: [{ name: 'name', aggrFunc: 'SUM', alias: 's' }] }, 'FIELD_TYPE', /SUM takes number fields, but 'name' \(fields\[0\]\.name\) is a text field/],
        [{ fields: [{ name: 'name', aggrFunc: 'MIN', alias: 's' }] }, 'FIELD_TYPE', /MIN takes number, picklist, date, datetime fields/],
        [{ fields: [{ name: 'estimatedvalue', aggrFunc: 'AVG', alias: 's' }] }, 'PARAM_INVALID', /fields\[0\]\.aggrFunc must be one of SUM, COUNT, MIN, MAX; got "AVG"/],
        [{ fields: [{ name: '*', aggrFunc: 'SUM', alias: 's' }] }, 'PARAM_INVALID', /'\*' \(every record\) takes COUNT only/],
        [{ groupBy: ['accountname'], fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'AccountName' }] }, 'PARAM_INVALID', /alias 'AccountName' is taken/],
        [{ fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'n' }, { name: 'estimatedvalue', aggrFunc: 'SUM', alias: 'N' }] }, 'PARAM_INVALID', /alias 'N' is taken/],
        [{ fields: [{ name: '*', aggrFunc: 'COUNT', alias: '_id' }] }, 'PARAM_INVALID', /alias '_id' is taken/],
        [{ fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'two words' }] }, 'PARAM_INVALID', /alias must be a name of letters, digits and '_'/],
        [{ fields: [{ name: '*', aggrFunc: 'COUNT', alias: '__proto__' }] }, 'PARAM_INVALID', /fields\[0\]\.alias '__proto__' is reserved/],
        [{ groupBy: [{ name: 'nosuch' }] }, 'FIELD_UNKNOWN', /Invalid field name: 'nosuch' in groupBy\[0\]\.name/],
        [{ groupBy: [{ name: 'accountname' }], orderBy: [{ name: 'name' }] }, 'SORT_INVALID', /orderBy\[0\]\.name "name" is neither a groupBy field nor an alias/],
        [{ groupBy: Array.from({ length: 11 }, () => ({ name: 'name' })) }, 'PARAM_INVALID', /'groupBy' names 11 fields; the most is 10/],
        [{ groupBy: [{}] }, 'PARAM_INVALID', /'groupBy\[0\]' must be \{"name": "<field>"\}/],
      ];
      for (const [payload, code, message] of cases) {
        const r = await v3(payload);
        assertV3Error(r, 400, 'Bad Request', message);
        assert.equal(r.res.headers['x-error-code'], code, JSON.stringify(payload));
      }
    });

    test('refuses to group or aggregate a field hidden from the caller with 403, as any other use of it', async () => {
      for (const payload of [
        { groupBy: [{ name: 'estimatedvalue' }] },
        { fields: [{ name: 'estimatedvalue', aggrFunc: 'SUM', alias: 'total' }] },
        { fields: [{ name: 'estimatedvalue', aggrFunc: 'COUNT', alias: 'n' }] },
        { groupBy: [{ name: 'accountid_billingcity' }] },
      ]) {
        const r = await v3(payload, hiddenToken);
        assertV3Error(r, 403, 'Forbidden', /is hidden for role 'novalue'/);
      }
      const allowed = await ok({ groupBy: [{ name: 'accountname' }], fields: [{ name: 'closeprobability', aggrFunc: 'MAX', alias: 'hi' }] }, hiddenToken);
      assert.equal(allowed.data.length, 4);
    });
  });
}
