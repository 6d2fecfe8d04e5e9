// Conformance suite of the data plane (RecordStore / OrgRecords): the same tests run against
// every store in `stores` that STORES selects (default: all; PostgreSQL's is skipped without
// DATABASE_URL).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { planQuery, READ_ALL } from '../../src/query/plan.js';
import { planV3Query } from '../../src/query/v3-plan.js';
import { viewAddition, withoutView } from '../../src/query/views.js';
import { customFieldSpec, customObjectSpec } from '../../src/schema/custom-definitions.js';
import type { OrgSchema } from '../../src/schema/org-schema.js';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import { STORES_UNDER_TEST as stores } from './stores-under-test.js';
import { TEST_AUTHOR } from '../helpers.js';

const wanted = (process.env.STORES ?? stores.map((s) => s.name).join(',')).split(',').map((s) => s.trim());

const T0 = Date.parse('2026-03-01T12:00:00Z');
const stamp = (ms: number): string => new Date(ms).toISOString().slice(0, 19);

/** A row as schema/record-input.ts hands it to the store: every stored field present. */
function row(obj: ObjectDef, ownerId: string, values: RecordRow, at = T0): RecordRow {
  const r: RecordRow = {};
  for (const f of obj.fields) if (f.role !== 'derived') r[f.name] = null;
  Object.assign(r, {
    [obj.keyField]: randomUUID(),
    ownerid: ownerId, statecode: 1, statuscode: 1,
    createdon: stamp(at), modifiedon: stamp(at), createdby: ownerId, modifiedby: ownerId,
  }, values);
  return r;
}

/** The record as reads return it: the stored row plus every derived name field. */
function asRead(obj: ObjectDef, stored: RecordRow, names: Record<string, string | null>): RecordRow {
  const r: RecordRow = { ...stored };
  for (const f of obj.fields) if (f.role === 'derived') r[f.name] = names[f.name] ?? null;
  return r;
}

/** GET-list order: createdon descending, ties by key descending. */
function listOrder(obj: ObjectDef, rows: readonly RecordRow[]): RecordRow[] {
  const k = obj.keyField;
  return [...rows].sort((a, b) =>
    String(b.createdon).localeCompare(String(a.createdon)) || String(b[k]).localeCompare(String(a[k])));
}

for (const s of stores) {
  describe(`${s.name} record store`, { skip: wanted.includes(s.name) ? s.skip : `STORES=${process.env.STORES} leaves ${s.name} out` }, () => {
    let place: Awaited<ReturnType<typeof s.place>>;
    let store: RecordStore;
    let orgId: string;
    let records: OrgRecords;
    let schema: OrgSchema;
    let account: ObjectDef;
    let contact: ObjectDef;
    const owner = { id: randomUUID(), fullname: 'Ada Lopez', email: 'ada@example.com' };
    const ownerNames = { ownername: 'Ada Lopez', createdbyname: 'Ada Lopez', modifiedbyname: 'Ada Lopez' };

    before(async () => {
      place = await s.place();
      store = place.open();
      orgId = randomUUID();
      await store.upsertUser(orgId, owner);
      records = await store.org(orgId);
      schema = await records.schema();
      account = schema.resolve('account');
      contact = schema.resolve('contact');
    });

    after(async () => {
      await store.close();
      await place.remove();
    });

    test('serves the standard objects by number and by name in any case', () => {
      assert.equal(schema.find(1), account);
      assert.equal(schema.find('ACCOUNT'), account);
      assert.equal(schema.find('2'), contact);
      assert.equal(schema.find('nosuchobject'), undefined);
    });

    test('creates, reads, updates and deletes a record', async () => {
      const stored = row(account, owner.id, { accountname: 'Acme', accountnumber: 'A-1', accounttypecode: 2, pcfsystemfield85: '2025-01-31T14:05:00' });
      const id = stored.accountid as string;
      const expected = asRead(account, stored, ownerNames);

      assert.deepEqual(await records.create(account, stored, TEST_AUTHOR), expected);
      assert.deepEqual(await records.get(account, id), expected);
      assert.deepEqual(await records.get(account, id.toUpperCase()), expected, 'ids are matched case-insensitively');

      const later = stamp(T0 + 60_000);
      const updated = await records.update(account, id, { accountnumber: 'A-2', description: 'Big', modifiedon: later }, TEST_AUTHOR);
      const expectedAfter = { ...expected, accountnumber: 'A-2', description: 'Big', modifiedon: later };
      assert.deepEqual(updated, expectedAfter, 'only the fields given change');
      assert.deepEqual(await records.get(account, id), expectedAfter);

      assert.equal(await records.delete(account, id, TEST_AUTHOR), true);
      assert.equal(await records.get(account, id), null);
      assert.equal(await records.delete(account, id, TEST_AUTHOR), false, 'a second delete finds nothing');
    });

    test('keeps text exactly as given, emoji and other scripts included', async () => {
      const name = 'Caf\u00e9 \u{1F600} \u65e5\u672c \u05e2\u05d1\u05e8\u05d9\u05ea';
      const stored = row(account, owner.id, { accountname: name, description: 'line 1\nline 2\t"quoted" \'single\'' });
      const created = await records.create(account, stored, TEST_AUTHOR);
      assert.equal(created.accountname, name);
      assert.equal((await records.get(account, stored.accountid as string))!.description, 'line 1\nline 2\t"quoted" \'single\'');
      await records.delete(account, stored.accountid as string, TEST_AUTHOR);
    });

    test('reads numbers back as stored, a negative zero as 0', async () => {
      const product = schema.resolve('product');
      const stored = row(product, owner.id, { productname: 'Zero', price: -0 });
      assert.ok(Object.is((await records.create(product, stored, TEST_AUTHOR)).price, 0));
      for (const price of [0.1, -2.5, 1e15, 2 ** 53, 123456.789]) {
        assert.equal((await records.update(product, stored.productid as string, { price }, TEST_AUTHOR))!.price, price);
      }
      await records.delete(product, stored.productid as string, TEST_AUTHOR);
    });

    test('update and delete of an absent id report nothing found and change nothing', async () => {
      const absent = randomUUID();
      assert.equal(await records.update(account, absent, { accountname: 'Ghost' }, TEST_AUTHOR), null);
      assert.equal(await records.delete(account, absent, TEST_AUTHOR), false);
      assert.equal(await records.get(account, absent), null);
    });

    test('refuses an id that is taken with RECORD_ID_TAKEN and keeps the first record', async () => {
      const first = row(account, owner.id, { accountname: 'First' });
      await records.create(account, first, TEST_AUTHOR);
      const second = row(account, owner.id, { accountname: 'Second', accountid: first.accountid as string });
      await assert.rejects(records.create(account, second, TEST_AUTHOR), {
        name: 'AppError',
        code: 'RECORD_ID_TAKEN',
        message: `The account id '${first.accountid}' is already taken by another record. Leave 'accountid' out to let the server choose an id, or update the existing record with PUT.`,
      });
      assert.equal((await records.get(account, first.accountid as string))!.accountname, 'First');
      await records.delete(account, first.accountid as string, TEST_AUTHOR);
    });

    test('refuses a lookup to a missing record with LOOKUP_TARGET_MISSING, on create and on update', async () => {
      const missing = randomUUID();
      const bad = row(account, owner.id, { accountname: 'Orphan', parentaccountid: missing });
      await assert.rejects(records.create(account, bad, TEST_AUTHOR), {
        name: 'AppError',
        code: 'LOOKUP_TARGET_MISSING',
        message: `'parentaccountid' refers to account '${missing}', which does not exist. Send the id of an existing account record.`,
      });
      assert.equal(await records.get(account, bad.accountid as string), null, 'nothing was written');

      const good = row(account, owner.id, { accountname: 'Kept' });
      await records.create(account, good, TEST_AUTHOR);
      await assert.rejects(records.update(account, good.accountid as string, { accountname: 'Changed', primarycontactid: missing }, TEST_AUTHOR), {
        code: 'LOOKUP_TARGET_MISSING',
        message: new RegExp(`^'primarycontactid' refers to contact '${missing}', which does not exist\\.`),
      });
      assert.equal((await records.get(account, good.accountid as string))!.accountname, 'Kept', 'a refused update changes nothing');

      const strangerOwner = randomUUID();
      await assert.rejects(records.create(account, row(account, strangerOwner, { accountname: 'Owned by nobody' }), TEST_AUTHOR), {
        code: 'LOOKUP_TARGET_MISSING',
        message: new RegExp(`^'ownerid' refers to crmuser '${strangerOwner}'`),
      });
      await records.delete(account, good.accountid as string, TEST_AUTHOR);
    });

    test('batch writes refuse each bad item alone and write the others, with one result per item in order', async () => {
      const missing = randomUUID();
      const parent = row(account, owner.id, { accountname: 'Parent' });
      const child = row(account, owner.id, { accountname: 'Child', parentaccountid: parent.accountid as string });
      const twin = row(account, owner.id, { accountname: 'Twin', accountid: parent.accountid as string });
      const orphan = row(account, owner.id, { accountname: 'Orphan', parentaccountid: missing });
      const created = await records.createMany(account, [parent, twin, child, orphan], TEST_AUTHOR);
      assert.deepEqual(created.map((r) => (r instanceof Error ? (r as { code?: string }).code : r.accountname)),
        ['Parent', 'RECORD_ID_TAKEN', 'Child', 'LOOKUP_TARGET_MISSING'], 'a lookup may name a record created earlier in the batch');
      assert.deepEqual(created[0], await records.get(account, parent.accountid as string));
      assert.equal((created[2] as RecordRow).parentaccountname, 'Parent');
      assert.equal(await records.get(account, orphan.accountid as string), null);

      const [p, c] = [parent.accountid as string, child.accountid as string];
      const updated = await records.updateMany(account, [
        { id: p, changes: { description: 'first' } },
        { id: randomUUID(), changes: { description: 'ghost' } },
        { id: c, changes: { description: 'refused', primarycontactid: missing } },
        { id: p.toUpperCase(), changes: { accountnumber: 'P-2' } },
      ], TEST_AUTHOR);
      assert.equal(updated[1], null);
      assert.equal((updated[2] as { code?: string }).code, 'LOOKUP_TARGET_MISSING');
      assert.deepEqual(updated[3], await records.get(account, p), 'later items see earlier ones');
      assert.deepEqual([(updated[3] as RecordRow).description, (updated[3] as RecordRow).accountnumber], ['first', 'P-2']);
      assert.equal((await records.get(account, c))!.description, null, 'a refused item changes nothing');

      assert.deepEqual(await records.deleteMany(account, [c, randomUUID(), c, p], TEST_AUTHOR), [true, false, false, true]);
      assert.equal(await records.get(account, p), null);
    });

    test('derived names follow the target record\'s primary field, also after a rename', async () => {
      const parent = row(account, owner.id, { accountname: 'Parent Ltd' });
      await records.create(account, parent, TEST_AUTHOR);
      const person = row(contact, owner.id, { fullname: 'Grace Hopper', accountid: parent.accountid as string });
      await records.create(contact, person, TEST_AUTHOR);
      const child = row(account, owner.id, { accountname: 'Child Ltd', parentaccountid: parent.accountid as string, primarycontactid: person.contactid as string });
      assert.deepEqual(await records.create(account, child, TEST_AUTHOR),
        asRead(account, child, { ...ownerNames, parentaccountname: 'Parent Ltd', primarycontactname: 'Grace Hopper' }));

      await records.update(account, parent.accountid as string, { accountname: 'Parent Renamed' }, TEST_AUTHOR);
      await records.update(contact, person.contactid as string, { fullname: 'Grace B. Hopper' }, TEST_AUTHOR);
      const read = await records.get(account, child.accountid as string);
      assert.equal(read!.parentaccountname, 'Parent Renamed');
      assert.equal(read!.primarycontactname, 'Grace B. Hopper');
      assert.equal((await records.get(contact, person.contactid as string))!.accountname, 'Parent Renamed');

      // A deleted target leaves the lookup in place; its name reads null.
      await records.delete(account, parent.accountid as string, TEST_AUTHOR);
      const orphan = await records.get(account, child.accountid as string);
      assert.equal(orphan!.parentaccountid, parent.accountid);
      assert.equal(orphan!.parentaccountname, null);

      await records.delete(account, child.accountid as string, TEST_AUTHOR);
      await records.delete(contact, person.contactid as string, TEST_AUTHOR);
    });

    test('upsertUser adds a crmuser record once and renames it on the next call', async () => {
      const users = schema.resolve('crmuser');
      const id = randomUUID();
      await store.upsertUser(orgId, { id, fullname: 'Lin Wu', email: 'lin@example.com' });
      const first = await records.get(users, id);
      assert.equal(first!.fullname, 'Lin Wu');
      assert.equal(first!.emailaddress1, 'lin@example.com');
      assert.equal(first!.ownerid, id);

      await store.upsertUser(orgId, { id, fullname: 'Lin Wu-Chen', email: 'lin.chen@example.com' });
      const second = await records.get(users, id);
      assert.equal(second!.fullname, 'Lin Wu-Chen');
      assert.equal(second!.emailaddress1, 'lin.chen@example.com');
      assert.equal(second!.createdon, first!.createdon, 'an upsert keeps the creation time');
      const { total } = await records.list(users, { limit: 50, offset: 0 });
      assert.equal(total, 2, 'the owner and this user, no duplicate');

      // Records owned by the user show the new name at once.
      const owned = row(account, id, { accountname: 'Owned by Lin' });
      await records.create(account, owned, TEST_AUTHOR);
      await store.upsertUser(orgId, { id, fullname: 'Lin Chen', email: 'lin.chen@example.com' });
      assert.equal((await records.get(account, owned.accountid as string))!.ownername, 'Lin Chen');
      await records.delete(account, owned.accountid as string, TEST_AUTHOR);
    });

    describe('list and count', () => {
      // 30 records: ten instants, three records each, so ties on createdon are broken by key.
      let rows: RecordRow[];

      before(async () => {
        const project = schema.resolve('project');
        rows = Array.from({ length: 30 }, (_, i) =>
          row(project, owner.id, { name: `Project ${i}` }, T0 + Math.floor(i / 3) * 1000));
        // Inserted in shuffled order, so neither insertion order nor its reverse is the list order.
        const shuffled = [...rows].sort((a, b) => String(a.name).localeCompare(String(b.name)));
        for (const r of shuffled.slice(0, 10)) await records.create(project, r, TEST_AUTHOR);
        await store.bulkInsert(orgId, project, shuffled.slice(10), TEST_AUTHOR);
      });

      test('returns records newest first, ties by key descending, with the count', async () => {
        const project = schema.resolve('project');
        const expected = listOrder(project, rows).map((r) => asRead(project, r, ownerNames));
        const page = await records.list(project, { limit: 50, offset: 0 });
        assert.equal(page.total, 30);
        assert.deepEqual(page.records, expected);
      });

      test('pages with limit and offset, and past the end returns no records but the count', async () => {
        const project = schema.resolve('project');
        const expected = listOrder(project, rows).map((r) => asRead(project, r, ownerNames));
        assert.deepEqual(await records.list(project, { limit: 7, offset: 0 }), { total: 30, records: expected.slice(0, 7) });
        assert.deepEqual(await records.list(project, { limit: 7, offset: 28 }), { total: 30, records: expected.slice(28) });
        assert.deepEqual(await records.list(project, { limit: 7, offset: 30 }), { total: 30, records: [] });
        assert.deepEqual(await records.list(project, { limit: 1, offset: 1_000_000 }), { total: 30, records: [] });
      });

      test('counts only the object asked for and follows deletes', async () => {
        const project = schema.resolve('project');
        assert.deepEqual(await records.list(schema.resolve('invoice'), { limit: 50, offset: 0 }), { total: 0, records: [] });
        const extra = row(project, owner.id, { name: 'Short-lived' }, T0 + 3_600_000);
        await records.create(project, extra, TEST_AUTHOR);
        const withExtra = await records.list(project, { limit: 1, offset: 0 });
        assert.equal(withExtra.total, 31);
        assert.equal(withExtra.records[0]!.projectid, extra.projectid, 'the newest record comes first');
        await records.delete(project, extra.projectid as string, TEST_AUTHOR);
        assert.equal((await records.list(project, { limit: 1, offset: 0 })).total, 30);
      });
    });

    test('bulkInsert writes every row so reads return them as created', async () => {
      const product = schema.resolve('product');
      const rows = Array.from({ length: 1200 }, (_, i) =>
        row(product, owner.id, { productname: `Product ${i}`, price: i + 0.5 }, T0 + i * 1000));
      await store.bulkInsert(orgId, product, rows, TEST_AUTHOR);
      await store.bulkInsert(orgId, product, [], TEST_AUTHOR);
      const page = await records.list(product, { limit: 3, offset: 0 });
      assert.equal(page.total, 1200);
      assert.deepEqual(page.records, listOrder(product, rows).slice(0, 3).map((r) => asRead(product, r, ownerNames)));
      const some = rows[600]!;
      assert.deepEqual(await records.get(product, some.productid as string), asRead(product, some, ownerNames));
    });

    test('organizations do not see each other\'s records, even under the same id', async () => {
      const otherOrg = randomUUID();
      const otherOwner = { id: randomUUID(), fullname: 'Other Owner', email: 'other@example.com' };
      await store.upsertUser(otherOrg, otherOwner);
      const other = await store.org(otherOrg);
      const otherAccount = (await other.schema()).resolve('account');

      const mine = row(account, owner.id, { accountname: 'Mine' });
      await records.create(account, mine, TEST_AUTHOR);
      const theirs = row(otherAccount, otherOwner.id, { accountname: 'Theirs', accountid: mine.accountid as string });
      await other.create(otherAccount, theirs, TEST_AUTHOR);
      const theirsOnly = row(otherAccount, otherOwner.id, { accountname: 'Theirs only' });
      await other.create(otherAccount, theirsOnly, TEST_AUTHOR);

      assert.equal((await records.get(account, mine.accountid as string))!.accountname, 'Mine');
      assert.equal((await other.get(otherAccount, mine.accountid as string))!.accountname, 'Theirs');
      assert.equal(await records.get(account, theirsOnly.accountid as string), null);
      assert.equal(await records.update(account, theirsOnly.accountid as string, { accountname: 'Hijacked' }, TEST_AUTHOR), null);
      assert.equal(await records.delete(account, theirsOnly.accountid as string, TEST_AUTHOR), false);
      assert.equal((await other.get(otherAccount, theirsOnly.accountid as string))!.accountname, 'Theirs only');

      const mineList = await records.list(account, { limit: 50, offset: 0 });
      assert.deepEqual(mineList.records.map((r) => r.accountname), ['Mine']);
      const theirList = await other.list(otherAccount, { limit: 50, offset: 0 });
      assert.deepEqual(theirList.records.map((r) => r.accountname).sort(), ['Theirs', 'Theirs only']);

      // A lookup cannot reach the other organization's rows, users included.
      await assert.rejects(records.create(account, row(account, owner.id, { accountname: 'X', parentaccountid: theirsOnly.accountid as string }), TEST_AUTHOR), { code: 'LOOKUP_TARGET_MISSING' });
      await assert.rejects(records.create(account, row(account, otherOwner.id, { accountname: 'X' }), TEST_AUTHOR), { code: 'LOOKUP_TARGET_MISSING' });

      await records.delete(account, mine.accountid as string, TEST_AUTHOR);
      assert.equal((await other.get(otherAccount, mine.accountid as string))!.accountname, 'Theirs', 'deleting in one org leaves the other alone');
    });

    test('adds custom objects and fields that work at once, here and through a second store on the same data', async () => {
      const second = place.open(); // another process
      try {
        const elsewhere = await second.org(orgId);
        const before = await elsewhere.schema(); // holds the schema as it was
        const withGadget = await records.addObject((current) => customObjectSpec(current, { name: 'Gadget' }, randomUUID()));
        const gadget = withGadget.resolve(1000);
        assert.equal(gadget.systemName, 'customobject1000');
        // Two definitions at once: each sees the other's committed field, so the names differ.
        await Promise.all([
          records.addField(1000, (obj, current) => customFieldSpec(current, obj, 'number', { label: 'Weight', precision: 1 })),
          records.addField(1000, (obj, current) => customFieldSpec(current, obj, 'lookup', { label: 'Account', relatedObjectType: 'account' })),
        ]);
        const latest = await records.schema();
        assert.ok(latest.version > before.version);
        const fields = latest.resolve(1000).fields.map((f) => `${f.name}:${f.type}`);
        assert.equal(fields.filter((f) => /^pcfsystemfield[12]:/.test(f)).length, 2);
        const weight = latest.resolve(1000).fields.find((f) => f.type === 'number')!.name;
        const link = latest.resolve(1000).fields.find((f) => f.type === 'lookup' && f.role === 'data' && f.target === 1)!.name;

        // A refused definition changes nothing.
        await assert.rejects(records.addField(1000, (obj, current) => customFieldSpec(current, obj, 'picklist', { label: 'Bad' })), { code: 'DEFINITION_INVALID' });
        assert.equal((await records.schema()).version, latest.version);

        const acme = row(latest.resolve(1), owner.id, { accountname: 'Acme Gadgets' });
        await records.create(latest.resolve(1), acme, TEST_AUTHOR);
        const g = row(latest.resolve(1000), owner.id, { name: 'Sprocket', [weight]: 2.5, [link]: acme.accountid! });
        await records.create(latest.resolve(1000), g, TEST_AUTHOR);

        const seen = await elsewhere.schema();
        assert.equal(seen.version, latest.version, 'the second store sees the new definitions on its next schema()');
        const got = await elsewhere.get(seen.resolve(1000), g.customobject1000id as string);
        assert.equal(got?.[weight], 2.5);
        assert.equal(got?.[`${link}name`], 'Acme Gadgets');
        const plan = planQuery(seen, { objecttype: 1000, fields: `name,${link}name`, query: `${link}name = 'acme gadgets'`, sort_by: `${link}name` });
        assert.deepEqual((await elsewhere.query(plan)).rows, [{ name: 'Sprocket', [`${link}name`]: 'Acme Gadgets' }]);
        await records.delete(latest.resolve(1), acme.accountid as string, TEST_AUTHOR);
      } finally {
        await second.close();
      }
    });

    test('reads see at once what a second store on the same data (another process) wrote', async () => {
      const second = place.open();
      try {
        const elsewhere = await second.org(orgId);
        const made = row(account, owner.id, { accountname: 'Elsewhere' });
        const id = made.accountid as string;
        const total = async () => (await records.list(account, { limit: 1, offset: 0 })).total;
        const before = await total();
        assert.equal(await records.get(account, id), null);
        await elsewhere.create(account, made, TEST_AUTHOR);
        assert.equal((await records.get(account, id))?.accountname, 'Elsewhere');
        assert.equal(await total(), before + 1);
        await elsewhere.update(account, id, { accountname: 'Changed' }, TEST_AUTHOR);
        assert.equal((await records.get(account, id))?.accountname, 'Changed');
        await elsewhere.delete(account, id, TEST_AUTHOR);
        assert.equal(await records.get(account, id), null);
        assert.equal(await total(), before);
      } finally {
        await second.close();
      }
    });

    test('groups the records a filter chooses: SUM, COUNT, MIN, MAX per group, one page of groups in order', async () => {
      const opportunity = schema.resolve('opportunity');
      const made = [['grp-a', 'North', 1.5, '2025-01-02'], ['grp-b', 'North', 2.25, '2025-01-01'], ['grp-c', 'south', null, null], ['grp-d', null, 4, '2025-03-01'], ['other', 'North', 100, null]] as const;
      const rows = made.map(([name, description, estimatedvalue, estimatedclosedate]) => row(opportunity, owner.id, { name, description, estimatedvalue, estimatedclosedate }));
      for (const r of rows) await records.create(opportunity, r, TEST_AUTHOR);
      const planned = planV3Query(schema, {
        objectType: 'opportunity', groupBy: [{ name: 'description' }],
        fields: [{ name: 'estimatedvalue', aggrFunc: 'SUM', alias: 'total' }, { name: '*', aggrFunc: 'COUNT', alias: 'n' }, { name: 'estimatedclosedate', aggrFunc: 'MIN', alias: 'first' }, { name: 'estimatedclosedate', aggrFunc: 'MAX', alias: 'last' }],
        filter: [{ type: 'AND', conditions: [{ fieldName: 'name', operator: 'start-with', value: 'grp-' }] }], pageSize: 2,
      }, READ_ALL, { userId: owner.id, now: T0 });
      assert.equal(planned.kind, 'groups');
      if (planned.kind !== 'groups') return;
      assert.deepEqual(await records.groups(planned.plan), {
        rows: [{ description: null, total: 4, n: 1, first: '2025-03-01', last: '2025-03-01' }, { description: 'North', total: 3.75, n: 2, first: '2025-01-01', last: '2025-01-02' }],
        isLastPage: false,
      });
      assert.deepEqual(await records.groups({ ...planned.plan, pageNumber: 2 }), { rows: [{ description: 'south', total: null, n: 1, first: null, last: null }], isLastPage: true });
      for (const r of rows) await records.delete(opportunity, r.opportunityid as string, TEST_AUTHOR);
    });

    test('replaces an object\'s views under the write lock: concurrent additions both land, a second store sees them, a refusal changes nothing', async () => {
      const second = place.open();
      try {
        const elsewhere = await second.org(orgId);
        await elsewhere.schema();
        const add = (name: string) => {
          const addition = viewAddition({ name, query: "accountname start-with 'a'" }, READ_ALL, { id: randomUUID(), createdon: stamp(T0) });
          return records.setViews(1, addition.change).then(() => addition.added());
        };
        const [one, two] = await Promise.all([add('One'), add('Two')]);
        const seen = (await elsewhere.schema()).resolve(1).views;
        assert.deepEqual(seen.map((v) => v.id).sort(), [one.id, two.id].sort());
        const version = (await records.schema()).version;
        await assert.rejects(add('one'), { code: 'DEFINITION_INVALID' });
        assert.equal((await records.schema()).version, version);
        await elsewhere.setViews(1, (obj) => withoutView(obj, one.id));
        assert.deepEqual((await records.schema()).resolve(1).views.map((v) => v.name), ['Two']);
        await records.setViews(1, () => []);
      } finally {
        await second.close();
      }
    });

    test('records survive closing and reopening the store', async () => {
      const kept = row(account, owner.id, { accountname: 'Durable' });
      await records.create(account, kept, TEST_AUTHOR);
      await store.close();
      store = place.open();
      records = await store.org(orgId);
      schema = await records.schema();
      account = schema.resolve('account');
      assert.deepEqual(await records.get(account, kept.accountid as string), asRead(account, kept, ownerNames));
      await records.delete(account, kept.accountid as string, TEST_AUTHOR);
    });
  });
}
