// The embedded data plane: one SQLite file per organization under <data>/orgs/, so no query
// can reach another organization's rows (DESIGN §1, tenancy by construction).

import fs from 'node:fs';
import path from 'node:path';
import { AppError, errorOf } from '../../errors.js';
import { buildObject, CRMUSER_OBJECT_TYPE, type FieldSpec, type ObjectSpec } from '../../schema/build-object.js';
import { withField } from '../../schema/custom-definitions.js';
import { OrgSchema } from '../../schema/org-schema.js';
import type { ObjectDef, RecordRow } from '../../schema/types.js';
import { isPlanGroup, type PlanNode, type QueryPlan } from '../../query/plan.js';
import { indexedEqualities, ROW, selectListPage, selectRecords, sortsByIndex, SqlCache, type PageOptions } from '../record-sql.js';
import type { OrgRecords, PageRequest, RecordStore } from '../types.js';
import { addColumnSql, COUNT_SQL, countSql, createTableSql, ORG_MIGRATIONS, q, readSpecs } from './sqlite-ddl.js';
import { ReadPool } from './read-pool.js';
import { ALIVE_GUARD, BUDGET_TERM, toObjects, type RawRows, type ReadStatement, type SqlStatement } from './read-protocol.js';
import { openReader, runBounded, runRead } from './reader.js';
import { BUSY_TIMEOUT_MS, migrate, openDb, prepared, type Db, type Statement } from './sqlite-db.js';
import { SQLITE_PAGE, sqliteSql } from './sqlite-sql.js';

const ORG_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function idTaken(obj: ObjectDef, id: string): AppError {
  return errorOf('RECORD_ID_TAKEN', obj.systemName, id, obj.keyField);
}

function isConstraint(err: unknown, kind: string): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith(`SQLITE_CONSTRAINT_${kind}`);
}

/**
 * The read of a query page: its SQL, or, when its filter has equalities on indexed fields while it
 * sorts by another indexed field, the two ways to read it (ChooseStatement). `bounded` gives the
 * variant for runBounded, every statement carrying the budget term instead of the reader thread's
 * cancellation guard.
 */
export function queryStatement(cache: SqlCache, schema: OrgSchema, plan: QueryPlan, bounded = false): ReadStatement {
  const page = (options: PageOptions): SqlStatement => ({ ...cache.queryPage(sqliteSql, schema, plan, options), raw: true });
  const guard = bounded ? BUDGET_TERM : ALIVE_GUARD;
  const equalities = indexedEqualities(plan);
  if (equalities.length === 0) return page({ ...SQLITE_PAGE, guard: bounded || !isIndexWalk(plan) ? guard : undefined });
  return {
    choose: {
      tableRows: cache.get('rows', plan.obj, () => `SELECT max(rowid) AS n FROM ${q(plan.obj.systemName)}`),
      need: plan.pageNumber * plan.pageSize + 1,
      common: page({ ...SQLITE_PAGE, noIndex: new Set(equalities.map((e) => e.field.name)), guard: bounded ? BUDGET_TERM : `${BUDGET_TERM} AND ${ALIVE_GUARD}` }),
      rare: page({ ...SQLITE_PAGE, guard }),
    },
  };
}

/**
 * A page read by walking an index only as far as its end, with nothing to test per row: no filter,
 * sorted by an indexed field. Its cost is bounded by the table (page 2,000 of a million rows steps
 * 100,000 index entries, about a millisecond), so it needs no cancellation guard, and the guard's
 * test on every entry stepped made such pages five times slower.
 */
export function isIndexWalk(plan: QueryPlan): boolean {
  return plan.filter === null && sortsByIndex(plan);
}

/** The SQL of a GET-list page (limit and offset bound): an index walk of createdon (see isIndexWalk), so no guard. */
export function listPageSql(schema: OrgSchema, obj: ObjectDef): string {
  return selectListPage(sqliteSql, schema, obj, { limit: 0, offset: 0 }, { ...SQLITE_PAGE, guard: undefined }).compile().sql;
}

/**
 * Rows a query may examine on the main thread before it is handed to a reader thread instead
 * (runBounded): about a millisecond of work for a filter of a few conditions, and the page it
 * builds is no longer than that. A filter with more than QUICK_CONDITIONS conditions costs more per
 * row, so its bound shrinks in proportion: at most QUICK_ROWS × QUICK_CONDITIONS conditions are
 * tested on the main thread, whatever the filter.
 */
export const QUICK_ROWS = 256;
const QUICK_CONDITIONS = 8;

/**
 * Index entries an index walk (isIndexWalk) may step on the main thread for each row of the bound:
 * a step with nothing to test costs about 13 ns here, a row examined against a filter 1–4 µs, so
 * QUICK_ROWS × 512 = 131,072 steps (page 2,621 of 50) is about the same millisecond or two.
 */
export const INDEX_STEPS_PER_ROW = 512;

/** Whether an index walk (isIndexWalk) of `entries` entries is short enough for the main thread (see INDEX_STEPS_PER_ROW). */
export function walkFitsMainThread(entries: number, limit = QUICK_ROWS): boolean {
  return entries <= limit * INDEX_STEPS_PER_ROW;
}

/** The index entries a query page that is an index walk steps: the page's end and one row more (IsLastPage). */
export function walkOf(plan: QueryPlan): number {
  return plan.pageNumber * plan.pageSize + 1;
}

/** The main-thread bound of rows examined for `plan` (see QUICK_ROWS). */
export function quickRows(plan: QueryPlan, limit = QUICK_ROWS): number {
  const conditions = countConditions(plan.filter);
  return conditions <= QUICK_CONDITIONS ? limit : Math.floor((limit * QUICK_CONDITIONS) / conditions);
}

function countConditions(node: PlanNode | null): number {
  if (!node) return 0;
  return isPlanGroup(node) ? node.children.reduce((n, c) => n + countConditions(c), 0) : 1;
}

/** How long a write waits by default for another connection's write lock, as long as SQLite's busy timeout. */
export const WRITE_WAIT_MS = BUSY_TIMEOUT_MS;

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

class SqliteOrgRecords implements OrgRecords {
  private cached: OrgSchema | undefined;
  private readonly sqlCache = new SqlCache();

  /** The main thread's read-only connection, for GETs by id and bounded reads (runBounded); opened on first use. */
  private quickDb: Db | undefined;

  /**
   * `readers` gives the store's reader threads, started on the first read that needs them;
   * `quickLimit` is QUICK_ROWS or what the store was given instead (0: every query and list page to a
   * reader); `writeWaitMs`, how long a write waits for another writer (see write()).
   */
  constructor(readonly db: Db, private readonly file: string, private readonly readers: () => ReadPool, private readonly quickLimit: number, private readonly writeWaitMs: number) {}

  private reader(): Db {
    return (this.quickDb ??= openReader(this.file));
  }

  /**
   * Runs a write (which takes the write lock first: IMMEDIATE transactions, or one statement)
   * without SQLite's busy timeout, and while another connection holds the lock — the CLI's seed
   * beside a running server, another process — tries again after a pause of 1 ms doubling to
   * 50 ms. SQLite's own wait sleeps the thread, and held the whole server still for as long as a
   * seed batch (0.8 s); this one leaves the event loop free. Past `writeWaitMs`, 503 STORE_BUSY.
   * A write that failed busy did nothing, so trying it again is safe.
   */
  async write<T>(run: () => T): Promise<T> {
    const deadline = Date.now() + this.writeWaitMs;
    for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
      prepared(this.db, 'PRAGMA busy_timeout = 0').run();
      try {
        return run();
      } catch (err) {
        if (!isBusy(err)) throw err;
        if (Date.now() + pause > deadline) {
          throw Object.assign(errorOf('STORE_BUSY', this.writeWaitMs / 1000), { cause: err });
        }
      } finally {
        prepared(this.db, `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).run();
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  async schema(): Promise<OrgSchema> {
    return this.schemaSync();
  }

  schemaSync(): OrgSchema {
    // A field added by another process is seen at once: the version is read on every call.
    const { schema_version: version } = prepared(this.db, 'SELECT schema_version FROM orchard_meta WHERE id = 1').get() as { schema_version: number };
    if (this.cached?.version !== version) {
      const specs = readSpecs(this.db);
      this.cached = new OrgSchema(specs, version);
      this.sqlCache.clear();
    }
    return this.cached;
  }

  /**
   * The schema as last checked. Callers go through schema() once per request (routes resolve the
   * object with it), so the reads after it need not check the version again.
   */
  private current(): OrgSchema {
    return this.cached ?? this.schemaSync();
  }

  /** Column names of the statements getSync runs (columns() builds objects on every call). */
  private readonly getColumns = new WeakMap<Statement, string[]>();

  /** The record with that key, read through `db`: the writer inside a write, else the main thread's reader. */
  private getSync(obj: ObjectDef, id: string, db = this.db): RecordRow | null {
    const schema = this.current();
    const sql = this.sqlCache.get('get', obj, () =>
      selectRecords(sqliteSql, schema, obj).where(`${ROW}.${obj.keyField}`, '=', '').compile().sql);
    const stmt = prepared(db, sql);
    let columns = this.getColumns.get(stmt);
    if (!columns) this.getColumns.set(stmt, (columns = stmt.columns().map((c) => c.name)));
    // As an array, then an object built here: a fifth cheaper than better-sqlite3 building it.
    let row: unknown[] | undefined;
    try {
      row = stmt.raw(true).get(id.toLowerCase()) as unknown[] | undefined;
    } finally {
      stmt.raw(false);
    }
    return row ? toObjects<RecordRow>({ columns, rows: [row] })[0]! : null;
  }

  async get(obj: ObjectDef, id: string): Promise<RecordRow | null> {
    return this.getSync(obj, id, this.reader());
  }

  async list(obj: ObjectDef, page: PageRequest, signal?: AbortSignal): Promise<{ total: number; records: RecordRow[] }> {
    const schema = this.current();
    const statements: SqlStatement[] = [
      { sql: COUNT_SQL, parameters: [obj.objectType], first: true },
      { sql: this.sqlCache.get('list', obj, () => listPageSql(schema, obj)), parameters: [page.limit, page.offset], raw: true },
    ];
    // The count is one row (countSql) and the page an index walk: answered here when the walk is
    // short enough (as for queries), in one read transaction; on a reader thread beyond.
    const here = this.quickLimit > 0 && walkFitsMainThread(page.offset + page.limit, this.quickLimit);
    const quickDb = here ? this.reader() : undefined;
    const [count, records] = quickDb
      ? quickDb.transaction(() => statements.map((st) => runRead(quickDb, st)))()
      : await this.readers().run(this.file, statements, signal);
    return { total: (count as { n: number }).n, records: toObjects<RecordRow>(records as RawRows) };
  }

  async query(plan: QueryPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    const schema = this.current();
    // A query that examines few rows is answered here: the hand-off to a reader thread and back
    // costs more than such a query. Past its bound it goes to a reader, which can be stopped. An
    // index walk's cost is known before it runs: it is answered here when short enough, whole.
    let raw: RawRows | undefined;
    if (this.quickLimit > 0) {
      const quickDb = this.reader();
      if (!isIndexWalk(plan)) {
        raw = runBounded(quickDb, queryStatement(this.sqlCache, schema, plan, true), quickRows(plan, this.quickLimit)) as RawRows | undefined;
      } else if (walkFitsMainThread(walkOf(plan), this.quickLimit)) {
        raw = runRead(quickDb, queryStatement(this.sqlCache, schema, plan)) as RawRows;
      }
    }
    raw ??= (await this.readers().run(this.file, [queryStatement(this.sqlCache, schema, plan)], signal))[0] as RawRows;
    const rows = toObjects<RecordRow>(raw);
    const isLastPage = rows.length <= plan.pageSize;
    if (!isLastPage) rows.length = plan.pageSize;
    return { rows, isLastPage };
  }

  /** Every non-null lookup must name an existing record of its target object. */
  private checkLookups(obj: ObjectDef, values: RecordRow): void {
    const schema = this.current();
    for (const f of obj.fields) {
      const v = values[f.name];
      if (f.type !== 'lookup' || f.role === 'key' || v === null || v === undefined) continue;
      const target = schema.find(f.target!);
      if (!target) continue;
      const sql = `SELECT 1 FROM ${q(target.systemName)} WHERE ${q(target.keyField)} = ?`;
      if (!prepared(this.db, sql).get(v)) {
        throw errorOf('LOOKUP_TARGET_MISSING', f.name, target.systemName, String(v));
      }
    }
  }

  /** Inserts one checked row; call inside a transaction. */
  private insertOne(obj: ObjectDef, row: RecordRow): RecordRow {
    const id = row[obj.keyField] as string;
    this.checkLookups(obj, row);
    const { sql, parameters } = sqliteSql.insertInto(obj.systemName).values(row).compile();
    try {
      prepared(this.db, sql).run(...parameters);
    } catch (err) {
      if (isConstraint(err, 'PRIMARYKEY') || isConstraint(err, 'UNIQUE')) throw idTaken(obj, id);
      throw err;
    }
    return this.getSync(obj, id)!;
  }

  /** Applies checked changes; null when no record has the id. Call inside a transaction. */
  private updateOne(obj: ObjectDef, id: string, changes: RecordRow): RecordRow | null {
    this.checkLookups(obj, changes);
    const { sql, parameters } = sqliteSql.updateTable(obj.systemName).set(changes)
      .where(obj.keyField, '=', id.toLowerCase()).compile();
    const { changes: n } = prepared(this.db, sql).run(...parameters);
    return n === 0 ? null : this.getSync(obj, id);
  }

  private deleteOne(obj: ObjectDef, id: string): boolean {
    const sql = this.sqlCache.get('delete', obj, () => `DELETE FROM ${q(obj.systemName)} WHERE ${q(obj.keyField)} = ?`);
    return prepared(this.db, sql).run(id.toLowerCase()).changes > 0;
  }

  async create(obj: ObjectDef, row: RecordRow): Promise<RecordRow> {
    return this.write(() => this.db.transaction(() => this.insertOne(obj, row)).immediate());
  }

  async update(obj: ObjectDef, id: string, changes: RecordRow): Promise<RecordRow | null> {
    return this.write(() => this.db.transaction(() => this.updateOne(obj, id, changes)).immediate());
  }

  async delete(obj: ObjectDef, id: string): Promise<boolean> {
    return this.write(() => this.deleteOne(obj, id));
  }

  /**
   * Runs `one` for each item in one IMMEDIATE transaction (one fsync for the batch), each item
   * inside a savepoint of its own: an AppError undoes that item alone and becomes its result.
   */
  private each<I, R>(items: readonly I[], one: (item: I) => R): Promise<Array<R | AppError>> {
    const item = this.db.transaction(one);
    return this.write(() => this.db.transaction(() => items.map((it) => {
      try {
        return item(it);
      } catch (err) {
        if (err instanceof AppError) return err;
        throw err;
      }
    })).immediate());
  }

  async createMany(obj: ObjectDef, rows: readonly RecordRow[]): Promise<Array<RecordRow | AppError>> {
    return this.each(rows, (row) => this.insertOne(obj, row));
  }

  async updateMany(obj: ObjectDef, items: ReadonlyArray<{ id: string; changes: RecordRow }>): Promise<Array<RecordRow | null | AppError>> {
    return this.each(items, ({ id, changes }) => this.updateOne(obj, id, changes));
  }

  async deleteMany(obj: ObjectDef, ids: readonly string[]): Promise<boolean[]> {
    return this.each(ids, (id) => this.deleteOne(obj, id)) as Promise<boolean[]>;
  }

  /** Runs a schema change under the write lock and bumps the version; returns the new schema. */
  private async changeSchema(change: (schema: OrgSchema) => void): Promise<OrgSchema> {
    await this.write(() => this.db.transaction(() => {
      change(this.schemaSync());
      prepared(this.db, 'UPDATE orchard_meta SET schema_version = schema_version + 1 WHERE id = 1').run();
    }).immediate());
    return this.schemaSync();
  }

  async addObject(define: (schema: OrgSchema) => ObjectSpec): Promise<OrgSchema> {
    return this.changeSchema((schema) => {
      const spec = define(schema);
      prepared(this.db, 'INSERT INTO orchard_objects (object_type, spec) VALUES (?, ?)').run(spec.objectType, JSON.stringify(spec));
      const obj = buildObject(spec);
      for (const stmt of [...createTableSql(obj), ...countSql(obj)]) this.db.exec(stmt);
    });
  }

  async addField(objectType: number, define: (obj: ObjectDef, schema: OrgSchema) => FieldSpec): Promise<OrgSchema> {
    return this.changeSchema((schema) => {
      const obj = schema.resolve(objectType);
      const field = define(obj, schema);
      const spec = withField(schema.specs.find((s) => s.objectType === objectType)!, field);
      prepared(this.db, 'UPDATE orchard_objects SET spec = ? WHERE object_type = ?').run(JSON.stringify(spec), objectType);
      const def = buildObject(spec).fieldsByName.get(field.name)!;
      for (const stmt of addColumnSql(obj, def)) this.db.exec(stmt);
    });
  }

  close(): void {
    this.quickDb?.close();
    this.db.close();
  }

  async bulkInsert(obj: ObjectDef, rows: readonly RecordRow[]): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const sql = `INSERT INTO ${q(obj.systemName)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    const stmt = prepared(this.db, sql);
    await this.write(() => this.db.transaction(() => {
      for (const row of rows) stmt.run(...columns.map((c) => row[c] ?? null));
    }).immediate());
  }
}

export class SqliteRecordStore implements RecordStore {
  private readonly orgs = new Map<string, SqliteOrgRecords>();
  private readonly dir: string;
  private pool: ReadPool | undefined;

  private readonly readers: number;
  private readonly quickRows: number;
  private readonly writeWaitMs: number;

  /**
   * `dataDir` is the server's data directory; organization files go to `<dataDir>/orgs/<orgId>.db`.
   * `readers` reader threads (2) serve the queries that examine more than `quickRows` rows
   * (QUICK_ROWS) and the index walks longer than quickRows × INDEX_STEPS_PER_ROW entries, list pages
   * included (0 sends every query and list page to them); they start on first use. A write waits
   * `writeWaitMs` (WRITE_WAIT_MS) at most for another process's write lock (see write()).
   */
  constructor(dataDir: string, options: { readers?: number; quickRows?: number; writeWaitMs?: number } = {}) {
    this.readers = options.readers ?? 2;
    this.quickRows = options.quickRows ?? QUICK_ROWS;
    this.writeWaitMs = options.writeWaitMs ?? WRITE_WAIT_MS;
    this.dir = path.join(dataDir, 'orgs');
    fs.mkdirSync(this.dir, { recursive: true });
  }

  private open(orgId: string): SqliteOrgRecords {
    let org = this.orgs.get(orgId);
    if (org) return org;
    if (!ORG_ID_RE.test(orgId)) throw new Error(`not an organization id: ${orgId}`);
    const file = path.join(this.dir, `${orgId}.db`);
    const db = openDb(file);
    migrate(db, ORG_MIGRATIONS);
    org = new SqliteOrgRecords(db, file, () => (this.pool ??= new ReadPool(this.readers)), this.quickRows, this.writeWaitMs);
    this.orgs.set(orgId, org);
    return org;
  }

  async org(orgId: string): Promise<OrgRecords> {
    return this.open(orgId);
  }

  /** Reader threads started: 0 until a read needs them, then `readers`. */
  get readerThreads(): number {
    return this.pool?.size ?? 0;
  }

  async upsertUser(orgId: string, user: { id: string; fullname: string; email: string }): Promise<void> {
    const org = this.open(orgId);
    const users = org.schemaSync().resolve(CRMUSER_OBJECT_TYPE);
    const now = new Date().toISOString().slice(0, 19);
    await org.write(() => prepared(org.db, `INSERT INTO ${q(users.systemName)} (crmuserid, fullname, emailaddress1, ownerid, statecode, statuscode, createdon, modifiedon, createdby, modifiedby)
      VALUES (@id, @fullname, @email, @id, 1, 1, @now, @now, @id, @id)
      ON CONFLICT (crmuserid) DO UPDATE SET fullname = excluded.fullname, emailaddress1 = excluded.emailaddress1, modifiedon = excluded.modifiedon`)
      .run({ id: user.id, fullname: user.fullname, email: user.email, now }));
  }

  async bulkInsert(orgId: string, obj: ObjectDef, rows: readonly RecordRow[]): Promise<void> {
    await this.open(orgId).bulkInsert(obj, rows);
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = undefined;
    for (const org of this.orgs.values()) org.close();
    this.orgs.clear();
  }
}
