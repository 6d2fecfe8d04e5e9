// Files on records in the embedded store: a row per file in the organization's database, the content
// in a file of its own under <data>/files/<org id>/<file id>. The two are kept in step through
// orchard_file_trash, which names contents whose row is gone (or not yet written): a delete trashes
// its files in its transaction and removes their content after it commits, and an upload names its
// content there until its row commits, so a crash at any point leaves only named content, removed
// when the organization is next opened.

import fs from 'node:fs';
import type { AttachedFile } from '../../schema/attached-files.js';
import type { ObjectDef } from '../../schema/types.js';
import { deleteFiles, fileOfRecord, filesOfObject, filesOfRecord, insertFileRow } from '../record-files.js';
import { step, type RecordWriter, type Steps } from '../record-writes.js';
import { readRecord, type SqliteOrgFile } from './sqlite-record-reads.js';
import { prepared, type Db } from './sqlite-db.js';
import { sqliteSql } from './sqlite-sql.js';
import { contentFile } from './sqlite-snapshots.js';

/** `since` of content trashed by a delete: removable at once (upload markers carry their time). */
const TRASHED = '';

/** How old an upload's marker must be before an opening sweep takes it for a crash's leftover: far past any request's time limit. */
const UPLOAD_LEFTOVER_MS = 60 * 60 * 1000;

/** Moves a record's file ids (or one of them) to the trash, in the caller's transaction. */
export function trashFilesStatement(obj: ObjectDef, recordId: string, fileId?: string): { sql: string; parameters: unknown[] } {
  return {
    sql: `INSERT OR IGNORE INTO orchard_file_trash (id, since) SELECT id, '${TRASHED}' FROM orchard_files WHERE object_type = ? AND record_id = ?${fileId === undefined ? '' : ' AND id = ?'}`,
    parameters: [obj.objectType, recordId, ...(fileId === undefined ? [] : [fileId])],
  };
}

/** The write path's steps a store needs for files: its shared-write runner and its write lock. */
export interface SqliteFileWrites {
  inTransaction<T>(steps: () => Steps<T>): Promise<T>;
  write<T>(run: () => T): Promise<T>;
  readonly writer: RecordWriter;
}

export class SqliteRecordFiles {
  /** `dir` holds this organization's file contents; created on the first upload. */
  constructor(private readonly db: Db, private readonly org: SqliteOrgFile, private readonly writes: SqliteFileWrites, readonly dir: string) {}

  /** Throws for an id that is not a UUID (contentFile): only for the ids this store makes. */
  private contentPath(fileId: string): string {
    const file = contentFile(this.dir, fileId);
    if (file === undefined) throw new Error(`not a file id: ${JSON.stringify(fileId)}`);
    return file;
  }

  async attach(obj: ObjectDef, file: AttachedFile, content: Buffer): Promise<boolean> {
    await this.writes.write(() => prepared(this.db, 'INSERT INTO orchard_file_trash (id, since) VALUES (?, ?)').run(file.fileid, new Date().toISOString()));
    let attached = false;
    try {
      await fs.promises.mkdir(this.dir, { recursive: true });
      const handle = await fs.promises.open(this.contentPath(file.fileid), 'wx');
      try {
        await handle.writeFile(content);
        await handle.sync();
      } finally {
        await handle.close();
      }
      attached = await this.writes.inTransaction(() => this.attachSteps(obj, file));
      return attached;
    } finally {
      if (!attached) {
        fs.rmSync(this.contentPath(file.fileid), { force: true });
        await this.writes.write(() => prepared(this.db, 'DELETE FROM orchard_file_trash WHERE id = ?').run(file.fileid)).catch(() => {});
      }
    }
  }

  private *attachSteps(obj: ObjectDef, file: AttachedFile): Steps<boolean> {
    const w = this.writes.writer;
    if (!(yield* insertFileRow(w, obj, file))) return false;
    yield* step(w.run({ sql: 'DELETE FROM orchard_file_trash WHERE id = ?', parameters: [file.fileid] }));
    return true;
  }

  list(obj: ObjectDef, recordId: string): AttachedFile[] | null {
    if (!readRecord(this.db, this.org, obj, recordId)) return null;
    const { sql, parameters } = filesOfRecord(sqliteSql, obj, recordId);
    return prepared(this.db, sql).all(...parameters) as AttachedFile[];
  }

  listObject(obj: ObjectDef): AttachedFile[] {
    const { sql, parameters } = filesOfObject(sqliteSql, obj);
    return prepared(this.db, sql).all(...parameters) as AttachedFile[];
  }

  async content(obj: ObjectDef, recordId: string, fileId: string): Promise<{ file: AttachedFile; content: Buffer } | null> {
    const { sql, parameters } = fileOfRecord(sqliteSql, obj, recordId, fileId, false);
    const file = prepared(this.db, sql).get(...parameters) as AttachedFile | undefined;
    if (!file) return null;
    // A row naming no content this store could have made (a database from elsewhere): none is read.
    const at = contentFile(this.dir, file.fileid);
    if (at === undefined) return null;
    try {
      return { file, content: await fs.promises.readFile(at) };
    } catch (err) {
      // A row whose content is gone (a backup taken as its file was deleted): the file is not there.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(obj: ObjectDef, recordId: string, fileId: string): Promise<boolean> {
    const removed = await this.writes.write(() => this.db.transaction(() => {
      const trash = trashFilesStatement(obj, recordId, fileId);
      prepared(this.db, trash.sql).run(...trash.parameters);
      const { sql, parameters } = deleteFiles(sqliteSql, obj, recordId, fileId);
      return prepared(this.db, sql).run(...parameters).changes > 0;
    }).immediate());
    if (removed) await this.emptyTrash();
    return removed;
  }

  /**
   * Removes the contents the trash names: those trashed by a delete, and with `leftovers` also the
   * uploads a crash stopped (markers older than UPLOAD_LEFTOVER_MS); then their trash rows.
   */
  async emptyTrash(leftovers = false): Promise<void> {
    const cutoff = leftovers ? new Date(Date.now() - UPLOAD_LEFTOVER_MS).toISOString() : '0';
    const ids = (prepared(this.db, 'SELECT id FROM orchard_file_trash WHERE since < ?').all(cutoff) as Array<{ id: string }>).map((r) => r.id);
    if (ids.length === 0) return;
    for (const id of ids) {
      const at = contentFile(this.dir, id);
      if (at !== undefined) fs.rmSync(at, { force: true });
    }
    await this.writes.write(() => this.db.transaction(() => {
      for (const id of ids) prepared(this.db, 'DELETE FROM orchard_file_trash WHERE id = ? AND since < ?').run(id, cutoff);
    }).immediate());
  }
}
