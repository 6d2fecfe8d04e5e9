// The SQL of files on records, shared by both stores: one row per file in `orchard_files` (its
// record, name, type, size; PostgreSQL keeps the content there too, SQLite beside the database),
// and the attach step of the shared write path.

import type { Kysely } from 'kysely';
import type { AttachedFile } from '../schema/attached-files.js';
import type { ObjectDef } from '../schema/types.js';
import type { CompiledSql } from './record-sql.js';
import { recordExists, step, type RecordWriter, type Steps, type WriteStatement } from './record-writes.js';

export const FILES_TABLE = 'orchard_files';

/** A file row's columns under the names the API shows. */
const COLUMNS = [
  'id as fileid', 'record_id as objectid', 'object_type as objecttypecode', 'filename', 'content_type as contenttype', 'size', 'createdon', 'createdby',
] as const;

/** The files on a record, oldest first (ties by id). */
export function filesOfRecord(k: Kysely<any>, obj: ObjectDef, recordId: string): CompiledSql {
  return k.selectFrom(FILES_TABLE).select(COLUMNS).where('object_type', '=', obj.objectType).where('record_id', '=', recordId)
    .orderBy('createdon').orderBy('id').compile();
}

/** The files on every record of an object, by record, then as filesOfRecord orders them (the record index's order). */
export function filesOfObject(k: Kysely<any>, obj: ObjectDef): CompiledSql {
  return k.selectFrom(FILES_TABLE).select(COLUMNS).where('object_type', '=', obj.objectType)
    .orderBy('record_id').orderBy('createdon').orderBy('id').compile();
}

/** One file on a record, with `content` when the store keeps it in the table. */
export function fileOfRecord(k: Kysely<any>, obj: ObjectDef, recordId: string, fileId: string, withContent: boolean): CompiledSql {
  return k.selectFrom(FILES_TABLE).select([...COLUMNS, ...(withContent ? ['content'] : [])])
    .where('object_type', '=', obj.objectType).where('record_id', '=', recordId).where('id', '=', fileId).compile();
}

/** Deletes one file of a record (`fileId` given) or all of them. */
export function deleteFiles(k: Kysely<any>, obj: ObjectDef, recordId: string, fileId?: string): CompiledSql {
  let q = k.deleteFrom(FILES_TABLE).where('object_type', '=', obj.objectType).where('record_id', '=', recordId);
  if (fileId !== undefined) q = q.where('id', '=', fileId);
  return q.compile();
}

/**
 * The files of a record being deleted (RecordWriter.dropFiles): one text for every object (the type
 * and the id are parameters), kept with the store's statements, so that it is neither built at each
 * delete nor, on PostgreSQL, parsed and planned at each.
 */
export function deleteFilesOfRecord(w: Pick<RecordWriter, 'k' | 'sqlCache'>, obj: ObjectDef, recordId: string): WriteStatement {
  // deleteFiles' parameters, in its order.
  return { sql: w.sqlCache.text('delete-files', () => deleteFiles(w.k, obj, recordId).sql), parameters: [obj.objectType, recordId], fixed: true };
}

/**
 * Adds a file's row when its record exists (locked until commit where the writer locks lookups, so
 * a concurrent delete cannot leave the row without its record); false when it does not.
 * `content` is the column PostgreSQL keeps it in; SQLite passes none.
 */
export function* insertFileRow(w: RecordWriter, obj: ObjectDef, file: AttachedFile, content?: Buffer): Steps<boolean> {
  if (!(yield* recordExists(w, obj, file.objectid))) return false;
  const row = {
    id: file.fileid, object_type: file.objecttypecode, record_id: file.objectid, filename: file.filename,
    content_type: file.contenttype, size: file.size, createdon: file.createdon, createdby: file.createdby,
    ...(content ? { content } : {}),
  };
  yield* step(w.run(w.k.insertInto(FILES_TABLE).values(row).compile()));
  return true;
}
