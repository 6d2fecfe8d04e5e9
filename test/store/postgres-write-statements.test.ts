// The statements a create sends on PostgreSQL, where each is a round trip (store/record-writes.ts):
// a record that several of its lookups name is looked up once, and its INSERT is one text per
// object, sent as a named statement so that each connection plans it once; an update's UPDATE is
// one text per set of fields, the first 64 sets named, a composed name set by it; a delete's statements are all named.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import { needsPostgres } from '../services.js';
import { SqlCache } from '../../src/store/record-sql.js';
import { postgresRecordingStatements } from './stores-under-test.js';

const AT = '2026-03-01T12:00:00';
const ORG = 'c1a20000-0000-4000-8000-000000000031';
const ADA = 'c1a20000-0000-4000-8000-0000000000a1';
const LIN = 'c1a20000-0000-4000-8000-0000000000a2';

function row(obj: ObjectDef, values: RecordRow): RecordRow {
  const r: RecordRow = {};
  for (const f of obj.fields) if (f.role !== 'derived') r[f.name] = null;
  return Object.assign(r, { [obj.keyField]: randomUUID(), statecode: 1, statuscode: 1, createdon: AT, modifiedon: AT }, values);
}

describe('a write\'s statements on PostgreSQL', { skip: needsPostgres }, () => {
  const o = postgresRecordingStatements('writestmt');

  test('a user its lookups name three times is looked up once; two users twice; a missing one is still refused', async () => {
    await o.store.upsertUser(ORG, { id: ADA, fullname: 'Ada', email: 'ada@example.com' });
    await o.store.upsertUser(ORG, { id: LIN, fullname: 'Lin', email: 'lin@example.com' });
    const records = await o.store.org(ORG);
    const account = (await records.schema()).resolve('account');
    const lookups = () => o.sent.filter((t) => /from [^ ]*"crmuser" where "crmuserid" = \$1/.test(t)).length;
    const author = { userId: ADA, at: AT };
    o.sent.length = 0;
    await records.create(account, row(account, { accountname: 'Mine', ownerid: ADA, createdby: ADA, modifiedby: ADA }), author);
    assert.equal(lookups(), 1, o.sent.join('\n'));
    o.sent.length = 0;
    await records.create(account, row(account, { accountname: 'For Lin', ownerid: LIN, createdby: ADA, modifiedby: ADA }), author);
    assert.equal(lookups(), 2, o.sent.join('\n'));
    await assert.rejects(records.create(account, row(account, { accountname: 'Nobody', ownerid: randomUUID(), createdby: ADA, modifiedby: ADA }), author),
      (err: Error & { code?: string }) => err.code === 'LOOKUP_TARGET_MISSING');
  });

  test('the INSERT of a create is one text per object, sent as a named statement', async () => {
    const records = await o.store.org(ORG);
    const account = (await records.schema()).resolve('account');
    const author = { userId: ADA, at: AT };
    const inserts: string[] = [];
    for (const name of ['One', 'Two']) {
      o.sent.length = 0;
      await records.create(account, row(account, { accountname: name, ownerid: ADA, createdby: ADA, modifiedby: ADA }), author);
      inserts.push(...o.sent.filter((t) => /^insert into [^ ]*"account"/.test(t)));
    }
    assert.equal(inserts.length, 2);
    assert.equal(inserts[0], inserts[1]);
    assert.ok(o.named.has(inserts[0]!), 'sent as a named statement');
    // A row without every stored field is inserted as it is (its own text): nothing is made up for it.
    const partial = row(account, { accountname: 'Partial', ownerid: ADA, createdby: ADA, modifiedby: ADA });
    delete partial.telephone1;
    o.sent.length = 0;
    const made = await records.create(account, partial, author);
    assert.equal(made.accountname, 'Partial');
    const [text] = o.sent.filter((t) => /^insert into [^ ]*"account"/.test(t));
    assert.notEqual(text, inserts[0]);
    assert.doesNotMatch(text!, /"telephone1"/);
  });

  test('an update\'s UPDATE is one named text per set of fields it changes', async () => {
    const records = await o.store.org(ORG);
    const account = (await records.schema()).resolve('account');
    const author = { userId: ADA, at: AT };
    const made = await records.create(account, row(account, { accountname: 'Changing', ownerid: ADA, createdby: ADA, modifiedby: ADA }), author);
    const updates: string[] = [];
    for (const [i, changes] of ([{ telephone1: '1' }, { telephone1: '2' }, { telephone1: '3', accountname: 'Changed' }] as RecordRow[]).entries()) {
      o.sent.length = 0;
      const got = await records.update(account, made.accountid as string, { ...changes, modifiedby: ADA, modifiedon: `${AT.slice(0, -1)}${i}` }, author);
      assert.equal(got!.telephone1, changes.telephone1);
      updates.push(...o.sent.filter((t) => /^update [^ ]*"account" set/.test(t)));
    }
    assert.equal(updates.length, 3);
    assert.equal(updates[0], updates[1], 'the same fields, the same text');
    assert.notEqual(updates[1], updates[2]);
    assert.ok(updates.every((t) => o.named.has(t)), 'sent as named statements');
  });

  test('an update of a part of a composed name sets the name in its one UPDATE', async () => {
    const records = await o.store.org(ORG);
    const contact = (await records.schema()).resolve('contact');
    const author = { userId: ADA, at: AT };
    const made = await records.create(contact, row(contact, { firstname: 'Ada', lastname: 'Byron', fullname: 'Ada Byron', ownerid: ADA, createdby: ADA, modifiedby: ADA }), author);
    o.sent.length = 0;
    const got = await records.update(contact, made.contactid as string, { lastname: 'Lovelace', modifiedby: ADA, modifiedon: AT }, author);
    assert.equal(got!.fullname, 'Ada Lovelace');
    const updates = o.sent.filter((t) => /^update [^ ]*"contact" set/.test(t));
    assert.equal(updates.length, 1, o.sent.join('\n'));
    assert.match(updates[0]!, /"fullname" = /);
    assert.ok(o.named.has(updates[0]!), 'sent as a named statement');
    // A part emptied keeps the name built from the rest; the log's entry has the name's change.
    const emptied = await records.update(contact, made.contactid as string, { firstname: null, modifiedby: ADA, modifiedon: AT }, author);
    assert.equal(emptied!.fullname, 'Lovelace');
    const [latest] = await records.history(contact.objectType, made.contactid as string, { limit: 1, offset: 0 });
    assert.deepEqual(latest?.fields.fullname, { old: 'Ada Lovelace', new: 'Lovelace' });
  });

  test('a delete sends named statements only: its files\' DELETE is one text for every object, and the files go', async () => {
    const records = await o.store.org(ORG);
    const schema = await records.schema();
    const author = { userId: ADA, at: AT };
    const filesDeletes: string[] = [];
    for (const obj of [schema.resolve('account'), schema.resolve('contact')]) {
      const made = await records.create(obj, row(obj, { ownerid: ADA, createdby: ADA, modifiedby: ADA, ...(obj.systemName === 'account' ? { accountname: 'Going' } : { lastname: 'Going' }) }), author);
      const id = made[obj.keyField] as string;
      const file = { fileid: randomUUID(), objectid: id, objecttypecode: obj.objectType, filename: 'a.txt', contenttype: 'text/plain', size: 2, createdon: AT, createdby: ADA };
      assert.equal(await records.attachFile(obj, file, Buffer.from('hi')), true);
      o.sent.length = 0;
      assert.equal(await records.delete(obj, id, author), true);
      const sent = o.sent.filter((t) => !/^(BEGIN|COMMIT|ROLLBACK)/i.test(t));
      assert.deepEqual(sent.filter((t) => !o.named.has(t)), [], 'every statement but the transaction\'s own named');
      filesDeletes.push(...sent.filter((t) => /^delete from [^ ]*"orchard_files"/.test(t)));
      const schemaName = (records as unknown as { schemaName: string }).schemaName;
      const { rows } = await o.pool.query(`SELECT count(*)::int AS n FROM "${schemaName}".orchard_files WHERE record_id = $1`, [id]);
      assert.equal(rows[0].n, 0, 'its file went with it');
    }
    assert.equal(filesDeletes.length, 2);
    assert.equal(filesDeletes[0], filesDeletes[1]);
  });
});

describe('shaped statements (SqlCache.shaped)', () => {
  test('one text per key, built once; the first 64 keys may be prepared, the rest not, until the schema changes', () => {
    const cache = new SqlCache();
    let built = 0;
    const shape = (i: number) => cache.shaped(`update:1:f${i}`, () => `UPDATE t SET f${i} = $1 /* ${++built} */`);
    const first = Array.from({ length: 70 }, (_, i) => shape(i));
    assert.equal(built, 70);
    assert.deepEqual(first.map((s) => s.fixed), Array.from({ length: 70 }, (_, i) => i < 64));
    assert.deepEqual(shape(3), first[3], 'kept: not built again');
    assert.equal(shape(66).fixed, false, 'past the bound it stays unprepared');
    assert.equal(built, 70);
    cache.clear();
    assert.equal(shape(66).fixed, true);
    assert.equal(built, 71);
  });
});
