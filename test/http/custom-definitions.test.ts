// Custom objects (POST /api/v2/record/58) and custom fields (POST /api/v2/system-field/{ot}/{type}),
// issue 6 points 2–4: replies in the shapes the MCP client checks, every field type usable at once in
// GET, create, update, query and metadata, lookups with derived names, invalid definitions → 400,
// and a definition made through one server seen by another on the same data on its next request.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { FIELD_TYPE_IDS } from '../../src/schema/types.js';
import { openStores, type Stores } from '../../src/stores.js';
import { testContext, type TestContext } from '../helpers.js';

const body = (res: LightMyRequestResponse): any => JSON.parse(res.body);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('custom objects and fields', () => {
  let ctx: TestContext;
  const post = (url: string, payload: unknown, token?: string) => ctx.request({ method: 'POST', url, payload: payload as object, ...(token ? { token } : {}) });
  const addField = async (ot: string | number, type: string, payload: object) => {
    const res = await post(`/api/v2/system-field/${ot}/${type}`, payload);
    assert.equal(res.statusCode, 200, res.body);
    const b = body(res);
    assert.deepEqual(Object.keys(b).sort(), ['data', 'message', 'success']);
    assert.equal(b.success, true);
    assert.equal(b.message, '');
    return b.data.systemField[0].fieldname as string;
  };
  const query = async (payload: object) => {
    const res = await post('/api/query', payload);
    assert.equal(res.statusCode, 200, res.body);
    return body(res).data;
  };

  before(async () => {
    ctx = await testContext();
  });
  after(() => ctx.close());

  describe('a custom object', () => {
    let objectType: number;

    test('is created through object 58 and numbered from 1000, in the reply shape the MCP client checks', async () => {
      const res = await post('/api/v2/record/58', { name: 'Project Phase', collectionname: 'Project Phases' });
      assert.equal(res.statusCode, 200, res.body);
      const b = body(res);
      assert.deepEqual(Object.keys(b).sort(), ['_id', 'record', 'success']);
      assert.equal(b.success, true);
      assert.match(b._id, UUID_RE);
      assert.deepEqual(b.record, {
        objecttypecode: 1000, name: 'Project Phase', collectionname: 'Project Phases',
        systemname: 'customobject1000', primarykey: 'customobject1000id', primaryfield: 'name',
      });
      objectType = b.record.objecttypecode;
      const next = body(await post('//api/v2/record/58', { name: 'Milestone' }));
      assert.equal(next.record.objecttypecode, 1001);
      assert.equal(next.record.collectionname, 'Milestones');
    });

    test('appears in the metadata at once', async () => {
      const list = body(await ctx.request({ method: 'GET', url: '/metadata/records' })).data;
      assert.deepEqual(list.slice(-2), [
        { name: 'Project Phase', systemName: 'customobject1000', objectType: '1000' },
        { name: 'Milestone', systemName: 'customobject1001', objectType: '1001' },
      ]);
      const fields = body(await ctx.request({ method: 'GET', url: `/metadata/records/${objectType}/fields` })).data.map((f: { fieldName: string }) => f.fieldName);
      assert.deepEqual(fields.slice(0, 2), ['customobject1000id', 'name']);
      assert.ok(fields.includes('ownerid') && fields.includes('ownername') && fields.includes('createdon'));
    });

    test('takes records through every route, named by number or system name', async () => {
      const created = await post(`/api/record/${objectType}`, { name: 'Design' });
      assert.equal(created.statusCode, 201, created.body);
      const id = body(created).data.Record.customobject1000id as string;
      assert.equal(created.headers.location, `http://orchard.test/api/record/customobject1000/${id}`);
      const v2 = body(await post('/api/v2/record/1000', { name: 'Build' }));
      assert.equal(v2.record.name, 'Build');
      const got = body(await ctx.request({ method: 'GET', url: `/api/record/CustomObject1000/${id}` })).data.Record;
      assert.equal(got.name, 'Design');
      assert.equal(got.ownerid, ctx.userId);
      const owner = body(await ctx.request({ method: 'GET', url: `/api/record/crmuser/${ctx.userId}` })).data.Record;
      assert.equal(got.ownername, owner.fullname);
      const rows = (await query({ objecttype: 'customobject1000', fields: 'name', sort_by: 'name' })).Data;
      assert.deepEqual(rows, [{ name: 'Build' }, { name: 'Design' }]);
    });

    test('refuses a missing or taken name with 400 and a Message', async () => {
      for (const [payload, message] of [
        [{}, /'name' is required/],
        [{ name: '   ' }, /'name' must not be empty/],
        [{ name: 'project phase' }, /An object named 'Project Phase' already exists \(customobject1000, number 1000\)/],
        [{ name: 'Account' }, /An object named 'Account' already exists/],
        [{ name: 'x'.repeat(101) }, /'name' is 101 characters long; the most is 100/],
        [[1, 2], /The request body is invalid: must be object/],
      ] as const) {
        const res = await post('/api/v2/record/58', payload);
        assert.equal(res.statusCode, 400, JSON.stringify(payload));
        assert.deepEqual(Object.keys(body(res)), ['Message']);
        assert.match(body(res).Message, message);
      }
    });
  });

  describe('a custom field', () => {
    test('is named pcfsystemfield{N} after the highest existing one when no fieldName is given', async () => {
      // The account object starts with pcfsystemfield85 (docs/api.md).
      assert.equal(await addField(1, 'text', { label: 'Region' }), 'pcfsystemfield86');
      assert.equal(await addField('account', 'text', { label: 'Segment' }), 'pcfsystemfield87');
      assert.equal(await addField('customobject1000', 'text', { label: 'Code' }), 'pcfsystemfield1');
    });

    test('is labelled with its name when the label is left out or blank, as the collection name of an object is', async () => {
      for (const [fieldName, payload] of [['pcfunlabelled', {}], ['pcfemptylabel', { label: '' }], ['pcfblanklabel', { label: '   ' }]] as const) {
        assert.equal(await addField(1, 'text', { fieldName, ...payload }), fieldName);
        const meta = await ctx.request({ method: 'GET', url: `/metadata/records/1/fields/${fieldName}` });
        assert.equal(body(meta).data.label, fieldName, JSON.stringify(payload));
      }
    });

    test('of every type is usable at once in create, GET, update, query and metadata', async () => {
      const phase = body(await post('/api/record/customobject1000', { name: 'Review' })).data.Record.customobject1000id as string;
      const names = {
        text: await addField(1, 'text', { label: 'Nickname', fieldName: 'pcfnickname' }),
        number: await addField(1, 'number', { label: 'Score', fieldName: 'pcfscore', precision: 1 }),
        date: await addField(1, 'date', { label: 'Renewal', fieldName: 'pcfrenewal' }),
        datetime: await addField(1, 'datetime', { label: 'Audited', fieldName: 'pcfaudited' }),
        picklist: await addField(1, 'picklist', { label: 'Tier', fieldName: 'pcftier', options: [{ label: 'Gold', value: 1, order: 1, color: '#fc0' }, { label: 'Silver', value: '2' }] }),
        lookup: await addField(1, 'lookup', { label: 'Phase', fieldName: 'pcfphase', relatedObjectType: 1000 }),
        email: await addField(1, 'emailaddress', { label: 'Billing Email', fieldName: 'pcfbillingemail' }),
        telephone: await addField(1, 'phonenumber', { label: 'Fax', fieldName: 'pcffax' }),
        url: await addField(1, 'url', { label: 'Portal', fieldName: 'pcfportal' }),
        textarea: await addField(1, 'textarea', { label: 'Notes', fieldName: 'pcfnotes' }),
        html: await addField(1, 'html', { label: 'Profile', fieldName: 'pcfprofile' }),
      };
      const values = {
        pcfnickname: 'Ace', pcfscore: 7.25, pcfrenewal: '2027-01-31', pcfaudited: '2026-02-01T10:00:00',
        pcftier: 2, pcfphase: phase, pcfbillingemail: 'bill@acme.example', pcffax: '+1 555 0199',
        pcfportal: 'https://acme.example', pcfnotes: 'line 1\nline 2', pcfprofile: '<p>Hi</p>',
      };
      const created = await post('/api/record/account', { accountname: 'Typed', ...values });
      assert.equal(created.statusCode, 201, created.body);
      const record = body(created).data.Record;
      assert.deepEqual(Object.fromEntries(Object.keys(values).map((k) => [k, record[k]])), { ...values, pcfscore: 7.3 });
      assert.equal(record.pcfphasename, 'Review', 'the derived name of a custom lookup comes from the target\'s primary field');

      const id = record.accountid as string;
      const updated = body(await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { pcftier: 1, pcfnickname: 'Ace2' } })).data.Record;
      assert.equal(updated.pcftier, 1);
      assert.equal(updated.pcfnickname, 'Ace2');

      const found = await query({ objecttype: 1, fields: 'accountname,pcfphasename,pcftier', query: "pcfphasename = 'review' AND pcftier = 1 AND pcfaudited <= '2026-02-01'", sort_by: 'pcfphasename' });
      assert.deepEqual(found.Data, [{ accountname: 'Typed', pcfphasename: 'Review', pcftier: 1 }]);
      assert.deepEqual(found.Columns.map((c: { fieldname: string; systemfieldtypeid: string }) => [c.fieldname, c.systemfieldtypeid]),
        [['accountname', FIELD_TYPE_IDS.text], ['pcfphasename', FIELD_TYPE_IDS.text], ['pcftier', FIELD_TYPE_IDS.picklist]]);

      const meta = body(await ctx.request({ method: 'GET', url: '/metadata/records/1/fields' })).data as Array<{ fieldName: string; systemFieldTypeId: string; label: string }>;
      for (const [type, name] of Object.entries(names)) {
        const f = meta.find((m) => m.fieldName === name);
        assert.equal(f?.systemFieldTypeId, FIELD_TYPE_IDS[type as keyof typeof FIELD_TYPE_IDS], name);
      }
      const tier = body(await ctx.request({ method: 'GET', url: '/metadata/records/1/fields/pcftier/values' })).data;
      assert.deepEqual(tier.values, [{ name: 'Gold', value: '1' }, { name: 'Silver', value: '2' }]);
      const lookup = body(await ctx.request({ method: 'GET', url: '/metadata/records/1/fields/pcfphase' })).data;
      assert.equal(lookup.fieldObjectType, '1000');

      const badTier = await post('/api/record/account', { accountname: 'Bad', pcftier: 3 });
      assert.equal(badTier.statusCode, 400);
      assert.match(body(badTier).Message, /'pcftier' must be a valid/);
      const badLookup = await post('/api/record/account', { accountname: 'Bad', pcfphase: '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f' });
      assert.equal(badLookup.statusCode, 400);
      assert.match(body(badLookup).Message, /refers to customobject1000 '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f', which does not exist/);
    });

    test('takes picklist choices as values [{name, value}] with digit strings, and a lookup target as relatedObjectId', async () => {
      const stage = await addField(1, 'picklist', { label: 'Stage', fieldName: 'pcfstage', values: [{ name: 'Open', value: '10' }, { name: 'Won', value: '20' }, { name: 'Lost' }] });
      const tier = body(await ctx.request({ method: 'GET', url: `/metadata/records/1/fields/${stage}/values` })).data;
      assert.deepEqual(tier.values, [{ name: 'Open', value: '10' }, { name: 'Won', value: '20' }, { name: 'Lost', value: '3' }]);
      const mixed = await addField(1, 'picklist', { label: 'Mixed', fieldName: 'pcfmixed', options: [{ name: 'By name', value: 1 }, { label: 'By label', name: 'By label', value: 2 }] });
      assert.deepEqual(body(await ctx.request({ method: 'GET', url: `/metadata/records/1/fields/${mixed}/values` })).data.values,
        [{ name: 'By name', value: '1' }, { name: 'By label', value: '2' }]);
      for (const [fieldName, payload] of [['pcfparent', { relatedObjectId: '1' }], ['pcfparent2', { relatedObjectId: 1, relatedObjectType: 'Account' }], ['pcfcontact', { relatedObjectId: 'contact' }]] as const) {
        await addField(1, 'lookup', { label: fieldName, fieldName, ...payload });
      }
      const targets = await Promise.all(['pcfparent', 'pcfparent2', 'pcfcontact'].map(async (f) => body(await ctx.request({ method: 'GET', url: `/metadata/records/1/fields/${f}` })).data.fieldObjectType));
      assert.deepEqual(targets, ['1', '1', '2']);
      const created = await post('/api/record/account', { accountname: 'Staged', pcfstage: 20 });
      assert.equal(created.statusCode, 201, created.body);
      const labels = await query({ objecttype: 1, fields: 'pcfstage', query: "accountname = 'Staged'", show_real_value: 1 });
      assert.deepEqual(labels.Data, [{ pcfstage: 'Won' }]);
    });

    test('refuses an invalid definition with 400 and a Message saying what to fix', async () => {
      const cases: Array<[string, object, RegExp]> = [
        ['/api/v2/system-field/1/boolean', { label: 'X' }, /'boolean' is not a field type. Use one of: text, number/],
        ['/api/v2/system-field/1/text', { label: 'X', fieldName: 'region' }, /'fieldName' must start with 'pcf'/],
        ['/api/v2/system-field/1/text', { label: 'X', fieldName: 'pcf-bad' }, /'fieldName' must start with 'pcf' and hold only letters, digits and '_'/],
        ['/api/v2/system-field/1/text', { label: 'X', fieldName: 'pcfnickname' }, /already has a field named 'pcfnickname'/],
        ['/api/v2/system-field/1/text', { label: 'X', fieldName: `pcf${'x'.repeat(48)}` }, /'fieldName' is 51 characters long; the most is 50/],
        ['/api/v2/system-field/1/text', { label: 'x'.repeat(201) }, /'label' is 201 characters long; the most is 200/],
        ['/api/v2/system-field/1/picklist', { label: 'X' }, /A picklist needs 'options'/],
        ['/api/v2/system-field/1/picklist', { label: 'X', options: [{ label: 'A', value: 1 }, { label: 'B', value: 1 }] }, /Two options have the value 1/],
        ['/api/v2/system-field/1/lookup', { label: 'X' }, /A lookup needs 'relatedObjectType'/],
        ['/api/v2/system-field/1/lookup', { label: 'X', relatedObjectType: 4242 }, /'relatedObjectType' 4242 is not an object of this organization/],
        ['/api/v2/system-field/1/lookup', { label: 'X', relatedObjectId: '4242' }, /'relatedObjectId' "4242" is not an object of this organization/],
        ['/api/v2/system-field/1/lookup', { label: 'X', relatedObjectType: 1, relatedObjectId: 2 }, /'relatedObjectType' and 'relatedObjectId' name different objects \(account and contact\)/],
        ['/api/v2/system-field/1/picklist', { label: 'X', options: [{ label: 'A' }], values: [{ name: 'A' }] }, /'options' or 'values', not both/],
        ['/api/v2/system-field/1/picklist', { label: 'X', values: [] }, /A picklist needs 'options'.*or 'values'/],
        ['/api/v2/system-field/1/picklist', { label: 'X', values: [{ value: '1' }] }, /values\[0\] needs a label: 'name'/],
        ['/api/v2/system-field/1/picklist', { label: 'X', values: [{ name: 'A', value: 'one' }] }, /'value' must be a whole number; got "one"/],
        ['/api/v2/system-field/1/picklist', { label: 'X', options: [{ label: 'A', name: 'B' }] }, /options\[0\] has both 'label' and 'name', and they differ/],
        ['/api/v2/system-field/1/number', { label: 'X', precision: 11 }, /'precision' must be from 0 to 10; got 11/],
        ['/api/v2/system-field/1/text', { label: 'X', maxLength: 100000 }, /'maxLength' of a text field must be from 1 to 200/],
        ['/api/v2/system-field/crmuser/text', { label: 'X' }, /crmuser object is read-only/],
      ];
      for (const [url, payload, message] of cases) {
        const res = await post(url, payload);
        assert.equal(res.statusCode, 400, `${url} ${JSON.stringify(payload)}: ${res.body}`);
        assert.deepEqual(Object.keys(body(res)), ['Message']);
        assert.match(body(res).Message, message);
      }
      const unknown = await post('/api/v2/system-field/nosuch/text', { label: 'X' });
      assert.equal(unknown.statusCode, 404);
      // Nothing half-made: the refused names are free and the schema unchanged.
      assert.equal(await addField(1, 'text', { label: 'After', fieldName: 'pcfregion' }), 'pcfregion');
    });

    test('may be defined by the admin role only', async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'editor', grant: 'account:read,create,update,delete' });
      const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'editor@example.com', role: 'editor' });
      for (const url of ['/api/v2/system-field/1/text', '/api/v2/record/58']) {
        const res = await post(url, { label: 'X', name: 'X' }, token);
        assert.equal(res.statusCode, 403, url);
        assert.match(body(res).Message, /only the admin role defines objects and fields/);
      }
    });
  });

  describe('v2 create and update of records', () => {
    test('reply {success, _id, record} with no data envelope and no Message', async () => {
      const created = await post('/api/v2/record/1', { accountname: 'V2 Co' });
      assert.equal(created.statusCode, 200, created.body);
      const c = body(created);
      assert.deepEqual(Object.keys(c).sort(), ['_id', 'record', 'success']);
      assert.equal(c.record.accountid, c._id);
      const updated = await ctx.request({ method: 'PUT', url: `/api/v2/record/account/${c._id}`, payload: { accountname: 'V2 Co Renamed' } });
      const u = body(updated);
      assert.deepEqual(Object.keys(u).sort(), ['_id', 'record', 'success']);
      assert.equal(u.record.accountname, 'V2 Co Renamed');
      assert.equal(u._id, c._id);
    });

    test('answer errors with {Message}', async () => {
      const bad = await post('/api/v2/record/1', { nosuch: 1 });
      assert.equal(bad.statusCode, 400);
      assert.deepEqual(body(bad), { Message: "Invalid field name: 'nosuch'. The account object has no such field." });
      const missing = await ctx.request({ method: 'PUT', url: '/api/v2/record/1/3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f', payload: { accountname: 'X' } });
      assert.equal(missing.statusCode, 404);
    });
  });
});

describe('custom definitions on plans', () => {
  test('the free plan has no custom objects: 402 naming the plan to upgrade to', async () => {
    const ctx = await testContext({ plan: 'free' });
    try {
      const res = await ctx.request({ method: 'POST', url: '/api/v2/record/58', payload: { name: 'Thing' } });
      assert.equal(res.statusCode, 402);
      assert.match(body(res).Message, /free plan does not include custom objects.*upgrade to standard/);
    } finally {
      await ctx.close();
    }
  });
});

describe('a definition made through one server', () => {
  test('is seen by another server on the same data at its next request', async () => {
    const a = await testContext();
    const config = loadConfig({}, { dataDir: a.dir, logLevel: 'silent' });
    const other: Stores = openStores(config);
    const b: FastifyInstance = await buildApp({ ...other, config, clock: a.clock.now, logger: false });
    try {
      const viaB = (opts: { method: 'GET' | 'POST'; url: string; payload?: object }) => b.inject({ ...opts, headers: { tokenid: a.token } });
      // b reads the schema first, so it holds the old one in its cache.
      assert.equal((await viaB({ method: 'GET', url: '/metadata/records/1/fields/pcfregion' })).statusCode, 400);
      await a.request({ method: 'POST', url: '/api/v2/system-field/1/text', payload: { label: 'Region', fieldName: 'pcfregion' } });
      await a.request({ method: 'POST', url: '/api/v2/record/58', payload: { name: 'Gadget' } });
      assert.equal((await viaB({ method: 'GET', url: '/metadata/records/1/fields/pcfregion' })).statusCode, 200);
      const created = await viaB({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Seen', pcfregion: 'North' } });
      assert.equal(created.statusCode, 201, created.body);
      const rows = JSON.parse((await viaB({ method: 'POST', url: '/api/query', payload: { objecttype: 1, fields: 'pcfregion', query: "pcfregion = 'north'" } })).body).data.Data;
      assert.deepEqual(rows, [{ pcfregion: 'North' }]);
      assert.equal((await viaB({ method: 'POST', url: '/api/record/customobject1000', payload: { name: 'G1' } })).statusCode, 201);
    } finally {
      await b.close();
      await other.close();
      await a.close();
      fs.rmSync(a.dir, { recursive: true, force: true });
    }
  });
});
