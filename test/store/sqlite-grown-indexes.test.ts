// The field indexes of an organization's object tables are made once a table holds INDEX_ROWS rows,
// by whichever write crosses it, and a file made with every index (earlier builds) keeps working.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { buildObject, type ObjectSpec } from '../../src/schema/build-object.js';
import { planQuery } from '../../src/query/plan.js';
import { sampleRows } from '../../src/admin/sample-data.js';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import { indexSql, INDEX_ROWS } from '../../src/store/sqlite/sqlite-ddl.js';
import { openDb } from '../../src/store/sqlite/sqlite-db.js';
import { QUICK_ROWS } from '../../src/store/sqlite/sqlite-read-plan.js';
import type { OrgRecords } from '../../src/store/types.js';
import { withOwnedOrg, type SqliteFixture } from './sqlite-fixture.js';
import { TEST_AUTHOR } from '../helpers.js';

const OWNER = 'c4005e00-0000-4000-8000-0000000000aa';
const NOW = new Date(Date.UTC(2026, 0, 1));
const BEFORE_NOW = NOW.toISOString().slice(0, 19);
/** After NOW: rows added to cross the threshold match none of the reads compared. */
const LATER = '2026-06-01T00:00:00';

/** The names of the field indexes (ix_<table>_<field>) on a table, sorted. */
function fieldIndexes(file: string, table: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name").pluck().all(table) as string[];
    return names.filter((n) => n.startsWith(`ix_${table}_`));
  } finally {
    db.close();
  }
}

/** The field indexes a grown table has: one a field marked indexed. */
const allIndexes = (obj: ObjectDef): string[] => obj.fields.filter((f) => f.indexed && f.role !== 'derived').map((f) => `ix_${obj.systemName}_${f.name}`).sort();

const rows = (obj: ObjectDef, count: number, seed: number): RecordRow[] => sampleRows(obj, count, { ownerId: OWNER, now: NOW, seed });
const later = (obj: ObjectDef, count: number): RecordRow[] => rows(obj, count, 99).map((r) => ({ ...r, createdon: LATER, modifiedon: LATER }));

/** Query pages over the rows older than NOW: sorted by text (its fold), by a picklist (ties by key), by date. */
async function reads(org: OrgRecords, obj: ObjectDef): Promise<unknown> {
  const schema = await org.schema();
  const page = (query: string, sort_by: string, sort_type: string, page_size: number, page_number = 1) =>
    org.query(planQuery(schema, { objecttype: obj.objectType, fields: `${obj.keyField},${obj.primaryField},statecode`, query, sort_by, sort_type, page_size, page_number }));
  return [
    await page(`statecode = 1 and createdon < '${BEFORE_NOW}'`, obj.primaryField, 'desc', 40, 2),
    await page(`createdon < '${BEFORE_NOW}'`, 'statecode', 'asc', 500),
    await page(`statecode = 2 and createdon < '${BEFORE_NOW}'`, 'createdon', 'asc', 500),
  ];
}

const withOrg = (use: (fx: SqliteFixture, orgId: string) => Promise<void>): Promise<void> => withOwnedOrg(OWNER, use);

describe('field indexes made as object tables grow', () => {
  test('a new organization has no field index on its object tables, and keeps its own tables\' indexes', async () => {
    await withOrg(async (fx) => {
      const db = new Database(fx.file, { readonly: true });
      try {
        const objects = new Set((await fx.records.schema()).objects.map((o) => o.systemName));
        const indexes = db.prepare("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as Array<{ name: string; tbl_name: string }>;
        assert.deepEqual(indexes.filter((i) => objects.has(i.tbl_name)), []);
        assert.deepEqual(indexes.map((i) => i.name).sort(), ['ix_orchard_changes_record', 'ix_orchard_deliveries_pending', 'ix_orchard_deliveries_webhook', 'ix_orchard_files_record']);
      } finally {
        db.close();
      }
    });
  });

  test('INDEX_ROWS is no more than a read may examine on the main thread', () => {
    assert.ok(INDEX_ROWS <= QUICK_ROWS);
  });

  test('filtered, sorted pages and a list page of a table just under INDEX_ROWS rows are answered on the main thread', async () => {
    await withOrg(async (fx, orgId) => {
      await fx.store.bulkInsert(orgId, fx.accounts, rows(fx.accounts, INDEX_ROWS - 1, 1), TEST_AUTHOR);
      assert.deepEqual(fieldIndexes(fx.file, 'account'), []);
      const [first] = await reads(fx.records, fx.accounts) as Array<{ rows: unknown[] }>;
      assert.equal(first!.rows.length, 40);
      assert.equal((await fx.records.list(fx.accounts, { limit: 50, offset: 220 })).records.length, INDEX_ROWS - 1 - 220);
      assert.equal(fx.store.readerThreads, 0);
    });
  });

  const crossings: Array<{ name: string; cross: (fx: SqliteFixture, orgId: string) => Promise<unknown> }> = [
    { name: 'a create', cross: (fx) => fx.records.create(fx.accounts, later(fx.accounts, 1)[0]!, TEST_AUTHOR) },
    { name: 'a batch of creates (v3 batches, fixtures)', cross: (fx) => fx.records.createMany(fx.accounts, later(fx.accounts, 3), TEST_AUTHOR) },
    { name: 'a bulk insert (seed, import)', cross: (fx, orgId) => fx.store.bulkInsert(orgId, fx.accounts, later(fx.accounts, 400), TEST_AUTHOR) },
  ];
  for (const { name, cross } of crossings) {
    test(`${name} crossing INDEX_ROWS makes the table's indexes, and reads return the same rows in the same order`, async () => {
      await withOrg(async (fx, orgId) => {
        await fx.store.bulkInsert(orgId, fx.accounts, rows(fx.accounts, INDEX_ROWS - 1, 1), TEST_AUTHOR);
        assert.deepEqual(fieldIndexes(fx.file, 'account'), []);
        const before = await reads(fx.records, fx.accounts);
        await cross(fx, orgId);
        assert.deepEqual(fieldIndexes(fx.file, 'account'), allIndexes(fx.accounts));
        assert.deepEqual(await reads(fx.records, fx.accounts), before);
      });
    });
  }

  test('a bulk insert that stays under INDEX_ROWS makes none', async () => {
    await withOrg(async (fx, orgId) => {
      await fx.store.bulkInsert(orgId, fx.accounts, rows(fx.accounts, INDEX_ROWS - 1, 1), TEST_AUTHOR);
      await fx.records.delete(fx.accounts, (await fx.records.list(fx.accounts, { limit: 1, offset: 0 })).records[0]!.accountid as string, TEST_AUTHOR);
      await fx.records.create(fx.accounts, later(fx.accounts, 1)[0]!, TEST_AUTHOR);
      assert.deepEqual(fieldIndexes(fx.file, 'account'), []);
    });
  });

  test('the users\' mirror crossing INDEX_ROWS by an upsert makes its indexes', async () => {
    await withOrg(async (fx, orgId) => {
      const users = (await fx.records.schema()).resolve('crmuser');
      await fx.store.bulkInsert(orgId, users, rows(users, INDEX_ROWS - 2, 1), TEST_AUTHOR);
      assert.deepEqual(fieldIndexes(fx.file, 'crmuser'), []);
      await fx.store.upsertUser(orgId, { id: randomUUID(), fullname: 'One More', email: 'one.more@example.com' });
      assert.deepEqual(fieldIndexes(fx.file, 'crmuser'), allIndexes(users));
    });
  });

  test('a restore of a snapshot whose large table lacks its indexes makes them; a clear leaves the empty tables without', async () => {
    await withOrg(async (fx, orgId) => {
      await fx.store.bulkInsert(orgId, fx.accounts, rows(fx.accounts, INDEX_ROWS + 10, 1), TEST_AUTHOR);
      const before = await reads(fx.records, fx.accounts);
      const snap = await fx.store.snapshot(orgId, 'grown');
      // A file another way made (another process, a copy): the rows, without the indexes.
      const file = fx.file.replace(/orgs\/[^/]+$/, `snapshots/${orgId}/${snap.name}.db`);
      const db = openDb(file);
      for (const name of allIndexes(fx.accounts)) db.exec(`DROP INDEX "${name}"`);
      db.close();
      await fx.store.restore(orgId, 'grown');
      assert.deepEqual(fieldIndexes(fx.file, 'account'), allIndexes(fx.accounts));
      assert.deepEqual(await reads(fx.records, fx.accounts), before);
      // After the restore, a write on the table is still seen as grown and makes nothing more.
      await fx.records.create(fx.accounts, later(fx.accounts, 1)[0]!, TEST_AUTHOR);
      await fx.store.clear(orgId);
      assert.deepEqual(fieldIndexes(fx.file, 'account'), []);
      await fx.store.bulkInsert(orgId, fx.accounts, rows(fx.accounts, INDEX_ROWS, 2), TEST_AUTHOR);
      assert.deepEqual(fieldIndexes(fx.file, 'account'), allIndexes(fx.accounts));
    });
  });

  test('a field added to a grown table gets its index; to a small one, none', async () => {
    await withOrg(async (fx, orgId) => {
      await fx.store.bulkInsert(orgId, fx.accounts, rows(fx.accounts, INDEX_ROWS, 1), TEST_AUTHOR);
      const schema = await fx.records.addField(1, () => ({ name: 'pcftier', type: 'picklist', label: 'Tier', options: [{ value: 1, label: 'Gold' }], indexed: true }));
      assert.ok(schema.resolve('account').fieldsByName.get('pcftier')!.indexed);
      assert.ok(fieldIndexes(fx.file, 'account').includes('ix_account_pcftier'));
      assert.deepEqual(fieldIndexes(fx.file, 'account'), allIndexes(schema.resolve('account')));
      await fx.records.addField(2, () => ({ name: 'pcftier', type: 'picklist', label: 'Tier', options: [{ value: 1, label: 'Gold' }], indexed: true }));
      assert.deepEqual(fieldIndexes(fx.file, 'contact'), []);
    });
  });

  test('a file made with every index (earlier builds) keeps them, reads and writes, and an added field gets its index', async () => {
    await withOrg(async (fx, orgId) => {
      await fx.store.bulkInsert(orgId, fx.accounts, rows(fx.accounts, 100, 1), TEST_AUTHOR);
      const db = openDb(fx.file);
      const objects = (db.prepare('SELECT spec FROM orchard_objects').pluck().all() as string[]).map((s) => buildObject(JSON.parse(s) as ObjectSpec));
      for (const obj of objects) for (const f of obj.fields) if (f.indexed && f.role !== 'derived') db.exec(indexSql(obj, f));
      db.close();
      const every = fieldIndexes(fx.file, 'contact');
      assert.ok(every.length > 0);
      const before = await reads(fx.records, fx.accounts);
      await fx.withStore(async (store) => {
        const org = await store.org(orgId);
        assert.deepEqual(await reads(org, fx.accounts), before);
        await org.create(fx.accounts, later(fx.accounts, 1)[0]!, TEST_AUTHOR);
        assert.deepEqual(await reads(org, fx.accounts), before);
        await org.addField(2, () => ({ name: 'pcftier', type: 'picklist', label: 'Tier', options: [{ value: 1, label: 'Gold' }], indexed: true }));
      });
      assert.deepEqual(fieldIndexes(fx.file, 'contact'), [...every, 'ix_contact_pcftier'].sort());
      assert.deepEqual(fieldIndexes(fx.file, 'account'), allIndexes(fx.accounts));
    });
  });
});
