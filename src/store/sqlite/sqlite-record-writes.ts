// The writes of one organization's SQLite file: records one at a time and in batches (the shared
// write path of record-writes.ts, run synchronously in a transaction), definitions, bulk inserts
// and the crmuser mirror, each taking the write lock without holding up the event loop (write()).

import type { AppError } from '../../errors.js';
import { errorOf } from '../../errors.js';
import { buildObject, CRMUSER_OBJECT_TYPE, type FieldSpec, type ObjectSpec } from '../../schema/build-object.js';
import type { OrgSchema } from '../../schema/org-schema.js';
import type { ObjectDef, RecordRow, ViewSpec } from '../../schema/types.js';
import type { ChangeAuthor } from '../../schema/changes.js';
import {
  ChangeBuffer, deleteRecord, eachItem, fieldAddition, insertRecord, runSync, updateRecord, upsertUserStatement, viewsChange, withChangeLog,
  type RecordWriter, type Steps,
} from '../record-writes.js';
import { pruneBatch } from '../change-log.js';
import type { MirroredUser, RecordCheck } from '../types.js';
import { readRecord, type SqliteOrgFile } from './sqlite-record-reads.js';
import { addColumns, countSql, createTableSql, GrownIndexes, q, type TableCount } from './sqlite-ddl.js';
import { BUSY_TIMEOUT_MS, prepared, WAL_LIMIT_BYTES, type Db } from './sqlite-db.js';
import { sqliteSql } from './sqlite-sql.js';
import { trashFilesStatement, type SqliteFileWrites } from './sqlite-record-files.js';
import { deleteFilesOfRecord } from '../record-files.js';
import { replaceContents, withSource } from './sqlite-snapshots.js';
import { appendWithDeliveries, readActiveHooks, type ActiveHooks, type OutboxExec } from '../webhook-outbox.js';
import type { ActiveHook } from '../../webhooks/webhook-types.js';

/** What a bulk insert's transaction may write to the WAL: a quarter of the limit it is kept under. */
const BULK_WAL_BYTES = WAL_LIMIT_BYTES / 4;

/** Rows of a bulk insert's first transaction, before its frames per row are known. */
const FIRST_BULK_ROWS = 100;

/**
 * How long a bulk insert's checkpoint waits for another connection's write or read to end; it holds
 * the write lock meanwhile, which a server's write waits out (write()).
 */
const CHECKPOINT_WAIT_MS = 100;

/** How long a write waits by default for another connection's write lock, as long as SQLite's busy timeout. */
export const WRITE_WAIT_MS = BUSY_TIMEOUT_MS;

function sqliteCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

const isBusy = (err: unknown): boolean => sqliteCode(err).startsWith('SQLITE_BUSY');

/** The organization's file as its writes see it: also the schema read anew, inside a write. */
export interface SqliteWritableOrgFile extends SqliteOrgFile {
  schemaSync(): OrgSchema;
  /** The row counts a write's transaction read (GrownIndexes): the planner's statistics follow them. */
  countsSeen(counts: readonly TableCount[]): void;
}

export class SqliteRecordWrites implements SqliteFileWrites {
  /** The shared write path's hooks: statements on the writer connection, inside the caller's transaction. */
  readonly writer: RecordWriter;
  /** The webhooks' outbox statements (store/webhook-outbox.ts) on the writer connection. */
  readonly outbox: OutboxExec;
  /** The active webhooks as of the schema version last read (the version moves with them). */
  private hooks: ActiveHooks | undefined;
  /** Field indexes made as tables grow (sqlite-ddl.ts INDEX_ROWS), in the transaction of every write of rows. */
  private readonly indexes: GrownIndexes;

  /** `db` is the organization's writing connection; a write waits `writeWaitMs` at most for another writer (see write()). */
  /** `onDeliveries` is called after a commit that made webhook deliveries (RecordStore.watchDeliveries). */
  constructor(private readonly db: Db, private readonly org: SqliteWritableOrgFile, private readonly writeWaitMs: number, private readonly onDeliveries: () => void = () => {}) {
    this.writer = {
      k: sqliteSql,
      // The schema's compiled SQL, which changes with the schema (sqlite-record-store.ts).
      get sqlCache() {
        return org.sqlCache;
      },
      // The transaction holds the file's write lock: no other connection can delete a target meanwhile.
      lockLookups: false,
      appendInOneStatement: false,
      schema: () => org.current(),
      run: (s) => prepared(db, s.sql).run(...s.parameters).changes,
      exists: (s) => prepared(db, s.sql).get(...s.parameters) !== undefined,
      rows: (s) => prepared(db, s.sql).all(...s.parameters) as RecordRow[],
      read: (obj, id) => readRecord(db, org, obj, id),
      isUniqueViolation: (err) => /^SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)/.test(sqliteCode(err)),
      // The contents are removed once the delete commits (SqliteRecordFiles.emptyTrash).
      dropFiles: (obj, id) => {
        for (const s of [trashFilesStatement(obj, id), deleteFilesOfRecord(this.writer, obj, id)]) prepared(db, s.sql).run(...s.parameters);
      },
      activeHooks: () => this.activeHooks(),
    };
    this.outbox = { k: sqliteSql, batchStatements: false, rows: this.writer.rows, run: this.writer.run };
    this.indexes = new GrownIndexes(db, (counts) => org.countsSeen(counts));
  }

  /** Runs `work` in an IMMEDIATE transaction that then makes the indexes of the tables grown past INDEX_ROWS. */
  private transact<T>(work: () => T): T {
    return this.db.transaction(() => {
      const result = work();
      this.indexes.grow(this.org.current());
      return result;
    }).immediate();
  }

  /** The active webhooks the write path makes deliveries for; read in the write's transaction when the schema version moved. */
  activeHooks(): readonly ActiveHook[] {
    const schema = this.org.current();
    if (this.hooks?.version !== schema.version) this.hooks = runSync(readActiveHooks(this.outbox, schema));
    return this.hooks.hooks;
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

  /**
   * Runs the steps of a shared write in one IMMEDIATE transaction (one fsync), under write().
   * `durable` false commits without the fsync (synchronous=NORMAL for this transaction: in WAL mode
   * the commit survives a crash of the process but maybe not of the machine), for what may be lost
   * (the webhooks' bookkeeping, store/webhook-outbox.ts OutboxRunners.keep).
   */
  inTransaction<T>(steps: () => Steps<T>, durable = true): Promise<T> {
    if (durable) return this.write(() => this.db.transaction(() => runSync(steps())).immediate());
    return this.write(() => {
      prepared(this.db, 'PRAGMA synchronous = NORMAL').run();
      try {
        return this.db.transaction(() => runSync(steps())).immediate();
      } finally {
        prepared(this.db, 'PRAGMA synchronous = FULL').run();
      }
    });
  }

  /**
   * A write of records in one IMMEDIATE transaction (one fsync), under write(), appending its
   * change-log entries and webhook deliveries, and making the indexes of a table it grew past INDEX_ROWS.
   */
  private async logged<T>(author: ChangeAuthor, steps: (log: ChangeBuffer) => Steps<T>): Promise<T> {
    const made = { count: 0 };
    const result = await this.write(() => this.transact(() => runSync(withChangeLog(author, steps, (log) => appendWithDeliveries(this.writer, log, made)))));
    if (made.count > 0) this.onDeliveries();
    return result;
  }

  create(obj: ObjectDef, row: RecordRow, author: ChangeAuthor): Promise<RecordRow> {
    return this.logged(author, (log) => insertRecord(this.writer, log, obj, row));
  }

  update(obj: ObjectDef, id: string, changes: RecordRow, author: ChangeAuthor, check?: RecordCheck): Promise<RecordRow | null> {
    return this.logged(author, (log) => updateRecord(this.writer, log, obj, id, changes, check));
  }

  delete(obj: ObjectDef, id: string, author: ChangeAuthor, check?: RecordCheck): Promise<boolean> {
    return this.logged(author, (log) => deleteRecord(this.writer, log, obj, id, check));
  }

  createMany(obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<Array<RecordRow | AppError>> {
    return this.logged(author, (log) => eachItem(this.writer, log, rows, (row) => insertRecord(this.writer, log, obj, row)));
  }

  updateMany(obj: ObjectDef, items: ReadonlyArray<{ id: string; changes: RecordRow }>, author: ChangeAuthor): Promise<Array<RecordRow | null | AppError>> {
    return this.logged(author, (log) => eachItem(this.writer, log, items, ({ id, changes }) => updateRecord(this.writer, log, obj, id, changes)));
  }

  deleteMany(obj: ObjectDef, ids: readonly string[], author: ChangeAuthor): Promise<boolean[]> {
    return this.logged(author, (log) => eachItem(this.writer, log, ids, (id) => deleteRecord(this.writer, log, obj, id))) as Promise<boolean[]>;
  }

  /** Prunes the change log (change-log.ts pruneBatch), a batch a transaction; the entries removed. */
  async pruneChanges(before: string): Promise<number> {
    let total = 0;
    for (let more = true; more;) {
      const batch = await this.inTransaction(() => pruneBatch(this.writer, before));
      total += batch.deleted;
      more = batch.more;
    }
    return total;
  }

  /** Runs a schema change under the write lock, on the definitions as committed, and bumps the version. */
  private async changeSchema(change: (schema: OrgSchema) => void): Promise<void> {
    await this.write(() => this.db.transaction(() => {
      change(this.org.schemaSync());
      prepared(this.db, 'UPDATE orchard_meta SET schema_version = schema_version + 1 WHERE id = 1').run();
    }).immediate());
  }

  addObject(define: (schema: OrgSchema) => ObjectSpec): Promise<void> {
    return this.changeSchema((schema) => {
      const spec = define(schema);
      prepared(this.db, 'INSERT INTO orchard_objects (object_type, spec) VALUES (?, ?)').run(spec.objectType, JSON.stringify(spec));
      const obj = buildObject(spec);
      for (const stmt of [...createTableSql(obj), ...countSql(obj)]) this.db.exec(stmt);
    });
  }

  addField(objectType: number, define: (obj: ObjectDef, schema: OrgSchema) => FieldSpec): Promise<void> {
    return this.changeSchema((schema) => {
      const { spec, field } = fieldAddition(schema, objectType, define);
      prepared(this.db, 'UPDATE orchard_objects SET spec = ? WHERE object_type = ?').run(JSON.stringify(spec), objectType);
      addColumns(this.db, buildObject(spec), [field]);
    });
  }

  setViews(objectType: number, change: (obj: ObjectDef, schema: OrgSchema) => readonly ViewSpec[]): Promise<void> {
    return this.changeSchema((schema) => {
      const spec = viewsChange(schema, objectType, change);
      prepared(this.db, 'UPDATE orchard_objects SET spec = ? WHERE object_type = ?').run(JSON.stringify(spec), objectType);
    });
  }

  /**
   * The rows without the per-record checks (the caller made them), each with its change-log entry
   * (a create by `author`) in the transaction that inserts it, in transactions that each write
   * about BULK_WAL_BYTES to the WAL at most: a transaction's pages all stay in the WAL until it
   * commits, and with a dozen indexes a row of a large table dirties ten pages or more (one
   * transaction of 5,000 rows of 200,000 accounts wrote 170 MB). After each, a RESTART checkpoint
   * copies the WAL into the database and makes the next writer start it again from its beginning:
   * else a server writing between two transactions keeps it from restarting, and it grows by every
   * transaction. The first transaction takes FIRST_BULK_ROWS rows; each next one at most twice as
   * many, and no more than the most frames per row seen so far allow.
   */
  async bulkInsert(obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<void> {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const sql = `INSERT INTO ${q(obj.systemName)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    const stmt = prepared(this.db, sql);
    const budget = BULK_WAL_BYTES / (this.db.pragma('page_size', { simple: true }) as number);
    let framesPerRow = 0;
    const made = { count: 0 };
    for (let start = 0, size = FIRST_BULK_ROWS; start < rows.length;) {
      const part = rows.slice(start, start + size);
      await this.write(() => this.transact(() => {
        const log = new ChangeBuffer(author);
        for (const row of part) {
          stmt.run(...columns.map((c) => row[c] ?? null));
          log.add(obj, row[obj.keyField] as string, 'create', null, row);
        }
        runSync(appendWithDeliveries(this.writer, log, made));
      }));
      start += part.length;
      framesPerRow = Math.max(framesPerRow, this.restartWal() / part.length);
      size = Math.max(1, Math.min(2 * part.length, Math.floor(budget / framesPerRow)));
    }
    if (made.count > 0) this.onDeliveries();
  }

  /**
   * A RESTART checkpoint, waiting CHECKPOINT_WAIT_MS at most for another connection's write or read
   * to end (it reports them busy rather than failing); the frames the WAL held.
   */
  private restartWal(): number {
    prepared(this.db, `PRAGMA busy_timeout = ${CHECKPOINT_WAIT_MS}`).run();
    try {
      return (prepared(this.db, 'PRAGMA wal_checkpoint(RESTART)').get() as { log: number }).log;
    } finally {
      prepared(this.db, `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).run();
    }
  }

  /**
   * Replaces the objects and records with those of the SQLite file `source` (sqlite-snapshots.ts
   * replaceContents) in one transaction, taking the write lock as every write does.
   */
  async replaceWith(source: string): Promise<void> {
    await withSource(this.db, source, () => this.write(() => this.db.transaction(() => replaceContents(this.db)).immediate()));
  }

  /**
   * Makes the indexes of the tables past INDEX_ROWS rows, on the definitions as committed: after a
   * replacement, whose source may hold large tables without them, once the file is migrated.
   */
  async growIndexes(): Promise<void> {
    await this.write(() => this.transact(() => this.org.schemaSync()));
  }

  async upsertUser(user: MirroredUser): Promise<void> {
    const users = this.org.schemaSync().resolve(CRMUSER_OBJECT_TYPE);
    const { sql, parameters } = upsertUserStatement(sqliteSql, users, user, new Date().toISOString().slice(0, 19));
    await this.write(() => this.transact(() => prepared(this.db, sql).run(...parameters)));
  }
}
