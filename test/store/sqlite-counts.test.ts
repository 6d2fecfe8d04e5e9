// The SQLite store's row counts (Total_Records of GET lists), kept by triggers in orchard_counts
// instead of counting the table on every page: equal to the table's rows through every kind of
// write, from any connection, for custom objects, and for databases made before counts were kept;
// and the list pages that are answered on the main thread.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { customObjectSpec } from '../../src/schema/custom-definitions.js';
import type { ObjectDef } from '../../src/schema/types.js';
import { ORG_MIGRATIONS } from '../../src/store/sqlite/sqlite-ddl.js';
import { migrate, openDb } from '../../src/store/sqlite/sqlite-db.js';
import { walkFitsMainThread } from '../../src/store/sqlite/sqlite-read-plan.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { tempDir, TEST_AUTHOR } from '../helpers.js';
import { checkMigratedCounts, newAccount } from './count-fixtures.js';
import { orgFile, sqliteFixture, type SqliteFixture } from './sqlite-fixture.js';

const ORG = 'c0a47000-0000-4000-8000-000000000001';


describe('row counts of the SQLite store', () => {
  let sqlite: SqliteFixture;
  let store: SqliteRecordStore;
  let records: OrgRecords;
  let accounts: ObjectDef;

  before(async () => {
    sqlite = await sqliteFixture(ORG);
    ({ store, records, accounts } = sqlite);
  });

  after(() => sqlite.close());

  /** The table's rows counted by SQL, on a connection of its own. */
  function rowsOf(table: string): number {
    const db = openDb(sqlite.file, { readonly: true });
    try {
      return (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
    } finally {
      db.close();
    }
  }

  /** Total_Records of a list page, read as a request does (schema() first); asserts it is the count kept in orchard_counts. */
  async function total(obj: ObjectDef): Promise<number> {
    await records.schema();
    const listed = (await records.list(obj, { limit: 1, offset: 0 })).total;
    const db = openDb(sqlite.file, { readonly: true });
    try {
      assert.equal((db.prepare('SELECT n FROM orchard_counts WHERE object_type = ?').get(obj.objectType) as { n: number }).n, listed, obj.systemName);
    } finally {
      db.close();
    }
    return listed;
  }

  test('stay equal to the table through creates, batches, updates, deletes and bulk inserts', async () => {
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['create', () => records.create(accounts, newAccount(), TEST_AUTHOR)],
      ['createMany with a failing item', async () => {
        const taken = newAccount();
        await records.create(accounts, taken, TEST_AUTHOR);
        const results = await records.createMany(accounts, [newAccount(), { ...newAccount(), accountid: taken.accountid! }, newAccount()], TEST_AUTHOR);
        assert.equal(results.filter((r) => r instanceof Error).length, 1, 'the item with a taken id fails alone');
      }],
      ['update', async () => {
        const { records: [first] } = await records.list(accounts, { limit: 1, offset: 0 });
        await records.update(accounts, first!.accountid as string, { accountname: 'Renamed' }, TEST_AUTHOR);
      }],
      ['delete', async () => {
        const { records: [first] } = await records.list(accounts, { limit: 1, offset: 0 });
        assert.equal(await records.delete(accounts, first!.accountid as string, TEST_AUTHOR), true);
      }],
      ['deleteMany with an unknown id', async () => {
        const { records: page } = await records.list(accounts, { limit: 2, offset: 0 });
        await records.deleteMany(accounts, [...page.map((r) => r.accountid as string), randomUUID()], TEST_AUTHOR);
      }],
      ['bulkInsert', () => store.bulkInsert(ORG, accounts, Array.from({ length: 1_000 }, newAccount), TEST_AUTHOR)],
    ];
    for (const [name, step] of steps) {
      await step();
      assert.equal(await total(accounts), rowsOf('account'), `after ${name}`);
    }
    assert.ok(rowsOf('account') > 1_000);
  });

  test('count the writes of another connection, as the CLI beside a running server makes them', async () => {
    await sqlite.withStore(async (cli) => {
      const before = await total(accounts);
      await cli.bulkInsert(ORG, accounts, Array.from({ length: 250 }, newAccount), TEST_AUTHOR);
      assert.equal(await total(accounts), before + 250);
      assert.equal(await total(accounts), rowsOf('account'));
    });
  });

  test('count a custom object from its first record', async () => {
    const schema = await records.addObject((current) => customObjectSpec(current, { name: 'Widget' }, randomUUID()));
    const widget = schema.resolve('customobject1000');
    assert.equal(await total(widget), 0);
    await records.create(widget, { customobject1000id: randomUUID(), name: 'One', statecode: 1, statuscode: 1, createdon: '2025-01-01T00:00:00', modifiedon: '2025-01-01T00:00:00' }, TEST_AUTHOR);
    assert.equal(await total(widget), 1);
    assert.equal(rowsOf('customobject1000'), 1);
  });

  test('count a user once, however often it is written again (an upsert that updates)', async () => {
    const users = (await records.schema()).resolve('crmuser');
    const id = randomUUID();
    const before = await total(users);
    for (const fullname of ['Ada', 'Ada L.', 'Ada Lovelace']) await store.upsertUser(ORG, { id, fullname, email: 'ada@example.com' });
    assert.equal(await total(users), before + 1);
    assert.equal(await total(users), rowsOf('crmuser'));
  });

  test('every object of the organization has its count', async () => {
    for (const obj of (await records.schema()).objects) assert.equal(await total(obj), rowsOf(obj.systemName), obj.systemName);
  });

  test('answer a list page on the main thread when its walk is short, on the reader threads beyond', async () => {
    await sqlite.withStore(async (fresh) => {
      const org = await fresh.org(ORG);
      const first = await org.list(accounts, { limit: 50, offset: 0 });
      assert.equal(first.total, rowsOf('account'));
      assert.equal(first.records.length, 50);
      assert.equal(fresh.readerThreads, 0);
      // The documented bound of an index walk on the main thread: 131,072 entries (docs/decisions.md).
      const offset = 131_072;
      assert.equal(walkFitsMainThread(offset), true);
      assert.equal(walkFitsMainThread(offset + 50), false);
      const deep = await org.list(accounts, { limit: 50, offset });
      assert.deepEqual(deep, { total: rowsOf('account'), records: [] });
      assert.equal(fresh.readerThreads, 2);
    });
  });
});

describe('a database made before row counts were kept', () => {
  test('gets every count from its rows when it is migrated', async () => {
    const dir = tempDir('orchard-counts-old-');
    const file = orgFile(dir, ORG);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const old = openDb(file);
    migrate(old, ORG_MIGRATIONS.slice(0, 1));
    const insert = old.prepare('INSERT INTO account (accountid, accountname, statecode, statuscode, createdon, modifiedon) VALUES (@accountid, @accountname, @statecode, @statuscode, @createdon, @modifiedon)');
    for (let i = 0; i < 37; i++) insert.run(newAccount());
    old.close();
    const store = new SqliteRecordStore(dir);
    try {
      await checkMigratedCounts(await store.org(ORG), 37);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a new organization file', () => {
  /** What a file holds but its change log's epoch (random): the schema, the definitions and every row count. */
  const contents = (file: string) => {
    const db = openDb(file, { readonly: true });
    try {
      return {
        version: db.pragma('user_version', { simple: true }),
        master: db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all(),
        objects: db.prepare('SELECT * FROM orchard_objects ORDER BY object_type').all(),
        meta: db.prepare('SELECT * FROM orchard_meta').all(),
        counts: db.prepare('SELECT * FROM orchard_counts ORDER BY object_type').all(),
      };
    } finally {
      db.close();
    }
  };

  test('migrated in one transaction, holds what an upgrade step by step from version 1 gives', () => {
    const dir = tempDir('orchard-new-file-');
    try {
      const fresh = path.join(dir, 'fresh.db');
      const db = openDb(fresh);
      // The version each step finds: 0 for every one when they share one transaction (the version
      // is written at its end), 0, 1, 2… when each step commits before the next.
      const found: number[] = [];
      const watched = ORG_MIGRATIONS.map((step) => (d: typeof db) => {
        found.push(d.pragma('user_version', { simple: true }) as number);
        step(d);
      });
      assert.equal(migrate(db, watched), ORG_MIGRATIONS.length);
      db.close();
      assert.deepEqual(found, ORG_MIGRATIONS.map(() => 0));
      const stepwise = path.join(dir, 'stepwise.db');
      const old = openDb(stepwise);
      migrate(old, ORG_MIGRATIONS.slice(0, 1));
      migrate(old, ORG_MIGRATIONS);
      old.close();
      assert.deepEqual(contents(fresh), contents(stepwise));
      assert.equal(contents(fresh).version, ORG_MIGRATIONS.length);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
