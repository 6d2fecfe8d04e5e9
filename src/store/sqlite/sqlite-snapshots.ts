// Snapshots of an organization's SQLite file (online backups under <data>/snapshots/<org id>/) and
// the replacement of its objects and records by another file's, in one transaction on its own file,
// so every connection (reader threads, the CLI, other processes) sees the old state or the new.

import fs from 'node:fs';
import path from 'node:path';
import { CRMUSER_OBJECT_TYPE } from '../../schema/build-object.js';
import type { SnapshotInfo } from '../types.js';
import { isUuid } from '../../schema/values.js';
import { partialFile } from '../../partial-file.js';
import { newEpoch } from '../change-log.js';
import { q } from './sqlite-ddl.js';
import { KEPT_ON_REPLACE, orphanDeliveriesSql, WEBHOOKS_TABLE } from '../webhook-outbox.js';
import { migrate, openDb, type Db } from './sqlite-db.js';
import { ORG_MIGRATIONS } from './sqlite-ddl.js';

/** The schema name the source file is attached under while its contents are copied. */
const SOURCE = 'orchard_source';

/** The table of the users' mirror, which a replacement keeps (it follows the control plane, not the records). */
const CRMUSER_TABLE = 'crmuser';

/** Where the snapshots of an organization are kept. */
export function snapshotDir(dataDir: string, orgId: string): string {
  return path.join(dataDir, 'snapshots', orgId);
}

/** A snapshot's file; names are checked by the caller ([A-Za-z0-9@._-], no leading dot). */
export function snapshotFile(dataDir: string, orgId: string, name: string): string {
  return path.join(snapshotDir(dataDir, orgId), `${name}.db`);
}

/**
 * The contents of the files on records a snapshot's rows name, beside its file: file contents live
 * outside the database (sqlite-record-files.ts), so a snapshot without them would come back with
 * rows whose content a later delete removed.
 */
export function snapshotContentsDir(file: string): string {
  return file.replace(/\.db$/, '.files');
}

/** The ids of the files on records `db`'s rows name (`schema`: main, or an attached file's). */
export function fileIdsOf(db: Db, schema = 'main'): Set<string> {
  const has = db.prepare(`SELECT 1 FROM ${schema}.sqlite_master WHERE type = 'table' AND name = 'orchard_files'`).get();
  if (!has) return new Set();
  return new Set((db.prepare(`SELECT id FROM ${schema}.orchard_files`).all() as Array<{ id: string }>).map((r) => r.id).filter(isUuid));
}

/**
 * Where the content `id` lives under `dir`; undefined for an id that is not a UUID. Orchard makes
 * every file id one, so this refuses only the rows of a database brought from elsewhere (a restored
 * backup, a snapshot) that would name a path outside `dir`, such as `../../x`.
 */
export function contentFile(dir: string, id: string): string | undefined {
  return isUuid(id) ? path.join(dir, id) : undefined;
}

/** A hard link where the file system allows one (contents never change once written), else a copy. */
export function linkOrCopy(from: string, to: string): void {
  try {
    fs.linkSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    fs.copyFileSync(from, to);
  }
}

/**
 * Copies into `toDir` (made anew) the contents under `fromDir` of the ids given; a content gone
 * meanwhile (its file deleted after the rows were read) is left out. Returns the ids copied.
 */
export function copyContents(fromDir: string, toDir: string, ids: Iterable<string>): string[] {
  fs.rmSync(toDir, { recursive: true, force: true });
  fs.mkdirSync(toDir, { recursive: true });
  const copied: string[] = [];
  for (const id of ids) {
    const from = contentFile(fromDir, id);
    if (from === undefined || !fs.existsSync(from)) continue;
    linkOrCopy(from, path.join(toDir, id));
    copied.push(id);
  }
  return copied;
}

/**
 * After a replacement (run under the organization's gate, so no upload of this process is under
 * way), makes the organization's contents directory hold what its rows now name: missing contents
 * are taken from `sourceDir` (a snapshot's), contents no row names are removed.
 */
export function alignContents(db: Db, dir: string, sourceDir: string | undefined): void {
  const ids = fileIdsOf(db);
  if (fs.existsSync(dir)) {
    for (const f of fs.readdirSync(dir)) if (!ids.has(f)) fs.rmSync(path.join(dir, f), { force: true });
  }
  if (sourceDir === undefined || ids.size === 0) return;
  fs.mkdirSync(dir, { recursive: true });
  for (const id of ids) {
    const to = path.join(dir, id);
    const from = path.join(sourceDir, id);
    if (!fs.existsSync(to) && fs.existsSync(from)) linkOrCopy(from, to);
  }
}

/** Removes a database file with its WAL and shared-memory files; false when it was not there. */
export function removeDbFile(file: string): boolean {
  const existed = fs.existsSync(file);
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
  return existed;
}

export function listSnapshotFiles(dataDir: string, orgId: string): SnapshotInfo[] {
  const dir = snapshotDir(dataDir, orgId);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.db') && !f.startsWith('.')).sort().map((f) => {
    const stat = fs.statSync(path.join(dir, f));
    return { name: f.slice(0, -3), createdAt: stat.mtime.toISOString(), bytes: stat.size };
  });
}

/**
 * Writes an online backup of `db` to `file`, replacing any file there only once the copy is
 * complete (a rename), so a snapshot is never seen half written.
 */
export async function backupTo(db: Db, file: string): Promise<SnapshotInfo> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = partialFile(file);
  removeDbFile(partial);
  try {
    await db.backup(partial);
    removeDbFile(file);
    fs.renameSync(partial, file);
  } catch (err) {
    removeDbFile(partial);
    throw err;
  }
  const stat = fs.statSync(file);
  return { name: path.basename(file, '.db'), createdAt: stat.mtime.toISOString(), bytes: stat.size };
}

/** A new organization's file (standard objects, no records) at `file`, for a reset to copy from. */
export function writeEmptyOrgFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  removeDbFile(file);
  const db = openDb(file);
  try {
    migrate(db, ORG_MIGRATIONS);
  } finally {
    db.close();
  }
}

/** Attaches `source` to `db` for the length of `work` (ATTACH cannot run inside a transaction). */
export async function withSource<T>(db: Db, source: string, work: () => Promise<T>): Promise<T> {
  db.prepare(`ATTACH DATABASE ? AS ${SOURCE}`).run(source);
  try {
    return await work();
  } finally {
    db.exec(`DETACH DATABASE ${SOURCE}`);
  }
}

interface MasterRow { type: string; name: string; tbl_name: string; sql: string | null }

/**
 * Inside the caller's IMMEDIATE transaction on `db`, with the source attached (withSource): drops
 * every table of the file but crmuser and the webhooks' deliveries, creates the source's (tables,
 * then their rows, then indexes and triggers, so the row-count triggers count nothing twice), keeps
 * crmuser's row count true, drops the deliveries of webhooks the source lacks, sets the schema
 * version past both files' so that every cached schema is read again, and gives the change log a
 * new epoch.
 */
export function replaceContents(db: Db): void {
  const version = (file: string) => (db.prepare(`SELECT schema_version FROM ${file}.orchard_meta WHERE id = 1`).get() as { schema_version: number }).schema_version;
  const next = Math.max(version('main'), version(SOURCE)) + 1;
  const sourceUserVersion = db.pragma(`${SOURCE}.user_version`, { simple: true }) as number;
  const tables = (file: string) => (db.prepare(`SELECT type, name, tbl_name, sql FROM ${file}.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (?, ?)`)
    .all(CRMUSER_TABLE, KEPT_ON_REPLACE) as MasterRow[]);
  for (const t of tables('main')) db.exec(`DROP TABLE main.${q(t.name)}`);
  for (const t of tables(SOURCE)) {
    // Unqualified, CREATE TABLE makes the table in main.
    db.exec(t.sql!);
    db.exec(`INSERT INTO main.${q(t.name)} SELECT * FROM ${SOURCE}.${q(t.name)}`);
  }
  const others = db.prepare(`SELECT type, name, tbl_name, sql FROM ${SOURCE}.sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL AND tbl_name NOT IN (?, ?)`)
    .all(CRMUSER_TABLE, KEPT_ON_REPLACE) as MasterRow[];
  for (const o of others) db.exec(o.sql!);
  // A source from before webhooks has none: its migration makes the table, and no delivery is owed.
  const hooks = db.prepare(`SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?`).get(WEBHOOKS_TABLE) !== undefined;
  db.exec(hooks ? orphanDeliveriesSql('main.') : `DELETE FROM main.${q(KEPT_ON_REPLACE)}`);
  db.prepare(`UPDATE main.orchard_counts SET n = (SELECT count(*) FROM main.${q(CRMUSER_TABLE)}) WHERE object_type = ?`).run(CRMUSER_OBJECT_TYPE);
  db.prepare('UPDATE main.orchard_meta SET schema_version = ? WHERE id = 1').run(next);
  // The change log is the source's, under a new epoch: a cursor into the log replaced is refused
  // (docs/history.md). A source from before the log gets one from its migration, also new.
  if (db.prepare(`SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = 'orchard_change_log'`).get()) {
    db.prepare('UPDATE main.orchard_change_log SET epoch = ? WHERE id = 1').run(newEpoch());
  }
  db.pragma(`main.user_version = ${Math.trunc(sourceUserVersion)}`);
}
