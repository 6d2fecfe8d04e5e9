// Metadata routes (docs/compat.md): the exact shapes real clients check: object numbers and
// picklist values as digit strings, every field member a non-null string, type ids from the 11.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { STANDARD_OBJECT_SPECS } from '../../src/schema/standard-objects.js';
import { FIELD_TYPE_IDS } from '../../src/schema/types.js';
import { testContext, type TestContext } from '../helpers.js';

const body = (res: LightMyRequestResponse): any => JSON.parse(res.body);
const TYPE_IDS = new Set(Object.values(FIELD_TYPE_IDS));
const JSON_HEADERS = { 'content-type': 'application/json' };

describe('the metadata routes', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await testContext();
  });
  after(() => ctx.close());

  test('list every standard object with its number as a digit string, as the MCP client requires', async () => {
    const res = await ctx.request({ method: 'GET', url: '/metadata/records', headers: JSON_HEADERS });
    assert.equal(res.statusCode, 200, res.body);
    const b = body(res);
    assert.deepEqual(Object.keys(b).sort(), ['data', 'message', 'success']);
    assert.equal(b.success, true);
    assert.equal(b.message, '');
    assert.deepEqual(b.data, STANDARD_OBJECT_SPECS.map((s) => ({ name: s.displayName, systemName: s.systemName, objectType: String(s.objectType) })));
  });

  test('answer a doubled slash and a GET with a JSON content type and no body', async () => {
    const res = await ctx.request({ method: 'GET', url: '//metadata/records/1', headers: JSON_HEADERS });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(body(res).data, { name: 'Account', systemName: 'account', objectType: '1', PrimaryKey: 'accountid', PrimaryField: 'accountname' });
  });

  test('name an object by number or system name in any case', async () => {
    for (const ref of ['2', 'contact', 'Contact']) {
      const res = await ctx.request({ method: 'GET', url: `/metadata/records/${ref}` });
      assert.deepEqual(body(res).data, { name: 'Contact', systemName: 'contact', objectType: '2', PrimaryKey: 'contactid', PrimaryField: 'fullname' }, ref);
    }
  });

  test('give every object its PrimaryKey and PrimaryField, custom objects included, and keep the list without them', async () => {
    for (const spec of STANDARD_OBJECT_SPECS) {
      const res = await ctx.request({ method: 'GET', url: `/metadata/records/${spec.systemName}` });
      assert.deepEqual(body(res).data, {
        name: spec.displayName, systemName: spec.systemName, objectType: String(spec.objectType), PrimaryKey: spec.keyField, PrimaryField: spec.primaryField,
      });
    }
    const defined = await ctx.request({ method: 'POST', url: '/api/v2/record/58', payload: { name: 'Gadget' } });
    const ot = body(defined).record.objecttypecode as number;
    const res = await ctx.request({ method: 'GET', url: `/metadata/records/${ot}` });
    assert.deepEqual(body(res).data, { name: 'Gadget', systemName: `customobject${ot}`, objectType: String(ot), PrimaryKey: `customobject${ot}id`, PrimaryField: 'name' });
    const list = body(await ctx.request({ method: 'GET', url: '/metadata/records' })).data as Array<Record<string, unknown>>;
    assert.ok(list.every((o) => Object.keys(o).join() === 'name,systemName,objectType'));
  });

  test('list the fields of every standard object with four non-null strings each and a known type id', async () => {
    for (const spec of STANDARD_OBJECT_SPECS) {
      const res = await ctx.request({ method: 'GET', url: `/metadata/records/${spec.objectType}/fields` });
      assert.equal(res.statusCode, 200, res.body);
      const fields = body(res).data as Array<Record<string, unknown>>;
      assert.ok(fields.length > 5);
      for (const f of fields) {
        assert.deepEqual(Object.keys(f), ['label', 'fieldName', 'systemName', 'systemFieldTypeId']);
        for (const v of Object.values(f)) assert.equal(typeof v, 'string');
        assert.ok(TYPE_IDS.has(f.systemFieldTypeId as string), `${spec.systemName}.${f.fieldName}: ${f.systemFieldTypeId}`);
        assert.equal(f.systemFieldTypeId, (f.systemFieldTypeId as string).toLowerCase());
      }
      assert.ok(fields.some((f) => f.fieldName === spec.primaryField));
    }
  });

  test('give a lookup field the object it refers to as a digit string', async () => {
    const res = await ctx.request({ method: 'GET', url: '/metadata/records/account/fields/primarycontactid' });
    assert.deepEqual(body(res).data, {
      label: 'Primary Contact', fieldName: 'primarycontactid', systemName: 'primarycontactid',
      systemFieldTypeId: FIELD_TYPE_IDS.lookup, fieldObjectType: '2',
    });
  });

  test('give a picklist its values with digit-string codes, and fieldObjectType never null', async () => {
    const res = await ctx.request({ method: 'GET', url: '/metadata/records/1/fields/statecode/values' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(body(res).data, {
      label: 'Status', fieldName: 'statecode', systemName: 'statecode', systemFieldTypeId: FIELD_TYPE_IDS.picklist,
      fieldObjectType: '1', values: [{ name: 'Active', value: '1' }, { name: 'Inactive', value: '2' }],
    });
  });

  test('give a field that is not a picklist an empty list of values', async () => {
    const res = await ctx.request({ method: 'GET', url: '/metadata/records/1/fields/AccountName/values' });
    assert.equal(body(res).data.values.length, 0);
    assert.equal(body(res).data.fieldName, 'accountname');
  });

  test('refuse an unknown object with 404 and an unknown field with 400, naming the nearest field', async () => {
    const obj = await ctx.request({ method: 'GET', url: '/metadata/records/nosuch/fields' });
    assert.equal(obj.statusCode, 404);
    assert.match(body(obj).Message, /Invalid Object Name: 'nosuch'/);
    const field = await ctx.request({ method: 'GET', url: '/metadata/records/1/fields/accountnam' });
    assert.equal(field.statusCode, 400);
    assert.match(body(field).Message, /Invalid field name: 'accountnam'.*Did you mean 'accountname'\?/);
  });

  test('require a token', async () => {
    const res = await ctx.request({ method: 'GET', url: '/metadata/records', token: null });
    assert.equal(res.statusCode, 401);
    assert.deepEqual(Object.keys(body(res)), ['Message']);
  });

  test('leave out fields hidden from the caller\'s role', async () => {
    await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'sales', grant: 'account:read', hide: 'account:telephone1' });
    const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'sales@example.com', role: 'sales' });
    const list = body(await ctx.request({ method: 'GET', url: '/metadata/records/1/fields', token })).data as Array<{ fieldName: string }>;
    assert.ok(!list.some((f) => f.fieldName === 'telephone1'));
    assert.ok(list.some((f) => f.fieldName === 'telephone2'));
    const one = await ctx.request({ method: 'GET', url: '/metadata/records/1/fields/telephone1', token });
    assert.equal(one.statusCode, 400);
    // Nor does the error's suggestion name it: the hidden field is as unknown as any.
    for (const url of ['/metadata/records/1/fields/telephone1/values', '/metadata/records/1/fields/telephon1']) {
      const near = body(await ctx.request({ method: 'GET', url, token })).Message as string;
      assert.doesNotMatch(near, /'telephone1'\?/, url);
    }
  });
});

describe('the metadata routes on the free plan', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await testContext({ plan: 'free' });
  });
  after(() => ctx.close());

  test('list only the objects the plan includes and answer 402 for the others', async () => {
    const list = body(await ctx.request({ method: 'GET', url: '/metadata/records' })).data as Array<{ systemName: string }>;
    assert.deepEqual(list.map((o) => o.systemName), ['account', 'contact', 'lead', 'note', 'task']);
    const res = await ctx.request({ method: 'GET', url: '/metadata/records/opportunity/fields' });
    assert.equal(res.statusCode, 402);
    assert.match(body(res).Message, /free plan does not include the opportunity object; upgrade to standard/);
  });
});
