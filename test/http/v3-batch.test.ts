// The v3 batch routes (docs/compat.md): create, update and delete of up to 500 records, where
// each invalid item is skipped and reported with its index, status and message while the others
// are written (read back with GET); the bounds of a batch; the plan (402) and the role (403).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';
import { assertV3Error, postV3, type V3Reply } from './v3-reply.js';

const CREATE = '/api/v3/record/account/batch/create';
const UPDATE = '/api/v3/record/account/batch/update';
const DELETE = '/api/v3/record/account/batch/delete';

/** Fixed ids: well-formed UUIDs that no record has until a test creates it. */
const id = (n: number): string => `b0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ABSENT = 'b0000000-0000-4000-8000-999999999999';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A skipped item as the reply reports it. */
const failed = (index: number, status: number, message: string | RegExp) => ({ index, status, message });

/**
 * Checks a batch reply: the envelope and counts, written items as {index, success: true, _id,
 * record} (returned for the caller to check), skipped ones as exactly {index, success: false,
 * status, error, message}.
 */
function assertBatch(r: V3Reply, items: number, failures: ReturnType<typeof failed>[]): Map<number, { _id: string; record?: Record<string, unknown> }> {
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.match(r.res.headers['content-type'] as string, /^application\/json/);
  assert.deepEqual(Object.keys(r.body), ['success', 'successCount', 'failureCount', 'data', 'message']);
  assert.equal(r.body.success, failures.length === 0);
  assert.equal(r.body.successCount, items - failures.length);
  assert.equal(r.body.failureCount, failures.length);
  assert.equal(r.body.message, failures.length === 0 ? '' : `${failures.length} of ${items} items were not written; see data[].message.`);
  assert.deepEqual(r.body.data.map((d: { index: number }) => d.index), Array.from({ length: items }, (_, i) => i), 'one result per item, in order');
  const written = new Map<number, { _id: string; record?: Record<string, unknown> }>();
  const byIndex = new Map(failures.map((f) => [f.index, f]));
  for (const d of r.body.data) {
    const f = byIndex.get(d.index);
    if (!f) {
      assert.equal(d.success, true, `item ${d.index} should be written: ${JSON.stringify(d)}`);
      assert.match(d._id, UUID_RE);
      written.set(d.index, d);
      continue;
    }
    assert.deepEqual(Object.keys(d), ['index', 'success', 'status', 'error', 'message'], `item ${d.index}`);
    assert.equal(d.success, false);
    assert.equal(d.status, f.status, `item ${d.index}: ${d.message}`);
    assert.equal(d.error, { 400: 'Bad Request', 403: 'Forbidden', 404: 'Not Found' }[f.status]);
    if (typeof f.message === 'string') assert.equal(d.message, f.message, `item ${d.index}`);
    else assert.match(d.message, f.message, `item ${d.index}`);
  }
  return written;
}

describe('v3 batch writes', () => {
  let ctx: TestContext;
  let contactId: string;

  const batch = (url: string, payload: unknown, token?: string | null) => postV3(ctx, url, payload, token);
  const get = async (recordId: string, obj = 'account') => {
    const res = await ctx.request({ method: 'GET', url: `/api/record/${obj}/${recordId}` });
    return { status: res.statusCode, record: res.statusCode === 200 ? res.json().data.Record : undefined };
  };
  const total = async (obj: string) => (await ctx.request({ method: 'GET', url: `/api/record/${obj}?pagesize=1` })).json().data.Total_Records as number;
  const createAccount = async (fields: Record<string, unknown>) => {
    const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: fields });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.Record as Record<string, unknown>;
  };

  before(async () => {
    ctx = await testContext();
    const res = await ctx.request({ method: 'POST', url: '/api/record/contact', payload: { fullname: 'Carla Contact' } });
    contactId = res.json().data.Record.contactid;
  });
  after(() => ctx.close());

  describe('create', () => {
    test('writes the valid items and reports each invalid one with its index, status and message', async () => {
      const before = await total('account');
      const data = [
        { accountname: 'One', accountid: id(1), billingcity: 'Lisbon' },
        { accountname: 'Two', nope: 1 },
        { accountname: 'Three', accounttypecode: 'abc' },
        { accountname: 'Four', accountid: 'not-a-uuid' },
        { billingcity: 'No name' },
        { accountname: 'One again', accountid: id(1) },
        { accountname: 'One in capitals', accountid: id(1).toUpperCase() },
        { accountname: 'Looks nowhere', primarycontactid: ABSENT },
        { accountname: 'Looks at Carla', primarycontactid: contactId },
        'not a record',
        null,
        [{ accountname: 'in an array' }],
        { accountname: 'Last', pcfsystemfield85: '2025-01-01T10:00:00' },
        { accountname: 'Bad date', pcfsystemfield85: 'yesterday' },
      ];
      const r = await batch(CREATE, { data });
      const notObject = /^data\[\d+\] must be a JSON object of field names and values/;
      const written = assertBatch(r, data.length, [
        failed(1, 400, "Invalid field name: 'nope'. The account object has no such field."),
        failed(2, 400, /^'accounttypecode' must be a valid Picklist code; got 'abc'/),
        failed(3, 400, /^'accountid' must be an RFC 4122 UUID/),
        failed(4, 400, "'accountname' (Account Name) is required; send a non-empty value."),
        failed(5, 400, new RegExp(`^The account id '${id(1)}' is already taken by another record\\.`)),
        failed(6, 400, new RegExp(`^The account id '${id(1)}' is already taken by another record\\.`)),
        failed(7, 400, `'primarycontactid' refers to contact '${ABSENT}', which does not exist. Send the id of an existing contact record.`),
        failed(9, 400, notObject),
        failed(10, 400, notObject),
        failed(11, 400, notObject),
        failed(13, 400, /^'pcfsystemfield85' must be a valid DateTime/),
      ]);
      assert.deepEqual([...written.keys()], [0, 8, 12]);
      assert.equal(written.get(0)!._id, id(1));
      assert.equal(await total('account'), before + 3);
      for (const [index, { _id, record }] of written) {
        const stored = await get(_id);
        assert.equal(stored.status, 200);
        assert.deepEqual(record, stored.record, `item ${index}: the reply holds the record as GET returns it`);
      }
      assert.equal((await get(id(1))).record.accountname, 'One', 'the first of two items with one id wins');
      assert.equal((await get(written.get(8)!._id)).record.primarycontactname, 'Carla Contact');
      assert.equal((await get(written.get(12)!._id)).record.pcfsystemfield85, '2025-01-01T10:00:00');
    });

    test('answers success true and an empty message when every item is written', async () => {
      const r = await batch('/api/v3/record/2/batch/create', { data: [{ fullname: 'Ann' }, { FullName: 'Bob', jobtitle: 'CEO' }] });
      const written = assertBatch(r, 2, []);
      assert.equal((await get(written.get(1)!._id, 'contact')).record.jobtitle, 'CEO');
    });
  });

  describe('update', () => {
    test('applies the valid items and reports each invalid one; a refused item changes nothing', async () => {
      const a = await createAccount({ accountname: 'Alpha', billingcity: 'Lisbon' });
      const b = await createAccount({ accountname: 'Bravo', billingcity: 'Porto', telephone1: '+1 555 0100' });
      const [ida, idb] = [a.accountid as string, b.accountid as string];
      const data = [
        { id: ida, record: { billingcity: 'Lyon' } },
        { id: ida, record: { nope: 1 } },
        { id: idb, record: { accounttypecode: 99 } },
        { id: 'bad', record: { billingcity: 'X' } },
        { id: ABSENT, record: { billingcity: 'X' } },
        { id: idb, record: { accountname: null } },
        { id: idb, record: { billingcity: 'Nowhere', primarycontactid: ABSENT } },
        'not an item',
        { id: idb },
        { record: { billingcity: 'X' } },
        { id: idb.toUpperCase(), record: { telephone1: null, primarycontactid: contactId } },
        { id: ida, record: { description: 'second change to Alpha' } },
      ];
      const r = await batch(UPDATE, { data });
      const written = assertBatch(r, data.length, [
        failed(1, 400, "Invalid field name: 'nope'. The account object has no such field."),
        failed(2, 400, /^'accounttypecode' must be a valid Picklist code; got 99\./),
        failed(3, 400, /^'bad' is not a valid account id: record ids are RFC 4122 UUIDs/),
        failed(4, 404, `No account record has id '${ABSENT}'.`),
        failed(5, 400, "'accountname' (Account Name) is required; send a non-empty value."),
        failed(6, 400, `'primarycontactid' refers to contact '${ABSENT}', which does not exist. Send the id of an existing contact record.`),
        failed(7, 400, /^data\[7\] must be \{"id": "<uuid>", "record": \{/),
        failed(8, 400, /^data\[8\]\.record must be a JSON object of field names and values/),
        failed(9, 400, /^data\[9\]\.id is missing: each item is \{"id": "<uuid>", "record": \{"accountname": "…"\}\}\.$/),
      ]);
      assert.deepEqual([...written.keys()], [0, 10, 11]);
      assert.equal(written.get(10)!._id, idb, 'the id is reported lowercase');
      const [sa, sb] = [(await get(ida)).record, (await get(idb)).record];
      assert.deepEqual(written.get(11)!.record, sa, 'the reply holds the record after the item, as GET returns it');
      assert.equal(sa.billingcity, 'Lyon');
      assert.equal(sa.description, 'second change to Alpha');
      assert.deepEqual({ accountname: sb.accountname, billingcity: sb.billingcity, accounttypecode: sb.accounttypecode, telephone1: sb.telephone1, primarycontactid: sb.primarycontactid },
        { accountname: 'Bravo', billingcity: 'Porto', accounttypecode: null, telephone1: null, primarycontactid: contactId });
    });
  });

  describe('delete', () => {
    test('deletes the listed records and reports malformed and missing ids', async () => {
      const [a, b, c] = [await createAccount({ accountname: 'Del A' }), await createAccount({ accountname: 'Del B' }), await createAccount({ accountname: 'Keep C' })];
      const data = [a.accountid, 'bad', ABSENT, a.accountid, 42, { id: b.accountid }, (b.accountid as string).toUpperCase()];
      const r = await batch(DELETE, { data });
      const written = assertBatch(r, data.length, [
        failed(1, 400, /^'bad' is not a valid account id/),
        failed(2, 404, `No account record has id '${ABSENT}'.`),
        failed(3, 404, `No account record has id '${a.accountid}'.`),
        failed(4, 400, /^42 is not a valid account id/),
        failed(5, 400, /is not a valid account id/),
      ]);
      assert.deepEqual([...written.entries()], [[0, { index: 0, success: true, _id: a.accountid }], [6, { index: 6, success: true, _id: b.accountid }]]);
      assert.equal((await get(a.accountid as string)).status, 404);
      assert.equal((await get(b.accountid as string)).status, 404);
      assert.equal((await get(c.accountid as string)).status, 200);
    });
  });

  describe('the size and shape of a batch', () => {
    test('accepts 500 items and writes them all', async () => {
      const r = await batch('/api/v3/record/lead/batch/create', { data: Array.from({ length: 500 }, (_, i) => ({ fullname: `Lead ${i}` })) });
      assert.equal(r.status, 200);
      assert.deepEqual([r.body.success, r.body.successCount, r.body.failureCount], [true, 500, 0]);
      assert.equal(await total('lead'), 500);
      const ids = r.body.data.map((d: { _id: string }) => d._id);
      const u = await batch('/api/v3/record/lead/batch/update', { data: ids.map((x: string) => ({ id: x, record: { companyname: 'Co' } })) });
      assert.deepEqual([u.status, u.body.successCount], [200, 500]);
      const d = await batch('/api/v3/record/lead/batch/delete', { data: ids });
      assert.deepEqual([d.status, d.body.successCount], [200, 500]);
      assert.equal(await total('lead'), 0);
    });

    test('refuses 501 items with 400 and writes none of them', async () => {
      const ids = Array.from({ length: 501 }, (_, i) => id(1000 + i));
      const bodies: Array<[string, unknown[]]> = [
        ['create', ids.map((x) => ({ fullname: 'x', leadid: x }))],
        ['update', ids.map((x) => ({ id: x, record: { fullname: 'y' } }))],
        ['delete', ids],
      ];
      for (const [op, data] of bodies) {
        assertV3Error(await batch(`/api/v3/record/lead/batch/${op}`, { data }), 400, 'Bad Request', "'data' has 501 items; a batch holds at most 500. Split it.");
      }
      assert.equal(await total('lead'), 0);
    });

    for (const op of ['create', 'update', 'delete']) {
      test(`refuses a ${op} body with empty data, without data, or not an object, with 400`, async () => {
        const url = `/api/v3/record/account/batch/${op}`;
        assertV3Error(await batch(url, { data: [] }), 400, 'Bad Request', "'data' is empty: send 1 to 500 items.");
        assertV3Error(await batch(url, {}), 400, 'Bad Request', /^The request body must be \{"data": \[\.\.\.\]\}, such as /);
        assertV3Error(await batch(url, { records: [{}] }), 400, 'Bad Request', /^The request body must be \{"data": \[\.\.\.\]\}/);
        assertV3Error(await batch(url, { data: 'x' }), 400, 'Bad Request', /data/);
        assertV3Error(await batch(url, [{ accountname: 'x' }]), 400, 'Bad Request', /body/);
        const res = await ctx.request({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{"data": [' });
        assertV3Error({ status: res.statusCode, body: res.json(), res }, 400, 'Bad Request', /not valid JSON/);
      });
    }

    test('answers an unknown object with 404 and a missing token with 401, in the v3 shape', async () => {
      assertV3Error(await batch('/api/v3/record/nosuch/batch/create', { data: [{ name: 'x' }] }), 404, 'Not Found', /^Invalid Object Name: 'nosuch'/);
      assertV3Error(await batch(CREATE, { data: [{ accountname: 'x' }] }, null), 401, 'Unauthorized', /^No API token/);
    });

    test('serves doubled slashes', async () => {
      const r = await batch('//api//v3/record/account/batch/create', { data: [{ accountname: 'Slashes' }] });
      assertBatch(r, 1, []);
    });
  });

  describe('roles', () => {
    let tokens: Record<string, string>;
    before(async () => {
      const roles: Array<[string, string, { hide?: string; readonly?: string }]> = [
        ['sales', 'account:read,create,update', { hide: 'account:telephone1', readonly: 'account:emailaddress1' }],
        ['reader', 'account:read', {}],
      ];
      tokens = {};
      for (const [role, grant, extra] of roles) {
        await ctx.stores.admin.setRole({ orgId: ctx.orgId, role, grant, ...extra });
        tokens[role] = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: `${role}@example.com`, role })).token;
      }
    });

    test('a role without the permission is refused with 403 and nothing is written', async () => {
      const target = await createAccount({ accountname: 'Guarded' });
      const before = await total('account');
      const cases: Array<[string, string, unknown[], string]> = [
        ['reader', CREATE, [{ accountname: 'x' }], 'create'],
        ['reader', UPDATE, [{ id: target.accountid, record: { accountname: 'x' } }], 'update'],
        ['sales', DELETE, [target.accountid], 'delete'],
      ];
      for (const [role, url, data, permission] of cases) {
        assertV3Error(await batch(url, { data }, tokens[role]), 403, 'Forbidden',
          `Your role '${role}' may not ${permission} account records; grant account:${permission} with orchard role set.`);
      }
      assert.equal(await total('account'), before);
      assert.equal((await get(target.accountid as string)).record.accountname, 'Guarded');
    });

    test('an item writing a hidden or read-only field is refused with 403; the others are written and shown without hidden fields', async () => {
      const c = await batch(CREATE, { data: [
        { accountname: 'Sales one', billingcity: 'Lyon' },
        { accountname: 'Sales two', telephone1: '+1 555 0101' },
        { accountname: 'Sales three', EmailAddress1: 'x@example.com' },
      ] }, tokens.sales);
      const created = assertBatch(c, 3, [
        failed(1, 403, /^Field 'telephone1' of account is hidden for role 'sales', but it was asked for in the body/),
        failed(2, 403, /^Field 'emailaddress1' of account is read-only for role 'sales'/),
      ]);
      const record = created.get(0)!.record!;
      assert.equal(record.billingcity, 'Lyon');
      assert.ok(!('telephone1' in record), 'a hidden field is not shown');
      const saved = created.get(0)!._id;
      const u = await batch(UPDATE, { data: [
        { id: saved, record: { telephone1: '1' } },
        { id: saved, record: { emailaddress1: 'y@example.com' } },
        { id: saved, record: { billingcity: 'Nice' } },
      ] }, tokens.sales);
      assertBatch(u, 3, [failed(0, 403, /hidden for role 'sales'/), failed(1, 403, /read-only for role 'sales'/)]);
      const stored = (await get(saved)).record;
      assert.deepEqual([stored.billingcity, stored.telephone1, stored.emailaddress1], ['Nice', null, null]);
    });
  });
});

describe('v3 batch writes on the free plan', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await testContext({ plan: 'free' });
  });
  after(() => ctx.close());

  test('are refused with 402 on every route, and nothing is written', async () => {
    const bodies: Array<[string, unknown[]]> = [['create', [{ accountname: 'x' }]], ['update', [{ id: ABSENT, record: { accountname: 'x' } }]], ['delete', [ABSENT]]];
    for (const [op, data] of bodies) {
      assertV3Error(await postV3(ctx, `/api/v3/record/account/batch/${op}`, { data }), 402, 'Payment Required',
        'The free plan does not include batch requests (the v3 batch routes, and imports over HTTP); upgrade to standard or higher.');
    }
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account' })).json().data.Total_Records, 0);
  });

  test('answer 402 before the role is consulted: the plan comes first (docs/access.md)', async () => {
    await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'viewer', grant: 'account:read' });
    const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'viewer@example.com', role: 'viewer' });
    assertV3Error(await postV3(ctx, '/api/v3/record/account/batch/create', { data: [{ accountname: 'x' }] }, token), 402, 'Payment Required', 'The free plan does not include batch requests (the v3 batch routes, and imports over HTTP); upgrade to standard or higher.');
  });
});
