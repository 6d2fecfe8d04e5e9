// The SQLite store builds an organization's definitions, and compiles their SQL, once for every
// organization open with the same stored definitions (sqlite-record-store.ts SharedDefinitions):
// a change to one organization's definitions reaches none of the others, whose reads and writes go
// on with their own columns; an organization changed the same way shares again.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { RecordRow } from '../../src/schema/types.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { tempDir, TEST_AUTHOR } from '../helpers.js';

const MOOD = { name: 'pcfmood', type: 'text', label: 'Mood' } as const;
const HAT = { name: 'pcfhat', type: 'text', label: 'Hat' } as const;

function account(name: string, extra: RecordRow = {}): RecordRow {
  return { accountid: randomUUID(), accountname: name, statecode: 1, statuscode: 1, createdon: '2026-01-01T00:00:00', modifiedon: '2026-01-01T00:00:00', ...extra };
}

describe('organizations with the same definitions in one SQLite store', () => {
  let dir: string;
  let store: SqliteRecordStore;
  const idA = randomUUID();
  let a: OrgRecords;
  let b: OrgRecords;

  before(async () => {
    dir = tempDir('orchard-shared-defs-');
    store = new SqliteRecordStore(dir);
    a = await store.org(idA);
    b = await store.org(randomUUID());
  });

  after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const accounts = async (org: OrgRecords) => (await org.schema()).resolve('account');

  test('a field added to one reaches neither the definitions nor the SQL of the other, at the same version', async () => {
    assert.equal(await a.schema(), await b.schema(), 'the same definitions are built once');
    // B's statements compiled before A's change, and after it.
    const before = await b.create(await accounts(b), account('B before'), TEST_AUTHOR);
    await a.addField(1, () => MOOD);
    assert.ok((await accounts(a)).fieldsByName.has('pcfmood'));
    assert.ok(!(await accounts(b)).fieldsByName.has('pcfmood'));
    const moody = await a.create(await accounts(a), account('A', { pcfmood: 'calm' }), TEST_AUTHOR);
    assert.equal((await a.get(await accounts(a), String(moody.accountid)))?.pcfmood, 'calm');
    const after = await b.create(await accounts(b), account('B after'), TEST_AUTHOR);
    for (const r of [before, after]) {
      const got = await b.get(await accounts(b), String(r.accountid));
      assert.equal(got?.accountname, r.accountname);
      assert.ok(!('pcfmood' in got!));
    }
    // Another field in B: both at the same version, with definitions of their own.
    await b.addField(1, () => HAT);
    assert.equal((await a.schema()).version, (await b.schema()).version);
    assert.deepEqual([(await accounts(a)).fieldsByName.has('pcfhat'), (await accounts(b)).fieldsByName.has('pcfmood')], [false, false]);
    const hatted = await b.create(await accounts(b), account('B hat', { pcfhat: 'cap' }), TEST_AUTHOR);
    assert.equal((await b.get(await accounts(b), String(hatted.accountid)))?.pcfhat, 'cap');
    assert.ok(!('pcfhat' in (await a.get(await accounts(a), String(moody.accountid)))!));
    assert.equal((await b.list(await accounts(b), { limit: 10, offset: 0 })).total, 3);
  });

  test('another organization changed the same way shares the definitions again', async () => {
    const c = await store.org(randomUUID());
    await c.addField(1, () => MOOD);
    assert.equal(await c.schema(), await a.schema());
    const r = await c.create(await accounts(c), account('C', { pcfmood: 'bright' }), TEST_AUTHOR);
    assert.equal((await c.get(await accounts(c), String(r.accountid)))?.pcfmood, 'bright');
  });

  test('a change made by another store (another process) is seen, and stays that organization\'s', async () => {
    const other = new SqliteRecordStore(dir);
    try {
      const c = await store.org(randomUUID());
      await (await other.org(idA)).addField(1, () => ({ name: 'pcfshoe', type: 'text', label: 'Shoe' }));
      assert.ok((await accounts(a)).fieldsByName.has('pcfshoe'));
      assert.ok(!(await accounts(b)).fieldsByName.has('pcfshoe'));
      assert.ok(!(await accounts(c)).fieldsByName.has('pcfshoe'));
    } finally {
      await other.close();
    }
  });
});
