// Roles over HTTP (docs/access.md): per object read / create / update / delete, per field
// hidden or read-only; 403 with a Message naming what to grant; hidden fields left out of GET
// replies and of `fields: '*'` (Columns too); a changed role applies on the next request.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { testContext, type TestContext } from '../helpers.js';
import { assertErrorReply } from './error-reply.js';

function body(res: LightMyRequestResponse): any {
  return JSON.parse(res.body);
}

describe('a role', () => {
  let ctx: TestContext;
  let accountId: string;
  /** Tokens of users with role sales (account: read, create, update; telephone1 and ownerid hidden; emailaddress1 read-only), reader and intake. */
  const tokens: Record<string, string> = {};

  const setRole = (role: string, grant: string, extra: { hide?: string; readonly?: string } = {}) =>
    ctx.stores.admin.setRole({ orgId: ctx.orgId, role, grant, ...extra });

  before(async () => {
    ctx = await testContext();
    await setRole('sales', 'account:read,create,update;contact:read', { hide: 'account:telephone1,account:ownerid', readonly: 'account:emailaddress1' });
    await setRole('reader', 'contact:read');
    await setRole('intake', 'account:create');
    for (const role of ['sales', 'reader', 'intake']) {
      tokens[role] = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: `${role}@example.com`, role })).token;
    }
    const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Acme', telephone1: '+1 555 0100', emailaddress1: 'info@acme.example' } });
    accountId = body(res).data.Record.accountid;
  });
  after(() => ctx.close());

  const as = (role: string, opts: Parameters<TestContext['request']>[0]) => ctx.request({ ...opts, token: tokens[role]! });
  const query = (role: string, payload: object) => as(role, { method: 'POST', url: '/api/query', payload });

  test('GET list and GET one leave out hidden fields and the name field of a hidden lookup; admin sees them', async () => {
    const list = body(await as('sales', { method: 'GET', url: '/api/record/account' })).data.Records[0];
    const one = body(await as('sales', { method: 'GET', url: `/api/record/account/${accountId}` })).data;
    for (const record of [list, one.Record, one.Records[0]]) {
      assert.equal(record.accountname, 'Acme');
      assert.equal(record.emailaddress1, 'info@acme.example', 'a read-only field is readable');
      for (const hidden of ['telephone1', 'ownerid', 'ownername']) assert.ok(!(hidden in record), `${hidden} is left out`);
    }
    const full = body(await ctx.request({ method: 'GET', url: `/api/record/account/${accountId}` })).data.Record;
    assert.equal(full.telephone1, '+1 555 0100');
    assert.deepEqual(Object.keys(list).sort(), Object.keys(full).filter((k) => !['telephone1', 'ownerid', 'ownername'].includes(k)).sort());
  });

  test("a query for '*' leaves hidden fields out of Data and Columns", async () => {
    const data = body(await query('sales', { objecttype: 'account' })).data;
    const columns = data.Columns.map((c: { fieldname: string }) => c.fieldname);
    for (const hidden of ['telephone1', 'ownerid', 'ownername']) {
      assert.ok(!columns.includes(hidden), `${hidden} is not a column`);
      assert.ok(!(hidden in data.Data[0]), `${hidden} is not in the row`);
    }
    assert.deepEqual(Object.keys(data.Data[0]), columns);
    assert.ok(columns.includes('emailaddress1'));
  });

  test("Columns mark the fields the caller's role may not write as isreadonly, as /api/objects does; admin's are writable", async () => {
    const readOnly = async (token?: string) => {
      const res = token ? await query('sales', { objecttype: 'account', fields: 'accountname,emailaddress1' }) : await ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 'account', fields: 'accountname,emailaddress1' } });
      return Object.fromEntries(body(res).data.Columns.map((c: { fieldname: string; isreadonly: boolean }) => [c.fieldname, c.isreadonly]));
    };
    assert.deepEqual(await readOnly(tokens.sales), { accountname: false, emailaddress1: true });
    assert.deepEqual(await readOnly(), { accountname: false, emailaddress1: false });
  });

  test('a query that asks for, filters on or sorts by a hidden field is refused with 403 naming the field', async () => {
    for (const fields of ['accountname,telephone1', '*,telephone1']) {
      assertErrorReply(await query('sales', { objecttype: 1, fields }), 403,
        "Field 'telephone1' of account is hidden for role 'sales', but it was asked for in 'fields'. Leave it out, or remove account:telephone1 from the role's --hide with orchard role set.");
    }
    assertErrorReply(await query('sales', { objecttype: 1, query: "telephone1 start-with '+1'" }), 403,
      /^Field 'telephone1' of account is hidden for role 'sales', but it was asked for at position 1 of the query\./);
    assertErrorReply(await query('sales', { objecttype: 1, sort_by: 'TELEPHONE1' }), 403, /^Field 'telephone1' .* in 'sort_by'\./);
    assertErrorReply(await query('sales', { objecttype: 1, query: "ownername = 'x'" }), 403,
      /^Field 'ownername' of account is hidden for role 'sales' \(it names the hidden lookup 'ownerid'\).*remove account:ownerid/);
  });

  test('the default sort by createdon applies when createdon is hidden, but sorting by it explicitly is refused', async () => {
    await setRole('nodates', 'account:read', { hide: 'account:createdon' });
    const token = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'nodates@example.com', role: 'nodates' })).token;
    const res = await ctx.request({ method: 'POST', url: '/api/query', token, payload: { objecttype: 'account' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(!(body(res).data.Data[0] as object).hasOwnProperty('createdon'));
    assertErrorReply(await ctx.request({ method: 'POST', url: '/api/query', token, payload: { objecttype: 'account', sort_by: 'createdon' } }), 403, /'createdon'/);
  });

  test('reading an object without read is refused with 403 on GET list, GET one and the query', async () => {
    const message = "Your role 'reader' may not read account records; grant account:read with orchard role set.";
    assertErrorReply(await as('reader', { method: 'GET', url: '/api/record/account' }), 403, message);
    assertErrorReply(await as('reader', { method: 'GET', url: `/api/record/1/${accountId}` }), 403, message);
    assertErrorReply(await query('reader', { objecttype: 'account' }), 403, message);
    assert.equal((await as('reader', { method: 'GET', url: '/api/record/contact' })).statusCode, 200);
  });

  test('create, update and delete each need their permission, and a refused delete deletes nothing', async () => {
    assertErrorReply(await as('reader', { method: 'POST', url: '/api/record/account', payload: { accountname: 'X' } }), 403,
      "Your role 'reader' may not create account records; grant account:create with orchard role set.");
    assertErrorReply(await as('reader', { method: 'PUT', url: `/api/record/account/${accountId}`, payload: { accountname: 'X' } }), 403,
      "Your role 'reader' may not update account records; grant account:update with orchard role set.");
    assertErrorReply(await as('sales', { method: 'DELETE', url: `/api/record/account/${accountId}` }), 403,
      "Your role 'sales' may not delete account records; grant account:delete with orchard role set.");
    assert.equal((await ctx.request({ method: 'GET', url: `/api/record/account/${accountId}` })).statusCode, 200);
  });

  test('writing a hidden or a read-only field is refused with 403; other fields are written and the reply hides what the role cannot see', async () => {
    assertErrorReply(await as('sales', { method: 'POST', url: '/api/record/account', payload: { accountname: 'B', telephone1: '1' } }), 403,
      /^Field 'telephone1' of account is hidden for role 'sales', but it was asked for in the body/);
    assertErrorReply(await as('sales', { method: 'PUT', url: `/api/record/account/${accountId}`, payload: { EmailAddress1: 'x@example.com' } }), 403,
      "Field 'emailaddress1' of account is read-only for role 'sales'; leave it out of the body, or remove account:emailaddress1 from the role's --readonly with orchard role set.");
    const created = await as('sales', { method: 'POST', url: '/api/record/account', payload: { accountname: 'Bravo', billingcity: 'Lyon' } });
    assert.equal(created.statusCode, 201, created.body);
    const record = body(created).data.Record;
    assert.equal(record.billingcity, 'Lyon');
    assert.ok(!('ownerid' in record) && !('telephone1' in record));
    const updated = await as('sales', { method: 'PUT', url: `/api/record/account/${record.accountid}`, payload: { billingcity: 'Nice' } });
    assert.equal(body(updated).data.Record.billingcity, 'Nice');
    assert.ok(!('ownername' in body(updated).data.Record));
  });

  test('a role that may create but not read gets only the key back', async () => {
    const res = await as('intake', { method: 'POST', url: '/api/record/account', payload: { accountname: 'Web lead' } });
    assert.equal(res.statusCode, 201, res.body);
    const record = body(res).data.Record;
    assert.deepEqual(Object.keys(record), ['accountid']);
    assert.match(String(res.headers.location), new RegExp(`/api/record/account/${record.accountid}$`));
    assert.equal((await as('intake', { method: 'GET', url: `/api/record/account/${record.accountid}` })).statusCode, 403);
  });

  test("shows a lookup's name to a role that may not read the target object, unless the name or its lookup is hidden (docs/access.md)", async () => {
    const contact = body(await ctx.request({ method: 'POST', url: '/api/record/contact', payload: { fullname: 'Ada Lopez', accountid: accountId } })).data.Record;
    assertErrorReply(await as('reader', { method: 'GET', url: `/api/record/account/${accountId}` }), 403, /may not read account records/);
    const seen = body(await as('reader', { method: 'GET', url: `/api/record/contact/${contact.contactid}` })).data.Record;
    assert.equal(seen.accountname, 'Acme', "reading contacts shows each contact's account name");
    const filtered = body(await query('reader', { objecttype: 'contact', fields: 'contactid,accountname', query: "accountname = 'acme'" })).data.Data;
    assert.deepEqual(filtered, [{ contactid: contact.contactid, accountname: 'Acme' }]);
    await setRole('reader', 'contact:read', { hide: 'contact:accountname' });
    const hidden = body(await as('reader', { method: 'GET', url: `/api/record/contact/${contact.contactid}` })).data.Record;
    assert.ok(!('accountname' in hidden) && 'accountid' in hidden, 'hiding the name keeps the lookup');
    await setRole('reader', 'contact:read');
  });

  test('a changed role applies from the next request', async () => {
    await setRole('flip', 'account:read');
    const token = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'flip@example.com', role: 'flip' })).token;
    const get = () => ctx.request({ method: 'GET', url: `/api/record/account/${accountId}`, token });
    assert.equal((await get()).statusCode, 200);
    await setRole('flip', 'contact:read');
    assert.equal((await get()).statusCode, 403);
    await setRole('flip', 'account:read', { hide: 'account:accountname' });
    const res = await get();
    assert.equal(res.statusCode, 200);
    assert.ok(!('accountname' in body(res).data.Record));
  });

  test('a user whose role was never defined may do nothing', async () => {
    const user = await ctx.stores.control.createUser({ orgId: ctx.orgId, email: 'ghost@example.com', fullname: 'Ghost', role: 'ghost' });
    const token = await ctx.stores.admin.createToken(user.id);
    assertErrorReply(await ctx.request({ method: 'GET', url: '/api/record/account', token }), 403,
      "Your role 'ghost' is not defined in this organization, so it may do nothing; define it with orchard role set --role ghost.");
  });

  test('writes to crmuser stay OBJECT_READ_ONLY for admin', async () => {
    const res = await ctx.request({ method: 'PUT', url: `/api/record/crmuser/${ctx.userId}`, payload: { fullname: 'X' } });
    assertErrorReply(res, 403, /crmuser object is read-only through the API/);
  });
});

describe('a plan', () => {
  let ctx: TestContext;

  before(async () => {
    ctx = await testContext({ plan: 'free' });
    await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'sales', grant: 'account:read' });
  });
  after(() => ctx.close());

  const EXCLUDED = 'The free plan does not include the opportunity object; upgrade to standard or higher.';

  test('refuses an object outside it with 402 on every record route and the query, even for admin', async () => {
    const id = '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f';
    for (const [method, url, payload] of [
      ['GET', '/api/record/opportunity', undefined],
      ['GET', `/api/record/opportunity/${id}`, undefined],
      ['POST', '/api/record/Opportunity', { name: 'Deal' }],
      ['PUT', `/api/record/4/${id}`, { name: 'Deal' }],
      ['DELETE', `/api/record/opportunity/${id}`, undefined],
      ['POST', '/api/query', { objecttype: 4 }],
    ] as const) {
      assertErrorReply(await ctx.request({ method, url, ...(payload ? { payload } : {}) }), 402, EXCLUDED);
    }
  });

  test('is checked before the role: a role without the object gets 402, not 403', async () => {
    const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'sales@example.com', role: 'sales' });
    assertErrorReply(await ctx.request({ method: 'GET', url: '/api/record/opportunity', token }), 402, EXCLUDED);
    assertErrorReply(await ctx.request({ method: 'GET', url: '/api/record/contact', token }), 403, /may not read contact records/);
  });

  test('serves the objects it includes, and an unknown object is still 404', async () => {
    assert.equal((await ctx.request({ method: 'POST', url: '/api/record/lead', payload: { fullname: 'Ada' } })).statusCode, 201);
    assert.equal((await ctx.request({ method: 'POST', url: '/api/query', payload: { objecttype: 'note' } })).statusCode, 200);
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/nosuchobject' })).statusCode, 404);
  });

  test('a plan changed by an update applies from the next request', async () => {
    await ctx.stores.admin.updateOrganization({ id: ctx.orgId, plan: 'standard' });
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/opportunity' })).statusCode, 200);
    await ctx.stores.admin.updateOrganization({ id: ctx.orgId, plan: 'free' });
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/opportunity' })).statusCode, 402);
  });
});
