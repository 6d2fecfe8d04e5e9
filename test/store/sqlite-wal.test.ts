// The WAL of SQLite files stays bounded: a file opened by openDb has its WAL cut back to the limit
// when it restarts, after however large a transaction, and a bulk insert (the seed) writes in
// transactions of a bounded size, so the WAL never holds a whole large batch. The bound with
// `orchard seed` beside a running server is measured by bench/wal-seed.ts (bench/README.md).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RecordRow } from '../../src/schema/types.js';
import { openDb, WAL_LIMIT_BYTES } from '../../src/store/sqlite/sqlite-db.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import { tempDir, TEST_AUTHOR } from '../helpers.js';

const MB = 1024 * 1024;

describe('the WAL of SQLite files', () => {
  let dir: string;

  before(() => {
    dir = tempDir('orchard-wal-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a writer keeps statement journals in memory: a savepoint past 64 KiB opens no temporary file', { skip: !fs.existsSync('/proc/self/fd') }, () => {
    // SQLite spills a statement journal past 64 KiB to an unlinked temporary file (etilqs_…), which
    // a create did at every write before temp_store = MEMORY.
    const db = openDb(path.join(dir, 'statement-journal.db'));
    try {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      db.transaction(() => {
        for (let i = 0; i < 2000; i++) insert.run('x'.repeat(200));
      })();
      const temporaryFiles = () => fs.readdirSync('/proc/self/fd').map((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`);
        } catch {
          return '';
        }
      }).filter((target) => /etilqs_/.test(target));
      db.exec('BEGIN');
      db.exec('SAVEPOINT a');
      db.exec("UPDATE t SET v = v || 'y'");
      const open = temporaryFiles();
      db.exec('RELEASE a');
      db.exec('COMMIT');
      assert.deepEqual(open, []);
    } finally {
      db.close();
    }
  });

  test('is cut back to its limit when it restarts after a transaction larger than the limit', () => {
    const file = path.join(dir, 'big.db');
    const db = openDb(file);
    try {
      db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB)');
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      db.transaction(() => {
        for (let i = 0; i < 80; i++) insert.run(Buffer.alloc(MB, i));
      })();
      assert.ok(fs.statSync(`${file}-wal`).size > WAL_LIMIT_BYTES, 'the transaction itself needs a WAL past the limit');
      db.pragma('wal_checkpoint(PASSIVE)');
      insert.run(Buffer.alloc(10));
      assert.ok(fs.statSync(`${file}-wal`).size <= WAL_LIMIT_BYTES, `the WAL kept ${fs.statSync(`${file}-wal`).size} bytes`);
    } finally {
      db.close();
    }
  });

  test('holds a fraction of a large bulk insert: it is written in transactions of at most 16 MiB of WAL', async () => {
    const store = new SqliteRecordStore(dir);
    const org = randomUUID();
    try {
      const accounts = (await (await store.org(org)).schema()).resolve('account');
      // 5,000 rows of 10,000 characters each: about 50 MB of records in one call.
      const rows: RecordRow[] = Array.from({ length: 5_000 }, (_, i) => ({
        accountid: randomUUID(), accountname: `Bulk ${i}`, description: `${i} `.padEnd(10_000, 'x'),
        statecode: 1, statuscode: 1, createdon: '2026-01-01T00:00:00', modifiedon: '2026-01-01T00:00:00',
      }));
      await store.bulkInsert(org, accounts, rows, TEST_AUTHOR);
      assert.equal((await (await store.org(org)).list(accounts, { limit: 1, offset: 0 })).total, 5_000);
      // Under the limit, the WAL file keeps the largest size it reached.
      const wal = fs.statSync(path.join(dir, 'orgs', `${org}.db-wal`)).size;
      assert.ok(wal <= 20 * MB, `the WAL reached ${(wal / MB).toFixed(1)} MB`);
    } finally {
      await store.close();
    }
  });
});
