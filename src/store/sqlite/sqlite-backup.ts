// Online backup and restore of an embedded data directory (docs/operations.md § Backups): every
// SQLite file (control.db, limits.db, orgs/<id>.db) copied with SQLite's backup API while a server
// serves from it, with the contents of the files on records its rows name (files/<id>/) and the
// organization's snapshots (snapshots/<id>/, the state a reset returns to among them), and put back
// into a stopped data directory.

import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../errors.js';
import { partialFile } from '../../partial-file.js';
import { newEpoch } from '../change-log.js';
import { isUuid } from '../../schema/values.js';
import { openDb, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type Db } from './sqlite-db.js';
import { copyContents, fileIdsOf, listSnapshotFiles, snapshotContentsDir, snapshotDir } from './sqlite-snapshots.js';

/** The manifest a backup directory holds; restore refuses a directory without it. */
export const MANIFEST = 'orchard-backup.json';

export interface BackupManifest {
  readonly format: 1;
  /** When the backup started (ISO 8601 UTC). */
  readonly startedAt: string;
  /** Relative paths of the copied files, control.db first. */
  readonly files: readonly string[];
  readonly organizations: number;
  readonly bytes: number;
  /** Relative paths of the copied contents of files on records (files/<org>/<file id>); absent in backups made before they were copied. */
  readonly contents?: readonly string[];
  /**
   * Relative paths of the organizations' snapshots and their contents (snapshots/<org>/<name>.db,
   * snapshots/<org>/<name>.files/<file id>); absent in backups made before they were copied.
   */
  readonly snapshots?: readonly string[];
}

/** Told after each file: bytes copied so far and the bytes of every file found at the start. */
export type BackupProgress = (doneBytes: number, totalBytes: number) => void;

/**
 * Makes every directory under `dir`, itself included, owner-only, and every file in them: a backup
 * holds token digests and webhook secrets, whatever the umask (docs/operations.md § Backups).
 */
function makeOwnerOnly(dir: string): void {
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) makeOwnerOnly(p);
    else if (entry.isFile()) fs.chmodSync(p, PRIVATE_FILE_MODE);
  }
}

/** `<organization id>.db`; ids are checked as every id is (isUuid). */
const isOrgFile = (name: string): boolean => name.endsWith('.db') && isUuid(name.slice(0, -'.db'.length));

/** What a manifest may list, the paths backupSqlite writes: a restore writes nowhere else. */
const isManifestFile = (rel: string): boolean => rel === 'control.db' || rel === 'limits.db' || (rel.startsWith('orgs/') && isOrgFile(rel.slice('orgs/'.length)));
const isManifestContent = (rel: string): boolean => {
  const [dir, org, file, ...more] = rel.split('/');
  return dir === 'files' && more.length === 0 && isUuid(org ?? '') && isUuid(file ?? '');
};

/** A snapshot's name as a file name: one taken by name, or the state a reset returns to (@fixture). */
const SNAPSHOT_FILE_RE = /^(?:@fixture|[A-Za-z0-9][A-Za-z0-9._-]{0,63})\.(?:db|files)$/;
const isManifestSnapshot = (rel: string): boolean => {
  const [dir, org, name, file, ...more] = rel.split('/');
  if (dir !== 'snapshots' || !isUuid(org ?? '') || !SNAPSHOT_FILE_RE.test(name ?? '') || more.length > 0) return false;
  return file === undefined ? name!.endsWith('.db') : name!.endsWith('.files') && isUuid(file);
};

/**
 * Copies the snapshots of organization `id` into the backup, returning their relative paths. A
 * snapshot's file is written whole and renamed into place, so a copy of it is consistent; one taken
 * again meanwhile is copied as either the old or the new. Copied, not linked: a restore of it
 * attaches the file to the organization's, a connection that could write it.
 */
function copySnapshots(dataDir: string, toDir: string, id: string): string[] {
  const copied: string[] = [];
  const dir = snapshotDir(dataDir, id);
  for (const { name } of listSnapshotFiles(dataDir, id)) {
    const rel = path.posix.join('snapshots', id, `${name}.db`);
    if (!isManifestSnapshot(rel)) continue;
    fs.mkdirSync(path.join(toDir, 'snapshots', id), { recursive: true });
    const from = path.join(dir, `${name}.db`);
    if (unlessGone(() => (fs.copyFileSync(from, path.join(toDir, rel)), true)) === undefined) continue;
    copied.push(rel);
    // Its contents: what the directory beside it holds (none when it had none, or it was deleted meanwhile).
    const ids = unlessGone(() => fs.readdirSync(snapshotContentsDir(from))) ?? [];
    if (ids.length === 0) continue;
    for (const f of copyContents(snapshotContentsDir(from), path.join(toDir, snapshotContentsDir(rel)), ids)) copied.push(path.posix.join(snapshotContentsDir(rel), f));
  }
  return copied;
}

/** What `read` returns, or undefined when what it reads was deleted meanwhile. */
function unlessGone<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The Orchard databases under `dataDir`, relative: control.db, limits.db, orgs/<id>.db. */
function databasesIn(dataDir: string): string[] {
  const found = ['control.db', 'limits.db'].filter((f) => fs.existsSync(path.join(dataDir, f)));
  const orgs = path.join(dataDir, 'orgs');
  if (fs.existsSync(orgs)) for (const f of fs.readdirSync(orgs).sort()) if (isOrgFile(f)) found.push(`orgs/${f}`);
  return found;
}

const sizeOf = (file: string): number => {
  try {
    return fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
  } catch {
    return 0;
  }
};

/**
 * Copies `from` to `to` in one step of SQLite's backup API: the whole file is read in one read
 * transaction, so the copy is that file as one commit left it, and writers go on meanwhile (WAL).
 * Copied in several steps, a write between two of them would start the copy again.
 */
async function copyDatabase(from: string, to: string): Promise<void> {
  const db: Db = openDb(from, { readonly: true });
  try {
    await db.backup(to, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/**
 * Written into the data directory before a restore replaces anything and removed once it has put
 * every file in place: a restore stopped midway (killed, a disk full) leaves the directory part the
 * backup's, part what it held, and this file says so to every later opening of it.
 */
export const RESTORING = 'orchard-restoring.json';

/**
 * Refuses a data directory a restore did not finish (RESTORE_INCOMPLETE): a server or a command
 * opening it would serve organizations half restored, their records of one time and their users,
 * tokens, files or snapshots of another. Running the restore again finishes it.
 */
export function refuseHalfRestored(dataDir: string): void {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, RESTORING), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  let from = '<the backup>';
  try {
    from = String((JSON.parse(text) as { from: unknown }).from);
  } catch { /* written but not whole: the restore stopped as it began */ }
  throw new AppError('RESTORE_INCOMPLETE', `${path.resolve(dataDir)} holds a restore from ${from} that did not finish: its databases are part the backup's, part what the directory held before, so nothing opens it. Run orchard restore --from ${from} again (--force is not needed) to finish it, then start the server.`);
}

/** Whether `dataDir` holds Orchard's data: its control database, made with the first organization or start. */
export function holdsSqliteData(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'control.db'));
}

/**
 * Backs up the data directory into `toDir` (created; it must be empty or absent): control.db first,
 * then limits.db, then the file of every organization control.db's copy lists. Each file is a
 * consistent copy of itself; an organization created after control.db was copied is left out, so
 * the copy never holds records of an organization it does not know. Safe beside a running server.
 */
/** `p` with its symbolic links resolved, as far as it exists (a backup's target may not yet). */
function realPath(p: string): string {
  const rest: string[] = [];
  let dir = path.resolve(p);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) {
    rest.unshift(path.basename(dir));
    dir = path.dirname(dir);
  }
  return path.join(fs.realpathSync(dir), ...rest);
}

/**
 * A backup inside the data directory is refused, made or restored: it goes with the directory's
 * disk, and a restore replaces files/ and snapshots/ whole, so one kept there was deleted by the
 * very restore that read it (the databases already replaced, the contents not yet copied).
 */
function refuseInside(dir: string, dataDir: string, option: '--to' | '--from'): void {
  const rel = path.relative(realPath(dataDir), realPath(dir));
  if (rel.split(path.sep)[0] === '..' || path.isAbsolute(rel)) return;
  throw new AppError('PARAM_INVALID', `${option} ${dir} is inside the data directory ${dataDir}: a backup there is lost with it, and a restore replaces files/ and snapshots/ under it, the backup too. ${option === '--to' ? 'Back up to a directory outside it, on another disk if you can.' : 'Move the backup out of the data directory, then restore from there.'}`);
}

export async function backupSqlite(dataDir: string, toDir: string, progress?: BackupProgress): Promise<BackupManifest> {
  refuseHalfRestored(dataDir);
  if (!holdsSqliteData(dataDir)) {
    throw new AppError('BACKUP_SOURCE_EMPTY', `${dataDir} holds no Orchard data (no control.db). Point --data-dir or DATA_DIR at the server's data directory.`);
  }
  refuseInside(toDir, dataDir, '--to');
  if (fs.existsSync(toDir) && fs.readdirSync(toDir).length > 0) {
    throw new AppError('BACKUP_TARGET_NOT_EMPTY', `${toDir} is not empty. Back up into a new or empty directory, so no older backup is mixed into this one.`);
  }
  // Owner-only from the start (an empty target given keeps its own mode otherwise): nothing copied
  // into it is readable by others meanwhile; its files are made 0600 once written, below.
  fs.mkdirSync(path.join(toDir, 'orgs'), { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(toDir, PRIVATE_DIR_MODE);
  const startedAt = new Date().toISOString();
  const found = databasesIn(dataDir);
  const total = found.reduce((n, f) => n + sizeOf(path.join(dataDir, f)), 0);
  let done = 0;
  const files: string[] = [];
  const copy = async (rel: string) => {
    const src = path.join(dataDir, rel);
    done += sizeOf(src);
    await copyDatabase(src, path.join(toDir, rel));
    files.push(rel);
    progress?.(Math.min(done, total), total);
  };
  await copy('control.db');
  if (found.includes('limits.db')) await copy('limits.db');
  const orgIds = organizationsOf(path.join(toDir, 'control.db'));
  const contents: string[] = [];
  const snapshots: string[] = [];
  for (const id of orgIds) {
    const rel = `orgs/${id}.db`;
    // An organization never used has no file yet; one deleted meanwhile has none any more.
    if (!fs.existsSync(path.join(dataDir, rel))) continue;
    await copy(rel);
    // The contents its copy's rows name, after the copy: a content is removed only once the delete
    // of its row has committed, so one missing here was deleted after the copy was taken.
    const fileIds = readCopy(path.join(toDir, rel), fileIdsOf);
    for (const f of copyContents(path.join(dataDir, 'files', id), path.join(toDir, 'files', id), fileIds)) contents.push(`files/${id}/${f}`);
    // Its snapshots: without them a restored organization loaded from fixtures would reset to empty.
    snapshots.push(...copySnapshots(dataDir, toDir, id));
  }
  progress?.(total, total);
  const bytes = [...files, ...contents, ...snapshots].reduce((n, f) => n + fs.statSync(path.join(toDir, f)).size, 0);
  const manifest: BackupManifest = { format: 1, startedAt, files, organizations: orgIds.length, bytes, contents, snapshots };
  fs.writeFileSync(path.join(toDir, MANIFEST), JSON.stringify(manifest, null, 2) + '\n', { mode: PRIVATE_FILE_MODE });
  // SQLite makes its files 0644 less the umask; copies keep their source's mode. Contents
  // hard-linked from the data directory are its files too, which are made owner-only alike.
  makeOwnerOnly(toDir);
  return manifest;
}

function organizationsOf(controlFile: string): string[] {
  return readCopy(controlFile, (db) => (db.prepare('SELECT id FROM organizations ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id));
}

/**
 * Reads a copy the backup just made. Opened for writing, not read-only: the copy is in WAL mode, and
 * a read-only connection leaves the -wal and -shm it made beside the file, where the backup holds
 * only the manifest's files; the last writer's close removes them.
 */
function readCopy<T>(file: string, read: (db: Db) => T): T {
  const db = openDb(file);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Whether a connection (a server, an orchard command) has the file open: it cannot be locked exclusively. */
function inUse(file: string): boolean {
  let db: Db | undefined;
  try {
    db = openDb(file);
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw err;
  } finally {
    db?.close();
  }
}

/**
 * Gives the restored organization's change log a new epoch, as a snapshot's restore does: its
 * numbers go back to the backup's, and a cursor given since would otherwise follow the new writes
 * from a number the log has reached again, missing those before it (docs/history.md).
 */
function newLogEpoch(file: string): void {
  const db = openDb(file);
  try {
    const logged = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'orchard_change_log'`).get();
    if (logged) db.prepare('UPDATE orchard_change_log SET epoch = ? WHERE id = 1').run(newEpoch());
  } finally {
    db.close();
  }
}

/**
 * Puts a backup made by backupSqlite into `dataDir`. Refused while any of its databases is open (a
 * server or an orchard command uses them), and, unless `force`, when it holds Orchard data at all;
 * with `force` its databases are replaced by the backup's and organizations the backup lacks are removed.
 * Each file is written beside its place and renamed into it.
 */
export async function restoreSqlite(fromDir: string, dataDir: string, options: { force: boolean }): Promise<BackupManifest> {
  refuseInside(fromDir, dataDir, '--from');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(fromDir, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new AppError('BACKUP_INVALID', `${fromDir} is not an Orchard backup: it has no readable ${MANIFEST}. Name a directory made by orchard backup --to.`);
  }
  const contents = manifest.contents ?? [];
  const snapshots = manifest.snapshots ?? [];
  // The manifest is read from a directory that may have come from elsewhere: a path it lists is
  // joined to the data directory, so one such as ../../.ssh/authorized_keys would be written there.
  const listed = (list: unknown, allowed: (rel: string) => boolean): unknown[] => (Array.isArray(list) ? list : [list]).filter((f) => typeof f !== 'string' || !allowed(f));
  const foreign = [...listed(manifest.files, isManifestFile), ...listed(contents, isManifestContent), ...listed(snapshots, isManifestSnapshot)];
  if (foreign.length > 0) {
    throw new AppError('BACKUP_INVALID', `${fromDir} is not a backup made by orchard backup: its ${MANIFEST} lists ${JSON.stringify(String(foreign[0]))}, which is none of control.db, limits.db, orgs/<id>.db, files/<org id>/<file id> or snapshots/<org id>/<snapshot>. Nothing was restored; restore from a backup orchard backup made.`);
  }
  const missing = [...manifest.files, ...contents, ...snapshots].filter((f) => !fs.existsSync(path.join(fromDir, f)));
  if (manifest.format !== 1 || !manifest.files.includes('control.db') || missing.length > 0) {
    throw new AppError('BACKUP_INVALID', `${fromDir} is an incomplete Orchard backup${missing.length ? `: ${missing.join(', ')} missing` : ''}. Restore from a complete backup.`);
  }
  const present = fs.existsSync(dataDir) ? databasesIn(dataDir) : [];
  const busy = present.filter((f) => inUse(path.join(dataDir, f)));
  if (busy.length > 0) {
    throw new AppError('RESTORE_TARGET_IN_USE', `${dataDir} is in use: ${busy.slice(0, 3).join(', ')}${busy.length > 3 ? ', …' : ''} open in another process. Stop the server and any orchard command on it, then restore.`);
  }
  // A restore that did not finish left the directory neither the old state nor the backup's: this
  // one replaces it whole, as --force would.
  const marker = path.join(dataDir, RESTORING);
  const unfinished = fs.existsSync(marker);
  if (present.length > 0 && !options.force && !unfinished) {
    throw new AppError('RESTORE_TARGET_NOT_EMPTY', `${dataDir} already holds Orchard data (${present.length} databases). Restore into an empty directory, or add --force to replace it with the backup.`);
  }
  fs.mkdirSync(path.join(dataDir, 'orgs'), { recursive: true, mode: PRIVATE_DIR_MODE });
  // Before anything is replaced, on disk: a restore stopped from here on leaves it, and every later
  // opening of the directory is refused until a restore runs to the end (refuseHalfRestored).
  // The backup by its absolute path: the message that names it is read wherever the server or a
  // command starts, not where this restore ran.
  writeSynced(marker, JSON.stringify({ from: path.resolve(fromDir), backupStartedAt: manifest.startedAt, restoreStartedAt: new Date().toISOString() }) + '\n');
  const removeDb = (file: string) => ['', '-wal', '-shm'].forEach((s) => fs.rmSync(file + s, { force: true }));
  for (const rel of present) if (!manifest.files.includes(rel)) removeDb(path.join(dataDir, rel));
  for (const rel of manifest.files) {
    const target = path.join(dataDir, rel);
    const next = `${target}.restoring`;
    fs.copyFileSync(path.join(fromDir, rel), next);
    syncPath(next);
    removeDb(target);
    fs.renameSync(next, target);
    if (rel.startsWith('orgs/')) newLogEpoch(target);
  }
  // Files on records: the backup's, and no other (an organization's directory holds what its rows
  // name). A backup from before contents were copied leaves files/ as it is (copied by hand then).
  if (manifest.contents !== undefined) fs.rmSync(path.join(dataDir, 'files'), { recursive: true, force: true });
  // Snapshots likewise: the backup's, and none of the directory replaced.
  if (manifest.snapshots !== undefined) fs.rmSync(path.join(dataDir, 'snapshots'), { recursive: true, force: true });
  const dirs = new Set([dataDir, path.join(dataDir, 'orgs')]);
  for (const rel of [...contents, ...snapshots]) {
    fs.mkdirSync(path.dirname(path.join(dataDir, rel)), { recursive: true });
    fs.copyFileSync(path.join(fromDir, rel), path.join(dataDir, rel));
    syncPath(path.join(dataDir, rel));
    dirs.add(path.dirname(path.join(dataDir, rel)));
  }
  // Every file's content and every rename on disk before the mark goes: a machine stopping just
  // after could otherwise keep the mark's removal and lose a database's content (found empty).
  for (const dir of dirs) syncPath(dir);
  fs.rmSync(marker);
  return manifest;
}

/** Flushes a file's content, or a directory's entries, to disk. */
function syncPath(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `text` to `file`'s partial file, synced, and renames it into place: the file is whole once seen. */
function writeSynced(file: string, text: string): void {
  const next = partialFile(file);
  const fd = fs.openSync(next, 'w', PRIVATE_FILE_MODE);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(next, file);
}
