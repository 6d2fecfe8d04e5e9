// The shared data plane: one PostgreSQL schema per organization (docs/internals/architecture.md, tenancy by
// construction), the tables and SQL of the SQLite store with PostgreSQL's hooks, so both give the
// same rows in the same order. List and query run under the request time limit and stop on abort.

import type { Kysely } from 'kysely';
import type { AppError } from '../../errors.js';
import { buildObject, CRMUSER_OBJECT_TYPE, type FieldSpec, type ObjectSpec } from '../../schema/build-object.js';
import { OrgSchema } from '../../schema/org-schema.js';
import { storedFields, type ObjectDef, type RecordRow, type ViewSpec } from '../../schema/types.js';
import type { GroupedPlan } from '../../query/group-plan.js';
import type { QueryPlan } from '../../query/plan.js';
import type { AttachedFile } from '../../schema/attached-files.js';
import { selectGroupPage } from '../group-sql.js';
import { deleteFiles, deleteFilesOfRecord, fileOfRecord, filesOfObject, filesOfRecord, insertFileRow } from '../record-files.js';
import { ROW, selectListPage, selectRecords, selectScanPage, SqlCache, trimPage, type CompiledSql } from '../record-sql.js';
import {
  ChangeBuffer, deleteRecord, eachItem, fieldAddition, insertRecord, runAsync, updateRecord, upsertUserStatement, viewsChange, withChangeLog,
  type RecordWriter, type Steps, type WriteStatement,
} from '../record-writes.js';
import type { ChangeAuthor, ChangeEntry } from '../../schema/changes.js';
import { entryOf, feedPage, feedSql, feedUpper, historySql, logStateSql, pruneBatch, stateOf } from '../change-log.js';
import { IDLE_CLOSE_MS, OPEN_ORGANIZATIONS, OpenOrganizations } from '../open-organizations.js';
import { appendWithDeliveries, DeliveryWatchers, outboxOf, readActiveHooks, type ActiveHooks, type OutboxExec } from '../webhook-outbox.js';
import type { ActiveHook, WebhookOutbox } from '../../webhooks/webhook-types.js';
import { noOrganization } from '../control-errors.js';
import type { ChangePage, ChangeRequest, HistoryRequest, MirroredUser, OrgRecords, PageRequest, RecordCheck, RecordStore, RecordStoreStats, SnapshotInfo } from '../types.js';
import { connect, inTransaction, migrateSchema, prepared, qi, release, run, translate, type Pool, type PoolClient, type Prepared } from './pg-db.js';
import { emptyStandardTables, existingSnapshot, followRestoredLog, listSnapshotSchemas, replaceTables, snapshotSchema, takeSnapshot } from './postgres-snapshots.js';
import { randomBytes } from 'node:crypto';
import { POSTGRES_ORG_MIGRATIONS, postgresAddColumnSql, postgresCreateTableSql, postgresValueType } from './postgres-ddl.js';
import { POSTGRES_PAGE, postgresSql } from './postgres-sql.js';
import { notifyStatement, schemaChanged, type CacheListener } from './cache-listener.js';

/** The start of an organization's definitions notice (cache-listener.ts schemaChanged). */
const SCHEMA_NOTICE = schemaChanged('');

const ORG_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** PostgreSQL's longest identifier, in bytes. */
const MAX_IDENTIFIER = 63;

/** SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';

/** Rows per INSERT of bulkInsert: one statement of column arrays per batch (unnest), not one per row. */
const BULK_BATCH = 5_000;

/** Records a bulk load creates at least for its table to be analyzed at once (bulkLoaded); fewer change no plan. */
export const BULK_ANALYZE_ROWS = 1_000;

/**
 * The outbox is a queue: every delivery's row is updated twice (its lease, its outcome), and each
 * update leaves a dead version and index entries behind until a VACUUM. Left to autovacuum (whose
 * default waits for a fifth of the table, and which may be off), the claims and the look for the
 * next due delivery read every dead entry of the pending index, and without statistics the planner
 * combines it with the webhook's index, which holds every delivery of the log: a claim read 5,000
 * pages at 10,000 deliveries (bench/README.md, Webhooks). So the process that records outcomes
 * vacuums and analyzes the table after this many, plus a twentieth of its rows.
 */
const OUTBOX_VACUUM_OUTCOMES = 1_000;
const OUTBOX_VACUUM_SHARE = 0.05;
/** The outbox's columns its claims and reads filter, join and order by: those it analyzes. */
const OUTBOX_PLANNED_COLUMNS = ['state', 'next_ms', 'lease_ms', 'webhook_id', 'sequence', 'n'] as const;
/** Its sample: 300 rows a unit, 3,000 rows, where a pending delivery among thousands still shows. */
const OUTBOX_STATISTICS_TARGET = 10;

export interface PostgresRecordStoreOptions {
  /** Schemas are named `<schemaPrefix><org id without dashes>`; default `orchard_org_`. Lowercase [a-z0-9_]. */
  readonly schemaPrefix?: string;
  /** Milliseconds a list or query statement may run before it is stopped with REQUEST_TIMEOUT (config.requestTimeoutMs); default 30,000. */
  readonly requestTimeoutMs?: number;
  /**
   * Organizations whose schema, compiled SQL and statement names are kept (OPEN_ORGANIZATIONS;
   * config.openOrganizations); one dropped is read again on its next use.
   */
  readonly openOrganizations?: number;
  /**
   * The channel changes to an organization's definitions (or its whole state) are notified on, in
   * their transaction, for the processes that keep definitions in memory (cache-listener.ts): the
   * control schema's name. None: nobody is told.
   */
  readonly channel?: string;
  /** The listener that lets definitions be kept in memory between calls (none: their version is read on every call). */
  readonly changes?: CacheListener;
}

/**
 * Counts the drops of what is kept of organizations' definitions: of one organization (its notice)
 * and of all (the listener lost notices). A read that began before a drop must not be kept.
 */
class Drops {
  private all = 0;
  private readonly byOrg = new Map<string, number>();

  of(orgId: string): number {
    return this.all + (this.byOrg.get(orgId) ?? 0);
  }

  drop(orgId: string | null): void {
    if (orgId === null) this.all++;
    else this.byOrg.set(orgId, (this.byOrg.get(orgId) ?? 0) + 1);
  }
}

class PostgresOrgRecords implements OrgRecords {
  private cached: OrgSchema | undefined;
  /**
   * The oid of the orchard_meta table `cached` was read from. A version number is only unique within
   * one schema: an organization deleted and made again under its id (a fixture loaded anew, by
   * another process) starts its versions over, and may reach the number kept here with other
   * definitions. The table's oid tells the new schema from the old.
   */
  private cachedTable: number | undefined;
  /** The drop count (Drops.of) when `cached` was read, if it may be used without reading the version again. */
  private keptAt: number | undefined;
  private readonly sqlCache = new SqlCache();
  /** Compiles with every table qualified by this organization's schema. */
  private readonly k: Kysely<any>;
  private readonly s: string;

  /** Named statements of the fixed reads, by SQL text (see prep). */
  private readonly preparedByText = new Map<string, Prepared>();
  private readonly schemaQuery: Prepared;
  /** The active webhooks as of the definitions last read (their version moves with them), and those definitions. */
  private hooks: (ActiveHooks & { readonly schema: OrgSchema }) | undefined;
  /**
   * Reads on any pooled connection; changes in a transaction, whose claims lock with SKIP LOCKED;
   * the worker's bookkeeping without waiting for the WAL's flush (synchronous_commit off: a crash
   * may lose its last commits, which only has a delivery attempted again).
   */
  readonly webhooks: WebhookOutbox = this.tendedOutbox(outboxOf({
    read: (steps) => runAsync(steps(this.outboxOn(this.pool))),
    change: (steps) => this.outboxTransaction(steps, true),
    keep: (steps) => this.outboxTransaction(steps, false),
    keepOne: (steps) => runAsync(steps(this.oneStatement())),
    made: () => this.onDeliveries(),
  }));

  /** Outcomes recorded since the outbox was last vacuumed, and how many start the next vacuum. */
  private readonly vacuum = { outcomes: 0, due: OUTBOX_VACUUM_OUTCOMES, running: false };

  /** The outbox, vacuumed after every OUTBOX_VACUUM_OUTCOMES outcomes and a share of its rows (see there). */
  private tendedOutbox(outbox: WebhookOutbox): WebhookOutbox {
    return {
      ...outbox,
      finish: async (results, policy) => {
        const disabled = await outbox.finish(results, policy);
        this.vacuum.outcomes += results.length;
        if (this.vacuum.outcomes >= this.vacuum.due && !this.vacuum.running) void this.vacuumOutbox();
        return disabled;
      },
    };
  }

  /** Never fails: a vacuum not made (the table busy with another, the database away) is made after the next outcomes. */
  private async vacuumOutbox(): Promise<void> {
    this.vacuum.running = true;
    this.vacuum.outcomes = 0;
    try {
      // SKIP_LOCKED: when autovacuum (or another process) is at it, this one is not needed.
      await run(this.pool, `VACUUM (SKIP_LOCKED) ${this.s}.orchard_deliveries`);
      // The planner needs the share of pending deliveries and their due times, not statistics of the
      // bodies: ANALYZE of every column, on the default sample of 30,000 rows, cost nine times the
      // VACUUM at 20,000 deliveries (bench/README.md, Webhooks). SET LOCAL: this statement's alone.
      await run(this.pool, `SET LOCAL default_statistics_target = ${OUTBOX_STATISTICS_TARGET};
        ANALYZE (SKIP_LOCKED) ${this.s}.orchard_deliveries (${OUTBOX_PLANNED_COLUMNS.join(', ')})`);
      const { rows } = await run(this.pool, `SELECT reltuples FROM pg_class WHERE oid = '${this.s}.orchard_deliveries'::regclass`);
      this.vacuum.due = OUTBOX_VACUUM_OUTCOMES + Math.max(0, Number(rows[0]?.reltuples ?? 0)) * OUTBOX_VACUUM_SHARE;
    } catch {
      // As said above.
    } finally {
      this.vacuum.running = false;
    }
  }

  /** `onDeliveries` is called after a commit that made webhook deliveries (RecordStore.watchDeliveries). */
  constructor(private readonly pool: Pool, readonly schemaName: string, private readonly timeoutMs: number,
    readonly orgId: string, private readonly channel: string | undefined, private readonly cacheListener: CacheListener | undefined, private readonly drops: Drops,
    private readonly onDeliveries: () => void = () => {}) {
    this.k = postgresSql.withSchema(schemaName);
    this.s = qi(schemaName);
    this.schemaQuery = prepared(`SELECT m.schema_version AS version, m.tableoid::int8 AS meta_table,
        CASE WHEN m.schema_version IS DISTINCT FROM $1 OR m.tableoid IS DISTINCT FROM $2::oid
          THEN (SELECT json_agg(o.spec ORDER BY o.object_type) FROM ${this.s}.orchard_objects o) END AS specs
       FROM ${this.s}.orchard_meta m WHERE m.id = 1`);
  }

  /** The outbox's steps in one transaction (`durable` false: see `webhooks`); a webhook disabled, added or removed is read again at the next request. */
  private async outboxTransaction<T>(steps: (x: OutboxExec) => Steps<T>, durable: boolean): Promise<T> {
    const moved = { version: false };
    const result = await inTransaction(this.pool, (client) => runAsync(steps(this.outboxOn(client, moved))), { lazyCommit: !durable });
    // As after a change of the definitions (changeSchema): this process reads the schema version, and with it the active webhooks, again.
    if (moved.version) this.drops.drop(this.orgId);
    return result;
  }

  /**
   * The fixed statements of the hot path (get, list, count, delete: one text per object and schema
   * version) run as named statements, so each connection plans them once: planning a GET with its
   * six name joins costs ~2.5 ms, ten times its execution. Query statements, whose shapes are as
   * many as clients' filters, stay unnamed so no connection accumulates them without bound.
   */
  private prep(text: string): Prepared {
    let p = this.preparedByText.get(text);
    if (!p) {
      // Named after the definitions too: a connection keeps a statement's parameter and result
      // types from when it prepared it, and the same text may name a column of another type once
      // a restore, or an organization made again under its id, changed the table.
      p = prepared(text, `${this.cachedTable}:${this.cached?.version}`);
      this.preparedByText.set(text, p);
    }
    return p;
  }

  async schema(): Promise<OrgSchema> {
    // Kept between calls while the listener vouches that no other process changed the definitions since.
    if (this.keptAt !== undefined && this.keptAt === this.drops.of(this.orgId) && this.cacheListener?.trusted() === true) return this.cached!;
    return this.schemaOn();
  }

  async refreshSchema(): Promise<boolean> {
    const before = this.cached;
    this.keptAt = undefined;
    return (await this.schemaOn()) !== before;
  }

  /** The notice other processes hear of a change this one commits to the definitions, in the change's transaction. */
  async notifyChange(client: PoolClient): Promise<void> {
    if (this.channel !== undefined) await client.query(notifyStatement(this.channel, schemaChanged(this.orgId)));
  }

  /**
   * One round trip per call, so a field added by another process is seen at once; the definitions
   * come along only when the version moved. Inside a transaction, on its own connection: asking the
   * pool for a second one there could wait forever once every connection is held by such a
   * transaction (ten concurrent creates on a fresh store did).
   */
  private async schemaOn(client?: PoolClient): Promise<OrgSchema> {
    const drops = this.drops.of(this.orgId);
    const trusted = this.cacheListener?.trusted() === true;
    const values = [this.cached?.version ?? null, this.cachedTable ?? null];
    type Row = { version: number; meta_table: string; specs: ObjectSpec[] | null };
    const { rows } = client
      ? await client.query<Row>({ ...this.schemaQuery, values })
      : await run<Row>(this.pool, this.schemaQuery, values);
    const { version, meta_table: metaTable, specs } = rows[0]!;
    if (specs !== null) {
      this.cached = new OrgSchema(specs, version);
      this.cachedTable = Number(metaTable);
      this.sqlCache.clear();
      this.preparedByText.clear();
    }
    // Kept only if nothing was dropped while it was read: a change may have committed meanwhile.
    this.keptAt = trusted && drops === this.drops.of(this.orgId) ? drops : undefined;
    return this.cached!;
  }

  /** The schema as last checked: callers go through schema() once per request first. `client`: see schemaOn. */
  private async current(client?: PoolClient): Promise<OrgSchema> {
    return this.cached ?? this.schemaOn(client);
  }

  private table(obj: ObjectDef): string {
    return `${this.s}.${qi(obj.systemName)}`;
  }

  private async getOn(db: Pool | PoolClient, obj: ObjectDef, id: string): Promise<RecordRow | null> {
    const schema = await this.current();
    const text = this.sqlCache.get('get', obj, () =>
      selectRecords(this.k, schema, obj).where(`${ROW}.${obj.keyField}`, '=', '').compile().sql);
    const { rows } = await db.query<RecordRow>({ ...this.prep(text), values: [id.toLowerCase()] });
    return rows[0] ?? null;
  }

  async get(obj: ObjectDef, id: string): Promise<RecordRow | null> {
    try {
      return await this.getOn(this.pool, obj, id);
    } catch (err) {
      return translate(err);
    }
  }

  async scan(obj: ObjectDef, after: string | null, limit: number): Promise<RecordRow[]> {
    const schema = await this.current();
    const text = this.sqlCache.get('scan', obj, () => selectScanPage(this.k, schema, obj).sql);
    return (await run<RecordRow>(this.pool, this.prep(text), [after ?? '', limit])).rows;
  }

  async list(obj: ObjectDef, page: PageRequest, signal?: AbortSignal): Promise<{ total: number; records: RecordRow[] }> {
    const schema = await this.current();
    const pageSql = this.sqlCache.get('list', obj, () =>
      selectListPage(this.k, schema, obj, { limit: 0, offset: 0 }, POSTGRES_PAGE).compile().sql);
    // One snapshot for the count and the page.
    return inTransaction(this.pool, async (client) => {
      const count = await client.query<{ n: number }>(this.prep(`SELECT count(*) AS n FROM ${this.table(obj)}`));
      const records = await client.query<RecordRow>({ ...this.prep(pageSql), values: [page.limit, page.offset] });
      return { total: count.rows[0]!.n, records: records.rows };
    }, { mode: 'ISOLATION LEVEL REPEATABLE READ READ ONLY', timeoutMs: this.timeoutMs, ...(signal ? { signal } : {}) });
  }

  async query(plan: QueryPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    const schema = await this.current();
    const { sql: text, parameters } = this.sqlCache.queryPage(this.k, schema, plan, POSTGRES_PAGE);
    return trimPage(await this.readOnly(text, parameters, signal), plan.pageSize);
  }

  async groups(plan: GroupedPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    const { sql: text, parameters } = selectGroupPage(this.k, await this.current(), plan, POSTGRES_PAGE).compile();
    return trimPage(await this.readOnly(text, parameters, signal), plan.pageSize);
  }

  /** The rows of one read statement, under the time limit and stopped on abort. */
  private async readOnly(text: string, parameters: readonly unknown[], signal?: AbortSignal): Promise<RecordRow[]> {
    return inTransaction(this.pool, async (client) => (await client.query<RecordRow>(text, parameters as unknown[])).rows,
      { mode: 'READ ONLY', timeoutMs: this.timeoutMs, ...(signal ? { signal } : {}) });
  }

  /** The shared write path's hooks on `db`: a transaction's client, or the pool for a statement alone. */
  private writer(db: Pool | PoolClient): RecordWriter {
    const query = (s: WriteStatement) => db.query(s.fixed ? { ...this.prep(s.sql), values: s.parameters as unknown[] } : { text: s.sql, values: s.parameters as unknown[] });
    return {
      k: this.k,
      sqlCache: this.sqlCache,
      lockLookups: true,
      appendInOneStatement: true,
      schema: () => this.current(db === this.pool ? undefined : db as PoolClient),
      run: async (s) => (await query(s)).rowCount ?? 0,
      exists: async (s) => ((await query(s)).rowCount ?? 0) > 0,
      rows: async (s) => (await query(s)).rows as RecordRow[],
      read: (obj, id) => this.getOn(db, obj, id),
      isUniqueViolation: (err) => (err as { code?: unknown } | null)?.code === UNIQUE_VIOLATION,
      dropFiles: async (obj, id) => {
        await query(deleteFilesOfRecord({ k: this.k, sqlCache: this.sqlCache }, obj, id));
      },
      // Deliveries are made in a write's transaction only.
      activeHooks: () => (db === this.pool ? [] : this.activeHooks(db as PoolClient)),
    };
  }

  /** The webhooks' outbox statements (store/webhook-outbox.ts) on `db`: a transaction's client, or the pool. */
  private outboxOn(db: Pool | PoolClient, moved?: { version: boolean }): OutboxExec {
    return {
      k: this.k,
      batchStatements: true,
      rows: async (s) => (db === this.pool ? await run<RecordRow>(this.pool, s.sql, s.parameters) : await db.query<RecordRow>(s.sql, s.parameters as unknown[])).rows,
      run: async (s) => (db === this.pool ? await run(this.pool, s.sql, s.parameters) : await db.query(s.sql, s.parameters as unknown[])).rowCount ?? 0,
      versionMoved: async () => {
        if (!moved) throw new Error('the schema version moved outside an outbox transaction');
        moved.version = true;
        await this.notifyChange(db as PoolClient);
      },
    };
  }

  /**
   * The outbox's statements for steps of one statement (keepOne), each a transaction of its own
   * whose text sets its commit not to wait for the disk (webhook-outbox.ts lazyCommit), named so
   * each connection plans it once.
   */
  private oneStatement(): OutboxExec {
    let sent = false;
    const once = <R extends RecordRow>(s: CompiledSql) => {
      // A second statement would commit apart from the first.
      if (sent) throw new Error('keepOne: the steps ran more than one statement');
      sent = true;
      return run<R>(this.pool, this.prep(s.sql), s.parameters);
    };
    return {
      k: this.k,
      batchStatements: true,
      rows: async (s) => (await once<RecordRow>(s)).rows,
      run: async (s) => (await once(s)).rowCount ?? 0,
    };
  }

  /** The active webhooks the write path makes deliveries for; read in the write's transaction when the schema version moved. */
  private async activeHooks(client: PoolClient): Promise<readonly ActiveHook[]> {
    const schema = await this.current(client);
    // Keyed by the definitions, not their version's number (see cachedTable).
    if (this.hooks?.schema !== schema) this.hooks = { ...await runAsync(readActiveHooks(this.outboxOn(client), schema)), schema };
    return this.hooks.hooks;
  }

  /** Runs the steps of a shared write in one transaction. */
  private inTransaction<T>(steps: (w: RecordWriter) => Steps<T>): Promise<T> {
    return inTransaction(this.pool, (client) => runAsync(steps(this.writer(client))));
  }

  /** As inTransaction, appending the write's change-log entries, then its webhook deliveries, last in its transaction. */
  private async logged<T>(author: ChangeAuthor, steps: (w: RecordWriter, log: ChangeBuffer) => Steps<T>): Promise<T> {
    const made = { count: 0 };
    const result = await this.inTransaction((w) => withChangeLog(author, (log) => steps(w, log), (log) => appendWithDeliveries(w, log, made)));
    if (made.count > 0) this.onDeliveries();
    return result;
  }

  async create(obj: ObjectDef, row: RecordRow, author: ChangeAuthor): Promise<RecordRow> {
    return this.logged(author, (w, log) => insertRecord(w, log, obj, row));
  }

  async update(obj: ObjectDef, id: string, changes: RecordRow, author: ChangeAuthor, check?: RecordCheck): Promise<RecordRow | null> {
    return this.logged(author, (w, log) => updateRecord(w, log, obj, id, changes, check));
  }

  async delete(obj: ObjectDef, id: string, author: ChangeAuthor, check?: RecordCheck): Promise<boolean> {
    return this.logged(author, (w, log) => deleteRecord(w, log, obj, id, check));
  }

  async createMany(obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<Array<RecordRow | AppError>> {
    return this.logged(author, (w, log) => eachItem(w, log, rows, (row) => insertRecord(w, log, obj, row)));
  }

  async updateMany(obj: ObjectDef, items: ReadonlyArray<{ id: string; changes: RecordRow }>, author: ChangeAuthor): Promise<Array<RecordRow | null | AppError>> {
    return this.logged(author, (w, log) => eachItem(w, log, items, ({ id, changes }) => updateRecord(w, log, obj, id, changes)));
  }

  async deleteMany(obj: ObjectDef, ids: readonly string[], author: ChangeAuthor): Promise<boolean[]> {
    return this.logged(author, (w, log) => eachItem(w, log, ids, (id) => deleteRecord(w, log, obj, id))) as Promise<boolean[]>;
  }

  /** The page and the log's state in one snapshot (REPEATABLE READ), under the request time limit. */
  async changes(request: ChangeRequest): Promise<ChangePage> {
    return inTransaction(this.pool, async (client) => {
      const state = stateOf((await client.query<RecordRow>(this.prep(logStateSql(this.k).sql))).rows[0]!);
      const upper = feedUpper(state, request.after);
      const { sql: text, parameters } = feedSql(this.k, request, upper);
      const { rows } = await client.query<RecordRow>({ ...this.prep(text), values: parameters as unknown[] });
      return feedPage(state, request, upper, rows);
    }, { mode: 'ISOLATION LEVEL REPEATABLE READ READ ONLY', timeoutMs: this.timeoutMs });
  }

  async history(objectType: number, recordId: string, page: HistoryRequest): Promise<ChangeEntry[]> {
    const { sql: text, parameters } = historySql(this.k, objectType, recordId, page);
    return (await run<RecordRow>(this.pool, this.prep(text), parameters)).rows.map(entryOf);
  }

  async pruneChanges(before: string): Promise<number> {
    let total = 0;
    for (let more = true; more;) {
      const batch = await this.inTransaction((w) => pruneBatch(w, before));
      total += batch.deleted;
      more = batch.more;
    }
    return total;
  }

  async attachFile(obj: ObjectDef, file: AttachedFile, content: Buffer): Promise<boolean> {
    return this.inTransaction((w) => insertFileRow(w, obj, file, content));
  }

  async files(obj: ObjectDef, recordId: string): Promise<AttachedFile[] | null> {
    if (!(await this.get(obj, recordId))) return null;
    const { sql, parameters } = filesOfRecord(this.k, obj, recordId);
    return (await run<AttachedFile>(this.pool, sql, parameters)).rows;
  }

  async objectFiles(obj: ObjectDef): Promise<AttachedFile[]> {
    const { sql, parameters } = filesOfObject(this.k, obj);
    return (await run<AttachedFile>(this.pool, sql, parameters)).rows;
  }

  async fileContent(obj: ObjectDef, recordId: string, fileId: string): Promise<{ file: AttachedFile; content: Buffer } | null> {
    const { sql, parameters } = fileOfRecord(this.k, obj, recordId, fileId, true);
    const row = (await run<AttachedFile & { content: Buffer }>(this.pool, sql, parameters)).rows[0];
    if (!row) return null;
    const { content, ...file } = row;
    return { file, content };
  }

  async deleteFile(obj: ObjectDef, recordId: string, fileId: string): Promise<boolean> {
    const { sql, parameters } = deleteFiles(this.k, obj, recordId, fileId);
    return ((await run(this.pool, sql, parameters)).rowCount ?? 0) > 0;
  }

  /**
   * Runs a schema change in one transaction holding the meta row's lock (so concurrent changes from
   * any process queue), on the definitions as committed, and bumps the version; returns the new schema.
   */
  private async changeSchema(change: (client: PoolClient, schema: OrgSchema) => Promise<void>): Promise<OrgSchema> {
    await inTransaction(this.pool, async (client) => {
      // Lock first, read after, in two statements: under READ COMMITTED a statement that waited
      // for the lock still reads with the snapshot it started with, so a definition committed by
      // the holder meanwhile would be missed (two concurrent fields both took pcfsystemfield1).
      await client.query(`SELECT 1 FROM ${this.s}.orchard_meta WHERE id = 1 FOR UPDATE`);
      const { rows } = await client.query<{ version: number; specs: ObjectSpec[] }>(
        `SELECT m.schema_version AS version, (SELECT json_agg(o.spec ORDER BY o.object_type) FROM ${this.s}.orchard_objects o) AS specs
         FROM ${this.s}.orchard_meta m WHERE m.id = 1`);
      await change(client, new OrgSchema(rows[0]!.specs, rows[0]!.version));
      await client.query(`UPDATE ${this.s}.orchard_meta SET schema_version = schema_version + 1 WHERE id = 1`);
      await this.notifyChange(client);
    });
    this.drops.drop(this.orgId);
    return this.schema();
  }

  async addObject(define: (schema: OrgSchema) => ObjectSpec): Promise<OrgSchema> {
    return this.changeSchema(async (client, schema) => {
      const spec = define(schema);
      await client.query(`INSERT INTO ${this.s}.orchard_objects (object_type, spec) VALUES ($1, $2)`, [spec.objectType, JSON.stringify(spec)]);
      for (const stmt of postgresCreateTableSql(this.schemaName, buildObject(spec))) await client.query(stmt);
    });
  }

  async addField(objectType: number, define: (obj: ObjectDef, schema: OrgSchema) => FieldSpec): Promise<OrgSchema> {
    return this.changeSchema(async (client, schema) => {
      const { obj, spec, field } = fieldAddition(schema, objectType, define);
      await client.query(`UPDATE ${this.s}.orchard_objects SET spec = $1 WHERE object_type = $2`, [JSON.stringify(spec), objectType]);
      for (const stmt of postgresAddColumnSql(this.schemaName, obj, field)) await client.query(stmt);
    });
  }

  async setViews(objectType: number, change: (obj: ObjectDef, schema: OrgSchema) => readonly ViewSpec[]): Promise<OrgSchema> {
    return this.changeSchema(async (client, schema) => {
      const spec = viewsChange(schema, objectType, change);
      await client.query(`UPDATE ${this.s}.orchard_objects SET spec = $1 WHERE object_type = $2`, [JSON.stringify(spec), objectType]);
    });
  }

  /** Every row and its change-log entry in one transaction, BULK_BATCH rows per statement: one array per column, unnested. */
  async bulkInsert(obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<void> {
    if (rows.length === 0) return;
    const fields = storedFields(obj).filter((f) => f.name in rows[0]!);
    const made = { count: 0 };
    const text = `INSERT INTO ${this.table(obj)} (${fields.map((f) => qi(f.name)).join(', ')})
      SELECT * FROM unnest(${fields.map((f, i) => `$${i + 1}::${postgresValueType(f)}[]`).join(', ')})`;
    await inTransaction(this.pool, async (client) => {
      for (let start = 0; start < rows.length; start += BULK_BATCH) {
        const batch = rows.slice(start, start + BULK_BATCH);
        await client.query(text, fields.map((f) => batch.map((r) => r[f.name] ?? null)));
      }
      const log = new ChangeBuffer(author);
      for (const row of rows) log.add(obj, row[obj.keyField] as string, 'create', null, row);
      const w = this.writer(client);
      await runAsync(appendWithDeliveries(w, log, made));
    });
    if (made.count > 0) this.onDeliveries();
    await this.analyze(obj);
  }

  async bulkLoaded(obj: ObjectDef, rows: number): Promise<void> {
    if (rows >= BULK_ANALYZE_ROWS) await this.analyze(obj);
  }

  /**
   * Fresh statistics at once, not when autovacuum gets to it: without them the planner took
   * `statecode = 1` on 100,000 new rows for 200 and sorted 85,000 rows for a page (74 ms, not 1).
   */
  private async analyze(obj: ObjectDef): Promise<void> {
    await run(this.pool, `ANALYZE ${this.table(obj)}`);
  }

  async upsertUser(user: MirroredUser): Promise<void> {
    const users = (await this.current()).resolve(CRMUSER_OBJECT_TYPE);
    const { sql, parameters } = upsertUserStatement(this.k, users, user, new Date().toISOString().slice(0, 19));
    await run(this.pool, sql, parameters);
  }
}

export class PostgresRecordStore implements RecordStore {
  /** Organizations opened (migrated) by this process. */
  private readonly orgs: OpenOrganizations<Promise<PostgresOrgRecords>>;
  private readonly prefix: string;
  private readonly timeoutMs: number;
  private readonly channel: string | undefined;
  private readonly cacheListener: CacheListener | undefined;
  private readonly drops = new Drops();
  /** Organizations dropped by this store: their schema is never created again by a call still under way. */
  private readonly dropped = new Set<string>();
  private readonly watchers = new DeliveryWatchers();

  /**
   * Records in `pool` (pg-db.ts createPool), which stays the caller's: close() does not end it.
   * Each organization's schema is created and migrated on first use.
   */
  constructor(private readonly pool: Pool, options: PostgresRecordStoreOptions = {}) {
    this.prefix = options.schemaPrefix ?? 'orchard_org_';
    this.timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.channel = options.channel;
    this.cacheListener = options.changes;
    this.cacheListener?.subscribe((payload) => {
      if (payload === null) this.drops.drop(null);
      else if (payload.startsWith(SCHEMA_NOTICE)) this.drops.drop(payload.slice(SCHEMA_NOTICE.length));
    });
    if (!/^[a-z_][a-z0-9_]*$/.test(this.prefix) || this.prefix.length + 32 > MAX_IDENTIFIER) {
      throw new Error(`schemaPrefix must be [a-z_][a-z0-9_]* and at most ${MAX_IDENTIFIER - 32} characters; got '${this.prefix}'`);
    }
    this.orgs = new OpenOrganizations({
      max: options.openOrganizations ?? OPEN_ORGANIZATIONS,
      idleMs: IDLE_CLOSE_MS,
      open: (orgId) => {
        const schema = this.schemaName(orgId);
        const opening = migrateSchema(this.pool, schema, POSTGRES_ORG_MIGRATIONS)
          .then(() => followRestoredLog(this.pool, schema))
          .then(() => new PostgresOrgRecords(this.pool, schema, this.timeoutMs, orgId, this.channel, this.cacheListener, this.drops, () => this.watchers.told(orgId)), translate);
        // A failed open (database unreachable) is tried again by the next request.
        opening.catch(() => this.orgs.forget(orgId, opening));
        return opening;
      },
      // Nothing to release: the connections are the pool's.
      close: () => {},
    });
  }

  /** The schema of an organization. */
  schemaName(orgId: string): string {
    if (!ORG_ID_RE.test(orgId)) throw new Error(`not an organization id: ${orgId}`);
    return `${this.prefix}${orgId.replace(/-/g, '')}`;
  }

  /** The organization's records; they hold nothing to close, so a caller may keep them after the store dropped them. */
  private open(orgId: string): Promise<PostgresOrgRecords> {
    if (this.dropped.has(orgId)) return Promise.reject(noOrganization(orgId));
    return this.orgs.use(orgId, (opening) => opening);
  }

  async org(orgId: string): Promise<OrgRecords> {
    return this.open(orgId);
  }

  async upsertUser(orgId: string, user: MirroredUser): Promise<void> {
    await (await this.open(orgId)).upsertUser(user);
  }

  async bulkInsert(orgId: string, obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<void> {
    await (await this.open(orgId)).bulkInsert(obj, rows, author);
  }

  async snapshot(orgId: string, name: string): Promise<SnapshotInfo> {
    const schema = (await this.open(orgId)).schemaName;
    return inTransaction(this.pool, (client) => takeSnapshot(client, schema, snapshotSchema(this.prefix, orgId, name), orgId, name),
      { mode: 'ISOLATION LEVEL REPEATABLE READ' });
  }

  async listSnapshots(orgId: string): Promise<SnapshotInfo[]> {
    return (await this.listSnapshotsWithSchemas(orgId)).map(({ name, createdAt, bytes }) => ({ name, createdAt, bytes }));
  }

  private async snapshotSchemas(orgId: string): Promise<string[]> {
    return (await this.listSnapshotsWithSchemas(orgId)).map((s) => s.schema);
  }

  private async listSnapshotsWithSchemas(orgId: string): Promise<Array<SnapshotInfo & { schema: string }>> {
    this.schemaName(orgId);
    const client = await connect(this.pool);
    try {
      return await listSnapshotSchemas(client, this.prefix, orgId);
    } catch (err) {
      return translate(err);
    } finally {
      release(client);
    }
  }

  async deleteSnapshot(orgId: string, name: string): Promise<boolean> {
    this.schemaName(orgId);
    return inTransaction(this.pool, async (client) => {
      const found = (await listSnapshotSchemas(client, this.prefix, orgId)).find((s) => s.name === name);
      if (found) await client.query(`DROP SCHEMA ${qi(found.schema)} CASCADE`);
      return found !== undefined;
    });
  }

  async restore(orgId: string, name: string): Promise<void> {
    const org = await this.open(orgId);
    await inTransaction(this.pool, async (client) => {
      await replaceTables(client, org.schemaName, await existingSnapshot(client, this.prefix, orgId, name));
      await org.notifyChange(client);
    });
    this.drops.drop(orgId);
    await migrateSchema(this.pool, org.schemaName, POSTGRES_ORG_MIGRATIONS).catch(translate);
  }

  async clear(orgId: string): Promise<void> {
    const org = await this.open(orgId);
    const schema = org.schemaName;
    try {
      await this.clearTables(org, schema);
    } finally {
      this.drops.drop(orgId);
    }
  }

  private async clearTables(org: PostgresOrgRecords, schema: string): Promise<void> {
    if (await inTransaction(this.pool, async (client) => {
      const emptied = await emptyStandardTables(client, schema);
      if (emptied) await org.notifyChange(client);
      return emptied;
    })) return;
    // Custom definitions to drop: from a new organization's schema, copied from, then dropped.
    const empty = `${this.prefix}empty_${randomBytes(8).toString('hex')}`;
    try {
      await migrateSchema(this.pool, empty, POSTGRES_ORG_MIGRATIONS).catch(translate);
      await inTransaction(this.pool, async (client) => {
        await replaceTables(client, schema, empty);
        await org.notifyChange(client);
      });
    } finally {
      await run(this.pool, `DROP SCHEMA IF EXISTS ${qi(empty)} CASCADE`).catch(() => {});
    }
  }

  recreatable(orgId: string): void {
    this.dropped.delete(orgId);
  }

  async dropOrg(orgId: string): Promise<void> {
    if (!ORG_ID_RE.test(orgId)) return;
    this.dropped.add(orgId);
    this.orgs.discard(orgId);
    this.drops.drop(orgId);
    await run(this.pool, `DROP SCHEMA IF EXISTS ${qi(this.schemaName(orgId))} CASCADE`);
    if (this.channel !== undefined) {
      const notice = notifyStatement(this.channel, schemaChanged(orgId));
      await run(this.pool, notice.text, notice.values);
    }
    // Its snapshots go with it.
    for (const snapshot of await this.snapshotSchemas(orgId)) await run(this.pool, `DROP SCHEMA IF EXISTS ${qi(snapshot)} CASCADE`);
  }

  watchDeliveries(listener: (orgId: string) => void): () => void {
    return this.watchers.watch(listener);
  }

  async ping(): Promise<void> {
    await run(this.pool, 'SELECT 1');
  }

  stats(): RecordStoreStats {
    return { openOrganizations: this.orgs.size, readerThreads: 0, busyReaderThreads: 0 };
  }

  /** Forgets the organizations opened; the pool is the caller's to end. */
  async close(): Promise<void> {
    this.orgs.closeAll();
  }
}
