// `orchard restore --force` killed with SIGKILL midway (docs/operations.md § Backups): the data
// directory is then part the backup's, part what it held, so a server or a command opening it is
// refused (RESTORE_INCOMPLETE) rather than serving organizations half restored; the same restore
// run again, without --force, finishes it, and every organization is the backup's.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { isAppError } from '../../src/errors.js';
import { backupData, openStores, restoreData, type Stores } from '../../src/stores.js';
import { MANIFEST, RESTORING } from '../../src/store/sqlite/sqlite-backup.js';
import { namedAccount } from '../store/count-fixtures.js';
import { TEST_AUTHOR, tempDir } from '../helpers.js';
import { BIN, childEnv, fails, ok } from './cli-runner.js';

/** Organizations in the backup: enough files that the restore is still writing them when killed. */
const ORGS = 8;

async function accountNames(stores: Stores, orgId: string): Promise<string[]> {
  const records = await stores.records.org(orgId);
  const account = (await records.schema()).resolve('account');
  return (await records.scan(account, null, 10_000)).map((r) => r.accountname as string).sort();
}

test('a restore killed midway leaves a directory nothing opens until the restore is run again, which ends with the backup whole', { timeout: 60_000 }, async () => {
  const dir = tempDir('orchard-restore-kill-');
  const backupDir = path.join(tempDir('orchard-restore-kill-backup-'), 'b');
  const config = loadConfig({}, { dataDir: dir, logLevel: 'silent' });
  try {
    let stores = openStores(config);
    const orgIds: string[] = [];
    for (let i = 0; i < ORGS; i++) {
      const { org } = await stores.admin.createOrganization({ name: `Org ${i}`, plan: 'enterprise', email: `o${i}@example.com`, minuteLimit: null });
      orgIds.push(org.id);
      const records = await stores.records.org(org.id);
      const account = (await records.schema()).resolve('account');
      for (const n of [1, 2]) await records.create(account, namedAccount(`backed up ${n}`), TEST_AUTHOR);
    }
    await stores.close();
    await ok(dir, ['backup', '--to', backupDir]);
    // After the backup: a record in every organization and one organization more, which the restore removes.
    stores = openStores(config);
    for (const id of orgIds) {
      const records = await stores.records.org(id);
      await records.create((await records.schema()).resolve('account'), namedAccount('after the backup'), TEST_AUTHOR);
    }
    await stores.admin.createOrganization({ name: 'Later', plan: 'enterprise', email: 'l@example.com', minuteLimit: null });
    await stores.close();

    // Killed once it has begun putting organizations' files in place (control.db is already the backup's).
    const child = spawn(process.execPath, [BIN, '--data-dir', dir, '--json', 'restore', '--from', backupDir, '--force'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let placed = 0;
    const watcher = fs.watch(path.join(dir, 'orgs'), (_event, name) => {
      if (String(name).endsWith('.restoring') && ++placed === 2) child.kill('SIGKILL');
    });
    const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
    watcher.close();
    assert.equal(signal, 'SIGKILL', `the restore was killed before it finished (it ended first: ${stderr})`);

    // Refused, by the server's opening of the stores and by every command, naming how to finish it.
    assert.throws(() => openStores(config), (err: unknown) => isAppError(err) && err.code === 'RESTORE_INCOMPLETE' && err.message.includes(`orchard restore --from ${backupDir}`));
    await fails(dir, ['org', 'list'], 'RESTORE_INCOMPLETE');
    await fails(dir, ['backup', '--to', path.join(path.dirname(backupDir), 'c')], 'RESTORE_INCOMPLETE');

    // Run again (no --force: what the directory held is already gone in part), it finishes.
    const again = await ok(dir, ['restore', '--from', backupDir]);
    assert.equal(again.organizations, ORGS);
    stores = openStores(config);
    try {
      assert.deepEqual((await stores.control.listOrganizations()).map((o) => o.id).sort(), [...orgIds].sort(), 'the organizations of the backup, and only those');
      for (const id of orgIds) assert.deepEqual(await accountNames(stores, id), ['backed up 1', 'backed up 2'], `organization ${id} is the backup's`);
    } finally {
      await stores.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.dirname(backupDir), { recursive: true, force: true });
  }
});

test('a restore stopped midway names its backup by an absolute path, so that the way out it gives works from any directory', async () => {
  const dir = tempDir('orchard-restore-relative-');
  const backupDir = path.join(tempDir('orchard-restore-relative-backup-'), 'b');
  const config = loadConfig({}, { dataDir: dir, logLevel: 'silent' });
  try {
    const stores = openStores(config);
    await stores.admin.createOrganization({ name: 'Org', plan: 'enterprise', email: 'o@example.com', minuteLimit: null });
    await stores.close();
    await backupData(config, backupDir);
    // A file of the backup that cannot be copied (a directory in its place): the restore stops after
    // replacing the databases, as a killed one does.
    const manifestFile = path.join(backupDir, MANIFEST);
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { contents?: string[] };
    const unreadable = `files/${randomUUID()}/${randomUUID()}`;
    fs.mkdirSync(path.join(backupDir, unreadable), { recursive: true });
    fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, contents: [...(manifest.contents ?? []), unreadable] }));
    // --from as typed at a shell, relative to where the restore ran; the server may start elsewhere.
    const relative = path.relative(process.cwd(), backupDir);
    assert.notEqual(relative, backupDir);
    await assert.rejects(restoreData(config, relative, { force: true }));
    assert.throws(() => openStores(config), (err: unknown) => isAppError(err) && err.code === 'RESTORE_INCOMPLETE' && err.message.includes(`orchard restore --from ${backupDir} again`));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.dirname(backupDir), { recursive: true, force: true });
  }
});

test('a restore has every file it put in place on disk before it removes its mark: a machine stopping just after must not find the mark gone and a database empty', async () => {
  const dir = tempDir('orchard-restore-sync-');
  const backupDir = path.join(tempDir('orchard-restore-sync-backup-'), 'b');
  const config = loadConfig({}, { dataDir: dir, logLevel: 'silent' });
  const { openSync, fsyncSync, rmSync } = fs;
  try {
    const stores = openStores(config);
    await stores.admin.createOrganization({ name: 'Org', plan: 'enterprise', email: 'o@example.com', minuteLimit: null });
    await stores.close();
    const manifest = await backupData(config, backupDir);
    // Which paths were fsynced by the time the mark is removed.
    const opened = new Map<number, string>();
    const synced = new Set<string>();
    let syncedAtUnmark: Set<string> | undefined;
    fs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => {
      const fd = (openSync as (...a: unknown[]) => number)(p, ...rest);
      opened.set(fd, path.resolve(String(p)));
      return fd;
    }) as typeof fs.openSync;
    fs.fsyncSync = ((fd: number) => {
      fsyncSync(fd);
      synced.add(opened.get(fd) ?? '');
    }) as typeof fs.fsyncSync;
    fs.rmSync = ((p: fs.PathLike, options?: fs.RmOptions) => {
      if (String(p).endsWith(RESTORING)) syncedAtUnmark = new Set(synced);
      rmSync(p, options);
    }) as typeof fs.rmSync;
    try {
      await restoreData(config, backupDir, { force: true });
    } finally {
      Object.assign(fs, { openSync, fsyncSync, rmSync });
    }
    assert.ok(syncedAtUnmark, 'the mark was removed');
    const unsynced = manifest.files.filter((f) => ![path.join(dir, f), `${path.join(dir, f)}.restoring`].some((p) => syncedAtUnmark!.has(p)));
    assert.deepEqual(unsynced, [], 'every database restored was synced before the mark went');
    for (const d of [dir, path.join(dir, 'orgs')]) assert.ok(syncedAtUnmark.has(d), `${d} (its renames) synced before the mark went`);
  } finally {
    Object.assign(fs, { openSync, fsyncSync, rmSync });
    rmSync(dir, { recursive: true, force: true });
    rmSync(path.dirname(backupDir), { recursive: true, force: true });
  }
});
