// The control store's roles and plan changes: a token's identity carries its role definition, and
// a role or plan changed through another connection (the CLI) is seen by the next resolveToken
// although identities are cached; a control.db from before roles existed is migrated in place.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { SqliteControlStore } from '../../src/store/sqlite/sqlite-control-store.js';
import { tempDir } from '../helpers.js';

let dir: string;
let server: SqliteControlStore;
let cli: SqliteControlStore;
let orgId: string;
let hash: string;

before(async () => {
  dir = tempDir('orchard-control-');
  server = new SqliteControlStore(dir);
  cli = new SqliteControlStore(dir);
  const org = await cli.createOrganization({ name: 'O', plan: 'free', minuteLimit: null });
  orgId = org.id;
  const user = await cli.createUser({ orgId, email: 'rep@example.com', fullname: 'Rep', role: 'sales' });
  hash = hashToken(newToken());
  await cli.addToken(user.id, hash);
});
after(async () => {
  await server.close();
  await cli.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('an identity carries no role until the role is defined, then its definition', async () => {
  assert.equal((await server.resolveToken(hash))?.role, null);
  const grants = { account: { permissions: ['read' as const], hidden: ['telephone1'], readOnly: [] } };
  await cli.setRole({ orgId, name: 'sales', grants });
  const identity = await server.resolveToken(hash);
  assert.deepEqual(identity?.role?.grants, grants);
  assert.equal(identity?.role?.name, 'sales');
});

test('a role replaced through another connection is seen by the next resolveToken despite the cache', async () => {
  await server.resolveToken(hash); // cached now
  const grants = { lead: { permissions: ['read' as const, 'delete' as const], hidden: [], readOnly: [] } };
  await cli.setRole({ orgId, name: 'sales', grants });
  assert.deepEqual((await server.resolveToken(hash))?.role?.grants, grants);
  assert.deepEqual((await server.getRole(orgId, 'sales'))?.grants, grants);
  assert.equal(await server.getRole(orgId, 'other'), null);
});

test('a plan or minute limit updated through another connection is seen by the next resolveToken', async () => {
  assert.equal((await server.resolveToken(hash))?.org.plan, 'free');
  const updated = await cli.updateOrganization(orgId, { plan: 'professional', minuteLimit: 300 });
  assert.equal(updated?.plan, 'professional');
  assert.equal(updated?.minuteLimit, 300);
  const org = (await server.resolveToken(hash))?.org;
  assert.deepEqual([org?.plan, org?.minuteLimit], ['professional', 300]);
  // Only the plan: the minute limit stays; null sets it back to the default.
  assert.equal((await cli.updateOrganization(orgId, { plan: 'free' }))?.minuteLimit, 300);
  assert.equal((await cli.updateOrganization(orgId, { minuteLimit: null }))?.minuteLimit, null);
  assert.equal(await cli.updateOrganization('00000000-0000-4000-8000-000000000000', { plan: 'free' }), null);
});

test('a control.db at version 1 (before roles) is migrated with its data kept', async () => {
  const old = tempDir('orchard-control-v1-');
  try {
    const first = new SqliteControlStore(old);
    const org = await first.createOrganization({ name: 'Kept', plan: 'standard', minuteLimit: null });
    await first.close();
    const db = new Database(path.join(old, 'control.db'));
    db.exec('DROP TABLE roles');
    db.pragma('user_version = 1');
    db.close();
    const again = new SqliteControlStore(old);
    try {
      assert.equal((await again.getOrganization(org.id))?.name, 'Kept');
      await again.setRole({ orgId: org.id, name: 'sales', grants: {} });
      assert.deepEqual((await again.getRole(org.id, 'sales'))?.grants, {});
    } finally {
      await again.close();
    }
  } finally {
    fs.rmSync(old, { recursive: true, force: true });
  }
});
