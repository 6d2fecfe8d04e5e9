// Replays what real clients of the public service do (docs/compat.md), over real HTTP with
// fetch, so header spellings, doubled slashes and content types reach the server as they are sent:
// the SDKs' credential check and paging, "contains" as start-with '%x', end-with from the service's
// readme, unquoted values from query builders, picklist labels with show_real_value, related fields
// (ownerid_fullname), data.Record after a create, and the MCP bridge's session (metadata, v2
// writes, custom object and field, v3 query).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One request as the clients send it to the server at `base`: JSON content type always, the token under the `header` spelling. */
async function send(base: string, token: string, method: string, path: string, payload?: unknown, header = 'tokenid') {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', [header]: token },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  return { status: res.status, body: await res.json() as any };
}

/**
 * The second round's habits served by groups, views, field spellings and object keys: each test is
 * one client's sequence of calls, over real HTTP, checked as that client checks the replies.
 */
describe('a client of the second round: grouped queries, views, field spellings, object keys', () => {
  let ctx: TestContext;
  let base: string;
  const call = (method: string, path: string, payload?: unknown) => send(base, ctx.token, method, path, payload);

  before(async () => {
    ctx = await testContext();
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => ctx.close());

  test('asks the v3 query for groups with SUM and COUNT under aliases, and gets rows of strings, numbers and null without _id', async () => {
    const field = await call('POST', '/api/v2/system-field/account/number', { label: 'Employees', fieldName: 'pcfemployees', precision: 1 });
    assert.equal(field.status, 200);
    for (const [billingcity, pcfemployees] of [['North', 5], ['North', 7.5], ['South', 1], [null, null]] as const) {
      assert.equal((await call('POST', '/api/v2/record/account', { accountname: 'Branch', billingcity, pcfemployees })).status, 200);
    }
    const { status, body } = await call('POST', '/api/v3/query', {
      objectType: 1, groupBy: [{ name: 'billingcity' }],
      fields: [{ name: 'billingcity' }, { name: 'pcfemployees', aggrFunc: 'SUM', alias: 'employees' }, { name: 'accountid', aggrFunc: 'COUNT', alias: 'accounts' }],
      orderBy: [{ name: 'accounts', order: 'desc' }], pageNumber: 1, pageSize: 500,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body, {
      data: [{ billingcity: 'North', employees: 12.5, accounts: 2 }, { billingcity: null, employees: null, accounts: 1 }, { billingcity: 'South', employees: 1, accounts: 1 }],
      isLastPage: true, pageNumber: 1, pageSize: 500, message: '',
    });
    assert.ok(body.data.every((r: Record<string, unknown>) => !('_id' in r) && Object.values(r).every((v) => v === null || ['string', 'number'].includes(typeof v))));
  });

  test('copies a record: reads data.PrimaryKey from the object\'s metadata and drops that member before creating the copy', async () => {
    const meta = await call('GET', '/metadata/records/account');
    assert.deepEqual([meta.body.data.PrimaryKey, meta.body.data.PrimaryField], ['accountid', 'accountname']);
    const original = await call('POST', '/api/v2/record/account', { accountname: 'Original', telephone1: '555' });
    const record = { ...original.body.record };
    delete record[meta.body.data.PrimaryKey];
    const copy = await call('POST', '/api/v2/record/account', record);
    assert.equal(copy.status, 200, JSON.stringify(copy.body));
    assert.notEqual(copy.body._id, original.body._id);
    assert.deepEqual([copy.body.record.accountname, copy.body.record.telephone1], ['Original', '555']);
  });

  test('lists an object\'s views, then pages through one with pageNumber and sortBy {fieldName, type}', async () => {
    for (const accountname of ['Viewed C', 'Viewed A', 'Viewed B']) await call('POST', '/api/record/account', { accountname, billingcity: 'Viewtown' });
    const defined = await call('POST', '/api/v2/views/account', { name: 'Viewtown', fields: 'accountname,billingcity', query: "billingcity = 'Viewtown'" });
    assert.equal(defined.status, 200, JSON.stringify(defined.body));
    const views = await call('GET', '/api/v2/views/account');
    assert.deepEqual(views.body.data.map((v: { name: string; isDefault: boolean }) => [v.name, v.isDefault]), [['All Accounts', true], ['Viewtown', false]]);
    const viewId = views.body.data[1].viewId;
    const seen: string[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await call('POST', `/api/v2/views/account/${viewId}`, { pageNumber, pageSize: 2, sortBy: { fieldName: 'accountname', type: 'desc' } });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      seen.push(...page.body.data.Data.map((r: { accountname: string }) => r.accountname));
      if (page.body.data.IsLastPage) break;
    }
    assert.deepEqual(seen, ['Viewed C', 'Viewed B', 'Viewed A']);
  });

  test('defines a picklist with values [{name, value}] as digit strings and a lookup with relatedObjectId', async () => {
    const picklist = await call('POST', '/api/v2/system-field/1/picklist', { label: 'Region', values: [{ name: 'East', value: '1' }, { name: 'West', value: '2' }] });
    assert.equal(picklist.status, 200, JSON.stringify(picklist.body));
    const name = picklist.body.data.systemField[0].fieldname;
    const values = await call('GET', `/metadata/records/1/fields/${name}/values`);
    assert.deepEqual(values.body.data.values, [{ name: 'East', value: '1' }, { name: 'West', value: '2' }]);
    const lookup = await call('POST', '/api/v2/system-field/1/lookup', { label: 'Main Contact', relatedObjectId: '2' });
    assert.equal(lookup.status, 200, JSON.stringify(lookup.body));
    const detail = await call('GET', `/metadata/records/1/fields/${lookup.body.data.systemField[0].fieldname}`);
    assert.equal(detail.body.data.fieldObjectType, '2');
  });
});

describe('a client written for the public service', () => {
  let ctx: TestContext;
  let base: string;

  const call = (method: string, path: string, payload?: unknown, header?: string) => send(base, ctx.token, method, path, payload, header);

  before(async () => {
    ctx = await testContext();
    await ctx.stores.admin.seed({ orgId: ctx.orgId, object: 'account', count: 1234, seed: 7 });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => ctx.close());

  test('passes the SDKs\' credential check: a one-row query of account ids', async () => {
    const { status, body } = await call('POST', '/api/query', { objecttype: 1, page_size: 1, page_number: 1, fields: 'accountid' });
    assert.equal(status, 200);
    assert.equal(body.success, true);
    assert.equal(body.data.Data.length, 1);
    assert.deepEqual(Object.keys(body.data.Data[0]), ['accountid']);
    assert.equal(body.data.IsLastPage, false);
  });

  test('accepts the token header as tokenid, tokenId and TokenID, and as ?tokenid= in the URL', async () => {
    for (const header of ['tokenid', 'tokenId', 'TokenID']) {
      assert.equal((await call('GET', '/api/record/account?pagesize=1', undefined, header)).status, 200, header);
    }
    const res = await fetch(`${base}/api/record/account?pagesize=1&tokenid=${ctx.token}`);
    assert.equal(res.status, 200);
  });

  test('pages with page_size 500 until IsLastPage and sees every record exactly once', async () => {
    const seen = new Set<string>();
    let page = 1;
    for (;;) {
      const { status, body } = await call('POST', '/api/query', { objecttype: 'account', page_size: 500, page_number: page, fields: 'accountid,accountname', sort_by: 'accountname' });
      assert.equal(status, 200);
      for (const row of body.data.Data) seen.add(row.accountid);
      if (body.data.IsLastPage || body.data.Data.length < 500) break;
      page++;
    }
    assert.equal(page, 3);
    assert.equal(seen.size, 1234);
  });

  test('finds text anywhere in a field with start-with \'%x\' through a doubled slash', async () => {
    const created = await call('POST', '/api/record/account', { accountname: 'Northwind Traders' });
    assert.equal(created.status, 201);
    const { status, body } = await call('POST', '/api/query', { objecttype: 1, fields: 'accountname', query: "(accountname start-with '%WIND trad')" }, 'tokenId');
    assert.equal(status, 200);
    assert.ok(body.data.Data.some((r: { accountname: string }) => r.accountname === 'Northwind Traders'));
    const doubled = await call('POST', '/api//query', { objecttype: 1, fields: 'accountname', query: "accountname start-with '%wind trad'" });
    assert.deepEqual(doubled.body.data.Data, body.data.Data);
  });

  test('filters with end-with and not-end-with, as the service\'s REST readme documents them, on /api/query and the v3 query', async () => {
    const created = await call('POST', '/api/record/account', { accountname: 'Fabrikam Quux Holdings' });
    assert.equal(created.status, 201);
    const { status, body } = await call('POST', '/api/query', {
      objecttype: 1, fields: 'accountname,telephone1', query: "(accountname end-with 'QUUX HOLDINGS') AND (telephone1 not-end-with '99')",
    });
    assert.equal(status, 200);
    assert.deepEqual(body.data.Data, [{ accountname: 'Fabrikam Quux Holdings', telephone1: null }]);
    const v3 = await call('POST', '/api/v3/query', {
      objectType: 1, fields: [{ name: 'accountname' }], filter: [{ type: 'AND', conditions: [{ fieldName: 'accountname', operator: 'end-with', value: '%uux_holdings' }] }],
    });
    assert.equal(v3.status, 200);
    assert.deepEqual(v3.body.data, [{ accountname: 'Fabrikam Quux Holdings', _id: created.body.data.Record.accountid }]);
  });

  test('sends values unquoted as query builders do, with backslash escapes for keywords and parentheses', async () => {
    for (const accountname of ['Smith Sons Ltd', 'Smith and Sons (Ltd)']) assert.equal((await call('POST', '/api/record/account', { accountname })).status, 201);
    const { status, body } = await call('POST', '/api/query', {
      objecttype: 1, fields: 'accountname', sort_by: 'accountname',
      query: '(accountname = Smith Sons Ltd) OR (accountname = Smith \\and Sons \\(Ltd\\))',
    });
    assert.equal(status, 200);
    assert.deepEqual(body.data.Data, [{ accountname: 'Smith and Sons (Ltd)' }, { accountname: 'Smith Sons Ltd' }]);
    const prefix = await call('POST', '/api/query', { objecttype: 1, fields: 'accountname', query: 'accountname start-with smith \\AND sons and accountname end-with \\(ltd\\)' });
    assert.deepEqual(prefix.body.data.Data, [{ accountname: 'Smith and Sons (Ltd)' }]);
    // One builder escapes `and`/`or` wherever a regex word boundary stands, inside words too.
    assert.equal((await call('POST', '/api/record/account', { accountname: 'Smith-and-Sons Or Yehuda' })).status, 201);
    for (const query of ['(accountname = Smith-\\and-Sons \\Or Yehuda)', '(accountname start-with %\\or yehuda)']) {
      const inWords = await call('POST', '/api/query', { objecttype: 1, fields: 'accountname', query });
      assert.deepEqual(inWords.body.data.Data, [{ accountname: 'Smith-and-Sons Or Yehuda' }], query);
    }
  });

  test('sends show_real_value: 1, as one client does by default, and reads picklist labels', async () => {
    const { status, body } = await call('POST', '/api/query', { objecttype: 1, fields: 'accountname,statuscode', query: "accountname = 'Smith Sons Ltd'", show_real_value: 1 });
    assert.equal(status, 200);
    assert.deepEqual(body.data.Data, [{ accountname: 'Smith Sons Ltd', statuscode: 'Default' }]);
  });

  test('reads related fields lookup_field in fields, filters and sort, on /api/query and the v3 query', async () => {
    const { status, body } = await call('POST', '/api/query', {
      objecttype: 1, fields: 'accountname,ownername,ownerid_fullname,ownerid_emailaddress1', sort_by: 'ownerid_fullname',
      query: "(accountname = Smith Sons Ltd) and (ownerid_fullname is-not-null)",
    });
    assert.equal(status, 200, JSON.stringify(body));
    const [row] = body.data.Data;
    assert.deepEqual([body.data.Data.length, row.accountname, row.ownerid_fullname, row.ownerid_emailaddress1], [1, 'Smith Sons Ltd', row.ownername, 'owner@example.com']);
    const v3 = await call('POST', '/api/v3/query', {
      objectType: 1, fields: [{ name: 'ownerid_fullname' }], orderBy: [{ name: 'ownerid_fullname', order: 'desc' }],
      filter: [{ type: 'AND', conditions: [{ fieldName: 'ownerid_emailaddress1', operator: 'eq', value: 'OWNER@example.com' }, { fieldName: 'accountname', operator: 'eq', value: 'Smith Sons Ltd' }] }],
    });
    assert.equal(v3.status, 200, JSON.stringify(v3.body));
    assert.deepEqual(v3.body.data.map((r: Record<string, unknown>) => r.ownerid_fullname), [row.ownername]);
  });

  test('reads data.Record after a create and after a GET', async () => {
    const created = await call('POST', '/api/record/account', { accountname: 'Record Reader', telephone1: '555' });
    assert.equal(created.body.data.Record.accountname, 'Record Reader');
    const id = created.body.data.Record.accountid;
    const got = await call('GET', `/api/record/account/${id}`);
    assert.equal(got.body.data.Record.telephone1, '555');
    assert.deepEqual(got.body.data.Records, [got.body.data.Record]);
  });

  // The service's own JavaScript SDK (github.com/powerlink/powerlink-api, src/PowerlinkAPI.ts) joins
  // its base URL `…/api/v2/` with `/record/…`, and deletes with DELETE and no body or content type.
  test('creates, updates and deletes through /api/v2//record/{ot}/{id}, as the service\'s own SDK does', async () => {
    const created = await call('POST', '/api/v2//record/1', { accountname: 'SDK Delete' });
    assert.equal(created.status, 200);
    const id = created.body._id as string;
    assert.equal((await call('PUT', `/api/v2//record/1/${id}`, { telephone1: '777' })).body.record.telephone1, '777');
    const deleted = await fetch(`${base}/api/v2//record/1/${id.toUpperCase()}`, { method: 'DELETE', headers: { tokenid: ctx.token } });
    assert.equal(deleted.status, 200);
    assert.deepEqual(await deleted.json(), { success: true, _id: id });
    assert.equal((await call('GET', `/api/record/account/${id}`)).status, 404);
    const again = await fetch(`${base}/api/v2//record/1/${id}`, { method: 'DELETE', headers: { tokenid: ctx.token } });
    assert.equal(again.status, 404);
    assert.equal(typeof ((await again.json()) as { Message?: unknown }).Message, 'string');
  });

  test('writes filters as clients do: bare codes, quoted strings and dates, is-null with a dummy operand, keywords in any case', async () => {
    const { status, body } = await call('POST', '/api/query', {
      objecttype: 1, fields: 'accountname', page_size: 500,
      query: "(statecode = 1) and (createdon <= '2030-01-01') AND (accountname is-null '') or (accountname = 'record reader') OR accountid = 00000000-0000-4000-8000-000000000000",
    });
    assert.equal(status, 200);
    assert.deepEqual(body.data.Data, [{ accountname: 'Record Reader' }]);
  });

  test('runs the MCP bridge\'s session: base URL with a trailing slash, every reply in the shape it checks', async () => {
    const mcp = (method: string, path: string, payload?: unknown) => call(method, `/${path}`, payload); // base + '/' + '/path'
    const objects = await mcp('GET', '/metadata/records');
    assert.equal(objects.status, 200);
    assert.ok(objects.body.data.length > 0 && objects.body.data.every((o: { objectType: unknown }) => typeof o.objectType === 'string' && /^\d+$/.test(o.objectType as string)));

    const fields = await mcp('GET', '/metadata/records/1/fields');
    assert.ok(fields.body.data.every((f: Record<string, unknown>) => ['label', 'fieldName', 'systemName', 'systemFieldTypeId'].every((k) => typeof f[k] === 'string')));

    const values = await mcp('GET', '/metadata/records/1/fields/industrycode/values');
    assert.equal(typeof values.body.data.fieldObjectType, 'string');
    assert.ok(values.body.data.values.every((v: { value: unknown }) => typeof v.value === 'string' && /^\d+$/.test(v.value as string)));

    const obj = await mcp('POST', '/api/v2/record/58', { name: 'Ticket', collectionname: 'Tickets' });
    assert.deepEqual([obj.body.success, typeof obj.body.record.objecttypecode], [true, 'number']);
    assert.match(obj.body._id, UUID_RE);
    const ot = obj.body.record.objecttypecode as number;

    const field = await mcp('POST', `/api/v2/system-field/${ot}/number`, { label: 'Severity', precision: 0 });
    assert.deepEqual(field.body, { success: true, message: '', data: { systemField: [{ fieldname: 'pcfsystemfield1' }] } });
    assert.ok(!('Message' in field.body));

    const created = await mcp('POST', `/api/v2/record/${ot}`, { name: 'Printer on fire', pcfsystemfield1: 5 });
    assert.equal(created.body.success, true);
    assert.match(created.body._id, UUID_RE);
    const updated = await mcp('PUT', `/api/v2/record/${ot}/${created.body._id}`, { pcfsystemfield1: 4 });
    assert.deepEqual([updated.body.success, updated.body.record.pcfsystemfield1], [true, 4]);

    const query = await mcp('POST', '/api/v3/query', {
      objectType: ot, fields: [{ name: 'name' }, { name: 'pcfsystemfield1' }],
      filter: [{ type: 'AND', conditions: [{ fieldName: 'pcfsystemfield1', operator: 'between', value: [1, 4] }, { fieldName: 'ownerid', operator: 'userid' }] }],
      orderBy: [{ name: 'name', order: 'asc' }], pageNumber: 1, pageSize: 500,
    });
    assert.equal(query.status, 200);
    assert.deepEqual(query.body, {
      data: [{ name: 'Printer on fire', pcfsystemfield1: 4, _id: created.body._id }],
      isLastPage: true, pageNumber: 1, pageSize: 500, message: '',
    });

    const grouped = await mcp('POST', '/api/v3/query', { objectType: ot, groupBy: [{ name: 'name' }], fields: [{ name: 'pcfsystemfield1', aggrFunc: 'SUM', alias: 'total' }] });
    assert.deepEqual(grouped.body, { data: [{ name: 'Printer on fire', total: 4 }], isLastPage: true, pageNumber: 1, pageSize: 50, message: '' });

    const error = await mcp('POST', '/api/v3/query', { objectType: ot, fields: [{ name: 'nosuch' }] });
    assert.equal(error.status, 400);
    assert.deepEqual(Object.keys(error.body), ['status', 'error', 'message']);
    assert.deepEqual([error.body.status, error.body.error], [400, 'Bad Request']);
    assert.match(error.body.message, /Invalid field name: 'nosuch'/);
  });
});

// Second round, points 6, 7 and 9 (docs/compat.md, Notes, files and names): a note attached the way
// the automation node does it, a file sent as the clients' multipart form, contacts and leads created
// with firstname and lastname only.
describe('a client attaching notes and files and creating people by their name parts', () => {
  let ctx: TestContext;
  let base: string;
  let accountId: string;

  const call = (method: string, path: string, payload?: unknown) => send(base, ctx.token, method, path, payload);

  before(async () => {
    ctx = await testContext();
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    accountId = (await call('POST', '/api/record/account', { accountname: 'Client Notes Ltd' })).body.data.Record.accountid;
  });
  after(() => ctx.close());

  test('attaches a note as {notetext, objectid, objecttypecode} with no title, and is refused naming a record that does not exist', async () => {
    const { status, body } = await call('POST', '/api/record/note', { notetext: '<p>Met at the <b>fair</b></p>', objectid: accountId, objecttypecode: 1 });
    assert.equal(status, 201, JSON.stringify(body));
    assert.deepEqual([body.data.Record.objectid, body.data.Record.objecttypecode, body.data.Record.subject], [accountId, 1, null]);
    const missing = '00000000-0000-4000-8000-000000000001';
    const refused = await call('POST', '/api/record/note', { notetext: 'x', objectid: missing, objecttypecode: 1 });
    assert.equal(refused.status, 400);
    assert.match(refused.body.Message, new RegExp(`account '${missing}', which does not exist`));
  });

  test('replies to a note with parentnoteid, as an n8n node sends a "Parent Note ID"', async () => {
    const parent = (await call('POST', '/api/record/note', { notetext: 'Question', objectid: accountId, objecttypecode: 1 })).body.data.Record.noteid;
    const reply = await call('POST', '/api/record/note', { notetext: 'Answer', objectid: accountId, objecttypecode: 1, parentnoteid: parent });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.data.Record.parentnoteid, parent);
    const thread = await call('POST', '/api/query', { objecttype: 7, fields: 'notetext', query: `parentnoteid = ${parent}` });
    assert.deepEqual(thread.body.data.Data, [{ notetext: 'Answer' }]);
    const orphan = await call('POST', '/api/record/note', { notetext: 'x', parentnoteid: '00000000-0000-4000-8000-000000000009' });
    assert.equal(orphan.status, 400);
    assert.match(orphan.body.Message, /parentnoteid/);
  });

  test('sends a file as multipart/form-data with the part named file and reads a 2xx as attached', async () => {
    const form = new FormData();
    form.append('file', new Blob(['quarterly numbers'], { type: 'text/csv' }), 'numbers.csv');
    const res = await fetch(`${base}//api/v2/record/1/${accountId}/files`, { method: 'POST', headers: { tokenid: ctx.token }, body: form });
    assert.equal(res.status, 200);
    const body = await res.json() as any;
    assert.equal(body.success, true);
    assert.match(body._id, UUID_RE);
    const listed = await call('GET', `/api/v2/record/1/${accountId}/files`);
    assert.deepEqual(listed.body.data.map((f: { filename: string; contenttype: string; size: number }) => [f.filename, f.contenttype, f.size]), [['numbers.csv', 'text/csv', 17]]);
    const download = await fetch(`${base}/api/v2/record/1/${accountId}/files/${body._id}`, { headers: { tokenid: ctx.token, 'Content-Type': 'application/json' } });
    assert.equal(await download.text(), 'quarterly numbers');
  });

  test('creates contacts and leads with firstname and lastname only and reads the fullname the server filled', async () => {
    const contact = await call('POST', '/api/v2/record/2', { firstname: 'Ada', lastname: 'Lovelace', emailaddress1: 'ada@example.com' });
    assert.deepEqual([contact.status, contact.body.record.fullname], [200, 'Ada Lovelace']);
    const lead = await call('POST', '/api/record/lead', { firstname: 'Grace', lastname: 'Hopper' });
    assert.deepEqual([lead.status, lead.body.data.Record.fullname], [201, 'Grace Hopper']);
    const renamed = await call('PUT', `/api/v2/record/2/${contact.body._id}`, { lastname: 'King' });
    assert.equal(renamed.body.record.fullname, 'Ada King');
  });
});
