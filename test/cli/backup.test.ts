// orchard backup and restore (SQLite): a backup taken while a server writes restores to records
// identical to the server's at the moment each file was copied, files on records included; the refusals that keep a restore
// from clobbering data in use; PostgreSQL's clear refusal.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { runCli } from '../../src/cli.js';
import { loadConfig } from '../../src/config.js';
import type { RecordRow } from '../../src/schema/types.js';
import { openStores, type Stores } from '../../src/stores.js';
import { tempDir, testContext, type TestContext } from '../helpers.js';
import { fails, ok } from './cli-runner.js';

/** Every account of the organization, in key order. */
async function allAccounts(stores: Stores, orgId: string): Promise<RecordRow[]> {
  const records = await stores.records.org(orgId);
  const account = (await records.schema()).resolve('account');
  const out: RecordRow[] = [];
  for (let after: string | null = null; ;) {
    const page = await records.scan(account, after, 700);
    out.push(...page);
    if (page.length < 700) return out;
    after = page[page.length - 1]!.accountid as string;
  }
}

describe('orchard backup under write load, then orchard restore', () => {
  let ctx: TestContext;
  const dirs: string[] = [];
  after(async () => {
    await ctx?.close();
    dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  });

  test('restores every organization to the records it held, identical field for field, under a new change-log epoch', async () => {
    ctx = await testContext();
    const other = await ctx.stores.admin.createOrganization({ name: 'Other', plan: 'enterprise', email: 'o@example.com', minuteLimit: null });
    await ctx.stores.admin.seed({ orgId: ctx.orgId, object: 'account', count: 3000 });
    await ctx.stores.admin.seed({ orgId: other.org.id, object: 'account', count: 500 });
    const before = new Set((await allAccounts(ctx.stores, ctx.orgId)).map((r) => r.accountid));
    // A file on a record: its content lives beside the databases (files/<org>/) and comes along.
    const filed = [...before][0]!;
    const uploaded = await ctx.request({
      method: 'POST', url: `/api/v2/record/account/${filed}/files`, headers: { 'content-type': 'multipart/form-data; boundary=b0' },
      payload: Buffer.from('--b0\r\nContent-Disposition: form-data; name="file"; filename="deed.txt"\r\n\r\nsigned copy\r\n--b0--\r\n'),
    });
    assert.equal(uploaded.statusCode, 200, uploaded.body);
    const fileId = uploaded.json().file.fileid as string;

    const backupDir = path.join(tempDir('orchard-backup-'), 'b');
    dirs.push(path.dirname(backupDir));
    let writing = true;
    let written = 0;
    let writtenDuring = 0;
    let backingUp = false;
    const writer = (async () => {
      while (writing) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: `Written ${written}`, telephone1: '+1 555 0100' } });
        assert.equal(res.statusCode, 201);
        written++;
        if (backingUp) writtenDuring++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    await new Promise((r) => setTimeout(r, 50));
    backingUp = true;
    const backup = await ok(ctx.dir, ['backup', '--to', backupDir]);
    backingUp = false;
    await new Promise((r) => setTimeout(r, 50));
    writing = false;
    await writer;
    assert.ok(writtenDuring > 0, 'records were written while the backup ran');
    assert.deepEqual(Object.keys(backup).sort(), ['bytes', 'files', 'organizations', 'seconds', 'to']);
    assert.equal(backup.files, 4, 'control.db, limits.db and two organizations');
    assert.equal(backup.organizations, 2);
    // The backup is the manifest's files and nothing else: no -wal or -shm left beside a copy.
    const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'orchard-backup.json'), 'utf8')) as { files: string[] };
    const held = (fs.readdirSync(backupDir, { recursive: true }) as string[])
      .filter((f) => !f.startsWith('files') && fs.statSync(path.join(backupDir, f)).isFile());
    assert.deepEqual(held.sort(), [...manifest.files, 'orchard-backup.json'].sort());

    const liveAccounts = await allAccounts(ctx.stores, ctx.orgId);
    const liveCursor = (await ctx.request({ method: 'GET', url: '/api/changes?since=now' })).json().data.Cursor as string;
    const live = new Map(liveAccounts.map((r) => [r.accountid, r]));
    const restoreDir = tempDir('orchard-restored-');
    dirs.push(restoreDir);
    const restored = await ok(restoreDir, ['restore', '--from', backupDir]);
    assert.deepEqual(restored.organizations, 2);

    const config = loadConfig({}, { dataDir: restoreDir, logLevel: 'silent' });
    const stores = openStores(config);
    let restoredCount = 0;
    try {
      const back = await allAccounts(stores, ctx.orgId);
      restoredCount = back.length;
      for (const id of before) assert.ok(back.some((r) => r.accountid === id), `account ${id}, made before the backup, is restored`);
      for (const r of back) assert.deepEqual(r, live.get(r.accountid), 'a restored record is the live record, field for field');
      assert.ok(back.length >= 3000 + 1 && back.length <= liveAccounts.length);
      assert.deepEqual(await allAccounts(stores, other.org.id), await allAccounts(ctx.stores, other.org.id));
      // The control plane came along: the token works against the restored directory.
      const app = await buildApp({ ...stores, config, clock: Date.now, logger: false });
      try {
        const res = await app.inject({ method: 'GET', url: '/api/record/account?pagesize=1', headers: { tokenid: ctx.token } });
        assert.equal(res.statusCode, 200);
        assert.equal(res.json().data.Total_Records, back.length);
        const file = await app.inject({ method: 'GET', url: `/api/v2/record/account/${filed}/files/${fileId}`, headers: { tokenid: ctx.token } });
        assert.equal(file.statusCode, 200, file.body);
        assert.equal(file.body, 'signed copy');
        // The restored log went back to the backup's numbers: once new writes pass the number a
        // cursor given before the restore holds, following it would skip the first of them.
        const seq = (cursor: string) => Number(Buffer.from(cursor, 'base64url').toString().split('.').at(-1));
        const restoredLast = seq((await app.inject({ method: 'GET', url: '/api/changes?since=now', headers: { tokenid: ctx.token } })).json().data.Cursor);
        for (let n = restoredLast; n <= seq(liveCursor); n++) {
          assert.equal((await app.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: ctx.token }, payload: { accountname: `After restore ${n}` } })).statusCode, 201);
        }
        const followed = await app.inject({ method: 'GET', url: `/api/changes?since=${liveCursor}`, headers: { tokenid: ctx.token } });
        assert.deepEqual([followed.statusCode, followed.headers['x-error-code']], [410, 'CHANGES_CURSOR_EXPIRED'], 'a cursor given before the restore is refused, not followed past writes it never saw');
      } finally {
        await app.close();
      }
    } finally {
      await stores.close();
    }

    // Refusals: a backup into a non-empty directory; a restore over a directory in use (even
    // with --force), over data without --force, from a directory that is no backup.
    assert.match((await fails(ctx.dir, ['backup', '--to', backupDir], 'BACKUP_TARGET_NOT_EMPTY')).message, /not empty/);
    assert.match((await fails(ctx.dir, ['restore', '--from', backupDir, '--force'], 'RESTORE_TARGET_IN_USE')).message, /control\.db.*Stop the server/);
    await fails(restoreDir, ['restore', '--from', backupDir], 'RESTORE_TARGET_NOT_EMPTY');
    const elsewhere = tempDir('orchard-restored-');
    dirs.push(elsewhere);
    await fails(elsewhere, ['restore', '--from', restoreDir], 'BACKUP_INVALID');

    // --force replaces the data, and removes an organization the backup does not have.
    const extra = await ok(restoreDir, ['org', 'create', '--name', 'Extra', '--email', 'x@example.com']);
    await ok(restoreDir, ['seed', '--org', String(extra.id), '--count', '3']);
    assert.ok(fs.existsSync(path.join(restoreDir, 'orgs', `${String(extra.id)}.db`)));
    await ok(restoreDir, ['restore', '--from', backupDir, '--force']);
    assert.ok(!fs.existsSync(path.join(restoreDir, 'orgs', `${String(extra.id)}.db`)));
    const again = openStores(loadConfig({}, { dataDir: restoreDir, logLevel: 'silent' }));
    try {
      assert.equal(await again.control.getOrganization(String(extra.id)), null);
      assert.equal((await allAccounts(again, ctx.orgId)).length, restoredCount);
    } finally {
      await again.close();
    }
  });
});

test('a backup holds the organizations\' snapshots: restored, an organization loaded from fixtures resets to its fixture and its named snapshots restore; --force leaves none of the directory replaced', async () => {
  const ADMIN_KEY = 'backup-admin-key-0123456789abcdef';
  const root = tempDir('orchard-snapshots-backup-');
  const ctx = await testContext({ config: { adminKey: ADMIN_KEY } });
  const admin = (app: Awaited<ReturnType<typeof buildApp>>, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({ method, url: `/_orchard${url}`, headers: { authorization: `Bearer ${ADMIN_KEY}` }, ...(payload ? { payload } : {}) });
  const names = async (app: Awaited<ReturnType<typeof buildApp>>, token: string) =>
    (await app.inject({ method: 'GET', url: '/api/record/account', headers: { tokenid: token } })).json().data.Records.map((r: { accountname: string }) => r.accountname).sort();
  try {
    const token = 'fixture-token-0001';
    const loaded = await admin(ctx.app, 'POST', '/fixtures', { organizations: [{ name: 'Fixed', plan: 'enterprise', users: [{ email: 'qa@fixed.example', tokens: [token] }], records: { account: [{ accountname: 'From the fixture' }] } }] });
    const orgId = loaded.json().organizations[0].id as string;
    const before = await ctx.request({ method: 'POST', url: '/api/record/account', token, payload: { accountname: 'Before the snapshot' } });
    assert.equal(before.statusCode, 201);
    // A file on a record, whose content the snapshot keeps beside it, deleted after the snapshot.
    const filed = before.json().data.Record.accountid as string;
    const uploaded = await ctx.request({
      method: 'POST', url: `/api/v2/record/account/${filed}/files`, token, headers: { 'content-type': 'multipart/form-data; boundary=b0' },
      payload: Buffer.from('--b0\r\nContent-Disposition: form-data; name="file"; filename="deed.txt"\r\n\r\nsigned copy\r\n--b0--\r\n'),
    });
    assert.equal(uploaded.statusCode, 200, uploaded.body);
    const fileUrl = `/api/v2/record/account/${filed}/files/${uploaded.json().file.fileid as string}`;
    assert.equal((await admin(ctx.app, 'POST', `/organizations/${orgId}/snapshots`, { name: 'named' })).statusCode, 201);
    assert.equal((await ctx.request({ method: 'DELETE', url: fileUrl, token })).statusCode, 200);
    assert.equal((await ctx.request({ method: 'POST', url: '/api/record/account', token, payload: { accountname: 'After the snapshot' } })).statusCode, 201);
    const backupDir = path.join(root, 'backup');
    await ok(ctx.dir, ['backup', '--to', backupDir]);

    const restoreDir = path.join(root, 'restored');
    fs.mkdirSync(restoreDir);
    await ok(restoreDir, ['restore', '--from', backupDir]);
    const config = loadConfig({}, { dataDir: restoreDir, logLevel: 'silent', adminKey: ADMIN_KEY });
    const stores = openStores(config);
    const app = await buildApp({ ...stores, config, clock: Date.now, logger: false });
    try {
      assert.deepEqual(await names(app, token), ['After the snapshot', 'Before the snapshot', 'From the fixture']);
      assert.deepEqual((await admin(app, 'GET', `/organizations/${orgId}/snapshots`)).json().items.map((i: { name: string }) => i.name), ['named']);
      assert.equal((await admin(app, 'POST', `/organizations/${orgId}/snapshots/named/restore`)).statusCode, 204);
      assert.deepEqual(await names(app, token), ['Before the snapshot', 'From the fixture']);
      const file = await app.inject({ method: 'GET', url: fileUrl, headers: { tokenid: token } });
      assert.deepEqual([file.statusCode, file.body], [200, 'signed copy'], 'the snapshot\'s content of a file deleted since came along');
      assert.deepEqual((await admin(app, 'POST', `/organizations/${orgId}/reset`)).json(), { id: orgId, fixture: true }, 'the state loading gave it came along');
      assert.deepEqual(await names(app, token), ['From the fixture']);
      // A snapshot taken in the directory the backup then replaces is not kept.
      assert.equal((await admin(app, 'POST', `/organizations/${orgId}/snapshots`, { name: 'later' })).statusCode, 201);
    } finally {
      await app.close();
      await stores.close();
    }
    await ok(restoreDir, ['restore', '--from', backupDir, '--force']);
    assert.deepEqual(fs.readdirSync(path.join(restoreDir, 'snapshots', orgId)).filter((f) => f.endsWith('.db')).sort(), ['@fixture.db', 'named.db']);
  } finally {
    await ctx.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

/** Each directory and file under `dir` (itself included) whose mode lets its group or others in: `path mode`. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (p: string) => {
    const st = fs.statSync(p);
    if ((st.mode & 0o077) !== 0) found.push(`${path.relative(dir, p) || '.'} ${(st.mode & 0o777).toString(8)}`);
    if (st.isDirectory()) for (const f of fs.readdirSync(p)) visit(path.join(p, f));
  };
  visit(dir);
  return found;
}

test('a backup and a data directory Orchard makes are owner-only, whatever the umask: they hold token digests and webhook secrets', async () => {
  const umask = process.umask(0o022);
  const root = tempDir('orchard-modes-');
  const ctx = await testContext();
  try {
    const account = (await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Filed' } })).json().data.Record.accountid as string;
    const uploaded = await ctx.request({
      method: 'POST', url: `/api/v2/record/account/${account}/files`, headers: { 'content-type': 'multipart/form-data; boundary=b0' },
      payload: Buffer.from('--b0\r\nContent-Disposition: form-data; name="file"; filename="deed.txt"\r\n\r\nsigned copy\r\n--b0--\r\n'),
    });
    assert.equal(uploaded.statusCode, 200, uploaded.body);
    const made = path.join(root, 'made', 'b');
    await ok(ctx.dir, ['backup', '--to', made]);
    // An empty directory given as the target is made owner-only too.
    const given = path.join(root, 'given');
    fs.mkdirSync(given, { mode: 0o755 });
    await ok(ctx.dir, ['backup', '--to', given]);
    for (const dir of [made, given]) {
      assert.ok(fs.readdirSync(path.join(dir, 'files')).length > 0, 'the backup holds a content');
      assert.deepEqual(openToOthers(dir), [], dir);
    }
    // A data directory Orchard makes (and its orgs/) is owner-only; restored into, too.
    const dataDir = path.join(root, 'new-data');
    await ok(dataDir, ['org', 'create', '--name', 'Fresh', '--plan', 'free', '--email', 'f@example.com']);
    assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(dataDir, 'orgs')).mode & 0o777, 0o700);
    const restored = path.join(root, 'restored');
    await ok(restored, ['restore', '--from', made]);
    assert.equal(fs.statSync(restored).mode & 0o777, 0o700);
    assert.deepEqual(openToOthers(path.join(restored, 'orgs')), []);
  } finally {
    process.umask(umask);
    await ctx.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('orchard restore refuses a manifest listing a path outside its own, writing nothing', async () => {
  // A backup directory may come from elsewhere (a bucket, another host): its manifest's paths are
  // joined to the data directory, so one leading out of it would be written wherever it points.
  const root = tempDir('orchard-manifest-');
  try {
    const from = path.join(root, 'in', 'backup');
    fs.mkdirSync(path.join(from, 'files'), { recursive: true });
    fs.writeFileSync(path.join(from, 'control.db'), 'not read');
    fs.writeFileSync(path.join(root, 'in', 'escaped.db'), 'written outside');
    fs.writeFileSync(path.join(root, 'in', 'escaped-content'), 'written outside');
    const dataDir = path.join(root, 'data');
    fs.mkdirSync(dataDir);
    // An id no organization or file gets (not an RFC 4122 UUID, as isUuid checks every id) is refused too.
    const nil = '00000000-0000-0000-0000-000000000000';
    const org = '2b0c8a4e-6f1d-4c3a-9e5b-7d2f1a0c9b8e';
    fs.mkdirSync(path.join(from, 'orgs'));
    fs.mkdirSync(path.join(from, 'files', org));
    fs.writeFileSync(path.join(from, 'orgs', `${nil}.db`), 'not read');
    fs.writeFileSync(path.join(from, 'files', org, nil), 'not read');
    for (const [files, contents] of [[['control.db', '../escaped.db'], []], [['control.db'], ['files/../../escaped-content']], [['control.db', `orgs/${nil}.db`], []], [['control.db'], [`files/${org}/${nil}`]]]) {
      fs.writeFileSync(path.join(from, 'orchard-backup.json'), JSON.stringify({ format: 1, startedAt: '2026-03-01T00:00:00.000Z', files, organizations: 0, bytes: 0, contents }));
      const error = await fails(dataDir, ['restore', '--from', from], 'BACKUP_INVALID');
      assert.match(error.message, new RegExp(`lists "(\\.\\./escaped\\.db|files/\\.\\./\\.\\./escaped-content|orgs/${nil}\\.db|files/${org}/${nil})", which is none of control\\.db`));
      assert.deepEqual(fs.readdirSync(root).sort(), ['data', 'in']);
      assert.deepEqual(fs.readdirSync(dataDir), []);
    }
    for (const snapshot of [`snapshots/${org}/../../escaped.db`, `snapshots/${org}/.hidden.db`, `snapshots/${org}/named.files/../../../escaped-content`]) {
      fs.writeFileSync(path.join(from, 'orchard-backup.json'), JSON.stringify({ format: 1, startedAt: '2026-03-01T00:00:00.000Z', files: ['control.db'], organizations: 0, bytes: 0, contents: [], snapshots: [snapshot] }));
      assert.match((await fails(dataDir, ['restore', '--from', from], 'BACKUP_INVALID')).message, /or snapshots\/<org id>\/<snapshot>\. Nothing was restored/);
      assert.deepEqual(fs.readdirSync(dataDir), []);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('orchard backup and restore refuse a backup inside the data directory, which a restore from it deleted', async () => {
  const root = tempDir('orchard-inside-');
  try {
    const dataDir = path.join(root, 'data');
    await ok(dataDir, ['org', 'create', '--name', 'Acme', '--email', 'a@example.com']);
    // Through a symbolic link too: the paths are compared as the file system resolves them.
    fs.symlinkSync(dataDir, path.join(root, 'link'));
    for (const to of [path.join(dataDir, 'files', 'backup'), path.join(dataDir, 'backups', 'today'), path.join(root, 'link', 'backup')]) {
      const error = await fails(dataDir, ['backup', '--to', to], 'PARAM_INVALID');
      assert.match(error.message, /^--to .* is inside the data directory .*: a backup there is lost with it, and a restore replaces files\/ and snapshots\/ under it, the backup too\. Back up to a directory outside it/);
    }
    assert.deepEqual(fs.readdirSync(dataDir).sort(), ['control.db', 'orgs'], 'no backup directory made');
    // A backup moved there by hand: before, restoring from it removed files/ with the backup in it.
    await ok(dataDir, ['backup', '--to', path.join(root, 'backup')]);
    const inside = path.join(dataDir, 'files', 'backup');
    fs.cpSync(path.join(root, 'backup'), inside, { recursive: true });
    assert.match((await fails(dataDir, ['restore', '--from', inside, '--force'], 'PARAM_INVALID')).message, /Move the backup out of the data directory, then restore from there\.$/);
    assert.ok(fs.existsSync(path.join(inside, 'orchard-backup.json')), 'the backup is still there');
    const elsewhere = path.join(root, 'elsewhere');
    await ok(elsewhere, ['restore', '--from', path.join(root, 'backup')]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('orchard backup and restore refuse PostgreSQL, pointing to pg_dump', async () => {
  for (const args of [['backup', '--to', '/tmp/x'], ['restore', '--from', '/tmp/x']]) {
    let stdout = '';
    const output = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } };
    assert.equal(await runCli(['--json', ...args], { env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, output }), 1);
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string } };
    assert.equal(error.code, 'BACKUP_UNSUPPORTED');
    assert.match(error.message, /pg_dump.*docs\/operations\.md/);
  }
});
