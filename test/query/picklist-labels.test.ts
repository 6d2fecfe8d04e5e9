// show_real_value in the POST /api/query body (docs/compat.md, second round): picklist fields come back as
// their labels, standard and custom ones, on every store; codes otherwise; Columns, filters and
// sorts unchanged.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestContext } from '../helpers.js';
import { HTTP_STORES } from './http-stores.js';
import { runQuery } from './fixture.js';

const FIELDS = 'accountname,statecode,statuscode,accounttypecode,industrycode,pcfsystemfield86,telephone1';

for (const store of HTTP_STORES) {
  describe(`show_real_value on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    const query = (body: Record<string, unknown>) => runQuery(ctx, { fields: FIELDS, sort_by: 'accountname', query: "accountname start-with 'Label'", ...body });

    before(async () => {
      ctx = await store.context();
      const field = await ctx.request({ method: 'POST', url: '/api/v2/system-field/account/picklist', payload: { label: 'Tier', options: [{ label: 'Gold', value: 7 }, { label: 'Silver', value: 8 }] } });
      assert.equal(JSON.parse(field.body).data.systemField[0].fieldname, 'pcfsystemfield86', field.body);
      for (const payload of [
        { accountname: 'Label One', statecode: 2, accounttypecode: 3, industrycode: 9, pcfsystemfield86: 7, telephone1: '3' },
        { accountname: 'Label Two' },
      ]) assert.equal((await ctx.request({ method: 'POST', url: '/api/record/account', payload })).statusCode, 201);
    });
    after(() => ctx.close());

    test('returns every picklist field as its label with show_real_value 1, and the same Columns as without it', async () => {
      const labels = await query({ show_real_value: 1 });
      assert.equal(labels.status, 200, JSON.stringify(labels.body));
      assert.deepEqual(labels.body.data.Data, [
        { accountname: 'Label One', statecode: 'Inactive', statuscode: 'Default', accounttypecode: 'Prospect', industrycode: 'Technology', pcfsystemfield86: 'Gold', telephone1: '3' },
        { accountname: 'Label Two', statecode: 'Active', statuscode: 'Default', accounttypecode: null, industrycode: null, pcfsystemfield86: null, telephone1: null },
      ]);
      const codes = await query({});
      assert.deepEqual(labels.body.data.Columns, codes.body.data.Columns);
      assert.equal(labels.body.data.Columns[1].systemfieldtypeid, 'b4919f2e-2996-48e4-a03c-ba39fb64386c');
    });

    test('keeps codes when show_real_value is absent, 0, false, "0", "false" or null', async () => {
      const codes = [
        { accountname: 'Label One', statecode: 2, statuscode: 1, accounttypecode: 3, industrycode: 9, pcfsystemfield86: 7, telephone1: '3' },
        { accountname: 'Label Two', statecode: 1, statuscode: 1, accounttypecode: null, industrycode: null, pcfsystemfield86: null, telephone1: null },
      ];
      for (const body of [{}, { show_real_value: 0 }, { show_real_value: false }, { show_real_value: '0' }, { show_real_value: 'false' }, { show_real_value: null }]) {
        const r = await query(body);
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.deepEqual(r.body.data.Data, codes, JSON.stringify(body));
      }
    });

    test('takes true, "1" and "true" as 1', async () => {
      const expected = (await query({ show_real_value: 1 })).body.data.Data;
      assert.equal(expected[0].statecode, 'Inactive');
      for (const show_real_value of [true, '1', 'true', ' TRUE ']) assert.deepEqual((await query({ show_real_value })).body.data.Data, expected, String(show_real_value));
    });

    test('still filters and sorts by codes', async () => {
      const r = await query({ show_real_value: 1, query: 'statecode = 2 or accounttypecode >= 3', sort_by: 'statecode', sort_type: 'desc', fields: 'statecode,accounttypecode' });
      assert.deepEqual(r.body.data.Data, [{ statecode: 'Inactive', accounttypecode: 'Prospect' }]);
    });

    test('refuses any other value with 400 naming the member', async () => {
      for (const show_real_value of [2, 'yes', -1]) {
        const r = await query({ show_real_value });
        assert.equal(r.status, 400);
        assert.match(r.body.Message, /^'show_real_value' must be 1 or 0 \(or true or false\); got/);
      }
    });
  });
}
