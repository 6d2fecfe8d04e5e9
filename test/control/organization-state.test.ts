// Organizations as test fixtures through the control API, on every store: snapshots taken, listed,
// restored and deleted; reset to a new organization's state or back to the fixture it was loaded
// from; export to the fixtures format and load of the result; a restore while requests of the
// organization run is seen whole or not at all.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { HTTP_STORES } from '../query/http-stores.js';
import { buildApp } from '../../src/app.js';
import { openStores } from '../../src/stores.js';
import type { TestContext } from '../helpers.js';
import { MULTIPART, multipartBody } from '../http/multipart-body.js';

const KEY = 'test-admin-key-0123456789abcdef';
const admin = { authorization: `Bearer ${KEY}` };
const json = (res: LightMyRequestResponse): any => JSON.parse(res.body);

const TOKEN = '5d0f2c7e-8a4b-4e1f-9c3d-2b6a7e8f9a01';
const ACME = '0b7e4a52-1c9d-4f3e-8a2b-6d5c4e3f2a10';
const ADA = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';

/** A fixture with a custom object and field, a role, two users and records that refer to each other in both directions. */
const FIXTURE = {
  organizations: [{
    id: ACME,
    name: 'Acme',
    plan: 'enterprise',
    limits: { minute: 5000 },
    roles: [{ name: 'sales', grants: { account: ['read', 'create'], contact: '*' }, hidden: { account: ['telephone1'] } }],
    users: [
      { id: ADA, email: 'ada@acme.example', fullname: 'Ada Lopez', tokens: [TOKEN] },
      { email: 'sam@acme.example', role: 'sales', tokens: ['sam-token-0001'] },
    ],
    objects: [{ name: 'Project Phase', fields: [{ type: 'number', fieldName: 'pcfweeks', label: 'Weeks', precision: 0 }] }],
    fields: { account: [{ type: 'text', fieldName: 'pcfregion', label: 'Region' }] },
    records: {
      account: [
        { accountid: '11111111-1111-4111-8111-111111111111', accountname: 'Globex', pcfregion: 'EMEA', primarycontactid: '22222222-2222-4222-8222-222222222222',
          createdon: '2025-01-05T09:00:00', modifiedon: '2025-02-01T10:30:00Z', createdby: 'sam@acme.example' },
        { accountname: 'Initech', createdon: '2025-01-06' },
      ],
      contact: [{ contactid: '22222222-2222-4222-8222-222222222222', fullname: 'Hank Scorpio', createdon: '2025-01-04T08:00:00' }],
      customobject1000: [{ name: 'Discovery', pcfweeks: 3 }],
    },
  }],
};

for (const store of HTTP_STORES) {
  describe(`organizations as fixtures (${store.name})`, { skip: store.skip }, () => {
    let ctx: TestContext;
    // Webhooks are made (and must not be copied) but never delivered here.
    before(async () => (ctx = await store.context({ config: { adminKey: KEY, webhooks: { allowPrivate: true, deliver: false } } })));
    after(() => ctx.close());

    const control = (method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, payload?: object) =>
      ctx.request({ method, url: `/_orchard${url}`, token: null, headers: admin, ...(payload ? { payload } : {}) });
    const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, token?: string) =>
      ctx.request({ method, url, ...(payload ? { payload } : {}), ...(token ? { token } : {}) });
    const accounts = async (token?: string) => {
      const res = await api('GET', '/api/record/account?pagesize=50', undefined, token);
      assert.equal(res.statusCode, 200, res.body);
      return (json(res).data.Records as Array<Record<string, unknown>>).map((r) => r.accountname).sort();
    };
    const fieldNames = async (ot: number | string) => (json(await api('GET', `/metadata/records/${ot}/fields`)).data as Array<{ fieldName: string }>).map((f) => f.fieldName);

    test('a snapshot is restored whole: records and definitions; listed, deleted, and a missing one is 404', async () => {
      for (const name of ['One', 'Two']) assert.equal((await api('POST', '/api/record/account', { accountname: name })).statusCode, 201);
      const taken = await control('POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'base' });
      assert.equal(taken.statusCode, 201, taken.body);
      assert.equal(json(taken).name, 'base');
      assert.ok(json(taken).bytes > 0);

      assert.equal((await api('POST', '/api/v2/system-field/account/text', { fieldName: 'pcfextra', label: 'Extra' })).statusCode, 200);
      assert.equal((await api('POST', '/api/record/account', { accountname: 'Three', pcfextra: 'x' })).statusCode, 201);
      const object = await api('POST', '/api/v2/record/58', { name: 'Widget' });
      assert.equal(object.statusCode, 200, object.body);
      assert.deepEqual(await accounts(), ['One', 'Three', 'Two']);

      const restored = await control('POST', `/organizations/${ctx.orgId}/snapshots/base/restore`);
      assert.equal(restored.statusCode, 204, restored.body);
      assert.deepEqual(await accounts(), ['One', 'Two']);
      assert.ok(!(await fieldNames('account')).includes('pcfextra'));
      assert.equal((await api('GET', '/api/record/customobject1000')).statusCode, 404);
      // Definitions made after the restore number on from the restored state, and writes work.
      assert.equal((await api('POST', '/api/v2/system-field/account/text', { fieldName: 'pcfextra', label: 'Again' })).statusCode, 200);
      assert.equal((await api('POST', '/api/record/account', { accountname: 'Four', pcfextra: 'y' })).statusCode, 201);

      const list = json(await control('GET', `/organizations/${ctx.orgId}/snapshots`));
      assert.deepEqual(list.items.map((s: { name: string }) => s.name), ['base']);
      assert.equal((await control('DELETE', `/organizations/${ctx.orgId}/snapshots/base`)).statusCode, 204);
      const missing = await control('POST', `/organizations/${ctx.orgId}/snapshots/base/restore`);
      assert.equal(missing.statusCode, 404);
      assert.equal(json(missing).error.code, 'SNAPSHOT_NOT_FOUND');
      const badName = await control('POST', `/organizations/${ctx.orgId}/snapshots`, { name: '../x' });
      assert.equal(badName.statusCode, 400);
      assert.equal(json(badName).error.code, 'PARAM_INVALID');
      const noOrg = await control('POST', '/organizations/9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d/reset');
      assert.equal(json(noOrg).error.code, 'ORGANIZATION_NOT_FOUND');
    });

    test('files on records follow snapshots, restores and resets: content back as taken, none left over', async () => {
      const MULTIPART = 'multipart/form-data; boundary=----snap';
      const upload = (recordId: string, name: string, content: string) => ctx.request({
        method: 'POST', url: `/api/v2/record/account/${recordId}/files`, headers: { 'content-type': MULTIPART },
        payload: Buffer.from(`------snap\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n------snap--\r\n`),
      });
      const id = json(await api('POST', '/api/record/account', { accountname: 'Filed' })).data.Record.accountid as string;
      const kept = json(await upload(id, 'kept.txt', 'as it was')).file.fileid as string;
      assert.equal((await control('POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'with-file' })).statusCode, 201);
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/v2/record/account/${id}/files/${kept}` })).statusCode, 200);
      const later = json(await upload(id, 'later.txt', 'after the snapshot')).file.fileid as string;
      /** On SQLite, the contents on disk: exactly what the rows name, nothing left over. */
      const onDisk = () => {
        const dir = path.join(ctx.dir, 'files', ctx.orgId);
        return ctx.config.databaseUrl ? undefined : fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
      };

      assert.equal((await control('POST', `/organizations/${ctx.orgId}/snapshots/with-file/restore`)).statusCode, 204);
      const listed = json(await api('GET', `/api/v2/record/account/${id}/files`)).data as Array<{ fileid: string }>;
      assert.deepEqual(listed.map((f) => f.fileid), [kept]);
      const got = await api('GET', `/api/v2/record/account/${id}/files/${kept}`);
      assert.equal(got.statusCode, 200, got.body);
      assert.equal(got.body, 'as it was');
      assert.equal((await api('GET', `/api/v2/record/account/${id}/files/${later}`)).statusCode, 404);
      if (!ctx.config.databaseUrl) assert.deepEqual(onDisk(), [kept]);

      // The snapshot keeps its content after the live one is gone, and is restored again.
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/v2/record/account/${id}/files/${kept}` })).statusCode, 200);
      assert.equal((await control('POST', `/organizations/${ctx.orgId}/snapshots/with-file/restore`)).statusCode, 204);
      assert.equal((await api('GET', `/api/v2/record/account/${id}/files/${kept}`)).body, 'as it was');

      assert.equal((await control('POST', `/organizations/${ctx.orgId}/reset`)).statusCode, 200);
      if (!ctx.config.databaseUrl) assert.deepEqual(onDisk(), []);
      assert.equal((await control('DELETE', `/organizations/${ctx.orgId}/snapshots/with-file`)).statusCode, 204);
      if (!ctx.config.databaseUrl) assert.ok(!fs.existsSync(path.join(ctx.dir, 'snapshots', ctx.orgId, 'with-file.files')));
    });

    test('reset of an organization not loaded from a fixture: no records, no custom objects or fields; its users and tokens stay', async () => {
      const res = await control('POST', `/organizations/${ctx.orgId}/reset`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res), { id: ctx.orgId, fixture: false });
      assert.deepEqual(await accounts(), []);
      assert.ok(!(await fieldNames('account')).includes('pcfextra'));
      // The users' mirror stays: a create (owned by the caller) still works.
      const users = json(await api('GET', '/api/record/crmuser'));
      assert.deepEqual(users.data.Records.map((u: { crmuserid: string }) => u.crmuserid), [ctx.userId]);
      assert.equal((await api('POST', '/api/record/account', { accountname: 'After' })).statusCode, 201);
    });

    test('the export of a live organization no load made (no fixture state), loaded on its own server, leaves it as it is', async () => {
      assert.equal((await api('POST', '/api/record/account', { accountname: 'Live' })).statusCode, 201);
      const before = await accounts();
      const exported = json(await control('GET', `/organizations/${ctx.orgId}/fixture`));
      const loaded = await control('POST', '/fixtures', exported);
      assert.equal(loaded.statusCode, 200, loaded.body);
      assert.deepEqual(json(loaded).organizations.map((o: { id: string; status: string }) => [o.id, o.status]), [[ctx.orgId, 'existing']]);
      assert.deepEqual(await accounts(), before);
      assert.equal((await api('POST', '/api/record/account', { accountname: 'Still served' })).statusCode, 201, 'its token still works');
    });

    test('fixtures load: tokens of fixed value, definitions, records with their system fields and lookups both ways; reset returns to it', async () => {
      const loaded = await control('POST', '/fixtures', FIXTURE);
      assert.equal(loaded.statusCode, 200, loaded.body);
      const [org] = json(loaded).organizations;
      assert.equal(org.id, ACME);
      assert.equal(org.status, 'created');
      assert.equal(org.records, 4);
      assert.deepEqual(org.users[0], { id: ADA, email: 'ada@acme.example', role: 'admin', tokens: [TOKEN] });

      const globex = json(await api('GET', '/api/record/account/11111111-1111-4111-8111-111111111111', undefined, TOKEN)).data.Record;
      assert.equal(globex.createdon, '2025-01-05T09:00:00');
      assert.equal(globex.modifiedon, '2025-02-01T10:30:00');
      assert.equal(globex.createdby, org.users[1].id);
      assert.equal(globex.pcfregion, 'EMEA');
      assert.equal(globex.primarycontactid, '22222222-2222-4222-8222-222222222222');
      assert.equal(globex.ownerid, org.users[1].id, 'the owner defaults to the creator, as on create');
      const initech = (json(await api('GET', '/api/record/account', undefined, TOKEN)).data.Records as any[]).find((r) => r.accountname === 'Initech');
      assert.equal(initech.createdon, '2025-01-06T00:00:00');
      const phase = json(await api('GET', '/api/record/customobject1000', undefined, TOKEN)).data.Records[0];
      assert.equal(phase.pcfweeks, 3);
      // The role: sam may not see telephone1 and may not update accounts.
      const asSam = await api('PUT', '/api/record/account/11111111-1111-4111-8111-111111111111', { accountname: 'X' }, 'sam-token-0001');
      assert.equal(asSam.statusCode, 403);
      // Changes since the "changed since" instant, as a client would ask.
      const since = json(await api('POST', '/api/query', { objecttype: 1, fields: 'accountname', query: "modifiedon >= '2025-01-31'" }, TOKEN)).data.Data;
      assert.deepEqual(since.map((r: { accountname: string }) => r.accountname), ['Globex']);

      // Loading it again leaves it alone.
      const again = json(await control('POST', '/fixtures', FIXTURE));
      assert.equal(again.organizations[0].status, 'existing');

      assert.equal((await api('POST', '/api/record/account', { accountname: 'Scratch' }, TOKEN)).statusCode, 201);
      assert.equal((await api('POST', '/api/v2/system-field/contact/text', { fieldName: 'pcfnew' }, TOKEN)).statusCode, 200);
      const reset = json(await control('POST', `/organizations/${ACME}/reset`));
      assert.deepEqual(reset, { id: ACME, fixture: true });
      assert.deepEqual(await accounts(TOKEN), ['Globex', 'Initech']);
      assert.ok(!(await fieldNames('contact')).includes('pcfnew'));
      // The fixture's own state is not among the snapshots a client names.
      assert.deepEqual(json(await control('GET', `/organizations/${ACME}/snapshots`)).items, []);
    });

    test('an export loads back as the same organization (ids, tokens, definitions, records and their times)', async () => {
      const exported = json(await control('GET', `/organizations/${ACME}/fixture`));
      const org = exported.organizations[0];
      assert.equal(org.id, ACME);
      assert.deepEqual(org.limits, { minute: 5000 });
      assert.deepEqual(org.users.map((u: { email: string }) => u.email), ['ada@acme.example', 'sam@acme.example']);
      assert.match(org.users[0].tokens[0].sha256, /^[0-9a-f]{64}$/);
      assert.deepEqual(org.fields, { account: [{ type: 'text', fieldName: 'pcfregion', label: 'Region' }] });
      assert.equal(org.objects[0].name, 'Project Phase');
      assert.equal(org.records.account.length, 2);

      // Into another server: the same tokens open it, the records are the same.
      const other = await store.context({ config: { adminKey: KEY } });
      try {
        const loaded = await other.request({ method: 'POST', url: '/_orchard/fixtures', token: null, headers: admin, payload: exported });
        assert.equal(loaded.statusCode, 200, loaded.body);
        const read = async (c: TestContext) => (json(await c.request({ method: 'GET', url: '/api/record/account', token: TOKEN })).data.Records as any[])
          .map(({ accountid, accountname, createdon, modifiedon, createdby, ownerid, primarycontactid, pcfregion }) => ({ accountid, accountname, createdon, modifiedon, createdby, ownerid, primarycontactid, pcfregion }));
        assert.deepEqual(await read(other), await read(ctx));
        const again = json(await other.request({ method: 'GET', url: '/_orchard/organizations/' + ACME + '/fixture', token: null, headers: admin }));
        assert.deepEqual(again, exported);
      } finally {
        await other.close();
      }
    });

    test('a disabled user is exported disabled and loads so: their tokens stay refused on the other server', async () => {
      const users = json(await control('GET', `/organizations/${ACME}/users`)).items as Array<{ id: string; email: string }>;
      const sam = users.find((u) => u.email === 'sam@acme.example')!;
      assert.equal((await control('PATCH', `/users/${sam.id}`, { disabled: true })).statusCode, 200);
      const other = await store.context({ config: { adminKey: KEY } });
      try {
        const exported = json(await control('GET', `/organizations/${ACME}/fixture`));
        assert.deepEqual(exported.organizations[0].users.map((u: { email: string; disabled?: boolean }) => [u.email, u.disabled ?? false]),
          [['ada@acme.example', false], ['sam@acme.example', true]]);
        const loaded = await other.request({ method: 'POST', url: '/_orchard/fixtures', token: null, headers: admin, payload: exported });
        assert.equal(loaded.statusCode, 200, loaded.body);
        const there = json(await other.request({ method: 'GET', url: `/_orchard/organizations/${ACME}/users`, token: null, headers: admin })).items as Array<{ email: string; disabled: boolean }>;
        assert.deepEqual(there.map((u) => [u.email, u.disabled]), [['ada@acme.example', false], ['sam@acme.example', true]]);
        const refused = await other.request({ method: 'GET', url: '/api/record/account', token: 'sam-token-0001' });
        assert.deepEqual([refused.statusCode, refused.headers['x-error-code']], [401, 'TOKEN_INVALID']);
        assert.equal((await other.request({ method: 'GET', url: '/api/record/account', token: TOKEN })).statusCode, 200);
      } finally {
        await other.close();
        assert.equal((await control('PATCH', `/users/${sam.id}`, { disabled: false })).statusCode, 200);
      }
    });

    test('files on records are exported with their bytes and load on another server as they were: id, name, type, time, author, content', async () => {
      const globex = '11111111-1111-4111-8111-111111111111';
      const bytes = Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a, 0xef, 0xbb, 0xbf]);
      const attached = await ctx.request({ method: 'POST', url: `/api/v2/record/account/${globex}/files`, token: TOKEN, headers: { 'content-type': MULTIPART },
        payload: multipartBody([{ name: 'file', filename: 'קובץ 📎.bin', type: 'application/x-thing', content: bytes }]) });
      assert.equal(attached.statusCode, 200, attached.body);
      const fileId = json(attached)._id as string;
      const other = await store.context({ config: { adminKey: KEY } });
      try {
        const exported = json(await control('GET', `/organizations/${ACME}/fixture`));
        assert.deepEqual(exported.organizations[0].files.map((f: { content: string }) => f.content), [bytes.toString('base64')]);
        // A file given twice (its id twice) is the file's error, with its path, and nothing is loaded.
        const [file] = exported.organizations[0].files;
        const doubled = { ...exported, organizations: [{ ...exported.organizations[0], files: [file, { ...file, filename: 'again.bin' }] }] };
        const refused = await other.request({ method: 'POST', url: '/_orchard/fixtures', token: null, headers: admin, payload: doubled });
        assert.equal(refused.statusCode, 400, refused.body);
        assert.match(refused.body, /organizations\[0\]\.files\[1\]\.id: files\[0\] has the id/);
        const loaded = await other.request({ method: 'POST', url: '/_orchard/fixtures', token: null, headers: admin, payload: exported });
        assert.equal(loaded.statusCode, 200, loaded.body);
        const list = (c: TestContext) => c.request({ method: 'GET', url: `/api/v2/record/account/${globex}/files`, token: TOKEN }).then((r) => json(r).data);
        assert.deepEqual(await list(other), await list(ctx));
        const content = await other.request({ method: 'GET', url: `/api/v2/record/account/${globex}/files/${fileId}`, token: TOKEN });
        assert.deepEqual([content.statusCode, content.headers['content-type'], content.rawPayload], [200, 'application/x-thing', bytes]);
      } finally {
        await other.close();
        assert.equal((await ctx.request({ method: 'DELETE', url: `/api/v2/record/account/${globex}/files/${fileId}`, token: TOKEN })).statusCode, 200);
      }
    });

    test('a copy loads beside its original: new ids for it and its users, the records and their owners followed, one token, no webhooks; a deleted user\'s records keep their owner', async () => {
      // A user who made a record and was deleted since: the record still names them.
      const lee = json(await control('POST', `/organizations/${ACME}/users`, { email: 'lee@acme.example', fullname: 'Lee Former', role: 'sales' }));
      assert.equal((await api('POST', '/api/record/account', { accountname: 'By Lee' }, lee.token)).statusCode, 201);
      assert.equal((await control('DELETE', `/users/${lee.user.id}`)).statusCode, 200);
      const mirror = json(await api('GET', `/api/record/crmuser/${lee.user.id}`, undefined, TOKEN)).data.Record;
      assert.deepEqual([mirror.fullname, mirror.statecode], ['Lee Former', 2], 'a deleted user\'s crmuser record stays, Inactive');
      const hook = await control('POST', `/organizations/${ACME}/webhooks`, { event: 'created', object: 'account', url: 'http://127.0.0.1:9/hook' });
      assert.equal(hook.statusCode, 201, hook.body);
      const owned = async (token: string) => (json(await api('GET', '/api/record/account?pagesize=50', undefined, token)).data.Records as any[])
        .map(({ accountid, accountname, ownerid, ownername, createdby, createdon, primarycontactid, pcfregion }) => ({ accountid, accountname, ownerid, ownername, createdby, createdon, primarycontactid, pcfregion }))
        .sort((a, b) => a.accountname.localeCompare(b.accountname));
      const original = await owned(TOKEN);
      const users = json(await control('GET', `/organizations/${ACME}/users`)).items as Array<{ id: string; email: string }>;

      // Its export names the deleted user, and loads on another server with the owner kept.
      const exported = json(await control('GET', `/organizations/${ACME}/fixture`));
      assert.deepEqual(exported.organizations[0].formerUsers, [{ id: lee.user.id, fullname: 'Lee Former', email: 'lee@acme.example' }]);
      const other = await store.context({ config: { adminKey: KEY, webhooks: { allowPrivate: true, deliver: false } } });
      try {
        const loaded = await other.request({ method: 'POST', url: '/_orchard/fixtures', token: null, headers: admin, payload: exported });
        assert.equal(loaded.statusCode, 200, loaded.body);
        const byLee = (json(await other.request({ method: 'GET', url: '/api/record/account?pagesize=50', token: TOKEN })).data.Records as any[]).find((r) => r.accountname === 'By Lee');
        assert.deepEqual([byLee.ownerid, byLee.ownername, byLee.createdby], [lee.user.id, 'Lee Former', lee.user.id]);
        const loadedMirror = json(await other.request({ method: 'GET', url: `/api/record/crmuser/${lee.user.id}`, token: TOKEN })).data.Record;
        assert.equal(loadedMirror.statecode, 2, 'and loads back Inactive');
      } finally {
        await other.close();
      }

      const made = await control('POST', `/organizations/${ACME}/copy`, { name: 'Acme staging' });
      assert.equal(made.statusCode, 201, made.body);
      const { organization: copy, token } = json(made);
      assert.notEqual(copy.id, ACME);
      assert.deepEqual([copy.name, copy.status, copy.records], ['Acme staging', 'created', 5]);
      assert.deepEqual(copy.users.map((u: { email: string; role: string }) => [u.email, u.role]), [['ada@acme.example', 'admin'], ['sam@acme.example', 'sales']]);
      assert.ok(copy.users.every((u: { id: string }) => !users.some((o) => o.id === u.id)), 'its users have ids of their own');
      assert.deepEqual(copy.users[0].tokens, [token], 'one token, for its primary user');
      const newId = new Map(users.map((u) => [u.id, copy.users.find((c: { email: string }) => c.email === u.email)!.id]));
      assert.deepEqual(await owned(token), original.map((r) => ({
        ...r, ownerid: newId.get(r.ownerid) ?? r.ownerid, createdby: newId.get(r.createdby) ?? r.createdby,
      })), 'the same records and ids, the lookups to users following them; the deleted user\'s kept');
      assert.equal((await api('GET', '/api/record/account', undefined, 'sam-token-0001')).statusCode, 200);
      assert.deepEqual(await owned(TOKEN), original, 'the original is as it was, its tokens still its own');
      assert.deepEqual(json(await control('GET', `/organizations/${copy.id}/webhooks`)).items, [], 'no webhook copied');
      assert.deepEqual(json(await control('GET', `/organizations/${copy.id}/roles`)).items.map((r: { name: string }) => r.name), ['admin', 'sales']);
      const phase = json(await api('GET', '/api/record/customobject1000', undefined, token)).data.Records;
      assert.deepEqual(phase.map((r: { name: string; pcfweeks: number }) => [r.name, r.pcfweeks]), [['Discovery', 3]], 'custom objects and their records');

      // A reset of the copy returns it to the state it was copied in.
      assert.equal((await api('POST', '/api/record/account', { accountname: 'Staging only' }, token)).statusCode, 201);
      assert.deepEqual(json(await control('POST', `/organizations/${copy.id}/reset`)), { id: copy.id, fixture: true });
      assert.equal((await owned(token)).length, original.length);

      const unnamed = json(await control('POST', `/organizations/${ACME}/copy`));
      assert.equal(unnamed.organization.name, 'Acme (copy)');
      assert.notEqual(unnamed.organization.id, copy.id);
      const missing = await control('POST', '/organizations/00000000-0000-4000-8000-000000000000/copy', {});
      assert.deepEqual([missing.statusCode, json(missing).error.code], [404, 'ORGANIZATION_NOT_FOUND']);
      const blank = await control('POST', `/organizations/${ACME}/copy`, { name: ' ' });
      assert.deepEqual([blank.statusCode, json(blank).error.code], [400, 'BODY_INVALID']);
      assert.equal(json(blank).error.message, "A copy's name cannot be empty: give one ('name' in the body, --name of orchard org copy), or leave it out for 'Acme (copy)'.");
      assert.equal((await control('DELETE', `/organizations/${ACME}/webhooks/${json(hook).id}`)).statusCode, 204);
    });

    test('another process on the same data sees a restore on its next request, definitions included', async () => {
      // A second server over the same database, as a second process would be: its caches are its own.
      const stores = openStores(ctx.config);
      const other = await buildApp({ ...stores, config: ctx.config, clock: ctx.clock.now, logger: false });
      try {
        const viaOther = async () => {
          const res = await other.inject({ method: 'GET', url: '/api/record/account?pagesize=50', headers: { tokenid: ctx.token } });
          assert.equal(res.statusCode, 200, res.body);
          return json(res).data.Records.map((r: Record<string, unknown>) => [r.accountname, r.pcfother ?? null]).sort();
        };
        await control('POST', `/organizations/${ctx.orgId}/reset`);
        await api('POST', '/api/record/account', { accountname: 'Kept' });
        await control('POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'plain' });
        assert.equal((await api('POST', '/api/v2/system-field/account/text', { fieldName: 'pcfother' })).statusCode, 200);
        assert.equal((await api('POST', '/api/record/account', { accountname: 'Later', pcfother: 'o' })).statusCode, 201);
        assert.deepEqual(await viaOther(), [['Kept', null], ['Later', 'o']]);
        assert.equal((await control('POST', `/organizations/${ctx.orgId}/snapshots/plain/restore`)).statusCode, 204);
        assert.deepEqual(await viaOther(), [['Kept', null]]);
        const fields = json(await other.inject({ method: 'GET', url: '/metadata/records/account/fields', headers: { tokenid: ctx.token } })).data;
        assert.ok(!fields.some((f: { fieldName: string }) => f.fieldName === 'pcfother'));
      } finally {
        await other.close();
        await stores.close();
      }
    });

    test('a restore while requests of the organization run: each request sees the old state or the new, none fails', async () => {
      // State A: two accounts; state B: five and a field more.
      await control('POST', `/organizations/${ctx.orgId}/reset`);
      for (const n of [1, 2]) await api('POST', '/api/record/account', { accountname: `A${n}` });
      await control('POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'a' });
      await api('POST', '/api/v2/system-field/account/text', { fieldName: 'pcfb', label: 'B' });
      for (const n of [1, 2, 3]) await api('POST', '/api/record/account', { accountname: `B${n}`, pcfb: 'b' });
      await control('POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'b' });

      let stop = false;
      const seen = new Set<number>();
      const reader = async () => {
        while (!stop) {
          const list = await api('GET', '/api/record/account?pagesize=50');
          assert.equal(list.statusCode, 200, list.body);
          const data = json(list).data;
          assert.equal(data.Records.length, data.Total_Records);
          assert.ok([2, 5].includes(data.Total_Records), `saw ${data.Total_Records} accounts`);
          seen.add(data.Total_Records);
          const q = await api('POST', '/api/query', { objecttype: 1, fields: 'accountname,pcfb', query: "pcfb = 'b'" });
          // Before the restore to A the field exists; after, asking for it is a 400 — never a 500.
          assert.ok([200, 400].includes(q.statusCode), q.body);
        }
      };
      const readers = [reader(), reader(), reader()];
      for (let i = 0; i < 6; i++) {
        const res = await control('POST', `/organizations/${ctx.orgId}/snapshots/${i % 2 === 0 ? 'a' : 'b'}/restore`);
        assert.equal(res.statusCode, 204, res.body);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      stop = true;
      await Promise.all(readers);
      assert.deepEqual([...seen].sort(), [2, 5]);
    });
  });
}
