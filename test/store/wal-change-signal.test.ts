// The change signal of SQLite files in WAL mode (one pread of the wal-index header): it reports
// every commit, of this connection or another, and nothing when nothing was committed; without a
// -shm file it reports a change on every look, so callers fall back to their exact check.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openDb, type Db } from '../../src/store/sqlite/sqlite-db.js';
import { WalChangeSignal } from '../../src/store/sqlite/wal-change-signal.js';
import { tempDir } from '../helpers.js';

describe('the WAL change signal', () => {
  let dir: string;
  let file: string;
  let own: Db;
  let other: Db;
  let signal: WalChangeSignal;

  before(() => {
    dir = tempDir('orchard-wal-signal-');
    file = path.join(dir, 'x.db');
    own = openDb(file);
    own.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    other = openDb(file);
    signal = new WalChangeSignal(file);
  });

  after(() => {
    signal.close();
    own.close();
    other.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('reports a change on the first look, then none while nothing is committed', () => {
    assert.equal(signal.changed(), true);
    assert.equal(signal.changed(), false);
    own.prepare('SELECT count(*) FROM t').get();
    other.prepare('SELECT * FROM t').all();
    assert.equal(signal.changed(), false, 'reads commit nothing');
  });

  test('reports every commit, by this connection or another, once', () => {
    for (const [who, db] of [['own', own], ['other', other], ['own', own], ['other', other]] as const) {
      db.prepare('INSERT INTO t (v) VALUES (?)').run(who);
      assert.equal(signal.changed(), true, `a commit of the ${who} connection`);
      assert.equal(signal.changed(), false);
    }
    const txn = other.transaction(() => {
      for (let i = 0; i < 10; i++) other.prepare('INSERT INTO t (v) VALUES (?)').run(`batch ${i}`);
    });
    txn.immediate();
    assert.equal(signal.changed(), true, 'a transaction of many statements');
  });

  test('reports a commit after the WAL was checkpointed and restarted from its start', () => {
    signal.changed();
    own.pragma('wal_checkpoint(TRUNCATE)');
    signal.changed();
    // The next commit writes the WAL from its first frame again: the same frame count as an
    // earlier state, but new salts.
    other.prepare('INSERT INTO t (v) VALUES (?)').run('after restart');
    assert.equal(signal.changed(), true);
    assert.equal(signal.changed(), false);
  });

  test('a file without a -shm file reports a change on every look', () => {
    const missing = new WalChangeSignal(path.join(dir, 'missing.db'));
    try {
      assert.equal(missing.changed(), true);
      assert.equal(missing.changed(), true);
    } finally {
      missing.close();
    }
  });
});
