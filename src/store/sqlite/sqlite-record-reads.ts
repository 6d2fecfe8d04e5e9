// The reads of one organization's SQLite file: a record by id, list pages and query pages, answered
// on the main thread's connection when cheap enough (sqlite-read-plan.ts), on reader threads beyond.

import type { GroupedPlan } from '../../query/group-plan.js';
import type { QueryPlan } from '../../query/plan.js';
import type { OrgSchema } from '../../schema/org-schema.js';
import type { ObjectDef, RecordRow } from '../../schema/types.js';
import { selectGroupPage } from '../group-sql.js';
import { ROW, selectRecords, selectScanPage, trimPage, type SqlCache } from '../record-sql.js';
import type { PageRequest } from '../types.js';
import type { ReadPool } from './read-pool.js';
import { ALIVE_GUARD, BUDGET_TERM, toObjects, type RawRows, type SqlStatement } from './read-protocol.js';
import { runBounded, runRead } from './reader.js';
import { isIndexWalk, listPageSql, queryStatement, quickRows, walkFitsMainThread, walkOf } from './sqlite-read-plan.js';
import { COUNT_SQL } from './sqlite-ddl.js';
import { prepared, type Db, type Statement } from './sqlite-db.js';
import { SQLITE_PAGE, sqliteSql } from './sqlite-sql.js';

/** What the reads and the writes of one organization's file share. */
export interface SqliteOrgFile {
  readonly file: string;
  /** The compiled SQL of the current schema version. */
  readonly sqlCache: SqlCache;
  /** The schema as last read (see SqliteOrgRecords.schema), which the caller's objects come from. */
  current(): OrgSchema;
}

/** Column names of the statements readRecord runs (columns() builds objects on every call). */
const recordColumns = new WeakMap<Statement, string[]>();

/** The record with that key as GET returns it, read through `db`: the writer inside a write, else the main thread's connection. */
export function readRecord(db: Db, org: SqliteOrgFile, obj: ObjectDef, id: string): RecordRow | null {
  const schema = org.current();
  const sql = org.sqlCache.get('get', obj, () =>
    selectRecords(sqliteSql, schema, obj).where(`${ROW}.${obj.keyField}`, '=', '').compile().sql);
  const stmt = prepared(db, sql);
  let columns = recordColumns.get(stmt);
  if (!columns) recordColumns.set(stmt, (columns = stmt.columns().map((c) => c.name)));
  // As an array, then an object built here: a fifth cheaper than better-sqlite3 building it.
  let row: unknown[] | undefined;
  try {
    row = stmt.raw(true).get(id.toLowerCase()) as unknown[] | undefined;
  } finally {
    stmt.raw(false);
  }
  return row ? toObjects<RecordRow>({ columns, rows: [row] })[0]! : null;
}

export class SqliteRecordReads {
  /**
   * `connection` gives the main thread's connection to the file; `readers`, the store's reader
   * threads, started on the first read that needs them; `quickLimit` is QUICK_ROWS or what the store
   * was given instead (0: every query and list page to a reader).
   */
  constructor(private readonly org: SqliteOrgFile, private readonly connection: () => Db, private readonly readers: () => ReadPool, private readonly quickLimit: number) {}

  get(obj: ObjectDef, id: string): RecordRow | null {
    return readRecord(this.connection(), this.org, obj, id);
  }

  /** An export page, read on the main thread's connection: a page is bounded (the caller's limit) and walks the key's index. */
  scan(obj: ObjectDef, after: string | null, limit: number): RecordRow[] {
    const schema = this.org.current();
    const sql = this.org.sqlCache.get('scan', obj, () => selectScanPage(sqliteSql, schema, obj).sql);
    return toObjects<RecordRow>(runRead(this.connection(), { sql, parameters: [after ?? '', limit], raw: true }) as RawRows);
  }

  async list(obj: ObjectDef, page: PageRequest, signal?: AbortSignal): Promise<{ total: number; records: RecordRow[] }> {
    const schema = this.org.current();
    const statements: SqlStatement[] = [
      { sql: COUNT_SQL, parameters: [obj.objectType], first: true },
      { sql: this.org.sqlCache.get('list', obj, () => listPageSql(schema, obj)), parameters: [page.limit, page.offset], raw: true },
    ];
    // The count is one row (countSql) and the page an index walk: answered here when the walk is
    // short enough (as for queries), in one read transaction; on a reader thread beyond.
    const here = this.quickLimit > 0 && walkFitsMainThread(page.offset + page.limit, this.quickLimit);
    const quickDb = here ? this.connection() : undefined;
    const [count, records] = quickDb
      ? quickDb.transaction(() => statements.map((st) => runRead(quickDb, st)))()
      : await this.readers().run(this.org.file, statements, signal);
    return { total: (count as { n: number }).n, records: toObjects<RecordRow>(records as RawRows) };
  }

  async query(plan: QueryPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    const schema = this.org.current();
    const cache = this.org.sqlCache;
    // A query that examines few rows is answered here: the hand-off to a reader thread and back
    // costs more than such a query. Past its bound it goes to a reader, which can be stopped. An
    // index walk's cost is known before it runs: it is answered here when short enough, whole.
    let raw: RawRows | undefined;
    if (this.quickLimit > 0) {
      const quickDb = this.connection();
      if (!isIndexWalk(plan)) {
        raw = runBounded(quickDb, queryStatement(cache, schema, plan, true), quickRows(plan, this.quickLimit)) as RawRows | undefined;
      } else if (walkFitsMainThread(walkOf(plan), this.quickLimit)) {
        raw = runRead(quickDb, queryStatement(cache, schema, plan)) as RawRows;
      }
    }
    raw ??= (await this.readers().run(this.org.file, [queryStatement(cache, schema, plan)], signal))[0] as RawRows;
    return trimPage(toObjects<RecordRow>(raw), plan.pageSize);
  }

  /**
   * A page of groups: answered here when the groups' rows are few enough (the statement carries the
   * budget term and stops past it), on a reader thread beyond, which can be stopped.
   */
  async groups(plan: GroupedPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    const schema = this.org.current();
    const statement = (guard: string): SqlStatement => {
      const { sql, parameters } = selectGroupPage(sqliteSql, schema, plan, { ...SQLITE_PAGE, guard }).compile();
      return { sql, parameters, raw: true };
    };
    let raw: RawRows | undefined;
    if (this.quickLimit > 0) raw = runBounded(this.connection(), statement(BUDGET_TERM), quickRows(plan, this.quickLimit)) as RawRows | undefined;
    raw ??= (await this.readers().run(this.org.file, [statement(ALIVE_GUARD)], signal))[0] as RawRows;
    return trimPage(toObjects<RecordRow>(raw), plan.pageSize);
  }
}
