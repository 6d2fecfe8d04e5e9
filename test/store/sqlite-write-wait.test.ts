// Writes of the SQLite store while another connection holds the organization's write lock (the
// CLI's seed beside a running server): they wait without holding up the event loop, go through
// once the lock is free, and give up with 503 STORE_BUSY past the write wait, which the API answers
// with Retry-After.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import { SqlCache } from '../../src/store/record-sql.js';
import { openDb, type Db } from '../../src/store/sqlite/sqlite-db.js';
import { SqliteRecordWrites } from '../../src/store/sqlite/sqlite-record-writes.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { openStores } from '../../src/stores.js';
import { tempDir, TEST_AUTHOR } from '../helpers.js';

const ORG = 'b5e70000-0000-4000-8000-000000000001';

function account(name: string): RecordRow {
  return { accountid: randomUUID(), accountname: name, statecode: 1, statuscode: 1, createdon: '2025-01-01T00:00:00', modifiedon: '2025-01-01T00:00:00' };
}

/** A promise's state without waiting for it. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  const pending = Symbol('pending');
  return (await Promise.race([p.then(() => true, () => true), Promise.resolve(pending)])) !== pending;
}

describe('SQLite writes while another connection holds the write lock', () => {
  let dir: string;
  let store: SqliteRecordStore;
  let records: OrgRecords;
  let accounts: ObjectDef;
  /** Another connection to the organization's file, as the CLI's is. */
  let other: Db;

  before(async () => {
    dir = tempDir('orchard-write-wait-');
    store = new SqliteRecordStore(dir, { writeWaitMs: 60_000 });
    records = await store.org(ORG);
    accounts = (await records.schema()).resolve('account');
    other = openDb(path.join(dir, 'orgs', `${ORG}.db`));
  });

  after(async () => {
    other.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('wait without holding up other work, then go through once the lock is free', async () => {
    const first = account('Before');
    await records.create(accounts, first, TEST_AUTHOR);
    other.exec('BEGIN IMMEDIATE');
    let writes: Promise<unknown>[];
    try {
      writes = [
        records.create(accounts, account('Waiting'), TEST_AUTHOR),
        records.update(accounts, first.accountid as string, { accountname: 'Renamed' }, TEST_AUTHOR),
        records.createMany(accounts, [account('Batch')], TEST_AUTHOR),
        store.bulkInsert(ORG, accounts, [account('Bulk')], TEST_AUTHOR),
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
    const impatient = new SqliteRecordStore(dir, { writeWaitMs: 100 });
    try {
      const org = await impatient.org(ORG);
      const before = (await org.list(accounts, { limit: 1, offset: 0 })).total;
      other.exec('BEGIN IMMEDIATE');
      try {
        await assert.rejects(org.create(accounts, account('Never'), TEST_AUTHOR), (err: unknown) => {
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
      // A write goes through.
      await org.create(accounts, account('After'), TEST_AUTHOR);
      assert.equal((await org.list(accounts, { limit: 1, offset: 0 })).total, before + 1);
    } finally {
      await impatient.close();
    }
  });

  test('give the connection its own busy timeout back once they gave up, so that its reads wait in SQLite as before', async () => {
    const db = openDb(path.join(dir, 'orgs', `${ORG}.db`));
    const schema = await records.schema();
    const writes = new SqliteRecordWrites(db, { file: db.name, sqlCache: new SqlCache(), current: () => schema, schemaSync: () => schema, countsSeen: () => {} }, 100);
    try {
      other.exec('BEGIN IMMEDIATE');
      try {
        await assert.rejects(writes.create(accounts, account('Never'), TEST_AUTHOR), { code: 'STORE_BUSY' });
      } finally {
        other.exec('COMMIT');
      }
      assert.equal(db.pragma('busy_timeout', { simple: true }), 5_000);
    } finally {
      db.close();
    }
  });
});

test('the API answers a write that gave up 503 STORE_BUSY with Retry-After: 1, on v1 and v3 routes', async () => {
  const dir = tempDir('orchard-write-wait-http-');
  const config = loadConfig({}, { dataDir: dir, logLevel: 'silent' });
  const stores = openStores(config);
  const impatient = new SqliteRecordStore(dir, { writeWaitMs: 100 });
  const { org, token } = await stores.admin.createOrganization({ name: 'Busy', plan: 'enterprise', email: 'b@example.com' });
  await impatient.org(org.id);
  const app = await buildApp({ ...stores, records: impatient, config, clock: Date.now, logger: false });
  const other = openDb(path.join(dir, 'orgs', `${org.id}.db`));
  try {
    other.exec('BEGIN IMMEDIATE');
    try {
      const writes = [
        { url: '/api/record/account', payload: { accountname: 'Never' } },
        { url: '/api/v3/record/account/batch/create', payload: { data: [{ accountname: 'Never' }] } },
      ];
      for (const { url, payload } of writes) {
        const res = await app.inject({ method: 'POST', url, headers: { tokenid: token }, payload });
        assert.deepEqual([res.statusCode, res.headers['x-error-code'], res.headers['retry-after']], [503, 'STORE_BUSY', '1'], url);
      }
    } finally {
      other.exec('COMMIT');
    }
  } finally {
    other.close();
    await app.close();
    await impatient.close();
    await stores.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
