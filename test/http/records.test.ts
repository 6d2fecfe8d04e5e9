// The record routes through HTTP (docs/api.md): list, get, create, update and delete on
// every standard object, paging, object names, ids, validation of bodies and the read-only crmuser.
// Expected records are built from the object definitions and the test clock, and compared whole.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { prepareCreate } from '../../src/schema/record-input.js';
import type { FieldDef, FieldValue, ObjectDef, RecordRow } from '../../src/schema/types.js';
import { testContext, type TestContext, TEST_AUTHOR } from '../helpers.js';
import { assertErrorReply } from './error-reply.js';

const BASE = 'http://orchard.test';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

/** `YYYY-MM-DDThh:mm:ss` in UTC, the form createdon and modifiedon take. */
const stamp = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

function body(res: LightMyRequestResponse): any {
  return JSON.parse(res.body);
}

/** An error reply: the status, a JSON content type and a body that is exactly `{Message}`. */
function requiredMessage(obj: ObjectDef, name: string): string {
  return `'${name}' (${obj.fieldsByName.get(name)!.label}) is required; send a non-empty value.`;
}

const unknownObject = (ref: string): string =>
  `Invalid Object Name: '${ref}'. Use an object's system name (such as 'account') or number (such as 1); 'account' is 1, 'contact' is 2.`;
const malformedId = (obj: string, id: string): string =>
  `'${id}' is not a valid ${obj} id: record ids are RFC 4122 UUIDs such as '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f'.`;
const notFound = (obj: string, id: string): string => `No ${obj} record has id '${id}'.`;
const READ_ONLY = "The crmuser object is read-only through the API: its records mirror the organization's users. Manage users with `orchard user create`.";
const NOT_AN_OBJECT = 'The request body is invalid: must be object. Check your data.';
const NOT_JSON = 'The request body is not valid JSON. Check your data.';

/** Every field of the object null, then the system fields of a record the context's user created now. */
function recordOf(ctx: TestContext, obj: ObjectDef, values: RecordRow, at = ctx.clock.ms): RecordRow {
  const r: RecordRow = {};
  for (const f of obj.fields) r[f.name] = null;
  return {
    ...r,
    ownerid: ctx.userId, statecode: 1, statuscode: 1,
    createdon: stamp(at), modifiedon: stamp(at), createdby: ctx.userId, modifiedby: ctx.userId,
    ownername: 'Owner', createdbyname: 'Owner', modifiedbyname: 'Owner',
    ...values,
  };
}

/** The payload of GET one: a one-record page plus Record. */
function onePayload(obj: ObjectDef, record: RecordRow, page = { size: 50, number: 1 }) {
  return {
    success: true,
    data: {
      PrimaryKey: obj.keyField, PrimaryField: obj.primaryField, Total_Records: 1,
      Page_Size: page.size, Page_Number: page.number, Records: page.number === 1 ? [record] : [], Record: record,
    },
    message: '',
  };
}

async function objectsOf(ctx: TestContext): Promise<readonly ObjectDef[]> {
  return (await (await ctx.stores.records.org(ctx.orgId)).schema()).objects;
}

async function create(ctx: TestContext, obj: string, payload: Record<string, unknown>, token?: string): Promise<RecordRow> {
  const res = await ctx.request({ method: 'POST', url: `/api/record/${obj}`, payload, ...(token ? { token } : {}) });
  assert.equal(res.statusCode, 201, res.body);
  return body(res).data.Record as RecordRow;
}

async function getOne(ctx: TestContext, obj: string, id: string): Promise<LightMyRequestResponse> {
  return ctx.request({ method: 'GET', url: `/api/record/${obj}/${id}` });
}

async function total(ctx: TestContext, obj: string): Promise<number> {
  return body(await ctx.request({ method: 'GET', url: `/api/record/${obj}?pagesize=1` })).data.Total_Records;
}

describe('records of every standard object', () => {
  let ctx: TestContext;
  let objects: readonly ObjectDef[];
  let second: { id: string; token: string };
  /** One existing record per object type, the target of every lookup to that type: id and display name. */
  const targets = new Map<number, { id: string; name: string }>();

  before(async () => {
    ctx = await testContext();
    objects = await objectsOf(ctx);
    const { user, token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'second.user@example.com' });
    second = { id: user.id, token };
    targets.set(9, { id: user.id, name: 'Second User' });
    for (const obj of objects.filter((o) => !o.readOnly)) {
      const name = `Target ${obj.displayName}`;
      const r = await create(ctx, obj.systemName, { [obj.primaryField]: name });
      targets.set(obj.objectType, { id: r[obj.keyField] as string, name });
    }
  });

  after(async () => {
    await ctx.close();
  });

  /** A value for each writable field as sent, and as stored and returned. */
  function sample(f: FieldDef, obj: ObjectDef): { send: unknown; stored: FieldValue } {
    // A note is on a record (docs/compat.md): the target account.
    if (obj.systemName === 'note' && f.name === 'objectid') return { send: targets.get(1)!.id.toUpperCase(), stored: targets.get(1)!.id };
    if (obj.systemName === 'note' && f.name === 'objecttypecode') return { send: 1, stored: 1 };
    switch (f.type) {
      case 'text': case 'telephone': case 'textarea': case 'html':
        return { send: `Value of ${f.name}`, stored: `Value of ${f.name}` };
      case 'email': return { send: `${f.name}@example.com`, stored: `${f.name}@example.com` };
      case 'url': return { send: `https://example.com/${f.name}`, stored: `https://example.com/${f.name}` };
      // Sent as text, rounded to the field's precision on the decimal value (2.675 → 2.68, not 2.67).
      case 'number': return { send: '2.675', stored: f.precision === 2 ? 2.68 : f.precision === 0 ? 3 : 2.675 };
      case 'date': return { send: '2024-02-29', stored: '2024-02-29' };
      case 'datetime': return { send: '2024-02-28T23:30:00-01:00', stored: '2024-02-29T00:30:00' };
      case 'picklist': {
        const last = f.options![f.options!.length - 1]!.value;
        return { send: String(last), stored: last };
      }
      case 'lookup': {
        const target = targets.get(f.target!)!;
        return { send: target.id.toUpperCase(), stored: target.id };
      }
    }
  }

  /** The body setting every writable field, and the whole record the server must return for it. */
  function fullRecord(obj: ObjectDef): { payload: Record<string, unknown>; expected: RecordRow } {
    const payload: Record<string, unknown> = {};
    const values: RecordRow = {};
    for (const f of obj.fields.filter((x) => x.role === 'data')) {
      const { send, stored } = sample(f, obj);
      payload[f.name] = send;
      values[f.name] = stored;
    }
    for (const f of obj.fields.filter((x) => x.role === 'derived')) {
      const lookup = obj.fieldsByName.get(f.derivedFrom!)!;
      const id = f.derivedFrom === 'createdby' || f.derivedFrom === 'modifiedby' ? ctx.userId : values[lookup.name];
      values[f.name] = id === ctx.userId ? 'Owner' : [...targets.values()].find((t) => t.id === id)!.name;
    }
    return { payload, expected: recordOf(ctx, obj, values) };
  }

  test('the organization has the standard objects of the public service, crmuser read-only', () => {
    assert.deepEqual(objects.map((o) => [o.objectType, o.systemName, o.keyField, o.primaryField]), [
      [1, 'account', 'accountid', 'accountname'], [2, 'contact', 'contactid', 'fullname'],
      [3, 'lead', 'leadid', 'fullname'], [4, 'opportunity', 'opportunityid', 'name'],
      [5, 'cases', 'casesid', 'title'], [6, 'activity', 'activityid', 'subject'],
      [7, 'note', 'noteid', 'subject'], [8, 'competitor', 'competitorid', 'name'],
      [9, 'crmuser', 'crmuserid', 'fullname'], [10, 'task', 'taskid', 'subject'],
      [13, 'crmorder', 'crmorderid', 'name'], [14, 'product', 'productid', 'productname'],
      [17, 'crmorderitem', 'crmorderitemid', 'productname'], [28, 'contract', 'contractid', 'name'],
      [33, 'accountproduct', 'accountproductid', 'productname'], [46, 'project', 'projectid', 'name'],
      [67, 'campaign', 'campaignid', 'name'], [76, 'article', 'articleid', 'title'],
      [86, 'invoice', 'invoiceid', 'name'],
    ]);
    assert.deepEqual(objects.filter((o) => o.readOnly).map((o) => o.systemName), ['crmuser']);
  });

  describe('create, read, update and delete', () => {
    for (const systemName of ['account', 'contact', 'lead', 'opportunity', 'cases', 'activity', 'note', 'competitor', 'task',
      'crmorder', 'product', 'crmorderitem', 'contract', 'accountproduct', 'project', 'campaign', 'article', 'invoice']) {
      describe(systemName, () => {
        let obj: ObjectDef;
        let created: RecordRow;
        let id: string;

        before(() => {
          obj = objects.find((o) => o.systemName === systemName)!;
        });

        test('creates a record with every writable field: 201, Location and the whole record with derived names', async () => {
          ctx.clock.advance(1000);
          const { payload, expected } = fullRecord(obj);
          const res = await ctx.request({ method: 'POST', url: `/api/record/${systemName}`, payload });
          assert.equal(res.statusCode, 201, res.body);
          assert.equal(res.headers['content-type'], JSON_TYPE);
          const b = body(res);
          id = b.data.Record[obj.keyField];
          assert.match(id, UUID_V4);
          assert.equal(res.headers.location, `${BASE}/api/record/${systemName}/${id}`);
          created = { ...expected, [obj.keyField]: id };
          assert.deepEqual(b, { success: true, data: { Record: created }, message: '' });
        });

        test('reads it back by name in any case and by number, as a one-record page plus Record', async () => {
          for (const ref of [systemName, systemName.toUpperCase(), obj.displayName, String(obj.objectType)]) {
            const res = await getOne(ctx, ref, id);
            assert.equal(res.statusCode, 200, res.body);
            assert.equal(res.headers['content-type'], JSON_TYPE);
            assert.deepEqual(body(res), onePayload(obj, created), `GET /api/record/${ref}/{id}`);
          }
          assert.deepEqual(body(await getOne(ctx, systemName, id.toUpperCase())), onePayload(obj, created), 'ids in any case');
        });

        test('updates only the fields sent; modifiedon moves with the clock, createdon and the key do not', async () => {
          ctx.clock.advance(90_000);
          const res = await ctx.request({
            method: 'PUT', url: `/api/record/${systemName}/${id}`,
            payload: {
              [obj.primaryField]: 'Renamed',
              // Ignored: the key, system fields and derived names.
              [obj.keyField]: randomUUID(), createdon: '2000-01-01T00:00:00', modifiedon: '2000-01-01T00:00:00',
              createdby: second.id, modifiedby: second.id, ownername: 'Someone', createdbyname: 'Someone',
            },
          });
          assert.equal(res.statusCode, 200, res.body);
          created = { ...created, [obj.primaryField]: 'Renamed', modifiedon: stamp(ctx.clock.ms) };
          assert.deepEqual(body(res), { success: true, data: { Record: created }, message: '' });
          assert.deepEqual(body(await getOne(ctx, systemName, id)), onePayload(obj, created));
        });

        test('deletes it: 200 with data null, then the record is gone', async () => {
          const res = await ctx.request({ method: 'DELETE', url: `/api/record/${systemName}/${id}` });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.headers['content-type'], JSON_TYPE);
          assert.deepEqual(body(res), { success: true, data: null, message: '' });
          assertErrorReply(await getOne(ctx, systemName, id), 404, notFound(systemName, id));
          assertErrorReply(await ctx.request({ method: 'DELETE', url: `/api/record/${systemName}/${id}` }), 404, notFound(systemName, id));
          assertErrorReply(await ctx.request({ method: 'PUT', url: `/api/record/${systemName}/${id}`, payload: { [obj.primaryField]: 'Back' } }), 404, notFound(systemName, id));
        });

        test('refuses a create without the primary field, and one that empties it (a note\'s title is optional)', async () => {
          const count = await total(ctx, systemName);
          for (const payload of [{}, { [obj.primaryField]: '' }, { [obj.primaryField]: null }]) {
            const res = await ctx.request({ method: 'POST', url: `/api/record/${systemName}`, payload });
            if (systemName === 'note') assert.equal(res.statusCode, 201, res.body);
            else if (systemName === 'contact' || systemName === 'lead') {
              assertErrorReply(res, 400, "'fullname' (Full Name) is required; send it, or 'firstname' and/or 'lastname' to build it from.");
            } else assertErrorReply(res, 400, requiredMessage(obj, obj.primaryField));
          }
          assert.equal(await total(ctx, systemName), systemName === 'note' ? count + 3 : count, 'nothing else was written');
        });

        test('answers a malformed id with 400 and an absent one with 404 on every id route', async () => {
          const absent = randomUUID();
          for (const method of ['GET', 'PUT', 'DELETE'] as const) {
            const payload = method === 'PUT' ? { [obj.primaryField]: 'x' } : undefined;
            assertErrorReply(await ctx.request({ method, url: `/api/record/${systemName}/not-a-uuid`, payload }), 400, malformedId(systemName, 'not-a-uuid'));
            assertErrorReply(await ctx.request({ method, url: `/api/record/${systemName}/${absent}`, payload }), 404, notFound(systemName, absent));
          }
        });
      });
    }
  });

  describe('crmuser, the organization\'s users', () => {
    test('lists the users, read from the control plane, with their names', async () => {
      const res = await ctx.request({ method: 'GET', url: '/api/record/crmuser' });
      assert.equal(res.statusCode, 200, res.body);
      const b = body(res);
      assert.equal(b.data.PrimaryKey, 'crmuserid');
      assert.equal(b.data.PrimaryField, 'fullname');
      assert.equal(b.data.Total_Records, 2);
      const byId = new Map((b.data.Records as RecordRow[]).map((r) => [r.crmuserid, r]));
      assert.deepEqual(
        { ...byId.get(ctx.userId), createdon: null, modifiedon: null },
        { crmuserid: ctx.userId, fullname: 'Owner', emailaddress1: 'owner@example.com', ownerid: ctx.userId, statecode: 1, statuscode: 1,
          createdon: null, modifiedon: null, createdby: ctx.userId, modifiedby: ctx.userId, ownername: 'Owner', createdbyname: 'Owner', modifiedbyname: 'Owner' },
      );
      assert.equal(byId.get(second.id)!.fullname, 'Second User');
    });

    test('refuses every write with 403 and changes nothing', async () => {
      assertErrorReply(await ctx.request({ method: 'POST', url: '/api/record/crmuser', payload: { fullname: 'Intruder' } }), 403, READ_ONLY);
      assertErrorReply(await ctx.request({ method: 'POST', url: '/api/record/9', payload: { fullname: 'Intruder' } }), 403, READ_ONLY);
      assertErrorReply(await ctx.request({ method: 'PUT', url: `/api/record/crmuser/${second.id}`, payload: { fullname: 'Renamed' } }), 403, READ_ONLY);
      assertErrorReply(await ctx.request({ method: 'DELETE', url: `/api/record/crmuser/${second.id}` }), 403, READ_ONLY);
      const res = await getOne(ctx, 'crmuser', second.id);
      assert.equal(body(res).data.Record.fullname, 'Second User');
      assert.equal(await total(ctx, 'crmuser'), 2);
    });
  });

  describe('ownerid', () => {
    test('defaults to the caller, whose name is ownername and createdbyname', async () => {
      const r = await create(ctx, 'account', { accountname: 'Made by second' }, second.token);
      assert.deepEqual(r, recordOf(ctx, objects[0]!, {
        accountid: r.accountid!, accountname: 'Made by second',
        ownerid: second.id, createdby: second.id, modifiedby: second.id,
        ownername: 'Second User', createdbyname: 'Second User', modifiedbyname: 'Second User',
      }));
    });

    test('can be set to another user of the organization on create and on update', async () => {
      const r = await create(ctx, 'account', { accountname: 'Given away', ownerid: second.id });
      assert.equal(r.ownerid, second.id);
      assert.equal(r.ownername, 'Second User');
      assert.equal(r.createdby, ctx.userId, 'the creator is still the caller');
      assert.equal(r.createdbyname, 'Owner');

      ctx.clock.advance(1000);
      const res = await ctx.request({ method: 'PUT', url: `/api/record/account/${r.accountid}`, payload: { OwnerId: ctx.userId } });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(body(res).data.Record, { ...r, ownerid: ctx.userId, ownername: 'Owner', modifiedon: stamp(ctx.clock.ms) });
    });

    test('records who updated it in modifiedby', async () => {
      const r = await create(ctx, 'account', { accountname: 'Edited by second' });
      ctx.clock.advance(1000);
      const res = await ctx.request({ method: 'PUT', url: `/api/record/account/${r.accountid}`, payload: { description: 'x' }, token: second.token });
      assert.deepEqual(body(res).data.Record, { ...r, description: 'x', modifiedby: second.id, modifiedbyname: 'Second User', modifiedon: stamp(ctx.clock.ms) });
    });

    test('refuses a UUID that is no user of the organization, and clearing it', async () => {
      const stranger = randomUUID();
      const message = `'ownerid' refers to crmuser '${stranger}', which does not exist. Send the id of an existing crmuser record.`;
      assertErrorReply(await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'x', ownerid: stranger } }), 400, message);
      const r = await create(ctx, 'account', { accountname: 'Keeps its owner' });
      assertErrorReply(await ctx.request({ method: 'PUT', url: `/api/record/account/${r.accountid}`, payload: { ownerid: stranger } }), 400, message);
      const account = objects[0]!;
      assertErrorReply(await ctx.request({ method: 'PUT', url: `/api/record/account/${r.accountid}`, payload: { ownerid: null } }), 400, requiredMessage(account, 'ownerid'));
      assert.equal(body(await getOne(ctx, 'account', r.accountid as string)).data.Record.ownerid, ctx.userId);
    });
  });

  describe('choosing the id on create', () => {
    test('accepts an RFC 4122 UUID in any case and stores it lowercase', async () => {
      const chosen = randomUUID();
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { AccountId: chosen.toUpperCase(), accountname: 'Chosen' } });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.headers.location, `${BASE}/api/record/account/${chosen}`);
      assert.deepEqual(body(res).data.Record, recordOf(ctx, objects[0]!, { accountid: chosen, accountname: 'Chosen' }));
      assert.equal(body(await getOne(ctx, 'account', chosen.toUpperCase())).data.Record.accountid, chosen);
    });

    test('lets the server choose when the key is null or empty', async () => {
      for (const accountid of [null, '']) {
        const r = await create(ctx, 'account', { accountid, accountname: 'Server chose' });
        assert.match(r.accountid as string, UUID_V4);
      }
    });

    test('refuses a key that is not an RFC 4122 UUID with 400', async () => {
      const count = await total(ctx, 'account');
      for (const accountid of ['00000000-0000-0000-0000-000000000000', '3f2b8c1e-5d4a-4b6f-ce2d-7a1c0b9d8e6f', '3f2b8c1e-5d4a-0b6f-9e2d-7a1c0b9d8e6f', 'abc', 12345, true]) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountid, accountname: 'Bad id' } });
        assertErrorReply(res, 400, /^'accountid' must be an RFC 4122 UUID such as '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}', or left out to let the server choose one\.$/);
      }
      assert.equal(await total(ctx, 'account'), count, 'nothing was written');
    });

    test('refuses an id already taken with 400 and leaves the record alone', async () => {
      const r = await create(ctx, 'account', { accountname: 'Original' });
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountid: r.accountid, accountname: 'Duplicate' } });
      assertErrorReply(res, 400, `The account id '${r.accountid}' is already taken by another record. Leave 'accountid' out to let the server choose an id, or update the existing record with PUT.`);
      assert.equal(body(await getOne(ctx, 'account', r.accountid as string)).data.Record.accountname, 'Original');
    });

    test('gives a deleted record\'s id again: the history goes on under the id, the feed has the delete before the create', async () => {
      const first = await create(ctx, 'account', { accountname: 'First life' });
      const id = first.accountid as string;
      const cursor = body(await ctx.request({ method: 'GET', url: '/api/changes?since=now' })).data.Cursor as string;
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}` })).statusCode, 200);
      const again = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountid: id.toUpperCase(), accountname: 'Second life' } });
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(body(again).data.Record.accountid, id);
      assert.equal(body(await getOne(ctx, 'account', id)).data.Record.accountname, 'Second life');
      const history = body(await ctx.request({ method: 'GET', url: `/api/record/account/${id}/history` })).data.Entries as Array<{ operation: string; fields: Record<string, { old: unknown; new: unknown }> }>;
      assert.deepEqual(history.map((e) => [e.operation, e.fields.accountname]), [
        ['create', { old: null, new: 'Second life' }], ['delete', { old: 'First life', new: null }], ['create', { old: null, new: 'First life' }],
      ]);
      const feed = body(await ctx.request({ method: 'GET', url: `/api/changes?since=${cursor}` })).data.Entries as Array<{ operation: string; recordid: string }>;
      assert.deepEqual(feed.map((e) => [e.operation, e.recordid]), [['delete', id], ['create', id]]);
      const taken = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountid: id, accountname: 'Third' } });
      assert.deepEqual([taken.statusCode, taken.headers['x-error-code']], [400, 'RECORD_ID_TAKEN'], 'while a record has it, it is taken');
    });

    test('ignores system fields and derived names sent on create', async () => {
      const r = await create(ctx, 'account', {
        accountname: 'System fields sent', createdon: '2000-01-01T00:00:00', modifiedon: '2000-01-01T00:00:00',
        createdby: second.id, modifiedby: second.id, ownername: 'Fake', createdbyname: 'Fake', primarycontactname: 'Fake',
      });
      assert.deepEqual(r, recordOf(ctx, objects[0]!, { accountid: r.accountid!, accountname: 'System fields sent' }));
    });
  });

  describe('validation of record bodies', () => {
    let account: ObjectDef;
    let existing: RecordRow;

    before(async () => {
      account = objects[0]!;
      existing = await create(ctx, 'account', { accountname: 'Existing', accountnumber: 'E-1' });
    });

    const post = (obj: string, payload: unknown) => ctx.request({ method: 'POST', url: `/api/record/${obj}`, payload: payload as object });
    const put = (payload: unknown) => ctx.request({ method: 'PUT', url: `/api/record/account/${existing.accountid}`, payload: payload as object });

    test('refuses to set a required field to null or empty on update, and keeps the value', async () => {
      for (const accountname of [null, '']) {
        assertErrorReply(await put({ accountname }), 400, requiredMessage(account, 'accountname'));
      }
      for (const field of ['statecode', 'statuscode']) {
        assertErrorReply(await put({ [field]: null }), 400, requiredMessage(account, field));
      }
      assert.deepEqual(body(await getOne(ctx, 'account', existing.accountid as string)).data.Record, existing);
    });

    test('refuses a text over its maxlength, counted in characters', async () => {
      assertErrorReply(await post('account', { accountname: 'a'.repeat(201) }), 400, "'accountname' is 201 characters long; its maxlength is 200. Shorten the value.");
      assertErrorReply(await put({ accountname: 'a'.repeat(201) }), 400, "'accountname' is 201 characters long; its maxlength is 200. Shorten the value.");
      assert.equal((await create(ctx, 'account', { accountname: 'a'.repeat(200) })).accountname, 'a'.repeat(200));
      const emoji = '\u{1F600}'.repeat(200);
      assert.equal((await create(ctx, 'account', { accountname: emoji })).accountname, emoji, '200 emoji are 200 characters');
    });

    test('refuses a value that is not a Number', async () => {
      assertErrorReply(await post('product', { productname: 'p', price: 'x' }), 400, "'price' must be a valid Number; got 'x'. Send a JSON number such as 42 or 3.5.");
      assertErrorReply(await post('product', { productname: 'p', price: true }), 400, "'price' must be a valid Number; got true. Send a JSON number such as 42 or 3.5.");
      assert.equal((await create(ctx, 'product', { productname: 'p', price: 1.005 })).price, 1.01);
      assert.equal((await create(ctx, 'product', { productname: 'p', price: '-7' })).price, -7);
    });

    test('refuses a date that does not exist, and accepts Feb 29 of a leap year', async () => {
      assertErrorReply(await post('contact', { fullname: 'c', birthdate: '2023-02-29' }), 400, "'birthdate' must be a valid Date; got '2023-02-29'. Send a date as YYYY-MM-DD.");
      assertErrorReply(await post('contact', { fullname: 'c', birthdate: '31/01/2025' }), 400, "'birthdate' must be a valid Date; got '31/01/2025'. Send a date as YYYY-MM-DD.");
      assert.equal((await create(ctx, 'contact', { fullname: 'c', birthdate: '2024-02-29' })).birthdate, '2024-02-29');
    });

    test('refuses a value that is not a DateTime', async () => {
      const message = (v: string) => `'pcfsystemfield85' must be a valid DateTime; got '${v}'. Send an ISO 8601 datetime such as 2025-01-31T14:05:00 (no zone means UTC).`;
      for (const v of ['yesterday', '2025-01-31T25:00:00', '2025-01-31T10:00:00+99:00']) {
        assertErrorReply(await post('account', { accountname: 'a', pcfsystemfield85: v }), 400, message(v));
      }
    });

    test('stores datetimes in UTC: offsets converted, no zone kept as is, a date alone as midnight', async () => {
      const cases: ReadonlyArray<[string, string]> = [
        ['2025-01-01T01:30:00+02:00', '2024-12-31T23:30:00'],
        ['2025-06-15T10:00:00.5-05:30', '2025-06-15T15:30:00'],
        ['2025-06-15T10:00:00Z', '2025-06-15T10:00:00'],
        ['2025-06-15T10:00:00', '2025-06-15T10:00:00'],
        ['2025-06-15 10:00', '2025-06-15T10:00:00'],
        ['2025-06-15', '2025-06-15T00:00:00'],
      ];
      for (const [sent, stored] of cases) {
        assert.equal((await create(ctx, 'account', { accountname: 'dt', pcfsystemfield85: sent })).pcfsystemfield85, stored, sent);
      }
      const res = await put({ pcfsystemfield85: '2025-03-01T00:00:00+01:00' });
      assert.equal(body(res).data.Record.pcfsystemfield85, '2025-02-28T23:00:00');
      existing = body(res).data.Record;
    });

    test('refuses a picklist code that is not among the options', async () => {
      assertErrorReply(await post('account', { accountname: 'a', accounttypecode: 9 }), 400,
        "'accounttypecode' must be a valid Picklist code; got 9. Send one of the codes 1 (Customer), 2 (Partner), 3 (Prospect), 4 (Vendor), 5 (Other).");
      assertErrorReply(await post('account', { accountname: 'a', statecode: 3 }), 400,
        "'statecode' must be a valid Picklist code; got 3. Send one of the codes 1 (Active), 2 (Inactive).");
      assert.equal((await create(ctx, 'account', { accountname: 'a', accounttypecode: '3' })).accounttypecode, 3);
    });

    test('refuses a lookup that is not a UUID, and one to a missing record', async () => {
      assertErrorReply(await post('account', { accountname: 'a', parentaccountid: 'abc' }), 400,
        "'parentaccountid' must be a valid Lookup id (a UUID); got 'abc'. Send the id of the related record.");
      const missing = randomUUID();
      assertErrorReply(await post('account', { accountname: 'a', parentaccountid: missing }), 400,
        `'parentaccountid' refers to account '${missing}', which does not exist. Send the id of an existing account record.`);
      assertErrorReply(await put({ primarycontactid: missing }), 400,
        `'primarycontactid' refers to contact '${missing}', which does not exist. Send the id of an existing contact record.`);
      const r = await create(ctx, 'account', { accountname: 'Child', parentaccountid: existing.accountid });
      assert.equal(r.parentaccountname, 'Existing');
      const cleared = await ctx.request({ method: 'PUT', url: `/api/record/account/${r.accountid}`, payload: { parentaccountid: null } });
      assert.equal(body(cleared).data.Record.parentaccountid, null);
      assert.equal(body(cleared).data.Record.parentaccountname, null);
    });

    test('refuses an e-mail address that is not one', async () => {
      assertErrorReply(await post('account', { accountname: 'a', emailaddress1: 'not-an-address' }), 400,
        "'emailaddress1' must be a valid Email; got 'not-an-address'. Send an address such as name@example.com.");
      assertErrorReply(await put({ emailaddress2: 'a@b' }), 400,
        "'emailaddress2' must be a valid Email; got 'a@b'. Send an address such as name@example.com.");
    });

    test('refuses text containing a NUL character', async () => {
      assertErrorReply(await post('account', { accountname: 'a\u0000b' }), 400,
        "'accountname' must be a valid Text; it contains a NUL character (\\u0000), which text fields cannot hold. Remove it.");
    });

    test('rejects an unknown field with 400 and names it, suggesting a near miss', async () => {
      assertErrorReply(await post('account', { acountname: 'Typo' }), 400, "Invalid field name: 'acountname'. Did you mean 'accountname'?");
      assertErrorReply(await post('account', { accountname: 'a', revenue: 5 }), 400, "Invalid field name: 'revenue'. The account object has no such field.");
      assertErrorReply(await put({ EmailAdress1: 'a@b.co' }), 400, "Invalid field name: 'EmailAdress1'. Did you mean 'emailaddress1'?");
      assertErrorReply(await post('contact', { fullname: 'c', accountname: 'x', birthday: '2020-01-01' }), 400, "Invalid field name: 'birthday'. Did you mean 'birthdate'?");
    });

    test('matches field names in the body in any case', async () => {
      const r = await create(ctx, 'account', { AccountName: 'Case Co', EMAILADDRESS1: 'case@example.com', AccountTypeCode: 2 });
      assert.deepEqual(r, recordOf(ctx, account, { accountid: r.accountid!, accountname: 'Case Co', emailaddress1: 'case@example.com', accounttypecode: 2 }));
      ctx.clock.advance(1000);
      const res = await ctx.request({ method: 'PUT', url: `/api/record/account/${r.accountid}`, payload: { ACCOUNTNUMBER: 'C-1' } });
      assert.deepEqual(body(res).data.Record, { ...r, accountnumber: 'C-1', modifiedon: stamp(ctx.clock.ms) });
    });

    test('refuses a body that is not a JSON object, on create and on update', async () => {
      for (const method of ['POST', 'PUT'] as const) {
        const url = method === 'POST' ? '/api/record/account' : `/api/record/account/${existing.accountid}`;
        for (const raw of ['[]', '[{"accountname":"a"}]', '"text"', '42', 'true', 'null']) {
          const res = await ctx.request({ method, url, payload: raw, headers: { 'content-type': 'application/json' } });
          assertErrorReply(res, 400, NOT_AN_OBJECT);
        }
        assertErrorReply(await ctx.request({ method, url }), 400, NOT_AN_OBJECT);
        for (const raw of ['{"accountname":', '{accountname: "a"}', "{'accountname': 'a'}", '{"a":1}}']) {
          const res = await ctx.request({ method, url, payload: raw, headers: { 'content-type': 'application/json' } });
          assertErrorReply(res, 400, NOT_JSON);
        }
      }
      assert.deepEqual(body(await getOne(ctx, 'account', existing.accountid as string)).data.Record, existing);
    });

    test('refuses a body with a prototype-poisoning key as invalid JSON', async () => {
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: '{"accountname":"a","__proto__":{"admin":true}}', headers: { 'content-type': 'application/json' } });
      assertErrorReply(res, 400, NOT_JSON);
    });
  });

  describe('objects in the path', () => {
    test('answers an unknown object with 404 on every route', async () => {
      const id = randomUUID();
      for (const ref of ['nosuchobject', '999', '0', 'accounts']) {
        assertErrorReply(await ctx.request({ method: 'GET', url: `/api/record/${ref}` }), 404, unknownObject(ref));
        assertErrorReply(await ctx.request({ method: 'GET', url: `/api/record/${ref}/${id}` }), 404, unknownObject(ref));
        assertErrorReply(await ctx.request({ method: 'POST', url: `/api/record/${ref}`, payload: { name: 'x' } }), 404, unknownObject(ref));
        assertErrorReply(await ctx.request({ method: 'PUT', url: `/api/record/${ref}/${id}`, payload: { name: 'x' } }), 404, unknownObject(ref));
        assertErrorReply(await ctx.request({ method: 'DELETE', url: `/api/record/${ref}/${id}` }), 404, unknownObject(ref));
      }
    });

    test('writes to an object named by number or in upper case', async () => {
      const res = await ctx.request({ method: 'POST', url: '/api/record/2', payload: { fullname: 'By number' } });
      assert.equal(res.statusCode, 201, res.body);
      const id = body(res).data.Record.contactid;
      assert.equal(res.headers.location, `${BASE}/api/record/contact/${id}`, 'Location uses the system name');
      const up = await ctx.request({ method: 'PUT', url: `/api/record/CONTACT/${id}`, payload: { jobtitle: 'CTO' } });
      assert.equal(body(up).data.Record.jobtitle, 'CTO');
      const del = await ctx.request({ method: 'DELETE', url: `/api/record/Contact/${id}` });
      assert.deepEqual(body(del), { success: true, data: null, message: '' });
    });
  });

  describe('GET one with page parameters', () => {
    test('reports the page asked for, and page 2 of one record is empty while Record stays', async () => {
      const account = objects[0]!;
      const r = await create(ctx, 'account', { accountname: 'Paged single' });
      const one = await ctx.request({ method: 'GET', url: `/api/record/account/${r.accountid}?pagesize=10` });
      assert.deepEqual(body(one), onePayload(account, r, { size: 10, number: 1 }));
      const two = await ctx.request({ method: 'GET', url: `/api/record/account/${r.accountid}?pagenumber=2` });
      assert.deepEqual(body(two), onePayload(account, r, { size: 50, number: 2 }));
      // The reply text is built with the record serialized once: byte for byte what serializing the
      // whole payload gives, members in the same order, as JSON.
      for (const [res, page] of [[one, { size: 10, number: 1 }], [two, { size: 50, number: 2 }]] as const) {
        assert.equal(res.body, JSON.stringify(onePayload(account, r, page)));
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      }
      assertErrorReply(await ctx.request({ method: 'GET', url: `/api/record/account/${r.accountid}?pagesize=0` }), 400, "Invalid query parameter 'pagesize' must be a whole number of at least 1; got '0'.");
      assertErrorReply(await ctx.request({ method: 'GET', url: `/api/record/account/${r.accountid}?pagenumber=x` }), 400, "Invalid query parameter 'pagenumber' must be a whole number of at least 1 in decimal digits, such as 10; got 'x'.");
    });
  });
});

describe('GET list', () => {
  let ctx: TestContext;
  let objects: readonly ObjectDef[];
  /** Per writable object: its records in list order, as the API returns them. */
  const expected = new Map<string, RecordRow[]>();
  const COUNT = 53;

  before(async () => {
    ctx = await testContext();
    objects = await objectsOf(ctx);
    const start = ctx.clock.ms - 3_600_000;
    for (const obj of objects.filter((o) => !o.readOnly)) {
      // Two records per instant, so half the order is decided by the key.
      const rows = Array.from({ length: COUNT }, (_, i) =>
        prepareCreate(obj, { [obj.primaryField]: `${obj.displayName} ${i}` }, { userId: ctx.userId, now: new Date(start + Math.floor(i / 2) * 1000) }));
      await ctx.stores.records.bulkInsert(ctx.orgId, obj, rows, TEST_AUTHOR);
      const k = obj.keyField;
      const ordered = [...rows].sort((a, b) =>
        String(b.createdon).localeCompare(String(a.createdon)) || String(b[k]).localeCompare(String(a[k])));
      expected.set(obj.systemName, ordered.map((r) => recordOf(ctx, obj, r, Date.parse(`${r.createdon}Z`))));
    }
  });

  after(async () => {
    await ctx.close();
  });

  const list = (url: string) => ctx.request({ method: 'GET', url });
  const page = (obj: ObjectDef, records: RecordRow[], size: number, number: number, totalRecords = COUNT) => ({
    success: true,
    data: { PrimaryKey: obj.keyField, PrimaryField: obj.primaryField, Total_Records: totalRecords, Page_Size: size, Page_Number: number, Records: records },
    message: '',
  });

  test('lists every writable object newest first (ties by key descending) in pages of at most 50', async () => {
    for (const obj of objects.filter((o) => !o.readOnly)) {
      const all = expected.get(obj.systemName)!;
      const name = obj.systemName;
      const first = await list(`/api/record/${name}`);
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.headers['content-type'], JSON_TYPE);
      assert.deepEqual(body(first), page(obj, all.slice(0, 50), 50, 1), `${name}: default page`);
      assert.deepEqual(body(await list(`/api/record/${obj.objectType}?pagenumber=2`)), page(obj, all.slice(50), 50, 2), `${name}: page 2 by number`);
      assert.deepEqual(body(await list(`/api/record/${name.toUpperCase()}?pagesize=20&pagenumber=3`)), page(obj, all.slice(40), 20, 3), `${name}: pagesize 20, page 3`);
      assert.deepEqual(body(await list(`/api/record/${name}?pagesize=51`)), page(obj, all.slice(0, 50), 50, 1), `${name}: pagesize 51 is served as 50`);
      assert.deepEqual(body(await list(`/api/record/${name}?pagesize=10&pagenumber=7`)), page(obj, [], 10, 7), `${name}: past the end`);
    }
  });

  test('serves a pagesize over 50 as 50 and says so in Page_Size', async () => {
    const account = objects[0]!;
    for (const size of ['51', '500', '100000', '100000000000000000000']) {
      assert.deepEqual(body(await list(`/api/record/account?pagesize=${size}`)), page(account, expected.get('account')!.slice(0, 50), 50, 1), size);
    }
  });

  test('answers a page past the end with 200 and no records, however far', async () => {
    const account = objects[0]!;
    assert.deepEqual(body(await list('/api/record/account?pagenumber=3')), page(account, [], 50, 3));
    assert.deepEqual(body(await list('/api/record/account?pagenumber=9007199254740991')), page(account, [], 50, 9007199254740991));
  });

  test('refuses a pagesize or pagenumber that is 0, negative or not an integer with 400', async () => {
    for (const param of ['pagesize', 'pagenumber']) {
      for (const [value, message] of [
        ['0', `Invalid query parameter '${param}' must be ${param === 'pagenumber' ? 'a whole number from 1 to 9007199254740991' : 'a whole number of at least 1'}; got '0'.`],
        ['-1', `Invalid query parameter '${param}' must be ${param === 'pagenumber' ? 'a whole number from 1 to 9007199254740991' : 'a whole number of at least 1'}; got '-1'.`],
        ['-50', `Invalid query parameter '${param}' must be ${param === 'pagenumber' ? 'a whole number from 1 to 9007199254740991' : 'a whole number of at least 1'}; got '-50'.`],
        ['1.5', `Invalid query parameter '${param}' must be a whole number of at least 1 in decimal digits, such as 10; got '1.5'.`],
        ['abc', `Invalid query parameter '${param}' must be a whole number of at least 1 in decimal digits, such as 10; got 'abc'.`],
        ['', `Invalid query parameter '${param}' must be a whole number of at least 1 in decimal digits, such as 10; got ''.`],
        ['2,3', `Invalid query parameter '${param}' must be a whole number of at least 1 in decimal digits, such as 10; got '2,3'.`],
        // Number() reads these as 16, 10 and 3; a query string's number is decimal digits only.
        ['0x10', `Invalid query parameter '${param}' must be a whole number of at least 1 in decimal digits, such as 10; got '0x10'.`],
        ['1e1', `Invalid query parameter '${param}' must be a whole number of at least 1 in decimal digits, such as 10; got '1e1'.`],
        ['0b11', `Invalid query parameter '${param}' must be a whole number of at least 1 in decimal digits, such as 10; got '0b11'.`],
      ] as const) {
        assertErrorReply(await list(`/api/record/account?${param}=${value}`), 400, message);
      }
    }
  });

  test('refuses a page number too large to count exactly with 400, not a 500', async () => {
    for (const value of ['100000000000000000000', '9007199254740992']) {
      assertErrorReply(await list(`/api/record/account?pagenumber=${value}`), 400, `Invalid query parameter 'pagenumber' must be a whole number from 1 to 9007199254740991; got '${value === '9007199254740992' ? value : '100000000000000000000'}'.`);
    }
  });

  test('refuses an infinite pagenumber or negative pagesize with 400 quoting the text sent, not a 500; serves an infinite pagesize as 50', async () => {
    // Decimal digits too many for a double read as Infinity.
    const nines = '9'.repeat(400);
    const cut = `${'9'.repeat(60)}…`;
    for (const url of ['/api/record/account', `/api/record/account/${randomUUID()}`]) {
      assertErrorReply(await list(`${url}?pagenumber=${nines}`), 400, `Invalid query parameter 'pagenumber' must be a whole number from 1 to 9007199254740991; got '${cut}'.`);
      assertErrorReply(await list(`${url}?pagenumber=-${nines}`), 400, `Invalid query parameter 'pagenumber' must be a whole number from 1 to 9007199254740991; got '-${cut.slice(1)}'.`);
      assertErrorReply(await list(`${url}?pagesize=-${nines}`), 400, `Invalid query parameter 'pagesize' must be a whole number of at least 1; got '-${cut.slice(1)}'.`);
    }
    assert.deepEqual(body(await list(`/api/record/account?pagesize=${nines}`)), page(objects[0]!, expected.get('account')!.slice(0, 50), 50, 1), 'as any pagesize over 50');
  });

  test('orders records created through the API by createdon, then by key, both descending', async () => {
    const account = objects[0]!;
    ctx.clock.advance(60_000);
    const oldest = await create(ctx, 'account', { accountname: 'Earlier' });
    ctx.clock.advance(60_000);
    // Same instant, inserted middle, low, high: neither insertion order nor its reverse is the key order.
    const [mid, low, high] = ['7', '0', 'f'].map((c) => `${c}0000000-0000-4000-8000-000000000000`);
    for (const id of [mid, low, high]) await create(ctx, 'account', { accountid: id, accountname: `Same time ${id![0]}` });
    const res = body(await list('/api/record/account?pagesize=4'));
    assert.deepEqual(res.data.Records.map((r: RecordRow) => r.accountid), [high, mid, low, oldest.accountid]);
    assert.equal(res.data.Total_Records, COUNT + 4);
    assert.deepEqual(res.data.Records[3], recordOf(ctx, account, { accountid: oldest.accountid!, accountname: 'Earlier' }, ctx.clock.ms - 60_000));
    assert.deepEqual(res.data.Records[0], recordOf(ctx, account, { accountid: high!, accountname: 'Same time f' }));
  });

  test('lists an object without records as an empty page', async () => {
    const c2 = await testContext();
    try {
      const res = await c2.request({ method: 'GET', url: '/api/record/invoice' });
      const invoice = (await objectsOf(c2)).find((o) => o.systemName === 'invoice')!;
      assert.deepEqual(body(res), page(invoice, [], 50, 1, 0));
    } finally {
      await c2.close();
    }
  });
});
