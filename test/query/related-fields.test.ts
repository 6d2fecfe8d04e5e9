// Related fields `{lookup}_{field}` (docs/compat.md, second round): a field of the record a lookup points
// to, in `fields`, filters and sort of /api/query and the v3 query, typed as that field, under the
// access rules of docs/access.md; on every store.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestContext } from '../helpers.js';
import { postV3 } from '../http/v3-reply.js';
import { FIXTURE_ACCOUNTS, codePointCompare, expectLabels, labelOf, queryLabels, runQuery, seedFixture, type Fixture, type FixtureAccount } from './fixture.js';
import { HTTP_STORES } from './http-stores.js';

const json = (res: { body: string }): any => JSON.parse(res.body);

for (const store of HTTP_STORES) {
  describe(`related fields on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let fx: Fixture;
    const tokens: Record<string, string> = {};

    before(async () => {
      ctx = await store.context();
      fx = await seedFixture(ctx);
      const roles = [
        ['accounts', 'account:read'],
        ['both', 'account:read;contact:read', { hide: 'contact:emailaddress1' }],
        ['nolookup', 'account:read;contact:read', { hide: 'account:primarycontactid' }],
        ['noname', 'account:read;contact:read', { hide: 'account:primarycontactname' }],
      ] as const;
      for (const [role, grant, extra] of roles) {
        await ctx.stores.admin.setRole({ orgId: ctx.orgId, role, grant, ...(extra ?? {}) });
        tokens[role] = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: `${role}@example.com`, role })).token;
      }
    });
    after(() => ctx.close());

    test('returns a field of the looked-up record in fields, with its Column, null where the lookup is empty', async () => {
      const r = await runQuery(ctx, { fields: 'accountid,primarycontactid_fullname,ownerid_fullname', query: "accountname start-with 'acme'", page_size: 500 });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const acme = FIXTURE_ACCOUNTS.filter((a) => a.accountname.toLowerCase().startsWith('acme'));
      assert.deepEqual(
        r.body.data.Data.map((row: Record<string, unknown>) => [labelOf(row.accountid), row.primarycontactid_fullname, row.ownerid_fullname]),
        expectLabels((a) => acme.includes(a)).map((label) => {
          const a = acme.find((x) => x.label === label)!;
          return [label, fx.contactName(a), fx.ownerName(a)];
        }),
      );
      assert.deepEqual(r.body.data.Columns[1], {
        name: 'Primary Contact Full Name', fieldname: 'primarycontactid_fullname', systemfieldtypeid: 'a1e7ed6f-5083-477b-b44c-9943a6181359',
        fieldobjecttype: null, isprimaryfield: false, isrequired: false, isreadonly: true, maxlength: 200,
      });
    });

    test('filters on a related field as on the field it reads: text without regard to case, is-null, start-with', async () => {
      assert.deepEqual(await queryLabels(ctx, { query: "primarycontactid_fullname = 'CARLA CONTACT'" }), expectLabels((a) => fx.contactName(a) === 'Carla Contact'));
      assert.deepEqual(await queryLabels(ctx, { query: 'ownerid_fullname start-with zoe' }), expectLabels((a) => a.owner === 'B'));
      assert.deepEqual(await queryLabels(ctx, { query: 'primarycontactid_fullname is-null' }), expectLabels((a) => a.primarycontactid === null));
      assert.deepEqual(await queryLabels(ctx, { query: "primarycontactid_fullname not-end-with 'DUPONT'" }), expectLabels((a) => fx.contactName(a) !== 'dmitri dupont'));
    });

    test('types a related field by the field it reads: picklist codes, whole-day datetimes, labels with show_real_value', async () => {
      const withContact = expectLabels((a) => a.primarycontactid !== null);
      assert.deepEqual(await queryLabels(ctx, { query: 'primarycontactid_statecode = 1' }), withContact);
      assert.deepEqual(await queryLabels(ctx, { query: "primarycontactid_createdon = '2025-01-01'" }), withContact);
      const bad = await runQuery(ctx, { query: "primarycontactid_statecode = 'x'" });
      assert.equal(bad.status, 400);
      assert.match(bad.body.Message, /^'primarycontactid_statecode' must be a valid Picklist code; got 'x'/);
      const labels = await runQuery(ctx, { fields: 'primarycontactid_statecode', query: "accountname = 'Acme'", show_real_value: 1 });
      assert.deepEqual(labels.body.data.Data, [{ primarycontactid_statecode: 'Active' }]);
    });

    test('sorts by a related field, empty values first ascending, ties by key in the same direction', async () => {
      for (const desc of [false, true]) {
        const got = await queryLabels(ctx, { sort_by: 'ownerid_fullname', sort_type: desc ? 'desc' : 'asc', page_size: 500 });
        const order = (a: FixtureAccount, b: FixtureAccount) => codePointCompare(fx.ownerName(a).toLowerCase(), fx.ownerName(b).toLowerCase()) || codePointCompare(a.accountid, b.accountid);
        const expected = [...FIXTURE_ACCOUNTS].sort(order).map((a) => a.label);
        assert.deepEqual(got, desc ? expected.reverse() : expected);
      }
      const contacts = await queryLabels(ctx, { sort_by: 'primarycontactid_fullname', query: "accountname start-with 'acme'" });
      assert.deepEqual(contacts.slice(-2), ['acme', 'acmeLabs']);
    });

    test('reads a custom lookup to a custom object as pcfsystemfieldN_name', async () => {
      const obj = json(await ctx.request({ method: 'POST', url: '/api/v2/record/58', payload: { name: 'Phase', collectionname: 'Phases' } })).record.objecttypecode;
      const field = json(await ctx.request({ method: 'POST', url: '/api/v2/system-field/account/lookup', payload: { label: 'Phase', relatedObjectType: obj } })).data.systemField[0].fieldname;
      const phase = json(await ctx.request({ method: 'POST', url: `/api/v2/record/${obj}`, payload: { name: 'Apollo' } }))._id;
      const account = FIXTURE_ACCOUNTS.find((a) => a.label === 'gamma')!.accountid;
      assert.equal((await ctx.request({ method: 'PUT', url: `/api/record/account/${account}`, payload: { [field]: phase } })).statusCode, 200);
      const r = await runQuery(ctx, { fields: `accountname,${field}_name`, query: `${field}_name = apollo` });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.deepEqual(r.body.data.Data, [{ accountname: 'Gamma', [`${field}_name`]: 'Apollo' }]);
    });

    test('serves related fields in fields, filters and orderBy of the v3 query, with the same rows as /api/query', async () => {
      const v3 = await postV3(ctx, '/api/v3/query', {
        objectType: 1, fields: [{ name: 'accountname' }, { name: 'ownerid_fullname' }],
        filter: [{ type: 'AND', conditions: [{ fieldName: 'primarycontactid_fullname', operator: 'eq-in', value: ['carla contact', 'Dmitri Dupont'] }] }],
        orderBy: [{ name: 'OwnerId_FullName', order: 'desc' }],
      });
      assert.equal(v3.status, 200, JSON.stringify(v3.body));
      const q = await runQuery(ctx, { fields: 'accountid,accountname,ownerid_fullname', query: 'primarycontactid_fullname is-not-null', sort_by: 'ownerid_fullname', sort_type: 'desc' });
      assert.ok(q.body.data.Data.length > 0);
      assert.deepEqual(v3.body.data, q.body.data.Data.map(({ accountid, ...rest }: Record<string, unknown>) => ({ ...rest, _id: accountid })));
    });

    test('refuses names that are not related fields as unknown fields', async () => {
      for (const [fields, message] of [
        ['primarycontactid_nosuch', /^Invalid field name: 'primarycontactid_nosuch' in 'fields'\./],
        ['primarycontactid_ownername', /^Invalid field name: 'primarycontactid_ownername' in 'fields'\./],
        ['accountid_accountname', /^Invalid field name: 'accountid_accountname' in 'fields'\./],
        ['accountname_x', /^Invalid field name: 'accountname_x' in 'fields'\./],
      ] as const) {
        const r = await runQuery(ctx, { fields });
        assert.equal(r.status, 400, fields);
        assert.match(r.body.Message, message);
      }
      const star = await runQuery(ctx, { fields: '*', page_size: 1 });
      assert.ok(Object.keys(star.body.data.Data[0]).every((k) => !k.includes('_')), 'a related field is only ever named');
    });

    test('needs read on the target object and a visible target field, except for the target\'s primary field, which follows the derived name', async () => {
      const as = (role: string, body: Record<string, unknown>) => ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 1, ...body }, token: tokens[role]! });
      const noRead = await as('accounts', { fields: 'primarycontactid_emailaddress1' });
      assert.equal(noRead.statusCode, 403);
      assert.match(json(noRead).Message, /may not read contact records/);
      const named = await as('accounts', { fields: 'accountname,primarycontactid_fullname', query: "accountname = 'Acme'" });
      assert.deepEqual(json(named).data.Data, [{ accountname: 'Acme', primarycontactid_fullname: 'Carla Contact' }]);
      const hiddenThere = await as('both', { query: "primarycontactid_emailaddress1 = 'x'" });
      assert.equal(hiddenThere.statusCode, 403);
      assert.match(json(hiddenThere).Message, /^Field 'emailaddress1' of contact is hidden for role 'both'/);
      assert.equal((await as('both', { fields: 'primarycontactid_jobtitle' })).statusCode, 200);
      const hiddenLookup = await as('nolookup', { sort_by: 'primarycontactid_jobtitle' });
      assert.equal(hiddenLookup.statusCode, 403);
      assert.match(json(hiddenLookup).Message, /^Field 'primarycontactid_jobtitle' of account is hidden for role 'nolookup' \(it names the hidden lookup 'primarycontactid'\)/);
      const hiddenName = await as('noname', { fields: 'primarycontactid_fullname' });
      assert.equal(hiddenName.statusCode, 403);
      assert.match(json(hiddenName).Message, /^Field 'primarycontactname' of account is hidden for role 'noname'/);
      assert.equal((await as('noname', { fields: 'primarycontactid_jobtitle' })).statusCode, 200);
    });
  });
}
