// What AdminService does when a step of making an organization or a user fails part way: nothing
// is left that a retry would duplicate (an organization without a primary user, a user without a
// token), over the embedded stores with one step made to fail as an outage would.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { AdminService } from '../../src/admin/admin-service.js';
import { hashToken } from '../../src/auth/tokens.js';
import { AppError } from '../../src/errors.js';
import { loadConfig } from '../../src/config.js';
import { openStores, type Stores } from '../../src/stores.js';
import type { ControlStore, RecordStore } from '../../src/store/types.js';
import { tempDir } from '../helpers.js';
import { HTTP_STORES } from '../query/http-stores.js';

const outage = () => new AppError('STORE_UNAVAILABLE', 'The database is unreachable at the moment.');

describe('AdminService when a step fails part way', () => {
  let dir: string;
  let stores: Stores;
  before(() => {
    dir = tempDir();
    stores = openStores(loadConfig({}, { dataDir: dir, logLevel: 'silent' }));
  });
  after(() => stores.close());

  test('an organization whose control rows cannot be written leaves no organization and no records', async () => {
    const control: ControlStore = Object.create(stores.control, { createOrganizationWithUser: { value: async () => { throw outage(); } } });
    const admin = new AdminService(control, stores.records);
    const before = await stores.control.listOrganizations();
    await assert.rejects(admin.createOrganization({ name: 'Half', plan: 'free', email: 'half@example.com' }), { code: 'STORE_UNAVAILABLE' });
    assert.deepEqual(await stores.control.listOrganizations(), before);
    const files = fs.existsSync(path.join(dir, 'orgs')) ? fs.readdirSync(path.join(dir, 'orgs')) : [];
    assert.deepEqual(files.filter((f) => !before.some((o) => f.startsWith(o.id))), [], 'its database was made, then dropped');
    // Made again, it is one organization, whole.
    const made = await stores.admin.createOrganization({ name: 'Half', plan: 'free', email: 'half@example.com' });
    assert.equal(made.org.primaryUserId, made.user.id);
    assert.deepEqual((await stores.control.listOrganizations()).filter((o) => o.name === 'Half').map((o) => o.id), [made.org.id]);
  });

  test('a user whose crmuser record cannot be written is taken back with their token', async () => {
    const { org } = await stores.admin.createOrganization({ name: 'People', plan: 'free', email: 'owner@example.com' });
    const records: RecordStore = Object.create(stores.records, { upsertUser: { value: async () => { throw outage(); } } });
    const admin = new AdminService(stores.control, records);
    await assert.rejects(admin.createUser({ orgId: org.id, email: 'rep@example.com' }), { code: 'STORE_UNAVAILABLE' });
    assert.deepEqual((await stores.control.listUsers(org.id)).map((u) => u.email), ['owner@example.com']);
    const again = await stores.admin.createUser({ orgId: org.id, email: 'rep@example.com' });
    assert.equal((await stores.control.resolveToken(hashToken(again.token)))?.user.id, again.user.id);
  });
});

for (const store of HTTP_STORES) {
  describe(`AdminService.deleteUser (${store.name})`, { skip: store.skip }, () => {
    test('does not delete a user made primary between its look at them and the deletion', async () => {
      const ctx = await store.context();
      try {
        const { stores } = ctx;
        const { user: second } = await stores.admin.createUser({ orgId: ctx.orgId, email: 'second@example.com' });
        // Another admin makes them primary just before the store deletes (after any look of the service's).
        const control: ControlStore = Object.create(stores.control, {
          deleteUser: { value: async (id: string) => {
            await stores.control.setPrimaryUser(ctx.orgId, id);
            return stores.control.deleteUser(id);
          } },
        });
        const admin = new AdminService(control, stores.records);
        await assert.rejects(admin.deleteUser(second.id), (err: AppError) => err.code === 'PARAM_INVALID' && /is the primary user/.test(err.message));
        assert.ok(await stores.control.getUser(second.id), 'still there');
        assert.equal((await stores.control.getOrganization(ctx.orgId))?.primaryUserId, second.id);
        // The former primary user can be deleted now.
        assert.equal((await stores.admin.deleteUser(ctx.userId)).id, ctx.userId);
      } finally {
        await ctx.close();
      }
    });
  });
}

for (const store of HTTP_STORES) {
  describe(`AdminService giving a role (${store.name})`, { skip: store.skip }, () => {
    test('does not give a role deleted between its look at the role and the write', async () => {
      const ctx = await store.context();
      try {
        const { stores } = ctx;
        const { user: second } = await stores.admin.createUser({ orgId: ctx.orgId, email: 'second@example.com' });
        const control: ControlStore = Object.create(stores.control, {
          // Another admin deletes the role (no user holds it) just after the service found it.
          getRole: { value: async (orgId: string, name: string) => {
            const role = await stores.control.getRole(orgId, name);
            assert.equal(await stores.control.deleteRole(orgId, name), 'deleted');
            return role;
          } },
        });
        const admin = new AdminService(control, stores.records);
        const noRole = (err: AppError) => err.code === 'PARAM_INVALID' && /has no role 'sales'/.test(err.message);
        await stores.control.setRole({ orgId: ctx.orgId, name: 'sales', grants: {} });
        await assert.rejects(admin.createUser({ orgId: ctx.orgId, email: 'late@example.com', role: 'sales' }), noRole);
        await stores.control.setRole({ orgId: ctx.orgId, name: 'sales', grants: {} });
        await assert.rejects(admin.setUserRole(second.id, 'sales'), noRole);
        assert.deepEqual((await stores.control.listUsers(ctx.orgId)).map((u) => u.role), ['admin', 'admin'], 'no user holds the deleted role');
      } finally {
        await ctx.close();
      }
    });
  });
}
