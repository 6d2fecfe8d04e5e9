// Writes of the SQLite store while another connection holds the organization's write lock (the
// CLI's seed beside a running server): they wait without holding up the event loop, go through
// once the lock is free, and give up with 503 STORE_BUSY past the write wait.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors.js';
import type { ObjectDef } from '../../src/schema/types.js';
import { openDb, type Db } from '../../src/store/sqlite/sqlite-db.js';
import type { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { namedAccount } from './count-fixtures.js';
import { sqliteFixture, type SqliteFixture } from './sqlite-fixture.js';

const ORG = 'b5e70000-0000-4000-8000-000000000001';

/** A promise's state without waiting for it. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([p.then(() => true, () => true), Promise.resolve(pending)])) !== pending;
}

describe('SQLite writes while another connection holds the write lock', () => {
  let sqlite: SqliteFixture;
  let store: SqliteRecordStore;
  let records: OrgRecords;
  let accounts: ObjectDef;
  /** Another connection to the organization's file, as the CLI's is. */
  let other: Db;

  before(async () => {
    sqlite = await sqliteFixture(ORG, { writeWaitMs: 60_000 });
    ({ store, records, accounts } = sqlite);
    other = openDb(sqlite.file);
  });

  after(async () => {
    other.close();
    await sqlite.close();
  });

  test('wait without holding up other work, then go through once the lock is free', async () => {
    const first = namedAccount('Before');
    await records.create(accounts, first);
    other.exec('BEGIN IMMEDIATE');
    let writes: Promise<unknown>[];
    try {
      writes = [
        records.create(accounts, namedAccount('Waiting')),
        records.update(accounts, first.accountid as string, { accountname: 'Renamed' }),
        records.createMany(accounts, [namedAccount('Batch')]),
        store.bulkInsert(ORG, accounts, [namedAccount('Bulk')]),
      ];
      // SQLite's busy handler would have slept this thread here until its timeout; instead the
      // writes wait on timers and everything else goes on: reads answer, timers fire.
      await new Promise((resolve) => setTimeout(resolve, 30));
      assert.equal((await records.get(accounts, first.accountid as string))?.accountname, 'Before');
      for (const w of writes) assert.equal(await settled(w), false, 'a write waits while the lock is held');
    } finally {
      other.exec('COMMIT');
    }
    await Promise.all(writes);
    assert.equal((await records.get(accounts, first.accountid as string))?.accountname, 'Renamed');
    const names = (await records.list(accounts, { limit: 50, offset: 0 })).records.map((r) => r.accountname).sort();
    assert.deepEqual(names, ['Batch', 'Bulk', 'Renamed', 'Waiting']);
  });

  test('give up with 503 STORE_BUSY past the write wait, having written nothing', async () => {
    await sqlite.withStore(async (impatient) => {
      const org = await impatient.org(ORG);
      const before = (await org.list(accounts, { limit: 1, offset: 0 })).total;
      other.exec('BEGIN IMMEDIATE');
      try {
        await assert.rejects(org.create(accounts, namedAccount('Never')), (err: unknown) => {
          assert.ok(err instanceof AppError);
          assert.equal(err.code, 'STORE_BUSY');
          assert.equal(err.status, 503);
          assert.match(err.message, /locked by another writer \(such as `orchard seed` beside the server\) for 0\.1 s\. Retry/);
          return true;
        });
      } finally {
        other.exec('COMMIT');
      }
      assert.equal((await org.list(accounts, { limit: 1, offset: 0 })).total, before);
      // The connection's own busy timeout is back (reads wait in SQLite as before), and a write goes through.
      assert.equal((org as unknown as { db: Db }).db.pragma('busy_timeout', { simple: true }), 5_000);
      await org.create(accounts, namedAccount('After'));
      assert.equal((await org.list(accounts, { limit: 1, offset: 0 })).total, before + 1);
    }, { writeWaitMs: 100 });
  });
});
