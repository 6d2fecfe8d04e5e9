// The organizations the SQLite store keeps open: at most its cap, the least recently used closed
// first; none closed while a call uses it; closed after five minutes unused; and so a process under
// a limit of 1,024 descriptors serves thousands of organizations. What is open is read from the
// descriptors this process holds on each organization's files (/proc/self/fd). The PostgreSQL
// store keeps as many organizations' schemas and statements, and serves one it dropped again.

import { after, before, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordRow } from '../../src/schema/types.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import { openDb } from '../../src/store/sqlite/sqlite-db.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import { tempDir, TEST_AUTHOR } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';

const CHILD = fileURLToPath(new URL('./many-organizations.js', import.meta.url));

/** Descriptors of this process, its reader threads included, on the organization's files. */
function descriptorsOn(orgId: string): number {
  let n = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`).includes(orgId)) n++;
    } catch {
      // The descriptor was closed since the directory was read.
    }
  }
  return n;
}

const isOpen = (orgId: string) => descriptorsOn(orgId) > 0;

function account(name: string): RecordRow {
  return { accountid: randomUUID(), accountname: name, statecode: 1, statuscode: 1, createdon: '2026-01-01T00:00:00', modifiedon: '2026-01-01T00:00:00' };
}

/** Runs many-organizations.js under `ulimit -n 1024`; its exit code and output. */
function underDescriptorLimit(count: number, openOrgs: number): Promise<{ code: number; out: string }> {
  const dir = tempDir('orchard-many-orgs-');
  return new Promise((resolve) => {
    execFile('bash', ['-c', 'ulimit -n 1024 && exec "$0" "$@"', process.execPath, CHILD, dir, String(count), String(openOrgs)],
      { timeout: 600_000 }, (err, stdout, stderr) => {
        fs.rmSync(dir, { recursive: true, force: true });
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, out: `${stdout}${stderr}`.trim() });
      });
  });
}

describe('organizations kept open by the SQLite store', { skip: process.platform !== 'linux' && 'reads /proc/self/fd' }, () => {
  let dir: string;

  before(() => {
    dir = tempDir('orchard-open-orgs-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('closes the least recently used organization past the cap, and opens it again with its records on its next call', async () => {
    const store = new SqliteRecordStore(dir, { openOrganizations: 2 });
    try {
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      const kept = account('Kept');
      const records = await store.org(b);
      const accounts = (await records.schema()).resolve('account');
      await records.create(accounts, kept, TEST_AUTHOR);
      for (const id of [a, b, a, c]) await (await store.org(id)).schema();
      assert.deepEqual([a, b, c].map(isOpen), [true, false, true], 'b was used least recently');
      // The records object taken before b was closed still serves it.
      assert.equal((await records.get(accounts, kept.accountid as string))?.accountname, 'Kept');
      assert.deepEqual([a, b, c].map(isOpen), [false, true, true]);
    } finally {
      await store.close();
    }
  });

  test('keeps an organization open past the cap while a write waits for another connection\'s lock, and closes it once the write is done', async () => {
    const store = new SqliteRecordStore(dir, { openOrganizations: 1 });
    const [busy, other] = [randomUUID(), randomUUID()];
    try {
      const records = await store.org(busy);
      const accounts = (await records.schema()).resolve('account');
      const blocker = openDb(path.join(dir, 'orgs', `${busy}.db`));
      blocker.exec('BEGIN IMMEDIATE');
      const waiting = records.create(accounts, account('Waited'), TEST_AUTHOR);
      // Another organization's call pushes the busy one past the cap while its write waits.
      await (await store.org(other)).schema();
      blocker.exec('COMMIT');
      blocker.close();
      // Closed under the waiting write, the write would fail: the connection would be gone.
      assert.equal((await waiting).accountname, 'Waited');
      assert.equal(isOpen(busy), false, 'closed when its write ended, being past the cap');
      assert.equal(isOpen(other), true);
    } finally {
      await store.close();
    }
  });

  test('closes an organization left unused for five minutes, not before', async () => {
    mock.timers.enable({ apis: ['setInterval', 'Date'], now: Date.parse('2026-03-01T12:00:00Z') });
    const store = new SqliteRecordStore(dir);
    try {
      const [idle, used] = [randomUUID(), randomUUID()];
      await (await store.org(idle)).schema();
      const records = await store.org(used);
      mock.timers.tick(4 * 60_000);
      await records.schema();
      assert.deepEqual([isOpen(idle), isOpen(used)], [true, true]);
      mock.timers.tick(90_000);
      assert.deepEqual([isOpen(idle), isOpen(used)], [false, true], 'idle for 5.5 minutes, used 1.5 minutes ago');
      mock.timers.tick(5 * 60_000);
      assert.equal(isOpen(used), false);
      await records.schema();
      assert.equal(isOpen(used), true, 'opened again by its next call');
    } finally {
      await store.close();
      mock.timers.reset();
    }
  });

  test('a process limited to 1,024 descriptors serves 2,000 organizations in turn, then the first again', { timeout: 600_000 }, async () => {
    assert.deepEqual(await underDescriptorLimit(2_000, 128), { code: 0, out: 'served 2000' });
  });

  test('without the cap, the same process runs out of descriptors', { timeout: 600_000 }, async () => {
    // So the test above means something: the limit is real, and open organizations exhaust it.
    const { code, out } = await underDescriptorLimit(2_000, 1_000_000);
    assert.equal(code, 1, out);
    assert.match(out, /^failed after \d+: .*(unable to open database file|too many open files|EMFILE)/i);
  });
});

describe('organizations kept by the PostgreSQL store', { skip: needsPostgres }, () => {
  test('serves organizations it dropped past its cap, each with its own records', async () => {
    const pool = createPool(DATABASE_URL!);
    const schemaPrefix = `${uniqueName('oo')}_`;
    const store = new PostgresRecordStore(pool, { schemaPrefix, openOrganizations: 1 });
    try {
      const ids = [randomUUID(), randomUUID()];
      const made = new Map<string, RecordRow>();
      for (const id of ids) {
        const records = await store.org(id);
        const row = account(`Of ${id}`);
        await records.create((await records.schema()).resolve('account'), row, TEST_AUTHOR);
        made.set(id, row);
      }
      for (const id of [...ids, ...ids]) {
        const records = await store.org(id);
        const accounts = (await records.schema()).resolve('account');
        const { records: listed } = await records.list(accounts, { limit: 10, offset: 0 });
        assert.deepEqual(listed.map((r) => r.accountname), [made.get(id)!.accountname]);
      }
    } finally {
      await store.close();
      await dropSchemas(pool, schemaPrefix);
      await pool.end();
    }
  });
});
