// docs/operations.md § Upgrades and migrations names the schema versions of this release, which an
// operator compares with a database's to tell what an upgrade will do; they are kept to the code's.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteControlStore } from '../../src/store/sqlite/sqlite-control-store.js';
import { openLimitsDb } from '../../src/store/sqlite/limits-db.js';
import { ORG_MIGRATIONS } from '../../src/store/sqlite/sqlite-ddl.js';
import { CONTROL_MIGRATIONS } from '../../src/store/postgres/postgres-control-ddl.js';
import { POSTGRES_ORG_MIGRATIONS } from '../../src/store/postgres/postgres-ddl.js';

test('docs/operations.md gives the schema versions the code migrates to', async () => {
  const text = fs.readFileSync(new URL('../../../docs/operations.md', import.meta.url), 'utf8');
  const stated = /The versions of this release: `control\.db` (\d+), `limits\.db` (\d+), an organization's file (\d+); on\s+PostgreSQL the control schema (\d+) and an organization's schema (\d+)\./.exec(text);
  assert.ok(stated, 'the sentence naming the versions of this release');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-versions-'));
  try {
    const control = new SqliteControlStore(dir);
    await control.close();
    const limits = openLimitsDb(dir, 'normal');
    const limitsVersion = limits.pragma('user_version', { simple: true });
    limits.close();
    const db = new Database(path.join(dir, 'control.db'), { readonly: true });
    const controlVersion = db.pragma('user_version', { simple: true });
    db.close();
    assert.deepEqual(stated.slice(1).map(Number), [controlVersion, limitsVersion, ORG_MIGRATIONS.length, CONTROL_MIGRATIONS.length, POSTGRES_ORG_MIGRATIONS.length]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
