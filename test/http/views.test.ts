// Views (docs/compat.md, views): every object's default view, views defined through the API and
// the CLI, listed with GET /api/v2/views/{ot} and run with POST /api/v2/views/{ot}/{viewId}
// ({pageNumber, pageSize, sortBy: {fieldName, type}}), under the plan and the role; on every store.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_AUTHOR, type TestContext } from '../helpers.js';
import { HTTP_STORES } from '../query/http-stores.js';
import { ok as cliOk } from '../cli/cli-runner.js';

const json = (res: { body: string }): any => JSON.parse(res.body);
const ADMIN_KEY = 'test-admin-key-0123456789abcdef';

/** Accounts: [name, city, createdon]; createdon order differs from name order. */
const ACCOUNTS: ReadonlyArray<[string, string | null, string]> = [
  ['Delta', 'Lisbon', '2025-01-04T00:00:00'],
  ['alpha', 'Lisbon', '2025-01-02T00:00:00'],
  ['Charlie', 'Porto', '2025-01-01T00:00:00'],
  ['Bravo', 'LISBON', '2025-01-03T00:00:00'],
  ['Echo', null, '2025-01-05T00:00:00'],
];

for (const store of HTTP_STORES) {
  describe(`views on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let readerToken: string;
    let outsiderToken: string;
    const get = (url: string, token?: string) => ctx.request({ method: 'GET', url, ...(token ? { token } : {}) });
    const post = (url: string, payload?: object, token?: string) => ctx.request({ method: 'POST', url, ...(payload ? { payload } : {}), ...(token ? { token } : {}) });
    const names = (res: { body: string }) => json(res).data.Data.map((r: { accountname: string }) => r.accountname);

    before(async () => {
      ctx = await store.context({ config: { adminKey: ADMIN_KEY } });
      const records = await ctx.stores.records.org(ctx.orgId);
      const account = (await records.schema()).resolve('account');
      for (const [accountname, billingcity, createdon] of ACCOUNTS) {
        const row: Record<string, unknown> = {};
        for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
        await ctx.stores.records.bulkInsert(ctx.orgId, account, [{
          ...row, accountid: crypto.randomUUID(), accountname, billingcity, statecode: 1, statuscode: 1, createdon, modifiedon: createdon,
          createdby: ctx.userId, modifiedby: ctx.userId, ownerid: ctx.userId, telephone1: `555-${accountname}`,
        }], TEST_AUTHOR);
      }
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'reader', grant: 'account:read', hide: 'account:telephone1' });
      readerToken = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'reader@example.com', role: 'reader' })).token;
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'outsider', grant: 'contact:read' });
      outsiderToken = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'outsider@example.com', role: 'outsider' })).token;
    });
    after(() => ctx.close());

    test('every object has a default view of all its records, with an id made of its number', async () => {
      for (const [ot, id, name] of [['account', '00000000-0000-4000-8000-000000000001', 'All Accounts'], ['2', '00000000-0000-4000-8000-000000000002', 'All Contacts']] as const) {
        const res = await get(`/api/v2/views/${ot}`);
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(json(res), {
          success: true, message: '',
          data: [{ viewId: id, name, objectType: Number(id.slice(-1)), isDefault: true, fields: '*', query: null, sortBy: { fieldName: 'createdon', type: 'desc' }, createdon: null }],
        });
      }
    });

    test('runs the default view: every record newest first, paged with pageNumber and pageSize, in the query payload', async () => {
      const res = await post('/api/v2/views/account/00000000-0000-4000-8000-000000000001', { pageNumber: 1, pageSize: 3 });
      assert.equal(res.statusCode, 200, res.body);
      const data = json(res).data;
      assert.deepEqual([data.ViewId, data.ViewName, data.SystemName, data.PrimaryKey, data.PageNum, data.SortBy, data.SortBy_Desc, data.IsLastPage],
        ['00000000-0000-4000-8000-000000000001', 'All Accounts', 'account', 'accountid', 1, 'createdon', true, false]);
      assert.deepEqual(data.Data.map((r: { accountname: string }) => r.accountname), ['Echo', 'Delta', 'Bravo']);
      assert.equal(data.Columns.length, Object.keys(data.Data[0]).length);
      const second = await post('/api/v2/views/1/DEFAULT', { pageNumber: 2, pageSize: 3 });
      assert.deepEqual([names(second), json(second).data.IsLastPage], [['alpha', 'Charlie'], true]);
      const all = await ctx.request({ method: 'POST', url: '/api/v2/views/account/default', headers: { 'content-type': 'application/json' } });
      assert.equal(json(all).data.Data.length, 5);
    });

    test('runs a view with another order for one request: sortBy {fieldName, type}', async () => {
      const res = await post('/api/v2/views/account/default', { sortBy: { fieldName: 'accountname', type: 'asc' } });
      assert.deepEqual(names(res), ['alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
      assert.deepEqual([json(res).data.SortBy, json(res).data.SortBy_Desc], ['accountname', false]);
      const desc = await post('/api/v2/views/account/default', { sortBy: { fieldName: 'AccountName', type: 'DESC' } });
      assert.deepEqual(names(desc), ['Echo', 'Delta', 'Charlie', 'Bravo', 'alpha']);
    });

    let lisbon: string;
    test('defines a view through the API (admin) and runs it: its fields, filter and order', async () => {
      const res = await post('/api/v2/views/account', { name: 'Lisbon accounts', fields: ['accountname', { name: 'BillingCity' }], query: "billingcity = 'lisbon'", sortBy: { fieldName: 'accountname', type: 'desc' } });
      assert.equal(res.statusCode, 200, res.body);
      const view = json(res).data;
      lisbon = view.viewId;
      assert.match(lisbon, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.deepEqual({ ...view, viewId: '', createdon: '' }, {
        viewId: '', name: 'Lisbon accounts', objectType: 1, isDefault: false, fields: 'accountname,billingcity', query: "billingcity = 'lisbon'",
        sortBy: { fieldName: 'accountname', type: 'desc' }, createdon: '',
      });
      assert.equal(view.createdon, '2026-03-01T12:00:00');
      const list = json(await get('/api/v2/views/account')).data;
      assert.deepEqual(list.map((v: { name: string }) => v.name), ['All Accounts', 'Lisbon accounts']);
      const run = await post(`/api/v2/views/account/${lisbon.toUpperCase()}`, { pageNumber: 1 });
      assert.equal(run.statusCode, 200, run.body);
      assert.deepEqual(json(run).data.Data, [
        { accountname: 'Delta', billingcity: 'Lisbon' }, { accountname: 'Bravo', billingcity: 'LISBON' }, { accountname: 'alpha', billingcity: 'Lisbon' },
      ]);
      const byCity = await post(`/api/v2/views/account/${lisbon}`, { sortBy: { fieldName: 'createdon' } });
      assert.deepEqual(names(byCity), ['alpha', 'Bravo', 'Delta']);
    });

    test('runs a view with fields added for one request, as a client sends them, and refuses conditions it would not apply', async () => {
      // powerlink-api's getViewRecords: fields as objects, conditionGroups empty.
      const telephone = { name: 'telephone1', logicalName: 'telephone1', fieldObjectType: 1, label: 'Phone', type: 'text' };
      const run = await post(`/api/v2/views/account/${lisbon}`, { fields: [telephone, 'BillingCity'], conditionGroups: [], pageNumber: 1, sortBy: { fieldName: 'accountname', type: 'asc' } });
      assert.equal(run.statusCode, 200, run.body);
      assert.deepEqual(json(run).data.Data[0], { accountname: 'alpha', billingcity: 'Lisbon', telephone1: '555-alpha' });
      const hidden = await post(`/api/v2/views/account/${lisbon}`, { fields: [telephone] }, readerToken);
      assert.equal(hidden.statusCode, 403, hidden.body);
      const conditions = await post(`/api/v2/views/account/${lisbon}`, { conditionGroups: [{ conditions: [{ fieldName: 'accountname', operator: 'eq', value: 'x' }] }] });
      assert.equal(conditions.statusCode, 400);
      assert.match(json(conditions).Message, /^'conditionGroups' is not taken when running a view; send it empty or leave it out/);
      const shapeless = await post(`/api/v2/views/account/${lisbon}`, { fields: [{ label: 'Phone' }] });
      assert.equal(shapeless.statusCode, 400);
      assert.match(json(shapeless).Message, /^fields\[0\] must be a field name or an object with its 'logicalName'/);
    });

    test('adds fields to the default view too: a related field shown, a hidden or unknown one refused', async () => {
      const run = await post('/api/v2/views/account/default', { fields: [{ logicalName: 'ownerid_fullname' }], pageSize: 1 });
      assert.equal(run.statusCode, 200, run.body);
      const data = json(run).data;
      assert.equal(data.Columns.at(-1).fieldname, 'ownerid_fullname');
      assert.equal(data.Columns.length, Object.keys(data.Data[0]).length);
      assert.ok(data.Columns.some((c: { fieldname: string }) => c.fieldname === 'telephone1'));
      const hidden = await post('/api/v2/views/account/default', { fields: ['telephone1'] }, readerToken);
      assert.equal(hidden.statusCode, 403, hidden.body);
      assert.equal(hidden.headers['x-error-code'], 'FIELD_FORBIDDEN');
      const unknown = await post('/api/v2/views/account/default', { fields: ['nosuch'] });
      assert.equal(unknown.statusCode, 400, unknown.body);
      assert.equal(unknown.headers['x-error-code'], 'FIELD_UNKNOWN');
      const plain = await post('/api/v2/views/account/default', { pageSize: 1 }, readerToken);
      assert.ok(!json(plain).data.Columns.some((c: { fieldname: string }) => c.fieldname === 'telephone1'));
    });

    test("keeps the names beside '*' in a view's definition: a related field is shown with every field", async () => {
      const res = await post('/api/v2/views/account', { name: 'Every field and owner', fields: '*,OwnerId_FullName' });
      assert.equal(res.statusCode, 200, res.body);
      const view = json(res).data;
      assert.equal(view.fields, '*,ownerid_fullname');
      const run = await post(`/api/v2/views/account/${view.viewId}`, { pageSize: 1 });
      assert.equal(json(run).data.Columns.at(-1).fieldname, 'ownerid_fullname');
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/v2/views/account/${view.viewId}` })).statusCode, 200);
    });

    test('refuses a view it could not run, a taken name, and a definer without the admin role', async () => {
      const cases: Array<[object, number, string, RegExp]> = [
        [{ name: 'lisbon ACCOUNTS' }, 400, 'DEFINITION_INVALID', /already has a view named 'Lisbon accounts'/],
        [{ name: 'all accounts' }, 400, 'DEFINITION_INVALID', /already has a view named 'All Accounts'/],
        [{}, 400, 'DEFINITION_INVALID', /A view needs a 'name'/],
        [{ name: 'x'.repeat(201) }, 400, 'DEFINITION_INVALID', /'name' is 201 characters long; the most is 200/],
        [{ name: 'Bad filter', query: "accountname = 'x" }, 400, 'QUERY_SYNTAX', /Syntax error in query/],
        [{ name: 'Bad field', fields: 'accountname,nosuch' }, 400, 'FIELD_UNKNOWN', /Invalid field name: 'nosuch'/],
        [{ name: 'Bad fields', fields: 42 }, 400, 'DEFINITION_INVALID', /'fields' must be a comma-separated string/],
        [{ name: 'Bad sort', sortBy: { fieldName: 'accountname', type: 'up' } }, 400, 'SORT_INVALID', /'sortBy.type' must be 'asc' or 'desc'/],
        [{ name: 'Bad sort field', sortBy: { fieldName: 'nosuch' } }, 400, 'FIELD_UNKNOWN', /'nosuch' in 'sortBy.fieldName'/],
      ];
      for (const [payload, status, code, message] of cases) {
        const res = await post('/api/v2/views/account', payload);
        assert.equal(res.statusCode, status, `${JSON.stringify(payload)}: ${res.body}`);
        assert.equal(res.headers['x-error-code'], code);
        assert.match(json(res).Message, message);
      }
      const reader = await post('/api/v2/views/account', { name: 'Mine' }, readerToken);
      assert.equal(reader.statusCode, 403);
      assert.match(json(reader).Message, /define views/);
      assert.deepEqual(json(await get('/api/v2/views/account')).data.length, 2, 'nothing half-made');
    });

    test('answers 404 for a view no object has and for an unknown object', async () => {
      const missing = await post('/api/v2/views/account/3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f');
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.headers['x-error-code'], 'VIEW_NOT_FOUND');
      assert.match(json(missing).Message, /The account object has no view with id '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f'\. List its views with GET \/api\/v2\/views\/account or orchard view list --org <organization id> --object account;/);
      const elsewhere = await post(`/api/v2/views/contact/${lisbon}`);
      assert.equal(elsewhere.statusCode, 404, 'a view belongs to its object');
      assert.equal((await get('/api/v2/views/nosuch')).statusCode, 404);
    });

    test('lets a role that may read the object list and run views, leaving out its hidden fields, and no one else', async () => {
      const list = await get('/api/v2/views/account', readerToken);
      assert.equal(list.statusCode, 200);
      const all = await post('/api/v2/views/account/default', { pageSize: 1 }, readerToken);
      assert.equal(all.statusCode, 200, all.body);
      assert.ok(!('telephone1' in json(all).data.Data[0]) && 'accountname' in json(all).data.Data[0]);
      const phones = json(await post('/api/v2/views/account', { name: 'Phones', fields: 'accountname,telephone1' })).data.viewId;
      const hidden = await post(`/api/v2/views/account/${phones}`, {}, readerToken);
      assert.equal(hidden.statusCode, 403);
      assert.equal(hidden.headers['x-error-code'], 'FIELD_FORBIDDEN');
      // Nor is it listed to them: its fields would name what they may not read. Admin still sees it.
      const names = async (token?: string) => json(await get('/api/v2/views/account', token)).data.map((v: { name: string }) => v.name);
      assert.ok(!(await names(readerToken)).includes('Phones'));
      assert.ok((await names(readerToken)).includes('All Accounts'));
      assert.ok((await names()).includes('Phones'));
      for (const res of [await get('/api/v2/views/account', outsiderToken), await post(`/api/v2/views/account/${lisbon}`, {}, outsiderToken)]) {
        assert.equal(res.statusCode, 403);
        assert.equal(res.headers['x-error-code'], 'PERMISSION_DENIED');
      }
      assert.equal((await post('/api/v2/views/account/default', { pageNumber: 0 })).statusCode, 400);
    });

    test("dates a view defined by the organization's own clock", async () => {
      const admin = { authorization: `Bearer ${ADMIN_KEY}` };
      const clock = `/_orchard/organizations/${ctx.orgId}/clock`;
      const frozen = await ctx.request({ method: 'POST', url: `${clock}/freeze`, token: null, headers: admin, payload: { at: '2030-05-06T07:08:09Z' } });
      assert.equal(frozen.statusCode, 200, frozen.body);
      const res = await post('/api/v2/views/account', { name: 'Dated' });
      await ctx.request({ method: 'DELETE', url: clock, token: null, headers: admin });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/v2/views/account/${json(res).data.viewId}` })).statusCode, 200);
      assert.equal(json(res).data.createdon, '2030-05-06T07:08:09');
    });

    test("does not list a view that reads a field of another object the caller may not read, though the caller's own object hides nothing", async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'contacts', grant: 'contact:read' });
      const contactsToken = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'contacts@example.com', role: 'contacts' })).token;
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'both', grant: 'contact:read;account:read', hide: 'account:telephone1' });
      const bothToken = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'both@example.com', role: 'both' })).token;
      const defined = await post('/api/v2/views/contact', { name: 'Account phones', fields: 'fullname', query: "accountid_telephone1 = '555-Delta'" });
      assert.equal(defined.statusCode, 200, defined.body);
      const id = json(defined).data.viewId;
      const names = async (token?: string) => json(await get('/api/v2/views/contact', token)).data.map((v: { name: string }) => v.name);
      for (const [token, code] of [[contactsToken, 'PERMISSION_DENIED'], [bothToken, 'FIELD_FORBIDDEN']] as const) {
        const run = await post(`/api/v2/views/contact/${id}`, {}, token);
        assert.equal(run.statusCode, 403, run.body);
        assert.equal(run.headers['x-error-code'], code);
        // Its filter names the account's telephone and a value of it: not shown to either.
        assert.deepEqual(await names(token), ['All Contacts']);
      }
      assert.deepEqual(await names(), ['All Contacts', 'Account phones']);
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/v2/views/contact/${id}` })).statusCode, 200);
      // One that reads an object the plan lacks (402 to run) is not listed either; the CLI defines it whatever the plan.
      const owners = (await ctx.stores.admin.defineView({ orgId: ctx.orgId, object: 'contact', definition: { name: 'Owner e-mails', fields: 'fullname,ownerid_emailaddress1' } })).view.id;
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'contacts', grant: 'contact:read;crmuser:read' });
      assert.deepEqual(await names(contactsToken), ['All Contacts', 'Owner e-mails']);
      await ctx.stores.admin.updateOrganization({ id: ctx.orgId, plan: 'free' });
      try {
        const run = await post(`/api/v2/views/contact/${owners}`, {}, contactsToken);
        assert.equal(run.statusCode, 402, run.body);
        assert.deepEqual(await names(contactsToken), ['All Contacts']);
      } finally {
        await ctx.stores.admin.updateOrganization({ id: ctx.orgId, plan: 'enterprise' });
      }
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/v2/views/contact/${owners}` })).statusCode, 200);
    });

    test('lists and runs views in their createdon order for a role that hides createdon, as a query without sort_by is (docs/access.md)', async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'nodates', grant: 'account:read', hide: 'account:createdon' });
      const token = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'nodates@example.com', role: 'nodates' })).token;
      const defined = await post('/api/v2/views/account', { name: 'Lisbon, newest first', fields: 'accountname', query: "billingcity = 'lisbon'" });
      assert.equal(json(defined).data.sortBy.fieldName, 'createdon');
      const id = json(defined).data.viewId;
      const listed = json(await get('/api/v2/views/account', token)).data.map((v: { name: string }) => v.name);
      assert.ok(listed.includes('All Accounts') && listed.includes('Lisbon, newest first'), JSON.stringify(listed));
      const all = await post('/api/v2/views/account/default', {}, token);
      assert.equal(all.statusCode, 200, all.body);
      assert.deepEqual(names(all), ['Echo', 'Delta', 'Bravo', 'alpha', 'Charlie']);
      assert.ok(!('createdon' in json(all).data.Data[0]));
      const lisbon = await post(`/api/v2/views/account/${id}`, {}, token);
      assert.equal(lisbon.statusCode, 200, lisbon.body);
      assert.deepEqual(names(lisbon), ['Delta', 'Bravo', 'alpha']);
      // Asking for that order by name is still refused, as sort_by: 'createdon' is.
      const asked = await post('/api/v2/views/account/default', { sortBy: { fieldName: 'createdon', type: 'asc' } }, token);
      assert.equal(asked.statusCode, 403, asked.body);
      assert.equal(asked.headers['x-error-code'], 'FIELD_FORBIDDEN');
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/v2/views/account/${id}` })).statusCode, 200);
    });

    test('deletes a defined view (admin), never the default one', async () => {
      const del = await ctx.request({ method: 'DELETE', url: `/api/v2/views/account/${lisbon}` });
      assert.equal(del.statusCode, 200, del.body);
      assert.deepEqual(json(del), { success: true, data: null, message: '' });
      assert.equal((await post(`/api/v2/views/account/${lisbon}`)).statusCode, 404);
      const again = await ctx.request({ method: 'DELETE', url: `/api/v2/views/account/${lisbon}` });
      assert.equal(again.statusCode, 404);
      const def = await ctx.request({ method: 'DELETE', url: '/api/v2/views/account/default' });
      assert.equal(def.statusCode, 400);
      assert.match(json(def).Message, /default view of account .* cannot be deleted/);
      assert.equal((await ctx.request({ method: 'DELETE', url: '/api/v2/views/account/default', token: readerToken })).statusCode, 403);
    });

    if (store.name === 'SQLite') {
      test('defines, lists and deletes views with the CLI on the data directory of the running server, which serves them at once', async () => {
        const made = await cliOk(ctx.dir, ['view', 'create', '--org', ctx.orgId, '--object', 'account', '--name', 'Porto', '--fields', 'accountname',
          '--query', "billingcity = 'Porto'", '--sort-by', 'accountname', '--sort-type', 'desc']);
        assert.deepEqual({ ...made, id: '', createdon: '' }, {
          object: 'account', id: '', name: 'Porto', isDefault: false, fields: 'accountname', query: "billingcity = 'Porto'", sortBy: { fieldName: 'accountname', type: 'desc' }, createdon: '',
        });
        const run = await post(`/api/v2/views/account/${made.id}`);
        assert.deepEqual(json(run).data.Data, [{ accountname: 'Charlie' }]);
        const listed = await cliOk(ctx.dir, ['view', 'list', '--org', ctx.orgId, '--object', '1']);
        assert.deepEqual((listed.views as Array<{ name: string }>).map((v) => v.name), ['All Accounts', 'Phones', 'Porto']);
        assert.deepEqual(await cliOk(ctx.dir, ['view', 'delete', '--org', ctx.orgId, '--object', 'account', '--view', made.id as string]), { deleted: true });
        assert.equal((await post(`/api/v2/views/account/${made.id}`)).statusCode, 404);
      });
    }
  });
}
