// The change log on every record store (docs/history.md): each successful write appends one entry in
// its transaction (old and new values, user, time, a number in commit order); a refused write or
// batch item appends none; the feed pages by number, a record's history newest first; pruning takes
// only a run of the oldest; a restore or reset starts a log of another epoch; an older database
// gets an empty log when it is opened.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { AppError } from '../../src/errors.js';
import type { ChangeAuthor, ChangeEntry } from '../../src/schema/changes.js';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import { FEED_SPAN, PRUNE_BATCH } from '../../src/store/change-log.js';
import type { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import { DATABASE_URL } from '../services.js';
import { downgradeCases, organizationOn, POSTGRES_UNDER_TEST, STORES_UNDER_TEST, type StorePlace } from './stores-under-test.js';

const wanted = (process.env.STORES ?? STORES_UNDER_TEST.map((s) => s.name).join(',')).split(',').map((s) => s.trim());

/** A row as schema/record-input.ts hands it to the store: every stored field present. */
function row(obj: ObjectDef, ownerId: string, values: RecordRow, at: string): RecordRow {
  const r: RecordRow = {};
  for (const f of obj.fields) if (f.role !== 'derived') r[f.name] = null;
  return Object.assign(r, {
    [obj.keyField]: randomUUID(), ownerid: ownerId, statecode: 1, statuscode: 1, createdon: at, modifiedon: at, createdby: ownerId, modifiedby: ownerId,
  }, values);
}

/** Every entry of the log, read through the feed a page of `limit` at a time. */
async function allEntries(records: OrgRecords, limit = 1000): Promise<ChangeEntry[]> {
  const out: ChangeEntry[] = [];
  for (let after = 0; ;) {
    const page = await records.changes({ after, limit });
    out.push(...page.entries);
    if (page.next === page.last || page.next === after) return out;
    after = page.next;
  }
}

for (const s of STORES_UNDER_TEST) {
  describe(`the change log of the ${s.name} record store`, { skip: wanted.includes(s.name) ? s.skip : `STORES leaves ${s.name} out` }, () => {
    const ada = { id: randomUUID(), fullname: 'Ada Lopez', email: 'ada@example.com' };
    const bo = { id: randomUUID(), fullname: 'Bo Chen', email: 'bo@example.com' };
    const by = (userId: string | null, at: string): ChangeAuthor => ({ userId, at });
    const o = organizationOn(s, [ada, bo]);

    /** The entries after `after`, all of them. */
    const since = async (after: number) => (await o.records.changes({ after, limit: 1000 })).entries;
    const last = async () => (await o.records.changes({ after: 0, limit: 1 })).last;

    test('a create, an update and a delete each append one entry: old and new values, the user, the time, numbers in order', async () => {
      const start = await last();
      const stored = row(o.account, ada.id, { accountname: 'Acme', accountnumber: 'A-1', accounttypecode: 2 }, '2026-03-01T12:00:00');
      const id = stored.accountid as string;
      await o.records.create(o.account, stored, by(ada.id, '2026-03-01T12:00:00'));
      await o.records.update(o.account, id, { accountnumber: 'A-2', description: 'Big', accounttypecode: 2, modifiedon: '2026-03-01T12:05:00', modifiedby: bo.id }, by(bo.id, '2026-03-01T12:05:00'));
      assert.equal(await o.records.delete(o.account, id.toUpperCase(), by(null, '2026-03-01T12:10:00')), true);
      const entries = await since(start);
      assert.deepEqual(entries.map((e) => e.seq), [start + 1, start + 2, start + 3]);
      assert.deepEqual(entries[0], {
        seq: start + 1, objectType: 1, recordId: id, operation: 'create', userId: ada.id, changedon: '2026-03-01T12:00:00',
        fields: {
          accountname: { old: null, new: 'Acme' }, accountnumber: { old: null, new: 'A-1' }, accounttypecode: { old: null, new: 2 },
          ownerid: { old: null, new: ada.id }, statecode: { old: null, new: 1 }, statuscode: { old: null, new: 1 },
          createdon: { old: null, new: '2026-03-01T12:00:00' }, modifiedon: { old: null, new: '2026-03-01T12:00:00' },
          createdby: { old: null, new: ada.id }, modifiedby: { old: null, new: ada.id },
        },
      });
      assert.deepEqual(entries[1], {
        seq: start + 2, objectType: 1, recordId: id, operation: 'update', userId: bo.id, changedon: '2026-03-01T12:05:00',
        // accounttypecode was sent with the value it had: not a change.
        fields: {
          accountnumber: { old: 'A-1', new: 'A-2' }, description: { old: null, new: 'Big' },
          modifiedon: { old: '2026-03-01T12:00:00', new: '2026-03-01T12:05:00' }, modifiedby: { old: ada.id, new: bo.id },
        },
      });
      assert.equal(entries[2]!.operation, 'delete');
      assert.equal(entries[2]!.recordId, id, 'the key lowercased, as stored');
      assert.deepEqual([entries[2]!.userId, entries[2]!.changedon], [null, '2026-03-01T12:10:00']);
      assert.deepEqual(entries[2]!.fields.accountnumber, { old: 'A-2', new: null });
      assert.deepEqual(entries[2]!.fields.accountname, { old: 'Acme', new: null });
      assert.equal('accountid' in entries[2]!.fields, false, 'the key is the entry\'s record, not a field');
    });

    test('an entry keeps text exactly as written: quotes, backslashes, other scripts', async () => {
      const name = `O'Brien \\ "q" \\' E'x' $$ \u{1F600} \u65e5\u672c`;
      const stored = row(o.account, ada.id, { accountname: name, description: 'line 1\nline 2\t\\n' }, '2026-03-01T12:00:00');
      await o.records.create(o.account, stored, by(ada.id, `2026-03-01T12:00:00`));
      const [entry] = await o.records.history(1, stored.accountid as string, { limit: 1, offset: 0 });
      assert.deepEqual([entry!.fields.accountname, entry!.fields.description], [{ old: null, new: name }, { old: null, new: 'line 1\nline 2\t\\n' }]);
    });

    test('a refused write appends nothing: an id taken, a lookup to nothing, an absent record, a failed check', async () => {
      const taken = row(o.account, ada.id, { accountname: 'Taken' }, '2026-03-01T12:00:00');
      await o.records.create(o.account, taken, by(ada.id, '2026-03-01T12:00:00'));
      const start = await last();
      await assert.rejects(o.records.create(o.account, { ...taken, accountname: 'Again' }, by(ada.id, '2026-03-01T12:00:00')), { code: 'RECORD_ID_TAKEN' });
      await assert.rejects(o.records.create(o.account, row(o.account, ada.id, { accountname: 'X', primarycontactid: randomUUID() }, '2026-03-01T12:00:00'), by(ada.id, '2026-03-01T12:00:00')),
        { code: 'LOOKUP_TARGET_MISSING' });
      assert.equal(await o.records.update(o.account, randomUUID(), { accountname: 'Ghost' }, by(ada.id, '2026-03-01T12:00:00')), null);
      assert.equal(await o.records.delete(o.account, randomUUID(), by(ada.id, '2026-03-01T12:00:00')), false);
      const refuse = () => { throw new AppError('PARAM_INVALID', 'refused by the check'); };
      await assert.rejects(o.records.update(o.account, taken.accountid as string, { accountname: 'Changed' }, by(ada.id, '2026-03-01T12:00:00'), refuse), { code: 'PARAM_INVALID' });
      await assert.rejects(o.records.delete(o.account, taken.accountid as string, by(ada.id, '2026-03-01T12:00:00'), refuse), { code: 'PARAM_INVALID' });
      assert.deepEqual(await since(start), []);
      assert.equal((await o.records.get(o.account, taken.accountid as string))!.accountname, 'Taken', 'the refused check changed nothing');
    });

    test('a check sees the record as GET returns it and lets the write through when it does not throw', async () => {
      const stored = row(o.account, ada.id, { accountname: 'Checked' }, '2026-03-01T12:00:00');
      const id = stored.accountid as string;
      await o.records.create(o.account, stored, by(ada.id, '2026-03-01T12:00:00'));
      let seen: RecordRow | undefined;
      await o.records.update(o.account, id, { accountname: 'Checked 2' }, by(ada.id, '2026-03-01T12:00:00'), (current) => { seen = current; });
      assert.deepEqual(seen, await o.records.get(o.account, id).then((r) => ({ ...r!, accountname: 'Checked' })));
      assert.equal(await o.records.delete(o.account, id, by(ada.id, '2026-03-01T12:00:00'), () => {}), true);
    });

    test('a batch appends an entry per item written, none for an item refused, numbered in item order', async () => {
      const start = await last();
      const good = [1, 2, 3].map((i) => row(o.account, ada.id, { accountname: `Batch ${i}` }, '2026-03-01T13:00:00'));
      const bad = row(o.account, ada.id, { accountname: 'Bad', primarycontactid: randomUUID() }, '2026-03-01T13:00:00');
      const results = await o.records.createMany(o.account, [good[0]!, bad, good[1]!, good[2]!], by(ada.id, '2026-03-01T13:00:00'));
      assert.ok(results[1] instanceof AppError);
      const ids = good.map((g) => g.accountid as string);
      const updated = await o.records.updateMany(o.account, [{ id: ids[0]!, changes: { accountname: 'Batch 1b' } }, { id: randomUUID(), changes: { accountname: 'None' } }], by(bo.id, '2026-03-01T13:01:00'));
      assert.equal(updated[1], null);
      assert.deepEqual(await o.records.deleteMany(o.account, [ids[1]!, randomUUID(), ids[2]!], by(bo.id, '2026-03-01T13:02:00')), [true, false, true]);
      const entries = await since(start);
      assert.deepEqual(entries.map((e) => [e.seq - start, e.operation, e.recordId]), [
        [1, 'create', ids[0]], [2, 'create', ids[1]], [3, 'create', ids[2]], [4, 'update', ids[0]], [5, 'delete', ids[1]], [6, 'delete', ids[2]],
      ]);
      assert.deepEqual(entries[3]!.fields, { accountname: { old: 'Batch 1', new: 'Batch 1b' } });
    });

    test('a deleted record\'s id chosen again: its history goes on under the id, the feed has the delete before the create', async () => {
      const at = '2026-03-03T09:00:00';
      const earlier = row(o.account, ada.id, { accountname: 'Earlier' }, at);
      const id = earlier.accountid as string;
      await o.records.create(o.account, earlier, by(ada.id, at));
      const start = await last();
      assert.equal(await o.records.delete(o.account, id, by(ada.id, at)), true);
      const later = await o.records.create(o.account, { ...earlier, accountname: 'Later' }, by(bo.id, at));
      assert.equal(later.accountname, 'Later');
      assert.deepEqual((await since(start)).map((e) => [e.operation, e.recordId, e.userId]), [['delete', id, ada.id], ['create', id, bo.id]]);
      assert.deepEqual((await o.records.history(o.account.objectType, id, { limit: 10, offset: 0 })).map((e) => [e.operation, e.fields.accountname]), [
        ['create', { old: null, new: 'Later' }], ['delete', { old: 'Earlier', new: null }], ['create', { old: null, new: 'Earlier' }],
      ]);
      await assert.rejects(o.records.create(o.account, { ...earlier }, by(ada.id, at)), { code: 'RECORD_ID_TAKEN' });
    });

    test('a record\'s history is newest first and paged, and a deleted record keeps it', async () => {
      const stored = row(o.contact, ada.id, { firstname: 'Grace', lastname: 'Hopper', fullname: 'Grace Hopper' }, '2026-03-02T09:00:00');
      const id = stored.contactid as string;
      await o.records.create(o.contact, stored, by(ada.id, '2026-03-02T09:00:00'));
      // A part of the composed name changes it: the entry has the name the update made.
      await o.records.update(o.contact, id, { lastname: 'Murray' }, by(ada.id, '2026-03-02T09:01:00'));
      await o.records.delete(o.contact, id, by(ada.id, '2026-03-02T09:02:00'));
      const all = await o.records.history(o.contact.objectType, id.toUpperCase(), { limit: 10, offset: 0 });
      assert.deepEqual(all.map((e) => e.operation), ['delete', 'update', 'create']);
      assert.deepEqual(all[1]!.fields, { lastname: { old: 'Hopper', new: 'Murray' }, fullname: { old: 'Grace Hopper', new: 'Grace Murray' } });
      assert.ok(all[0]!.seq > all[1]!.seq && all[1]!.seq > all[2]!.seq);
      assert.deepEqual(await o.records.history(o.contact.objectType, id, { limit: 2, offset: 1 }), all.slice(1));
      assert.deepEqual(await o.records.history(o.account.objectType, id, { limit: 10, offset: 0 }), [], 'by object and id');
    });

    test('the feed: one object or all, a page at most, and where the next page starts', async () => {
      const start = await last();
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const obj = i % 2 === 0 ? o.account : o.contact;
        const r = obj === o.account ? row(o.account, ada.id, { accountname: `Feed ${i}` }, '2026-03-03T00:00:00') : row(o.contact, ada.id, { fullname: `Feed ${i}` }, '2026-03-03T00:00:00');
        await o.records.create(obj, r, by(ada.id, '2026-03-03T00:00:00'));
        made.push(r[obj.keyField] as string);
      }
      const full = await o.records.changes({ after: start, limit: 2 });
      assert.deepEqual(full.entries.map((e) => e.recordId), made.slice(0, 2));
      assert.equal(full.next, start + 2, 'a full page: the next starts after its last entry');
      const rest = await o.records.changes({ after: full.next, limit: 10 });
      assert.deepEqual(rest.entries.map((e) => e.recordId), made.slice(2));
      assert.equal(rest.next, rest.last, 'read to the end: the next starts after the last number');
      const accounts = await o.records.changes({ after: start, limit: 10, objectType: 1 });
      assert.deepEqual(accounts.entries.map((e) => e.recordId), [made[0], made[2], made[4]]);
      assert.equal(accounts.next, accounts.last);
      const caughtUp = await o.records.changes({ after: rest.next, limit: 10 });
      assert.deepEqual([caughtUp.entries, caughtUp.next], [[], rest.next]);
      assert.match(caughtUp.epoch, /^[0-9a-f]{16}$/);
    });

    test('bulkInsert appends a create for every row', async () => {
      const start = await last();
      const rows = Array.from({ length: 3 }, (_, i) => row(o.account, ada.id, { accountname: `Bulk ${i}` }, '2026-03-04T00:00:00'));
      await o.store.bulkInsert(o.orgId, o.account, rows, by(ada.id, '2026-03-04T00:00:00'));
      const entries = await since(start);
      assert.deepEqual(entries.map((e) => [e.operation, e.recordId, e.fields.accountname?.new]), rows.map((r) => ['create', r.accountid, r.accountname]));
    });
  });

  describe(`pruning and epochs of the ${s.name} record store`, { skip: wanted.includes(s.name) ? s.skip : `STORES leaves ${s.name} out` }, () => {
    let place: StorePlace;
    let store: RecordStore;
    before(async () => {
      place = await s.place();
      store = place.open();
    });
    after(async () => {
      await store.close();
      await place.remove();
    });

    const accountAt = (obj: ObjectDef, name: string) => row(obj, randomUUID(), { accountname: name, ownerid: null, createdby: null, modifiedby: null }, '2026-01-01T00:00:00');

    test('pruning removes only the run of the oldest entries made before the time, and raises the floor past them', async () => {
      const records = await store.org(randomUUID());
      const account = (await records.schema()).resolve('account');
      // Written at these times, in this order: the fourth was made with a clock moved back.
      const times = ['2026-01-01T00:00:00', '2026-01-02T00:00:00', '2026-02-01T00:00:00', '2026-01-03T00:00:00', '2026-02-02T00:00:00'];
      for (const [i, at] of times.entries()) await records.create(account, accountAt(account, `P${i}`), { userId: null, at });
      assert.equal(await records.pruneChanges('2026-01-15T00:00:00'), 2);
      const page = await records.changes({ after: 0, limit: 10 });
      assert.equal(page.floor, 2);
      assert.deepEqual(page.entries.map((e) => e.changedon), times.slice(2), 'the entry made before the time but after a kept one stays');
      assert.equal(await records.pruneChanges('2026-01-15T00:00:00'), 0, 'a second prune finds nothing to do');
      assert.equal(await records.pruneChanges('2026-03-01T00:00:00'), 3);
      const emptied = await records.changes({ after: 0, limit: 10 });
      assert.deepEqual([emptied.entries, emptied.floor, emptied.last], [[], 5, 5]);
    });

    test('pruning goes on past one batch', { timeout: 120_000 }, async () => {
      const orgId = randomUUID();
      const records = await store.org(orgId);
      const account = (await records.schema()).resolve('account');
      const n = PRUNE_BATCH + 10;
      await store.bulkInsert(orgId, account, Array.from({ length: n }, (_, i) => accountAt(account, `Many ${i}`)), { userId: null, at: '2026-01-01T00:00:00' });
      assert.equal(await records.pruneChanges('2026-01-02T00:00:00'), n);
      assert.equal((await records.changes({ after: 0, limit: 1 })).floor, n);
    });

    test('a feed page looks FEED_SPAN numbers ahead at most', { timeout: 120_000 }, async () => {
      const orgId = randomUUID();
      const records = await store.org(orgId);
      const schema = await records.schema();
      const account = schema.resolve('account');
      await store.bulkInsert(orgId, account, Array.from({ length: FEED_SPAN + 5 }, (_, i) => accountAt(account, `Span ${i}`)), { userId: null, at: '2026-01-01T00:00:00' });
      const contacts = await records.changes({ after: 0, limit: 10, objectType: 2 });
      assert.deepEqual([contacts.entries.length, contacts.next, contacts.last], [0, FEED_SPAN, FEED_SPAN + 5]);
      const rest = await records.changes({ after: contacts.next, limit: 10, objectType: 2 });
      assert.equal(rest.next, FEED_SPAN + 5);
    });

    test('the log\'s epoch and numbers are the same when the store is opened again (a restart)', async () => {
      const orgId = randomUUID();
      const records = await store.org(orgId);
      const account = (await records.schema()).resolve('account');
      const author = { userId: null, at: '2026-01-01T00:00:00' };
      await records.create(account, accountAt(account, 'One'), author);
      const before = await records.changes({ after: 0, limit: 10 });
      await store.close();
      store = place.open();
      const reopened = await store.org(orgId);
      await reopened.create(account, accountAt(account, 'Two'), author);
      const after = await reopened.changes({ after: before.next, limit: 10 });
      assert.equal(after.epoch, before.epoch);
      assert.deepEqual(after.entries.map((e) => [e.seq, e.fields.accountname?.new]), [[before.next + 1, 'Two']]);
    });

    test('a restore brings back the snapshot\'s log under a new epoch; a reset empties it', async () => {
      const orgId = randomUUID();
      const records = await store.org(orgId);
      const account = (await records.schema()).resolve('account');
      const author = { userId: null, at: '2026-01-01T00:00:00' };
      await records.create(account, accountAt(account, 'Before'), author);
      const before = await records.changes({ after: 0, limit: 10 });
      await store.snapshot(orgId, 'one');
      await records.create(account, accountAt(account, 'After'), author);
      await store.restore(orgId, 'one');
      const restored = await (await store.org(orgId)).changes({ after: 0, limit: 10 });
      assert.deepEqual(restored.entries, before.entries);
      assert.equal(restored.last, before.last);
      assert.notEqual(restored.epoch, before.epoch);
      await store.clear(orgId);
      const cleared = await (await store.org(orgId)).changes({ after: 0, limit: 10 });
      assert.deepEqual([cleared.entries, cleared.last, cleared.floor], [[], 0, 0]);
      assert.notEqual(cleared.epoch, restored.epoch);
    });
  });
}

/** Organizations taken back to before the change log. */
const upgradeCases = downgradeCases(
  { sql: 'DROP TABLE orchard_changes; DROP TABLE orchard_change_log', version: 3 },
  { sql: (s) => `DROP TABLE ${s}.orchard_changes; DROP TABLE ${s}.orchard_change_log`, version: 2 },
);

for (const c of upgradeCases) {
  describe(`an organization from before the change log (${c.name})`, { skip: wanted.includes(c.name) ? c.skip : `STORES leaves ${c.name} out` }, () => {
    test('gets an empty log when opened, keeps its records, and logs the next write as number 1', async () => {
      const { place, downgrade } = await c.place();
      const orgId = randomUUID();
      const first = place.open();
      const records = await first.org(orgId);
      const account = (await records.schema()).resolve('account');
      const old = row(account, randomUUID(), { accountname: 'Old', ownerid: null, createdby: null, modifiedby: null }, '2026-01-01T00:00:00');
      await records.create(account, old, { userId: null, at: '2026-01-01T00:00:00' });
      await first.close();
      await downgrade(first, orgId);
      const store = place.open();
      try {
        const upgraded = await store.org(orgId);
        assert.equal((await upgraded.get(account, old.accountid as string))?.accountname, 'Old');
        assert.deepEqual((await upgraded.changes({ after: 0, limit: 10 })).entries, []);
        await upgraded.update(account, old.accountid as string, { accountname: 'New' }, { userId: null, at: '2026-01-02T00:00:00' });
        const page = await upgraded.changes({ after: 0, limit: 10 });
        assert.deepEqual(page.entries.map((e) => [e.seq, e.operation, e.fields.accountname]), [[1, 'update', { old: 'Old', new: 'New' }]]);
      } finally {
        await store.close();
        await place.remove();
      }
    });
  });
}

describe('a PostgreSQL log made again by pg_restore', { skip: POSTGRES_UNDER_TEST.skip }, () => {
  test('gets a new epoch when a process next opens the organization; opened again untouched, it keeps it', async () => {
    const place = await POSTGRES_UNDER_TEST.place();
    const orgId = randomUUID();
    const author = { userId: null, at: '2026-01-01T00:00:00' };
    try {
      const first = place.open();
      const records = await first.org(orgId);
      const account = (await records.schema()).resolve('account');
      const accountAt = (name: string) => row(account, randomUUID(), { accountname: name, ownerid: null, createdby: null, modifiedby: null }, '2026-01-01T00:00:00');
      await records.create(account, accountAt('Dumped'), author);
      const dumped = await records.changes({ after: 0, limit: 10 });
      await records.create(account, accountAt('After the dump'), author);
      const given = await records.changes({ after: 0, limit: 10 });
      const schema = `"${(first as PostgresRecordStore).schemaName(orgId)}"`;
      await first.close();

      const again = place.open();
      assert.equal((await (await again.org(orgId)).changes({ after: 0, limit: 10 })).epoch, given.epoch, 'a restart keeps the epoch');
      await again.close();

      // What pg_restore --clean does to the table: dropped and made again, with the dump's row.
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      try {
        await client.query(`CREATE TABLE ${schema}.log_copy AS SELECT * FROM ${schema}.orchard_change_log;
          UPDATE ${schema}.log_copy SET last_seq = ${dumped.last};
          DELETE FROM ${schema}.orchard_changes WHERE seq > ${dumped.last};
          DROP TABLE ${schema}.orchard_change_log; ALTER TABLE ${schema}.log_copy RENAME TO orchard_change_log`);
      } finally {
        await client.end();
      }
      const restored = place.open();
      const back = await restored.org(orgId);
      await back.create(account, accountAt('After the restore'), author);
      const page = await back.changes({ after: given.next, limit: 10 });
      assert.notEqual(page.epoch, given.epoch, 'a cursor given before the restore is of another log, so it is refused');
      assert.match(page.epoch, /^[0-9a-f]{16}$/);
      await restored.close();
      const later = place.open();
      assert.equal((await (await later.org(orgId)).changes({ after: 0, limit: 10 })).epoch, page.epoch);
      await later.close();
    } finally {
      await place.remove();
    }
  });
});
