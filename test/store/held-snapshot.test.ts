// The read snapshot the SQLite store keeps from one read to the next within a turn of the event loop
// (HeldSnapshot): reads in a row share it; it ends with the turn, so checkpoints can empty the WAL
// under steady reads and another process's writes; and the store ends it when the WAL change signal
// reports a commit and before its own writes, so no read is stale.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { ObjectDef } from '../../src/schema/types.js';
import { HeldSnapshot } from '../../src/store/sqlite/held-snapshot.js';
import { openDb, type Db } from '../../src/store/sqlite/sqlite-db.js';
import type { OrgRecords } from '../../src/store/types.js';
import { nextTurn, tempDir } from '../helpers.js';
import { namedAccount } from './count-fixtures.js';
import { sqliteFixture, type SqliteFixture } from './sqlite-fixture.js';

const ORG = 'a11d0000-0000-4000-8000-000000000001';

describe('the held read snapshot', () => {
  let dir: string;
  let file: string;
  let writer: Db;
  let held: HeldSnapshot;

  before(() => {
    dir = tempDir('orchard-held-');
    file = path.join(dir, 'x.db');
    writer = openDb(file);
    // A checkpoint that a held snapshot blocks then answers busy at once, not after the 5 s busy timeout.
    writer.pragma('busy_timeout = 0');
    writer.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    held = new HeldSnapshot(() => openDb(file, { readonly: true }));
  });

  after(() => {
    held.close();
    writer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const count = () => (held.connection().prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;

  test('reads in a row share one snapshot until it is released', () => {
    const before = count();
    assert.equal(held.holding, true);
    writer.prepare('INSERT INTO t (v) VALUES (?)').run('x');
    assert.equal(count(), before, 'the held snapshot predates the commit');
    held.release();
    assert.equal(held.holding, false);
    assert.equal(count(), before + 1);
  });

  test('ends with the turn of the event loop, so a checkpoint can empty the WAL', async () => {
    count();
    for (let i = 0; i < 20; i++) writer.prepare('INSERT INTO t (v) VALUES (?)').run(`row ${i}`);
    const [busy] = writer.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    assert.equal(busy!.busy, 1, 'a held snapshot keeps the WAL from being emptied');
    await nextTurn();
    assert.equal(held.holding, false);
    const [after] = writer.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number }>;
    assert.deepEqual([after!.busy, after!.log], [0, 0]);
  });

  test('steady reads beside another connection writing and checkpointing leave the WAL restarted, not growing', async () => {
    writer.pragma('wal_autocheckpoint = 1');
    try {
      const walBytes = () => fs.statSync(`${file}-wal`).size;
      let largest = 0;
      for (let i = 0; i < 200; i++) {
        writer.prepare('INSERT INTO t (v) VALUES (?)').run('x'.repeat(2_000));
        count();
        await nextTurn();
        largest = Math.max(largest, walBytes());
      }
      // Each commit's checkpoint copies everything once no snapshot predates it, and the next
      // write starts the WAL from its beginning: it never holds more than a few frames.
      assert.ok(largest < 64 * 1024, `the WAL grew to ${largest} bytes`);
    } finally {
      writer.pragma('wal_autocheckpoint = 1000');
    }
  });

  test('begins again after SQLite ended the transaction itself', () => {
    const db = held.connection();
    db.exec('ROLLBACK');
    assert.equal(held.holding, false);
    assert.doesNotThrow(() => held.release());
    count();
    assert.equal(held.holding, true);
  });
});

describe('reads of the SQLite store through its held snapshot', () => {
  let sqlite: SqliteFixture;
  let records: OrgRecords;
  let accounts: ObjectDef;

  before(async () => {
    sqlite = await sqliteFixture(ORG);
    ({ records, accounts } = sqlite);
  });

  after(() => sqlite.close());

  /** A GET as the server makes it: schema() first, then the read. */
  const get = async (id: string) => {
    await records.schema();
    return records.get(accounts, id);
  };

  test('a write through the store is read back at once', async () => {
    const first = namedAccount('First');
    await records.create(accounts, first);
    assert.equal((await get(first.accountid as string))?.accountname, 'First');
    await records.update(accounts, first.accountid as string, { accountname: 'Renamed' });
    assert.equal((await get(first.accountid as string))?.accountname, 'Renamed');
    await records.delete(accounts, first.accountid as string);
    assert.equal(await get(first.accountid as string), null);
  });

  test("another process's write is read by the next request", async () => {
    const row = namedAccount('Elsewhere');
    await sqlite.withStore(async (other) => {
      const elsewhere = await other.org(ORG);
      await nextTurn();
      assert.equal(await get(row.accountid as string), null);
      await elsewhere.create(accounts, row);
      await nextTurn();
      assert.equal((await get(row.accountid as string))?.accountname, 'Elsewhere');
      await elsewhere.update(accounts, row.accountid as string, { accountname: 'Changed' });
      await nextTurn();
      assert.equal((await get(row.accountid as string))?.accountname, 'Changed');
      const page = await records.list(accounts, { limit: 1, offset: 0 });
      assert.equal(page.records[0]?.accountname, 'Changed', 'list pages read the same snapshot');
    });
  });

  test('reads and writes of the store in the same turns leave the WAL restarted, not growing', async () => {
    const writer = (records as unknown as { db: Db }).db;
    writer.pragma('wal_autocheckpoint = 1');
    try {
      const row = namedAccount('Steady');
      await records.create(accounts, row);
      // The WAL file keeps the size it once had (the tables' creation made it large): what counts is
      // that the loop does not add to it.
      const walBytes = () => fs.statSync(`${sqlite.file}-wal`).size;
      const initial = walBytes();
      let largest = 0;
      for (let i = 0; i < 100; i++) {
        await get(row.accountid as string);
        // The write ends the snapshot the read began, before it commits and checkpoints.
        await records.update(accounts, row.accountid as string, { description: 'x'.repeat(2_000 + i) });
        await nextTurn();
        largest = Math.max(largest, walBytes());
      }
      assert.ok(largest - initial < 64 * 1024, `the WAL grew from ${initial} to ${largest} bytes`);
    } finally {
      writer.pragma('wal_autocheckpoint = 1000');
    }
  });
});
