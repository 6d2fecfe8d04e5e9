// The change log's reads and pruning, shared by both stores (docs/history.md): entries in
// `orchard_changes`, the log's epoch, highest number and floor in the one row of
// `orchard_change_log`; the write path appends them (record-writes.ts appendChanges).

import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ChangedFields, ChangeEntry, ChangeLogState, ChangeOperation, FieldChange } from '../schema/changes.js';
import type { RecordRow } from '../schema/types.js';
import type { CompiledSql } from './record-sql.js';
import type { ChangePage, ChangeRequest, HistoryRequest } from './types.js';
import { CHANGE_LOG_TABLE, CHANGES_TABLE, step, type RecordWriter, type Steps } from './record-writes.js';

/**
 * Sequence numbers one page of the feed looks through at most, whatever it finds: a reader that
 * follows one rare object gets an empty page and a cursor further on, rather than a scan of the
 * whole log.
 */
export const FEED_SPAN = 10_000;

/** Entries one prune transaction removes at most, so writers never wait long behind it. */
export const PRUNE_BATCH = 5_000;

/**
 * Removes the oldest entries written before `before` (a stored datetime), up to PRUNE_BATCH, and
 * raises the floor past them: only a run of the oldest goes, stopping at the first entry still
 * within retention (an organization's clock can be moved back), so every entry above the floor is
 * still there. Returns how many went and whether older ones may remain.
 */
export function* pruneBatch(w: RecordWriter, before: string): Steps<{ deleted: number; more: boolean }> {
  const oldest = w.sqlCache.text('log:oldest', () => w.k.selectFrom(CHANGES_TABLE).select(['seq', 'changedon']).orderBy('seq').limit(0).compile().sql);
  const rows = yield* step(w.rows({ sql: oldest, parameters: [PRUNE_BATCH], fixed: true }));
  let boundary: number | null = null;
  let i = 0;
  for (; i < rows.length && String(rows[i]!.changedon) < before; i++) boundary = Number(rows[i]!.seq);
  if (boundary === null) return { deleted: 0, more: false };
  const remove = w.sqlCache.text('log:prune', () => w.k.deleteFrom(CHANGES_TABLE).where('seq', '<=', 0).compile().sql);
  const deleted = yield* step(w.run({ sql: remove, parameters: [boundary], fixed: true }));
  const floor = w.sqlCache.text('log:floor', () => w.k.updateTable(CHANGE_LOG_TABLE)
    .set({ floor_seq: sql`CASE WHEN floor_seq < ${0} THEN ${0} ELSE floor_seq END` }).where('id', '=', 1).compile().sql);
  yield* step(w.run({ sql: floor, parameters: [boundary, boundary, 1], fixed: true }));
  return { deleted, more: i === rows.length && rows.length === PRUNE_BATCH };
}

function decodeFields(text: string): ChangedFields {
  const out: Record<string, FieldChange> = {};
  for (const [name, [old, now]] of Object.entries(JSON.parse(text) as Record<string, [FieldChange['old'], FieldChange['new']]>)) out[name] = { old, new: now };
  return out;
}

/** A new log's epoch: 16 hex digits, so a cursor of another log (before a restore, of a dropped organization) is told apart. */
export const newEpoch = (): string => randomBytes(8).toString('hex');

const ENTRY_COLUMNS = ['seq', 'object_type', 'record_id', 'operation', 'fields', 'user_id', 'changedon'] as const;

/** The log's state (one row). */
export function logStateSql(k: Kysely<any>): CompiledSql {
  return k.selectFrom(CHANGE_LOG_TABLE).select(['epoch', 'last_seq', 'floor_seq']).where('id', '=', sql.lit(1)).compile();
}

export function stateOf(row: RecordRow): ChangeLogState {
  // PostgreSQL keeps the OID of the log's table after the epoch (postgres-snapshots.ts followRestoredLog).
  return { epoch: String(row.epoch).split(':')[0]!, floor: Number(row.floor_seq), last: Number(row.last_seq) };
}

/** The highest number a page of the feed after `after` looks at. */
export const feedUpper = (state: ChangeLogState, after: number): number => Math.min(state.last, after + FEED_SPAN);

/** The entries of a feed page: after `after`, up to `upper`, of one object or all, oldest first. */
export function feedSql(k: Kysely<any>, request: ChangeRequest, upper: number): CompiledSql {
  let q = k.selectFrom(CHANGES_TABLE).select(ENTRY_COLUMNS).where('seq', '>', request.after).where('seq', '<=', upper);
  if (request.objectType !== undefined) q = q.where('object_type', '=', request.objectType);
  return q.orderBy('seq').limit(request.limit).compile();
}

/** A record's entries, newest first; those numbered below `page.before` only, when given. */
export function historySql(k: Kysely<any>, objectType: number, recordId: string, page: HistoryRequest): CompiledSql {
  let q = k.selectFrom(CHANGES_TABLE).select(ENTRY_COLUMNS).where('object_type', '=', objectType).where('record_id', '=', recordId.toLowerCase());
  if (page.before !== undefined) q = q.where('seq', '<', page.before);
  return q.orderBy('seq', 'desc').limit(page.limit).offset(page.offset).compile();
}

export function entryOf(row: RecordRow): ChangeEntry {
  return {
    seq: Number(row.seq),
    objectType: Number(row.object_type),
    recordId: String(row.record_id),
    operation: row.operation as ChangeOperation,
    fields: decodeFields(String(row.fields)),
    userId: row.user_id === null ? null : String(row.user_id),
    changedon: String(row.changedon),
  };
}

/** A feed page from its state and rows (read in one snapshot): `next` is where the next page starts. */
export function feedPage(state: ChangeLogState, request: ChangeRequest, upper: number, rows: readonly RecordRow[]): ChangePage {
  const entries = rows.map(entryOf);
  const next = entries.length === request.limit ? entries[entries.length - 1]!.seq : Math.max(request.after, upper);
  return { ...state, entries, next };
}
