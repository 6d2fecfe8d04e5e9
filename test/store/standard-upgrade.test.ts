// An organization made before notes were on records and before files (SQLite version 2, PostgreSQL
// version 1) is brought up to date when it is next opened: the note object gets objectid and
// objecttypecode, an optional subject and an html notetext, and (SQLite 7, PostgreSQL 5) parentnoteid,
// keeps a custom field the organization added and its records; and files can be attached.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { buildObject, type ObjectSpec } from '../../src/schema/build-object.js';
import { indexSql } from '../../src/store/sqlite/sqlite-ddl.js';
import { openDb } from '../../src/store/sqlite/sqlite-db.js';
import type { RecordStore } from '../../src/store/types.js';
import type { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import fs from 'node:fs';
import { DATABASE_URL } from '../services.js';
import { tempDir, TEST_AUTHOR } from '../helpers.js';
import { POSTGRES_UNDER_TEST, SQLITE_UNDER_TEST, type StorePlace, type StoreUnderTest } from './stores-under-test.js';

/** The note's definition as organizations made before this change have it, with the fields the organization added. */
function oldNoteSpec(current: ObjectSpec): ObjectSpec {
  return {
    ...current,
    fields: current.fields.filter((f) => f.name !== 'objectid' && f.name !== 'objecttypecode' && f.name !== 'parentnoteid').map((f) => {
      if (f.name === 'subject') return { ...f, required: true };
      if (f.name === 'notetext') return { ...f, type: 'textarea' };
      return f;
    }),
  };
}

/** Puts an organization's database back where an older Orchard left it; `store` is the one that made it. */
type Downgrade = (store: RecordStore, orgId: string) => Promise<void>;

const NOTE_DOWN = [
  'DROP INDEX ix_note_objectid', 'ALTER TABLE note DROP COLUMN objectid', 'ALTER TABLE note DROP COLUMN objecttypecode', 'DROP TABLE orchard_files',
  'DROP INDEX IF EXISTS ix_note_parentnoteid', 'ALTER TABLE note DROP COLUMN parentnoteid',
];

function sqliteDowngrade(dir: string): Downgrade {
  return async (_store, orgId) => {
    const db = openDb(path.join(dir, 'orgs', `${orgId}.db`));
    try {
      const spec = JSON.parse((db.prepare('SELECT spec FROM orchard_objects WHERE object_type = 7').get() as { spec: string }).spec) as ObjectSpec;
      // Earlier builds made every field index with its table.
      for (const text of db.prepare('SELECT spec FROM orchard_objects').pluck().all() as string[]) {
        const obj = buildObject(JSON.parse(text) as ObjectSpec);
        for (const f of obj.fields) if (f.indexed && f.role !== 'derived') db.exec(indexSql(obj, f));
      }
      db.prepare('UPDATE orchard_objects SET spec = ? WHERE object_type = 7').run(JSON.stringify(oldNoteSpec(spec)));
      for (const stmt of [...NOTE_DOWN, 'DROP TABLE orchard_file_trash', 'DROP TABLE orchard_changes', 'DROP TABLE orchard_change_log']) db.exec(stmt);
      db.pragma('user_version = 2');
    } finally {
      db.close();
    }
  };
}

const postgresDowngrade: Downgrade = async (store, orgId) => {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const s = `"${(store as PostgresRecordStore).schemaName(orgId)}"`;
    const { rows } = await client.query(`SELECT spec FROM ${s}.orchard_objects WHERE object_type = 7`);
    await client.query(`UPDATE ${s}.orchard_objects SET spec = $1 WHERE object_type = 7`, [JSON.stringify(oldNoteSpec(rows[0].spec as ObjectSpec))]);
    await client.query(`SET search_path TO ${s}`);
    for (const stmt of NOTE_DOWN) await client.query(stmt);
    await client.query(`UPDATE ${s}.orchard_version SET version = 1`);
  } finally {
    await client.end();
  }
};

const cases: Array<{ store: StoreUnderTest; place: () => Promise<{ place: StorePlace; downgrade: Downgrade }> }> = [
  {
    store: SQLITE_UNDER_TEST,
    place: async () => {
      const dir = tempDir('orchard-upgrade-');
      return { place: { open: () => new SqliteRecordStore(dir), remove: async () => fs.rmSync(dir, { recursive: true, force: true }) }, downgrade: sqliteDowngrade(dir) };
    },
  },
  {
    store: POSTGRES_UNDER_TEST,
    place: async () => ({ place: await POSTGRES_UNDER_TEST.place(), downgrade: postgresDowngrade }),
  },
];

for (const { store, place: makePlace } of cases) {
  describe(`an organization from before notes on records and files (${store.name})`, { skip: store.skip }, () => {
    let place: StorePlace;
    let downgrade: Downgrade;
    let records: RecordStore;
    const orgId = randomUUID();
    const noteId = randomUUID();

    before(async () => {
      ({ place, downgrade } = await makePlace());
      const first = place.open();
      const org = await first.org(orgId);
      await org.addField(7, () => ({ name: 'pcfmood', type: 'text', label: 'Mood' }));
      const note = (await org.schema()).resolve('note');
      const row = Object.fromEntries(note.fields.filter((f) => f.role !== 'derived').map((f) => [f.name, null]));
      await org.create(note, { ...row, noteid: noteId, subject: 'Old note', notetext: 'plain', pcfmood: 'calm', statecode: 1, statuscode: 1,
        createdon: '2026-01-01T00:00:00', modifiedon: '2026-01-01T00:00:00' }, TEST_AUTHOR);
      await first.close();
      await downgrade(first, orgId);
      records = place.open();
    });
    after(async () => {
      await records.close();
      await place.remove();
    });

    test('the note object is upgraded on open, keeping the organization\'s field and its records', async () => {
      const org = await records.org(orgId);
      const note = (await org.schema()).resolve('note');
      const byName = (n: string) => note.fieldsByName.get(n)!;
      assert.deepEqual([byName('objectid').type, byName('objecttypecode').type, byName('notetext').type, byName('subject').required], ['text', 'number', 'html', false]);
      assert.deepEqual([byName('parentnoteid').type, byName('parentnoteid').target], ['lookup', 7]);
      assert.equal(byName('pcfmood').label, 'Mood');
      const old = await org.get(note, noteId);
      assert.deepEqual([old?.subject, old?.pcfmood, old?.objectid, old?.objecttypecode], ['Old note', 'calm', null, null]);
    });

    test('notes can be put on records and files attached after the upgrade', async () => {
      const org = await records.org(orgId);
      const schema = await org.schema();
      const note = schema.resolve('note');
      const updated = await org.update(note, noteId, { objectid: noteId, objecttypecode: 7, parentnoteid: noteId }, TEST_AUTHOR);
      assert.deepEqual([updated?.objectid, updated?.objecttypecode, updated?.parentnoteid], [noteId, 7, noteId]);
      const file = { fileid: randomUUID(), objectid: noteId, objecttypecode: 7, filename: 'a.txt', contenttype: 'text/plain', size: 2, createdon: '2026-01-02T00:00:00', createdby: randomUUID() };
      assert.equal(await org.attachFile(note, file, Buffer.from('hi')), true);
      assert.deepEqual(await org.files(note, noteId), [file]);
    });
  });
}
