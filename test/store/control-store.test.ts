// The ControlStore contract (src/store/types.ts), run against every control store in
// control-kinds.ts: each method, its errors and its order; two store objects on one database (a CLI
// beside a server) see each other's writes on the next call; and every store answers the same calls
// with the same JSON. Then what only one store has: control.db migrations, PostgreSQL outages.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { randomUUID } from 'node:crypto';
import { AppError, isAppError } from '../../src/errors.js';
import { PostgresControlStore } from '../../src/store/postgres/postgres-control-store.js';
import { createPool, migrateSchema, type Pool } from '../../src/store/postgres/pg-db.js';
import { CONTROL_MIGRATIONS } from '../../src/store/postgres/postgres-control-ddl.js';
import { SqliteControlStore, TOUCH_FLUSH_MS } from '../../src/store/sqlite/sqlite-control-store.js';
import type { ControlStore } from '../../src/store/types.js';
import type { ObjectGrant } from '../../src/auth/roles.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, needsPostgres, uniqueName } from '../services.js';
import { CONTROL_KINDS, dropSchema } from './control-kinds.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ABSENT = '00000000-0000-4000-8000-000000000000';

/** The AppError PARAM_INVALID with exactly this message. */
const paramInvalid = (message: string) => (err: unknown) => err instanceof AppError && err.code === 'PARAM_INVALID' && err.message === message;
const noOrganization = (id: string) => (err: unknown) => err instanceof AppError && err.code === 'ORGANIZATION_NOT_FOUND' && err.message === `No organization has id '${id}'. List the organizations and their ids with orchard org list (GET /_orchard/organizations).`;
/** USER_NOT_FOUND: this first sentence, then where the ids are listed. */
const noUser = (message: string) => (err: unknown) => err instanceof AppError && err.code === 'USER_NOT_FOUND' &&
  err.message === `${message} List an organization's users and their ids with orchard user list --org <organization id> (GET /_orchard/organizations/{id}/users).`;

/** Grants whose keys are deliberately not in sorted order: they must come back in the order written. */
const SALES: Record<string, ObjectGrant> = {
  lead: { permissions: ['read', 'delete'], hidden: [], readOnly: ['telephone1'] },
  account: { permissions: ['read'], hidden: ['telephone1'], readOnly: [] },
};

/** A user with a live token in a new organization of `store`. */
async function orgWithToken(store: ControlStore, role = 'admin') {
  const org = await store.createOrganization({ name: 'O', plan: 'free', minuteLimit: null });
  const user = await store.createUser({ orgId: org.id, email: 'rep@example.com', fullname: 'Rep', role });
  const hash = hashToken(newToken());
  await store.addToken(user.id, hash);
  return { org, user, hash };
}

for (const kind of CONTROL_KINDS) {
  describe(`the ${kind.name} control store`, { skip: kind.skip }, () => {
    let place: string;
    /** The server's store and, on the same database through a connection of its own, the CLI's. */
    let server: ControlStore;
    let cli: ControlStore;

    before(() => {
      place = kind.newPlace();
      server = kind.control(place);
      cli = kind.control(place);
    });
    after(async () => {
      await server.close();
      await cli.close();
      await kind.removePlace(place);
    });

    describe('organizations', () => {
      test('marks an organization a fixtures load makes until the load finishes; a mark its loader left is abandoned', async () => {
        const loading = await server.createOrganization({ name: 'Loading', plan: 'free', minuteLimit: null, fixtureLoad: true });
        const plain = await server.createOrganization({ name: 'Plain', plan: 'free', minuteLimit: null });
        // Asked by the holder of the load lock: no load of this process is under way, so the mark is one no one will finish.
        assert.equal(await cli.fixtureLoad(loading.id), 'abandoned');
        assert.equal(await cli.fixtureLoad(plain.id), 'none');
        assert.equal(await cli.fixtureLoad(ABSENT), 'none');
        await server.finishFixtureLoad(loading.id);
        assert.equal(await cli.fixtureLoad(loading.id), 'none');
        assert.equal(JSON.stringify(await cli.getOrganization(loading.id)), JSON.stringify(loading), 'the mark is no part of the organization');
      });

      test('lets one fixtures load of an organization hold its lock at a time', async () => {
        const [a, b] = [randomUUID(), randomUUID()];
        const releaseFirst = await server.lockFixtureLoad(a);
        let second = false;
        const waiting = server.lockFixtureLoad(a).then((release) => {
          second = true;
          return release;
        });
        // Another organization's lock is not held up.
        await (await server.lockFixtureLoad(b))();
        await new Promise((resolve) => setTimeout(resolve, 100));
        assert.equal(second, false, 'the second load waits for the first');
        await releaseFirst();
        await (await waiting)();
        assert.equal(second, true);
      });

      test('holds the locks of many organizations loaded at once without taking every connection their loads need', async () => {
        await Promise.all(Array.from({ length: 24 }, async () => {
          const id = randomUUID();
          const release = await server.lockFixtureLoad(id);
          try {
            assert.equal(await server.getOrganization(id), null);
            await new Promise((resolve) => setTimeout(resolve, 5));
          } finally {
            await release();
          }
        }));
      });

      test('creates an organization with its primary user and a token in one call, or nothing of them', async () => {
        const hash = hashToken(newToken());
        const { org, user } = await server.createOrganizationWithUser({
          name: 'Whole', plan: 'standard', minuteLimit: null, user: { email: 'first@example.com', fullname: 'First', role: 'admin' }, token: { hash, last4: 'abcd' },
        });
        assert.equal(org.primaryUserId, user.id);
        assert.equal(JSON.stringify(await cli.getOrganization(org.id)), JSON.stringify(org));
        assert.equal(JSON.stringify(await cli.getUser(user.id)), JSON.stringify(user));
        assert.deepEqual([user.orgId, user.role, user.disabledAt], [org.id, 'admin', null]);
        assert.equal((await cli.resolveToken(hash))?.user.id, user.id);
        assert.deepEqual((await cli.listTokens(user.id)).map((t) => t.last4), ['abcd']);

        // A failure after the organization's row (its user's id is taken) leaves no organization behind.
        const before = (await cli.listOrganizations()).length;
        const orgId = randomUUID();
        const second = hashToken(newToken());
        await assert.rejects(server.createOrganizationWithUser({
          id: orgId, name: 'Half', plan: 'free', minuteLimit: null, user: { id: user.id, email: 'x@example.com', fullname: 'X', role: 'admin' }, token: { hash: second, last4: null },
        }), paramInvalid(`The user id '${user.id}' is already taken; choose another id, or leave it out.`));
        assert.equal(await cli.getOrganization(orgId), null);
        assert.equal((await cli.listOrganizations()).length, before);
        assert.equal(await cli.resolveToken(second), null);
      });

      test('creates an organization with a new lowercase UUID and returns it as it reads it back', async () => {
        const org = await server.createOrganization({ name: 'Acme', plan: 'standard', minuteLimit: 250 });
        assert.match(org.id, LOWER_UUID);
        assert.match(org.createdAt, ISO_MS);
        assert.deepEqual({ ...org, id: '', createdAt: '' }, { id: '', name: 'Acme', plan: 'standard', minuteLimit: 250, primaryUserId: null, createdAt: '' });
        assert.equal(JSON.stringify(await cli.getOrganization(org.id)), JSON.stringify(org));
      });

      test('finds no organization for an unknown id, an upper-case id or text that is not a UUID', async () => {
        const org = await server.createOrganization({ name: 'Case', plan: 'free', minuteLimit: null });
        assert.equal(await server.getOrganization(ABSENT), null);
        assert.equal(await server.getOrganization(org.id.toUpperCase()), null);
        assert.equal(await server.getOrganization('not-a-uuid'), null);
        assert.equal(await server.getOrganization(''), null);
      });

      test('lists every organization oldest first, ties by id, as getOrganization returns each', async () => {
        const created = [];
        for (const name of ['L1', 'L2', 'L3']) created.push(await cli.createOrganization({ name, plan: 'free', minuteLimit: null }));
        const listed = await server.listOrganizations();
        const sorted = [...listed].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
        assert.deepEqual(listed.map((o) => o.id), sorted.map((o) => o.id));
        for (const org of created) assert.equal(JSON.stringify(listed.find((o) => o.id === org.id)), JSON.stringify(org));
      });

      test('updates the plan, the minute limit or both, keeps what is not given, and answers null for an unknown organization', async () => {
        const org = await server.createOrganization({ name: 'U', plan: 'free', minuteLimit: null });
        const both = await cli.updateOrganization(org.id, { plan: 'professional', minuteLimit: 300 });
        assert.deepEqual(both, { ...org, plan: 'professional', minuteLimit: 300 });
        assert.deepEqual(await server.getOrganization(org.id), both);
        assert.deepEqual(await cli.updateOrganization(org.id, { plan: 'enterprise' }), { ...org, plan: 'enterprise', minuteLimit: 300 });
        assert.deepEqual(await cli.updateOrganization(org.id, { minuteLimit: null }), { ...org, plan: 'enterprise', minuteLimit: null });
        assert.deepEqual(await cli.updateOrganization(org.id, {}), { ...org, plan: 'enterprise', minuteLimit: null });
        assert.equal(await cli.updateOrganization(ABSENT, { plan: 'free' }), null);
        assert.equal(await cli.updateOrganization('nope', { plan: 'free' }), null);
      });

      test('sets a user of the organization as its primary user, and refuses an unknown organization or a user of another', async () => {
        const org = await server.createOrganization({ name: 'P', plan: 'free', minuteLimit: null });
        const user = await server.createUser({ orgId: org.id, email: 'boss@example.com', fullname: 'Boss', role: 'admin' });
        await server.setPrimaryUser(org.id, user.id);
        assert.equal((await cli.getOrganization(org.id))?.primaryUserId, user.id);

        const other = await server.createOrganization({ name: 'Other', plan: 'free', minuteLimit: null });
        await assert.rejects(server.setPrimaryUser(other.id, user.id), noUser(`No user of organization '${other.id}' has id '${user.id}'.`));
        await assert.rejects(server.setPrimaryUser(other.id, 'nope'), noUser(`No user of organization '${other.id}' has id 'nope'.`));
        await assert.rejects(server.setPrimaryUser(ABSENT, user.id), noOrganization(ABSENT));
        await assert.rejects(server.setPrimaryUser('nope', user.id), noOrganization('nope'));
        assert.equal((await server.getOrganization(other.id))?.primaryUserId, null);
      });
    });

    describe('users', () => {
      test('stores a user\'s first token with them, or neither', async () => {
        const org = await server.createOrganization({ name: 'Tokens', plan: 'free', minuteLimit: null });
        const hash = hashToken(newToken());
        const user = await server.createUser({ orgId: org.id, email: 'one@example.com', fullname: 'One', role: 'admin', token: { hash, last4: 'wxyz' } });
        assert.equal((await cli.resolveToken(hash))?.user.id, user.id);
        assert.deepEqual((await cli.listTokens(user.id)).map((t) => t.last4), ['wxyz']);
        const refused = hashToken(newToken());
        await assert.rejects(server.createUser({ orgId: org.id, email: 'ONE@example.com', fullname: 'Again', role: 'admin', token: { hash: refused, last4: null } }), { code: 'PARAM_INVALID' });
        assert.equal(await cli.resolveToken(refused), null);
        assert.equal((await cli.listUsers(org.id)).length, 1);
      });

      test('creates a user and reads it back by id; an unknown or malformed id finds none', async () => {
        const org = await server.createOrganization({ name: 'Users', plan: 'free', minuteLimit: null });
        const user = await server.createUser({ orgId: org.id, email: 'Ada.Lopez@Example.com', fullname: 'Ada Lopez', role: 'sales' });
        assert.match(user.id, LOWER_UUID);
        assert.match(user.createdAt, ISO_MS);
        assert.deepEqual({ ...user, id: '', createdAt: '' }, { id: '', orgId: org.id, email: 'Ada.Lopez@Example.com', fullname: 'Ada Lopez', role: 'sales', createdAt: '', disabledAt: null });
        assert.equal(JSON.stringify(await cli.getUser(user.id)), JSON.stringify(user));
        assert.equal(await cli.getUser(ABSENT), null);
        assert.equal(await cli.getUser(user.id.toUpperCase()), null);
        assert.equal(await cli.getUser('nope'), null);
      });

      test('refuses a second user whose e-mail differs only in the case of A–Z, in that organization only', async () => {
        const org = await server.createOrganization({ name: 'Dup', plan: 'free', minuteLimit: null });
        await server.createUser({ orgId: org.id, email: 'rep@example.com', fullname: 'Rep', role: 'admin' });
        await assert.rejects(
          cli.createUser({ orgId: org.id, email: 'REP@Example.COM', fullname: 'Again', role: 'admin' }),
          paramInvalid("The organization already has a user with the e-mail 'REP@Example.COM'; give another e-mail, or create a token for that user with `orchard token create`."),
        );
        const other = await server.createOrganization({ name: 'Dup2', plan: 'free', minuteLimit: null });
        assert.equal((await cli.createUser({ orgId: other.id, email: 'rep@example.com', fullname: 'Rep', role: 'admin' })).orgId, other.id);
      });

      test('compares e-mails as SQLite NOCASE does: letters beyond A–Z keep their case', async () => {
        const org = await server.createOrganization({ name: 'Accents', plan: 'free', minuteLimit: null });
        await server.createUser({ orgId: org.id, email: 'élise@example.com', fullname: 'Élise', role: 'admin' });
        const upper = await server.createUser({ orgId: org.id, email: 'Élise@example.com', fullname: 'Élise', role: 'admin' });
        assert.equal((await server.getUser(upper.id))?.email, 'Élise@example.com');
      });

      test('refuses a user of an unknown organization', async () => {
        await assert.rejects(server.createUser({ orgId: ABSENT, email: 'a@example.com', fullname: 'A', role: 'admin' }), noOrganization(ABSENT));
        await assert.rejects(server.createUser({ orgId: 'nope', email: 'a@example.com', fullname: 'A', role: 'admin' }), noOrganization('nope'));
      });
    });

    describe('people and tokens administration', () => {
      test('lists the users of an organization oldest first, as getUser returns each; none for an unknown one', async () => {
        const org = await server.createOrganization({ name: 'People', plan: 'free', minuteLimit: null });
        const a = await server.createUser({ orgId: org.id, email: 'a@example.com', fullname: 'A', role: 'admin' });
        const b = await cli.createUser({ orgId: org.id, email: 'b@example.com', fullname: 'B', role: 'sales' });
        const other = await server.createOrganization({ name: 'Other people', plan: 'free', minuteLimit: null });
        await server.createUser({ orgId: other.id, email: 'c@example.com', fullname: 'C', role: 'admin' });
        const listed = await cli.listUsers(org.id);
        assert.deepEqual(listed.map((u) => u.id).sort(), [a.id, b.id].sort());
        const sorted = [...listed].sort((x, y) => (x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : x.id < y.id ? -1 : 1));
        assert.deepEqual(listed, sorted);
        assert.equal(JSON.stringify(listed.find((u) => u.id === b.id)), JSON.stringify(await server.getUser(b.id)));
        assert.deepEqual(await server.listUsers(ABSENT), []);
        assert.deepEqual(await server.listUsers('nope'), []);
      });

      test('changes a role, disables (keeping the first time) and enables; null for an unknown user', async () => {
        const { user } = await orgWithToken(cli);
        const sales = await cli.updateUser(user.id, { role: 'sales' });
        assert.deepEqual(sales, { ...user, role: 'sales' });
        const disabled = await cli.updateUser(user.id, { disabled: true });
        assert.match(disabled?.disabledAt ?? '', ISO_MS);
        assert.deepEqual(await server.getUser(user.id), disabled);
        assert.deepEqual(await server.updateUser(user.id, { disabled: true }), disabled);
        assert.deepEqual(await server.updateUser(user.id, { disabled: false, role: 'admin' }), { ...user, disabledAt: null });
        assert.equal(await server.updateUser(ABSENT, { disabled: true }), null);
        assert.equal(await server.updateUser('nope', { role: 'x' }), null);
      });

      test('a disabled user\'s tokens resolve to nothing on the other connection at once, and again once enabled', async () => {
        const { user, hash } = await orgWithToken(cli);
        assert.ok(await server.resolveToken(hash));
        assert.equal(await server.disabledUserOf(hash), null);
        const disabled = await cli.updateUser(user.id, { disabled: true });
        assert.equal(await server.resolveToken(hash), null);
        assert.deepEqual(await server.disabledUserOf(hash), { userId: user.id, disabledAt: disabled!.disabledAt });
        assert.equal(await server.disabledUserOf(hashToken(newToken())), null, 'an unknown token');
        await cli.updateUser(user.id, { disabled: false });
        assert.equal((await server.resolveToken(hash))?.user.disabledAt, null);
        assert.equal(await server.disabledUserOf(hash), null);
        await cli.updateUser(user.id, { disabled: true });
        await cli.revokeToken(hash);
        assert.equal(await server.disabledUserOf(hash), null, 'a revoked token says nothing of its user');
      });

      test('keeps an id, the last 4 characters and the times of each token; lists them oldest first', async () => {
        const { user, hash } = await orgWithToken(cli);
        const second = await server.addToken(user.id, hashToken(newToken()), 'beef');
        assert.match(second.id, LOWER_UUID);
        assert.deepEqual({ ...second, id: '', createdAt: '' }, { id: '', userId: user.id, last4: 'beef', createdAt: '', lastUsedAt: null, revokedAt: null });
        await server.touchToken(hash, '2026-03-01T12:00:00.000Z');
        // The store that recorded the use lists it at once (SQLite writes uses a second later, or before such a read).
        assert.deepEqual((await server.listTokens(user.id)).map((t) => t.lastUsedAt).sort(), ['2026-03-01T12:00:00.000Z', null]);
        const listed = await cli.listTokens(user.id);
        assert.equal(listed.length, 2);
        // Oldest first, ties (the same millisecond) by id: find each by its id.
        assert.ok(listed[0]!.createdAt <= listed[1]!.createdAt);
        const first = listed.find((t) => t.id !== second.id)!;
        assert.deepEqual(listed.find((t) => t.id === second.id), second);
        assert.deepEqual([first.last4, first.lastUsedAt, first.revokedAt], [null, '2026-03-01T12:00:00.000Z', null]);
        assert.deepEqual(await cli.listTokens(ABSENT), []);
        assert.deepEqual(await cli.listTokens('nope'), []);
      });

      test('revokes by id (a second time keeps the first time), refused on the other connection at once; null for an unknown id', async () => {
        const { user } = await orgWithToken(cli);
        const hash = hashToken(newToken());
        const info = await cli.addToken(user.id, hash, '1234');
        assert.ok(await server.resolveToken(hash));
        const revoked = await cli.revokeTokenById(info.id);
        assert.match(revoked?.revokedAt ?? '', ISO_MS);
        assert.deepEqual(revoked, { ...info, revokedAt: revoked?.revokedAt });
        assert.equal(await server.resolveToken(hash), null);
        assert.deepEqual(await server.revokeTokenById(info.id), revoked);
        assert.equal(await server.revokeTokenById(ABSENT), null);
        assert.equal(await server.revokeTokenById('nope'), null);
      });

      test('rotates a live token: the new one resolves, the old one not; a revoked or unknown id rotates nothing', async () => {
        const { user } = await orgWithToken(cli);
        const oldHash = hashToken(newToken());
        const old = await cli.addToken(user.id, oldHash, 'aaaa');
        assert.ok(await server.resolveToken(oldHash));
        const newHash = hashToken(newToken());
        const r = await cli.rotateToken(old.id, newHash, 'bbbb');
        assert.ok(r);
        assert.deepEqual(r.revoked, { ...old, revokedAt: r.revoked.revokedAt });
        assert.match(r.revoked.revokedAt ?? '', ISO_MS);
        assert.deepEqual({ ...r.created, id: '', createdAt: '' }, { id: '', userId: user.id, last4: 'bbbb', createdAt: '', lastUsedAt: null, revokedAt: null });
        assert.equal(await server.resolveToken(oldHash), null);
        assert.equal((await server.resolveToken(newHash))?.user.id, user.id);
        const third = hashToken(newToken());
        assert.equal(await server.rotateToken(old.id, third, 'cccc'), null);
        assert.equal(await server.rotateToken(ABSENT, third, 'cccc'), null);
        assert.equal(await server.resolveToken(third), null);
        assert.deepEqual((await server.listTokens(user.id)).map((t) => t.id).filter((id) => id === r.created.id || id === old.id).length, 2);
      });

      test('refuses to delete the primary user in the step that deletes: one made primary on another connection stays', async () => {
        const { org, user: first } = await orgWithToken(cli);
        const second = await cli.createUser({ orgId: org.id, email: 'second@example.com', fullname: 'Second', role: 'admin' });
        await cli.setPrimaryUser(org.id, first.id);
        assert.equal(await cli.deleteUser(first.id), 'primary');
        await server.setPrimaryUser(org.id, second.id);
        assert.equal(await cli.deleteUser(second.id), 'primary');
        assert.deepEqual((await server.listUsers(org.id)).map((u) => u.id).sort(), [first.id, second.id].sort());
        assert.equal((await server.getOrganization(org.id))?.primaryUserId, second.id);
        assert.equal(await cli.deleteUser(first.id), 'deleted', 'no longer primary');
      });

      test('deletes a user with their tokens, refused on the other connection at once; \'absent\' for an unknown user', async () => {
        const { org, user, hash } = await orgWithToken(cli);
        const keep = await cli.createUser({ orgId: org.id, email: 'keep@example.com', fullname: 'Keep', role: 'admin' });
        assert.ok(await server.resolveToken(hash));
        assert.equal(await cli.deleteUser(user.id), 'deleted');
        assert.equal(await server.resolveToken(hash), null);
        assert.equal(await server.getUser(user.id), null);
        assert.deepEqual(await server.listTokens(user.id), []);
        assert.deepEqual((await server.listUsers(org.id)).map((u) => u.id), [keep.id]);
        assert.equal(await cli.deleteUser(user.id), 'absent');
        assert.equal(await cli.deleteUser('nope'), 'absent');
        // The e-mail is free again.
        assert.equal((await cli.createUser({ orgId: org.id, email: 'rep@example.com', fullname: 'Rep', role: 'admin' })).email, 'rep@example.com');
      });

      test('deletes an organization with its users, tokens and roles; other organizations keep theirs', async () => {
        const { org, user, hash } = await orgWithToken(cli);
        await cli.setPrimaryUser(org.id, user.id);
        await cli.setRole({ orgId: org.id, name: 'sales', grants: SALES });
        const kept = await orgWithToken(cli);
        assert.ok(await server.resolveToken(hash));
        assert.equal(await cli.deleteOrganization(org.id), true);
        assert.equal(await server.resolveToken(hash), null);
        assert.equal(await server.getOrganization(org.id), null);
        assert.equal(await server.getUser(user.id), null);
        assert.equal(await server.getRole(org.id, 'sales'), null);
        assert.ok(!(await server.listOrganizations()).some((o) => o.id === org.id));
        assert.ok(await server.resolveToken(kept.hash));
        assert.equal(await cli.deleteOrganization(org.id), false);
        assert.equal(await cli.deleteOrganization('nope'), false);
        // The organization can be made again from nothing: no row of it is left behind.
        await cli.setRole({ orgId: kept.org.id, name: 'sales', grants: SALES });
      });

      test('isCurrent: the organization of a resolved identity is current until the other connection deletes it; one made again under its id is another', async () => {
        const { org, user, hash } = await orgWithToken(cli);
        const identity = (await server.resolveToken(hash))!;
        assert.equal(await server.isCurrent(identity.org), true);
        assert.equal(await server.isCurrent({ id: org.id, createdAt: '2000-01-01T00:00:00.000Z' }), false, 'another createdAt');
        assert.equal(await server.isCurrent({ id: ABSENT, createdAt: org.createdAt }), false);
        assert.equal(await server.isCurrent({ id: 'not-an-id', createdAt: org.createdAt }), false);
        assert.equal(await cli.deleteOrganization(org.id), true);
        await new Promise((resolve) => setTimeout(resolve, 2));
        const again = await cli.createOrganization({ id: org.id, name: 'O', plan: 'free', minuteLimit: null });
        await cli.createUser({ id: user.id, orgId: org.id, email: user.email, fullname: user.fullname, role: user.role });
        await cli.addToken(user.id, hash);
        // PostgreSQL's server store hears of the other connection's change within the listener's bound.
        const deadline = Date.now() + 3_000;
        while (await server.isCurrent(identity.org) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.equal(await server.isCurrent(identity.org), false, 'the deleted one is no longer current');
        const now = (await server.resolveToken(hash))!;
        assert.equal(now.org.createdAt, again.createdAt);
        assert.equal(await server.isCurrent(now.org), true);
      });
    });

    describe('roles', () => {
      test('marks organizations with webhooks once, lists them oldest first on the other connection, forgets them with the organization', async () => {
        const first = await server.createOrganization({ name: 'Hooks 1', plan: 'free', minuteLimit: null });
        // Made in another millisecond: two made in the same one are ordered by their random ids.
        await new Promise((resolve) => setTimeout(resolve, 2));
        const second = await server.createOrganization({ name: 'Hooks 2', plan: 'free', minuteLimit: null });
        const before = await cli.webhookOrganizations();
        await server.markWebhooks(second.id);
        await cli.markWebhooks(first.id);
        await server.markWebhooks(second.id);
        await server.markWebhooks(ABSENT);
        await server.markWebhooks('not-a-uuid');
        assert.deepEqual((await cli.webhookOrganizations()).filter((id) => !before.includes(id)), [first.id, second.id]);
        await server.deleteOrganization(first.id);
        assert.deepEqual((await cli.webhookOrganizations()).filter((id) => !before.includes(id)), [second.id]);
      });

      test('creates and replaces a role, its grants coming back with their keys in the order written', async () => {
        const org = await server.createOrganization({ name: 'Roles', plan: 'free', minuteLimit: null });
        const first = await cli.setRole({ orgId: org.id, name: 'sales', grants: SALES });
        assert.match(first.updatedAt, ISO_MS);
        assert.equal(JSON.stringify(first), JSON.stringify({ orgId: org.id, name: 'sales', grants: SALES, updatedAt: first.updatedAt }));
        assert.equal(JSON.stringify(await server.getRole(org.id, 'sales')), JSON.stringify(first));

        const replaced = await cli.setRole({ orgId: org.id, name: 'sales', grants: {} });
        assert.deepEqual(replaced.grants, {});
        assert.ok(replaced.updatedAt >= first.updatedAt);
        assert.equal(JSON.stringify(await server.getRole(org.id, 'sales')), JSON.stringify(replaced));
      });

      test('finds no role of another name, of another organization or of a malformed id; refuses a role of an unknown organization', async () => {
        const org = await server.createOrganization({ name: 'Roles2', plan: 'free', minuteLimit: null });
        await server.setRole({ orgId: org.id, name: 'sales', grants: SALES });
        const other = await server.createOrganization({ name: 'Roles3', plan: 'free', minuteLimit: null });
        assert.equal(await server.getRole(org.id, 'other'), null);
        assert.equal(await server.getRole(org.id, 'SALES'), null);
        assert.equal(await server.getRole(other.id, 'sales'), null);
        assert.equal(await server.getRole('nope', 'sales'), null);
        await assert.rejects(server.setRole({ orgId: ABSENT, name: 'sales', grants: {} }), noOrganization(ABSENT));
        await assert.rejects(server.setRole({ orgId: 'nope', name: 'sales', grants: {} }), noOrganization('nope'));
      });

      test('deletes a role only while no user holds it: the holders oldest first, then deleted, then absent', async () => {
        const org = await server.createOrganization({ name: 'Roles4', plan: 'free', minuteLimit: null });
        const other = await server.createOrganization({ name: 'Roles5', plan: 'free', minuteLimit: null });
        for (const o of [org, other]) await server.setRole({ orgId: o.id, name: 'sales', grants: SALES });
        const ana = await server.createUser({ orgId: org.id, email: 'ana@example.com', fullname: 'Ana', role: 'sales' });
        await new Promise((resolve) => setTimeout(resolve, 2));
        const bo = await server.createUser({ orgId: org.id, email: 'bo@example.com', fullname: 'Bo', role: 'sales' });
        await server.createUser({ orgId: other.id, email: 'cy@example.com', fullname: 'Cy', role: 'sales' });

        assert.deepEqual(await cli.deleteRole(org.id, 'sales'), { heldBy: [{ id: ana.id, email: 'ana@example.com' }, { id: bo.id, email: 'bo@example.com' }] });
        assert.ok(await server.getRole(org.id, 'sales'), 'a role still held is kept');
        await server.updateUser(ana.id, { role: 'admin' });
        await server.deleteUser(bo.id);
        assert.equal(await cli.deleteRole(org.id, 'sales'), 'deleted');
        assert.equal(await server.getRole(org.id, 'sales'), null);
        assert.deepEqual((await server.listRoles(org.id)).map((r) => r.name), []);
        assert.equal(await cli.deleteRole(org.id, 'sales'), 'absent');
        assert.ok(await server.getRole(other.id, 'sales'), 'the same name in another organization is another role');
        assert.equal(await server.deleteRole(ABSENT, 'sales'), 'absent');
        assert.equal(await server.deleteRole('nope', 'sales'), 'absent');
      });
    });

    describe('tokens', () => {
      test('resolves a token to its user, organization and role, all as the getters return them', async () => {
        const { org, user, hash } = await orgWithToken(cli, 'sales');
        assert.deepEqual(await server.resolveToken(hash), { tokenHash: hash, lastUsedAt: null, user, org, role: null });
        const role = await cli.setRole({ orgId: org.id, name: 'sales', grants: SALES });
        const identity = await server.resolveToken(hash);
        assert.equal(JSON.stringify(identity), JSON.stringify({ tokenHash: hash, lastUsedAt: null, user, org, role }));
        assert.equal(JSON.stringify(identity?.role), JSON.stringify(await server.getRole(org.id, 'sales')));
      });

      test('resolves an unknown token to null, and refuses a token for an unknown user', async () => {
        assert.equal(await server.resolveToken(hashToken(newToken())), null);
        await assert.rejects(server.addToken(ABSENT, hashToken(newToken())), noUser(`No user has id '${ABSENT}'.`));
        await assert.rejects(server.addToken('nope', hashToken(newToken())), noUser(`No user has id 'nope'.`));
      });

      test('keeps the last use of a token as it was given; another connection sees it once the store lists tokens', async () => {
        const { user, hash } = await orgWithToken(cli);
        await server.touchToken(hash, '2026-03-01T12:00:00.123Z');
        await server.listTokens(user.id);
        assert.equal((await cli.resolveToken(hash))?.lastUsedAt, '2026-03-01T12:00:00.123Z');
        await server.touchToken(hash, '2026-03-01T12:01:00.000Z');
        assert.equal((await server.resolveToken(hash))?.lastUsedAt, '2026-03-01T12:01:00.000Z');
        await server.touchToken(hashToken(newToken()), '2026-03-01T12:01:00.000Z'); // an unknown token: nothing to do
      });

      test('revokes a live token once: true, then false, and false for an unknown token', async () => {
        const { hash } = await orgWithToken(cli);
        assert.equal(await cli.revokeToken(hash), true);
        assert.equal(await cli.revokeToken(hash), false);
        assert.equal(await server.revokeToken(hash), false);
        assert.equal(await cli.revokeToken(hashToken(newToken())), false);
        assert.equal(await server.resolveToken(hash), null);
      });

      test('gives every token of a user its own life: revoking one leaves the other live', async () => {
        const { user, hash } = await orgWithToken(cli);
        const second = hashToken(newToken());
        await cli.addToken(user.id, second);
        await cli.revokeToken(hash);
        assert.equal(await server.resolveToken(hash), null);
        assert.equal((await server.resolveToken(second))?.user.id, user.id);
      });
    });

    describe('a CLI beside a running server (two store objects on one database)', () => {
      test('a token revoked through the CLI is refused by the server on its next resolve', async () => {
        const { hash } = await orgWithToken(cli);
        assert.ok(await server.resolveToken(hash));
        assert.ok(await server.resolveToken(hash)); // whatever the server keeps between requests
        assert.equal(await cli.revokeToken(hash), true);
        assert.equal(await server.resolveToken(hash), null);
      });

      test('an identity carries no role until the role is defined, then its definition, then its replacement', async () => {
        const { org, hash } = await orgWithToken(cli, 'sales');
        assert.equal((await server.resolveToken(hash))?.role, null);
        await cli.setRole({ orgId: org.id, name: 'sales', grants: SALES });
        assert.deepEqual((await server.resolveToken(hash))?.role?.grants, SALES);
        const grants = { lead: { permissions: ['read' as const, 'delete' as const], hidden: [], readOnly: [] } };
        await cli.setRole({ orgId: org.id, name: 'sales', grants });
        const identity = await server.resolveToken(hash);
        assert.deepEqual([identity?.role?.name, identity?.role?.grants], ['sales', grants]);
      });

      test('a plan or minute limit updated through the CLI is seen by the next resolve', async () => {
        const { org, hash } = await orgWithToken(cli);
        assert.equal((await server.resolveToken(hash))?.org.plan, 'free');
        await cli.updateOrganization(org.id, { plan: 'professional', minuteLimit: 300 });
        const seen = (await server.resolveToken(hash))?.org;
        assert.deepEqual([seen?.plan, seen?.minuteLimit], ['professional', 300]);
        await cli.updateOrganization(org.id, { minuteLimit: null });
        assert.equal((await server.resolveToken(hash))?.org.minuteLimit, null);
      });

      test('a user and token created through the CLI resolve at once on the server', async () => {
        const { org } = await orgWithToken(cli);
        const user = await cli.createUser({ orgId: org.id, email: 'new@example.com', fullname: 'New', role: 'admin' });
        const hash = hashToken(newToken());
        await cli.addToken(user.id, hash);
        assert.equal((await server.resolveToken(hash))?.user.email, 'new@example.com');
      });
    });

    describe('fixtures: chosen ids and listings', () => {
      test('creates an organization and a user with the ids given; an id taken is PARAM_INVALID', async () => {
        const orgId = randomUUID();
        const userId = randomUUID();
        const org = await server.createOrganization({ id: orgId, name: 'Chosen', plan: 'free', minuteLimit: null });
        assert.equal(org.id, orgId);
        const user = await server.createUser({ id: userId, orgId, email: 'chosen@example.com', fullname: 'C', role: 'admin' });
        assert.equal((await cli.getUser(userId))?.email, user.email);
        await assert.rejects(server.createOrganization({ id: orgId, name: 'Again', plan: 'free', minuteLimit: null }),
          (err: unknown) => isAppError(err) && err.code === 'PARAM_INVALID' && err.message.includes(orgId));
        await assert.rejects(server.createUser({ id: userId, orgId, email: 'other@example.com', fullname: 'O', role: 'admin' }),
          (err: unknown) => isAppError(err) && err.code === 'PARAM_INVALID' && err.message.includes(userId));
        await assert.rejects(server.createUser({ orgId, email: 'CHOSEN@example.com', fullname: 'O', role: 'admin' }),
          (err: unknown) => isAppError(err) && /already has a user with the e-mail/.test(err.message));
      });

      test('lists an organization\'s users (oldest first), its roles (by name) and a user\'s live token digests (oldest first)', async () => {
        const { org, user, hash } = await orgWithToken(server);
        const second = await server.createUser({ orgId: org.id, email: 'second@example.com', fullname: 'S', role: 'sales' });
        await server.setRole({ orgId: org.id, name: 'sales', grants: SALES });
        await server.setRole({ orgId: org.id, name: 'a-team', grants: {} });
        const later = hashToken(newToken());
        const revoked = hashToken(newToken());
        await server.addToken(user.id, later);
        await server.addToken(user.id, revoked);
        await server.revokeToken(revoked);
        // Created in one millisecond, they may tie on the time (then by id): the order is the time's, the set is theirs.
        const users = await cli.listUsers(org.id);
        assert.deepEqual(users.map((u) => u.id).sort(), [user.id, second.id].sort());
        assert.ok(users[0]!.createdAt <= users[1]!.createdAt);
        assert.deepEqual((await cli.listRoles(org.id)).map((r) => [r.name, r.grants]), [['a-team', {}], ['sales', SALES]]);
        assert.deepEqual(new Set(await cli.listTokenHashes(user.id)), new Set([hash, later]));
        assert.deepEqual(await cli.listUsers(ABSENT), []);
        assert.deepEqual(await cli.listTokenHashes('not-a-uuid'), []);
      });
    });
  });
}

/** The JSON of `value` with every UUID numbered by first appearance and every timestamp checked and blanked. */
function normalized(value: unknown): string {
  const ids = new Map<string, string>();
  return JSON.stringify(value)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
      return ids.get(id)!;
    })
    .replace(/"\d{4}-\d\d-\d\dT[^"]*"/g, (t) => {
      assert.match(JSON.parse(t) as string, ISO_MS);
      return '"<time>"';
    });
}

/** One run of every method, errors included, in an empty control plane; what each call answered. */
async function transcript(store: ControlStore): Promise<unknown[]> {
  const out: unknown[] = [];
  const note = async (call: Promise<unknown>) => {
    out.push(await call.then((v) => v ?? null, (err: AppError) => ({ code: err.code, message: err.message })));
  };
  const org = await store.createOrganization({ name: 'Same', plan: 'standard', minuteLimit: null });
  out.push(org);
  await note(store.listOrganizations());
  const admin = await store.createUser({ orgId: org.id, email: 'owner@example.com', fullname: 'Owner', role: 'admin' });
  out.push(admin);
  await note(store.setPrimaryUser(org.id, admin.id));
  await note(store.getOrganization(org.id));
  await note(store.createUser({ orgId: org.id, email: 'OWNER@example.com', fullname: 'Twice', role: 'admin' }));
  await note(store.createUser({ orgId: ABSENT, email: 'x@example.com', fullname: 'X', role: 'admin' }));
  await note(store.setRole({ orgId: org.id, name: 'sales', grants: SALES }));
  const rep = await store.createUser({ orgId: org.id, email: 'rep@example.com', fullname: 'Rep', role: 'sales' });
  await note(store.getUser(rep.id));
  const hash = 'f'.repeat(64);
  await note(store.addToken(rep.id, hash));
  await note(store.resolveToken(hash));
  await note(store.touchToken(hash, '2026-03-01T12:00:00.000Z'));
  await note(store.updateOrganization(org.id, { plan: 'enterprise', minuteLimit: 20 }));
  await note(store.resolveToken(hash));
  await note(store.revokeToken(hash));
  await note(store.revokeToken(hash));
  await note(store.resolveToken(hash));
  const other = await store.createOrganization({ name: 'Other', plan: 'free', minuteLimit: 5 });
  await note(store.setPrimaryUser(other.id, rep.id));
  await note(store.addToken(ABSENT, 'e'.repeat(64)));
  await note(store.getRole(org.id, 'none'));
  await note(store.getOrganization('not-a-uuid'));
  await note(store.updateOrganization(ABSENT, { plan: 'free' }));
  await note(store.listUsers(org.id));
  await note(store.updateUser(rep.id, { role: 'admin', disabled: true }));
  await note(store.resolveToken('d'.repeat(64)));
  await note(store.disabledUserOf(hash));
  await note(store.updateUser(rep.id, { disabled: false }));
  await note(store.addToken(rep.id, 'd'.repeat(64), 'dddd'));
  await note(store.listTokens(rep.id));
  const tokens = await store.listTokens(rep.id);
  await note(store.rotateToken(tokens[1]!.id, 'c'.repeat(64), 'cccc'));
  await note(store.rotateToken(tokens[1]!.id, 'b'.repeat(64), 'bbbb'));
  await note(store.revokeTokenById(tokens[0]!.id));
  await note(store.revokeTokenById(ABSENT));
  await note(store.updateUser(rep.id, { role: 'sales' }));
  await note(store.deleteRole(org.id, 'sales'));
  await note(store.deleteUser(rep.id));
  await note(store.listTokens(rep.id));
  await note(store.deleteRole(org.id, 'sales'));
  await note(store.deleteRole(org.id, 'sales'));
  await note(store.deleteOrganization(org.id));
  await note(store.listOrganizations());
  await note(store.deleteOrganization(org.id));
  return out;
}

describe('every control store', { skip: needsPostgres }, () => {
  test('answers the same calls with the same JSON, ids and times aside', async () => {
    const answers: string[] = [];
    for (const kind of CONTROL_KINDS) {
      const place = kind.newPlace();
      const store = kind.control(place);
      try {
        answers.push(normalized(await transcript(store)));
      } finally {
        await store.close();
        await kind.removePlace(place);
      }
    }
    assert.equal(answers.length, 2);
    assert.equal(answers[1], answers[0]);
  });
});

describe('the sqlite control store alone', () => {
  test('writes a token\'s use within TOUCH_FLUSH_MS without a read, and what is pending when it closes', async () => {
    const dir = tempDir('orchard-control-touch-');
    try {
      const server = new SqliteControlStore(dir);
      const cli = new SqliteControlStore(dir);
      const { user, hash } = await orgWithToken(server);
      const second = hashToken(newToken());
      await server.addToken(user.id, second);
      await server.touchToken(hash, '2026-03-01T12:00:00.000Z');
      // The store that recorded it answers with it at once; the other connection sees it once written.
      assert.equal((await server.resolveToken(hash))?.lastUsedAt, '2026-03-01T12:00:00.000Z');
      await new Promise((resolve) => setTimeout(resolve, TOUCH_FLUSH_MS + 200));
      assert.equal((await cli.resolveToken(hash))?.lastUsedAt, '2026-03-01T12:00:00.000Z');
      await server.touchToken(second, '2026-03-01T12:00:01.000Z');
      await server.close();
      assert.equal((await cli.resolveToken(second))?.lastUsedAt, '2026-03-01T12:00:01.000Z');
      await cli.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('migrates a control.db at version 2 (before token ids) forward: its tokens get ids and still resolve', async () => {
    const old = tempDir('orchard-control-v2-');
    try {
      const db = new Database(path.join(old, 'control.db'));
      // control.db as version 2 left it, with a user and a token.
      db.exec(`
        CREATE TABLE organizations (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, plan TEXT NOT NULL, minute_limit INTEGER, primary_user_id TEXT, created_at TEXT NOT NULL);
        CREATE TABLE users (id TEXT PRIMARY KEY NOT NULL, org_id TEXT NOT NULL REFERENCES organizations (id), email TEXT NOT NULL COLLATE NOCASE, fullname TEXT NOT NULL, role TEXT NOT NULL, created_at TEXT NOT NULL, UNIQUE (org_id, email));
        CREATE TABLE tokens (hash TEXT PRIMARY KEY NOT NULL, user_id TEXT NOT NULL REFERENCES users (id), created_at TEXT NOT NULL, revoked_at TEXT, last_used_at TEXT);
        CREATE INDEX ix_tokens_user ON tokens (user_id);
        CREATE TABLE roles (org_id TEXT NOT NULL REFERENCES organizations (id), name TEXT NOT NULL, grants TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (org_id, name));
        INSERT INTO organizations VALUES ('11111111-1111-4111-8111-111111111111', 'Old', 'free', NULL, '22222222-2222-4222-8222-222222222222', '2026-01-01T00:00:00.000Z');
        INSERT INTO users VALUES ('22222222-2222-4222-8222-222222222222', '11111111-1111-4111-8111-111111111111', 'old@example.com', 'Old', 'admin', '2026-01-01T00:00:00.000Z');
        INSERT INTO tokens VALUES ('${'a'.repeat(64)}', '22222222-2222-4222-8222-222222222222', '2026-01-01T00:00:00.000Z', NULL, NULL);
        INSERT INTO tokens VALUES ('${'b'.repeat(64)}', '22222222-2222-4222-8222-222222222222', '2026-01-02T00:00:00.000Z', NULL, NULL);
      `);
      db.pragma('user_version = 2');
      db.close();
      const store = new SqliteControlStore(old);
      try {
        assert.equal((await store.resolveToken('a'.repeat(64)))?.user.disabledAt, null);
        const tokens = await store.listTokens('22222222-2222-4222-8222-222222222222');
        assert.equal(tokens.length, 2);
        for (const t of tokens) assert.match(t.id, LOWER_UUID);
        assert.notEqual(tokens[0]!.id, tokens[1]!.id);
        assert.deepEqual(tokens.map((t) => [t.last4, t.createdAt]), [[null, '2026-01-01T00:00:00.000Z'], [null, '2026-01-02T00:00:00.000Z']]);
        assert.ok(await store.revokeTokenById(tokens[0]!.id));
        assert.equal(await store.resolveToken('a'.repeat(64)), null);
        assert.equal((await store.listUsers('11111111-1111-4111-8111-111111111111'))[0]?.disabledAt, null);
      } finally {
        await store.close();
      }
    } finally {
      fs.rmSync(old, { recursive: true, force: true });
    }
  });

  test('migrates a control.db at version 1 (before roles) with its data kept', async () => {
    const old = tempDir('orchard-control-v1-');
    try {
      const first = new SqliteControlStore(old);
      const org = await first.createOrganization({ name: 'Kept', plan: 'standard', minuteLimit: null });
      await first.close();
      const db = new Database(path.join(old, 'control.db'));
      // Back to version 1: without roles, nor migration 3's columns, nor migration 4's or 5's.
      db.exec(`DROP TABLE roles; DROP INDEX ix_tokens_id; DROP INDEX ix_users_org;
        ALTER TABLE tokens DROP COLUMN id; ALTER TABLE tokens DROP COLUMN last4; ALTER TABLE users DROP COLUMN disabled_at;
        ALTER TABLE organizations DROP COLUMN webhooks; ALTER TABLE organizations DROP COLUMN fixture_loader;`);
      db.pragma('user_version = 1');
      db.close();
      const again = new SqliteControlStore(old);
      try {
        assert.equal((await again.getOrganization(org.id))?.name, 'Kept');
        assert.equal(await again.fixtureLoad(org.id), 'none', 'an organization there before the fixtures mark carries none');
        await again.setRole({ orgId: org.id, name: 'sales', grants: {} });
        assert.deepEqual((await again.getRole(org.id, 'sales'))?.grants, {});
      } finally {
        await again.close();
      }
    } finally {
      fs.rmSync(old, { recursive: true, force: true });
    }
  });
});

describe('the postgres control store alone', { skip: needsPostgres }, () => {
  const schemas: string[] = [];
  const pools: Pool[] = [];
  const pool = (url = DATABASE_URL!, max = 2) => {
    const p = createPool(url, { max, connectTimeoutMs: 2_000 });
    pools.push(p);
    return p;
  };
  after(async () => {
    for (const p of pools) await p.end();
    for (const s of schemas) await dropSchema(s);
  });
  test('holds a fixtures load lock in a transaction of its own: PgBouncer in transaction pooling (docs/operations.md) keeps its server connection, and releases the lock with it', async () => {
    const schema = uniqueName('orchard_ctl');
    schemas.push(schema);
    const store = new PostgresControlStore(pool(DATABASE_URL, 4), schema);
    const orgId = randomUUID();
    const release = await store.lockFixtureLoad(orgId);
    // A session lock taken outside a transaction is left, by a transaction pooler, on a server
    // connection other clients then use: never released by the unlock, and shared by any client there.
    const holders = async () => (await pool().query<{ xact: boolean }>(
      `SELECT a.xact_start IS NOT NULL AS xact FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid::int = hashtext($1) AND l.objid::int = hashtext($2) AND l.granted`, [`${schema} fixtures`, orgId])).rows;
    try {
      assert.deepEqual(await holders(), [{ xact: true }], 'held by one session, inside a transaction');
    } finally {
      await release();
    }
    assert.deepEqual(await holders(), [], 'released');
  });

  test('keeps a fixtures load lock past idle_in_transaction_session_timeout, which would end its transaction (and the lock) while the load writes on other connections', async () => {
    const schema = uniqueName('orchard_ctl');
    schemas.push(schema);
    const url = new URL(DATABASE_URL!);
    url.searchParams.set('options', '-c idle_in_transaction_session_timeout=1000');
    const store = new PostgresControlStore(pool(url.href, 4), schema);
    const orgId = randomUUID();
    const release = await store.lockFixtureLoad(orgId);
    const held = async () => (await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid::int = hashtext($1) AND objid::int = hashtext($2) AND granted`, [`${schema} fixtures`, orgId])).rows[0]!.n;
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      assert.equal(await held(), 1, 'still held, two and a half timeouts on');
    } finally {
      await release();
    }
    assert.equal(await held(), 0);
  });

  /** A store on a schema of its own with one organization, for the races below. */
  const raceStore = async () => {
    const schema = uniqueName('orchard_ctl');
    schemas.push(schema);
    const store = new PostgresControlStore(pool(), schema);
    return { schema, store, org: await store.createOrganization({ name: 'Race', plan: 'free', minuteLimit: null }) };
  };
  /**
   * Runs `run` while `other` holds a transaction not yet committed, commits it once `run` waits for
   * one of its locks in `schema` (or has ended without waiting: the race the test then sees lost),
   * and gives what `run` came to. Nothing is timed: the wait is read from pg_stat_activity.
   */
  const commitWhileWaiting = async <T>(schema: string, other: { query(sql: string): Promise<unknown> }, run: () => Promise<T>): Promise<T> => {
    const watcher = pool();
    let settled = false;
    const running = run().finally(() => { settled = true; });
    running.catch(() => {});
    const waits = async () => (await watcher.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%'`, [schema])).rows[0].n > 0;
    while (!settled && !(await waits()));
    await other.query('COMMIT');
    return running;
  };

  test('answers 503 STORE_UNAVAILABLE when the database cannot be reached', async () => {
    const store = new PostgresControlStore(pool('postgres://postgres@127.0.0.1:1/test'), uniqueName('orchard_ctl'));
    const unavailable = (err: unknown) => err instanceof AppError && err.code === 'STORE_UNAVAILABLE' && err.status === 503;
    await assert.rejects(store.resolveToken(hashToken(newToken())), unavailable);
    await assert.rejects(store.touchToken('a', '2026-03-01T12:00:00.000Z'), unavailable);
    await assert.rejects(store.createOrganization({ name: 'X', plan: 'free', minuteLimit: null }), unavailable);
  });

  test('migrates on the first call after the database comes back, not only at construction', async () => {
    const schema = uniqueName('orchard_ctl');
    schemas.push(schema);
    const real = pool();
    let down = true;
    // A pool that refuses connections while `down`, as one does while PostgreSQL restarts.
    const flaky = {
      connect: () => (down ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) : real.connect()),
      query: (...args: Parameters<Pool['query']>) => (down ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) : real.query(...args)),
    } as unknown as Pool;
    const store = new PostgresControlStore(flaky, schema);
    await assert.rejects(store.listOrganizations(), (err) => err instanceof AppError && err.code === 'STORE_UNAVAILABLE');
    down = false;
    assert.deepEqual(await store.listOrganizations(), []);
  });

  test('does not delete a user made primary by a transaction that commits while the delete waits', async () => {
    const { schema, store, org } = await raceStore();
    const first = await store.createUser({ orgId: org.id, email: 'first@example.com', fullname: 'First', role: 'admin' });
    const second = await store.createUser({ orgId: org.id, email: 'second@example.com', fullname: 'Second', role: 'admin' });
    await store.setPrimaryUser(org.id, first.id);
    const other = await pool().connect();
    try {
      // Another process makes the second user primary, and has not committed yet.
      await other.query('BEGIN');
      await other.query(`UPDATE "${schema}".organizations SET primary_user_id = $2 WHERE id = $1`, [org.id, second.id]);
      // A delete that did not wait for it deletes the user about to be primary.
      assert.equal(await commitWhileWaiting(schema, other, () => store.deleteUser(second.id)), 'primary');
      assert.ok(await store.getUser(second.id), 'the primary user is still there');
      assert.equal((await store.getOrganization(org.id))?.primaryUserId, second.id);
    } finally {
      other.release();
    }
  });

  test('does not delete a role given by a transaction that commits while the delete waits', async () => {
    const { schema, store, org } = await raceStore();
    await store.setRole({ orgId: org.id, name: 'sales', grants: {} });
    const other = await pool().connect();
    try {
      // Another process gives a new user the role as createUser does (the role's row locked), and has not committed yet.
      await other.query('BEGIN');
      await other.query(`SELECT 1 FROM "${schema}".roles WHERE org_id = $1 AND name = 'sales' FOR KEY SHARE`, [org.id]);
      await other.query(`INSERT INTO "${schema}".users (id, org_id, email, fullname, role, created_at) VALUES ($1, $2, 'late@example.com', 'Late', 'sales', now())`, [randomUUID(), org.id]);
      const outcome = await commitWhileWaiting(schema, other, () => store.deleteRole(org.id, 'sales'));
      assert.deepEqual(typeof outcome === 'object' ? outcome.heldBy.map((u) => u.email) : outcome, ['late@example.com']);
      assert.deepEqual((await store.listRoles(org.id)).map((r) => r.name), ['sales'], 'the role its user holds is still there');
    } finally {
      other.release();
    }
  });

  test('does not give a role deleted by a transaction that commits while the creation or the change waits', async () => {
    const { schema, store, org } = await raceStore();
    const first = await store.createUser({ orgId: org.id, email: 'first@example.com', fullname: 'First', role: 'admin' });
    const giving = [
      () => store.createUser({ orgId: org.id, email: 'late@example.com', fullname: 'Late', role: 'sales', requireRole: true }),
      () => store.updateUser(first.id, { role: 'sales', requireRole: true }),
    ];
    for (const give of giving) {
      await store.setRole({ orgId: org.id, name: 'sales', grants: {} });
      const other = await pool().connect();
      try {
        // Another process deletes the role (no user held it), and has not committed yet.
        await other.query('BEGIN');
        await other.query(`DELETE FROM "${schema}".roles WHERE org_id = $1 AND name = 'sales'`, [org.id]);
        await assert.rejects(commitWhileWaiting(schema, other, give), (err: AppError) => err.code === 'PARAM_INVALID' && /has no role 'sales'/.test(err.message));
        assert.deepEqual((await store.listUsers(org.id)).map((u) => [u.email, u.role]), [['first@example.com', 'admin']]);
      } finally {
        other.release();
      }
    }
  });

  test('lets several processes start on a new schema at once: it is migrated once, and each works', async () => {
    const schema = uniqueName('orchard_ctl');
    schemas.push(schema);
    const stores = [0, 1, 2].map(() => new PostgresControlStore(pool(), schema));
    const orgs = await Promise.all(stores.map((s, i) => s.createOrganization({ name: `P${i}`, plan: 'free', minuteLimit: null })));
    assert.equal((await stores[0]!.listOrganizations()).length, 3);
    assert.equal(orgs.length, 3);
    const version = await pool().query(`SELECT version FROM "${schema}".orchard_version`);
    assert.deepEqual(version.rows, [{ version: CONTROL_MIGRATIONS.length }]);
  });

  test('migrates a control schema at version 2 (before token ids) forward: its tokens get ids and still resolve', async () => {
    const schema = uniqueName('orchard_ctl');
    schemas.push(schema);
    const p = pool();
    await migrateSchema(p, schema, CONTROL_MIGRATIONS.slice(0, 2));
    const org = '11111111-1111-4111-8111-111111111111';
    const user = '22222222-2222-4222-8222-222222222222';
    await p.query(`INSERT INTO "${schema}".organizations VALUES ($1, 'Old', 'free', NULL, $2, '2026-01-01T00:00:00.000Z')`, [org, user]);
    await p.query(`INSERT INTO "${schema}".users VALUES ($1, $2, 'old@example.com', 'Old', 'admin', '2026-01-01T00:00:00.000Z')`, [user, org]);
    await p.query(`INSERT INTO "${schema}".tokens VALUES ($1, $2, '2026-01-01T00:00:00.000Z', NULL, NULL), ($3, $2, '2026-01-02T00:00:00.000Z', NULL, NULL)`, ['a'.repeat(64), user, 'b'.repeat(64)]);
    const store = new PostgresControlStore(p, schema);
    assert.equal((await store.resolveToken('a'.repeat(64)))?.user.disabledAt, null);
    const tokens = await store.listTokens(user);
    assert.equal(tokens.length, 2);
    for (const t of tokens) assert.match(t.id, LOWER_UUID);
    assert.deepEqual(tokens.map((t) => [t.last4, t.createdAt]), [[null, '2026-01-01T00:00:00.000Z'], [null, '2026-01-02T00:00:00.000Z']]);
    assert.ok(await store.revokeTokenById(tokens[0]!.id));
    assert.equal(await store.resolveToken('a'.repeat(64)), null);
    assert.deepEqual((await p.query(`SELECT version FROM "${schema}".orchard_version`)).rows, [{ version: CONTROL_MIGRATIONS.length }]);
  });

  test('keeps the prepared statements of two schemas apart on one connection', async () => {
    const one = pool(DATABASE_URL, 1);
    const [a, b] = [uniqueName('orchard_ctl'), uniqueName('orchard_ctl')];
    schemas.push(a, b);
    const stores = [new PostgresControlStore(one, a), new PostgresControlStore(one, b)];
    const tokens = [];
    for (const store of stores) tokens.push((await orgWithToken(store)).hash);
    for (let round = 0; round < 2; round++) {
      assert.ok(await stores[0]!.resolveToken(tokens[0]!));
      assert.ok(await stores[1]!.resolveToken(tokens[1]!));
      assert.equal(await stores[0]!.resolveToken(tokens[1]!), null);
    }
  });

  test('resolves a token with one statement that probes only primary keys', async () => {
    const schema = uniqueName('orchard_ctl');
    schemas.push(schema);
    const p = pool();
    const store = new PostgresControlStore(p, schema);
    const { hash } = await orgWithToken(store);
    const client = await p.connect();
    try {
      await client.query('SET enable_seqscan = off'); // a table without a usable index would still show a Seq Scan
      const identitySql = (store as unknown as { identitySql: { text: string } }).identitySql.text;
      const plan = (await client.query(`EXPLAIN (FORMAT JSON) ${identitySql}`, [hash])).rows[0]['QUERY PLAN'] as unknown;
      const text = JSON.stringify(plan);
      assert.doesNotMatch(text, /Seq Scan/);
      for (const index of ['tokens_pkey', 'users_pkey', 'organizations_pkey', 'roles_pkey']) assert.match(text, new RegExp(index));
    } finally {
      client.release();
    }
  });
});
