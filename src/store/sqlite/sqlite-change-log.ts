// The change log of an organization's SQLite file, read on the main thread's connection: a feed page
// (bounded by FEED_SPAN numbers and its limit, so it never holds the thread long) with the log's
// state in one read transaction, and a record's history by its index.

import type { ChangeEntry } from '../../schema/changes.js';
import type { RecordRow } from '../../schema/types.js';
import { entryOf, feedPage, feedSql, feedUpper, historySql, logStateSql, stateOf } from '../change-log.js';
import type { ChangePage, ChangeRequest, HistoryRequest } from '../types.js';
import { prepared, type Db } from './sqlite-db.js';
import { sqliteSql } from './sqlite-sql.js';

const STATE_SQL = logStateSql(sqliteSql).sql;

/** A page of the feed and the log's state, read in one snapshot (another process may be writing). */
export function readChanges(db: Db, request: ChangeRequest): ChangePage {
  return db.transaction(() => {
    const state = stateOf(prepared(db, STATE_SQL).get() as RecordRow);
    const upper = feedUpper(state, request.after);
    const { sql, parameters } = feedSql(sqliteSql, request, upper);
    return feedPage(state, request, upper, prepared(db, sql).all(...parameters) as RecordRow[]);
  })();
}

/** A record's entries, newest first. */
export function readHistory(db: Db, objectType: number, recordId: string, page: HistoryRequest): ChangeEntry[] {
  const { sql, parameters } = historySql(sqliteSql, objectType, recordId, page);
  return (prepared(db, sql).all(...parameters) as RecordRow[]).map(entryOf);
}
