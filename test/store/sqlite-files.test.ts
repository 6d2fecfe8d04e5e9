// The embedded store keeps file contents beside the database (sqlite-record-files.ts): an upload a
// crash stopped leaves a named content that the next opening of the organization removes, while an
// upload still under way (a recent name) is left alone; a failed attach leaves nothing behind.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import { eventually, tempDir } from '../helpers.js';

let dir: string;
const orgId = randomUUID();
const filesDir = () => path.join(dir, 'files', orgId);

before(() => {
  dir = tempDir('orchard-files-');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const fileOn = (objectid: string) => ({
  fileid: randomUUID(), objectid, objecttypecode: 1, filename: 'a.txt', contenttype: 'text/plain', size: 1, createdon: '2026-01-01T00:00:00', createdby: randomUUID(),
});

test('an attach to a record that does not exist keeps neither row nor content', async () => {
  const store = new SqliteRecordStore(dir);
  try {
    const org = await store.org(orgId);
    const account = (await org.schema()).resolve('account');
    assert.equal(await org.attachFile(account, fileOn(randomUUID()), Buffer.from('x')), false);
    assert.deepEqual(fs.existsSync(filesDir()) ? fs.readdirSync(filesDir()) : [], []);
    const db = new Database(path.join(dir, 'orgs', `${orgId}.db`), { readonly: true });
    try {
      assert.deepEqual(db.prepare('SELECT count(*) AS n FROM orchard_file_trash').get(), { n: 0 });
    } finally {
      db.close();
    }
  } finally {
    await store.close();
  }
});

test('opening an organization removes the content of an upload a crash stopped, not one under way', async () => {
  const leftover = randomUUID();
  const underWay = randomUUID();
  fs.mkdirSync(filesDir(), { recursive: true });
  const db = new Database(path.join(dir, 'orgs', `${orgId}.db`));
  try {
    const insert = db.prepare('INSERT INTO orchard_file_trash (id, since) VALUES (?, ?)');
    insert.run(leftover, new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString());
    insert.run(underWay, new Date().toISOString());
  } finally {
    db.close();
  }
  for (const id of [leftover, underWay]) fs.writeFileSync(path.join(filesDir(), id), 'partial');
  const store = new SqliteRecordStore(dir);
  try {
    await store.org(orgId);
    assert.deepEqual(fs.readdirSync(filesDir()), [underWay]);
  } finally {
    await store.close();
  }
});

test('a trash row that names no file id (a database brought from elsewhere: ../ in it) removes nothing outside the contents directory', async () => {
  const other = randomUUID();
  const outside = path.join(dir, 'files', 'keep-me');
  fs.mkdirSync(path.join(dir, 'files', other), { recursive: true });
  fs.writeFileSync(outside, 'not a content');
  const prepare = new SqliteRecordStore(dir);
  await prepare.org(other);
  await prepare.close();
  const db = new Database(path.join(dir, 'orgs', `${other}.db`));
  try {
    db.prepare('INSERT INTO orchard_file_trash (id, since) VALUES (?, ?)').run('../keep-me', new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString());
  } finally {
    db.close();
  }
  const trashRows = () => {
    const read = new Database(path.join(dir, 'orgs', `${other}.db`), { readonly: true });
    try {
      return (read.prepare('SELECT count(*) AS n FROM orchard_file_trash').get() as { n: number }).n;
    } finally {
      read.close();
    }
  };
  const store = new SqliteRecordStore(dir);
  try {
    await store.org(other);
    // Opening empties the trash of crashed uploads: its row goes, the file it named stays.
    await eventually(() => trashRows() === 0, 'the trash emptied');
    assert.equal(fs.readFileSync(outside, 'utf8'), 'not a content');
  } finally {
    await store.close();
  }
});
