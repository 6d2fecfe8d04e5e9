// The embedded data plane: one SQLite file per organization under <data>/orgs/, so no query
// can reach another organization's rows (DESIGN §1, tenancy by construction).

import fs from 'node:fs';
import path from 'node:path';
import type { AppError } from '../../errors.js';
import type { FieldSpec, ObjectSpec } from '../../schema/build-object.js';
import { OrgSchema } from '../../schema/org-schema.js';
import type { ObjectDef, RecordRow } from '../../schema/types.js';
import type { QueryPlan } from '../../query/plan.js';
import { SqlCache } from '../record-sql.js';
import type { OrgRecords, PageRequest, RecordStore } from '../types.js';
import { ORG_MIGRATIONS, readSpecs } from './sqlite-ddl.js';
import { ReadPool } from './read-pool.js';
import { openReader } from './reader.js';
import { QUICK_ROWS } from './sqlite-read-plan.js';
import { SqliteRecordReads, type SqliteOrgFile } from './sqlite-record-reads.js';
import { SqliteRecordWrites, WRITE_WAIT_MS } from './sqlite-record-writes.js';
import { migrate, openDb, prepared, type Db } from './sqlite-db.js';

const ORG_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One organization's file: its schema, and its reads and writes composed. */
class SqliteOrgRecords implements OrgRecords, SqliteOrgFile {
  readonly sqlCache = new SqlCache();
  private cached: OrgSchema | undefined;
  /** The main thread's read-only connection, for GETs by id and bounded reads (runBounded); opened on first use. */
  private quickDb: Db | undefined;
  private readonly reads: SqliteRecordReads;
  private readonly writes: SqliteRecordWrites;

  /** `db` is the organization's writing connection; see SqliteRecordReads and SqliteRecordWrites for the rest. */
  constructor(private readonly db: Db, readonly file: string, readers: () => ReadPool, quickLimit: number, writeWaitMs: number) {
    this.reads = new SqliteRecordReads(this, () => (this.quickDb ??= openReader(file)), readers, quickLimit);
    this.writes = new SqliteRecordWrites(db, this, writeWaitMs);
  }

  async schema(): Promise<OrgSchema> {
    return this.schemaSync();
  }

  /** The schema as committed: the version is read on every call, so a field added by another process is seen at once. */
  schemaSync(): OrgSchema {
    const { schema_version: version } = prepared(this.db, 'SELECT schema_version FROM orchard_meta WHERE id = 1').get() as { schema_version: number };
    if (this.cached?.version !== version) {
      this.cached = new OrgSchema(readSpecs(this.db), version);
      this.sqlCache.clear();
    }
    return this.cached;
  }

  /**
   * The schema as last read. Callers go through schema() once per request (routes resolve the
   * object with it), so the reads and writes after it need not read the version again.
   */
  current(): OrgSchema {
    return this.cached ?? this.schemaSync();
  }

  async get(obj: ObjectDef, id: string): Promise<RecordRow | null> {
    return this.reads.get(obj, id);
  }

  async list(obj: ObjectDef, page: PageRequest, signal?: AbortSignal): Promise<{ total: number; records: RecordRow[] }> {
    return this.reads.list(obj, page, signal);
  }

  async query(plan: QueryPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    return this.reads.query(plan, signal);
  }

  async create(obj: ObjectDef, row: RecordRow): Promise<RecordRow> {
    return this.writes.create(obj, row);
  }

  async update(obj: ObjectDef, id: string, changes: RecordRow): Promise<RecordRow | null> {
    return this.writes.update(obj, id, changes);
  }

  async delete(obj: ObjectDef, id: string): Promise<boolean> {
    return this.writes.delete(obj, id);
  }

  async createMany(obj: ObjectDef, rows: readonly RecordRow[]): Promise<Array<RecordRow | AppError>> {
    return this.writes.createMany(obj, rows);
  }

  async updateMany(obj: ObjectDef, items: ReadonlyArray<{ id: string; changes: RecordRow }>): Promise<Array<RecordRow | null | AppError>> {
    return this.writes.updateMany(obj, items);
  }

  async deleteMany(obj: ObjectDef, ids: readonly string[]): Promise<boolean[]> {
    return this.writes.deleteMany(obj, ids);
  }

  async addObject(define: (schema: OrgSchema) => ObjectSpec): Promise<OrgSchema> {
    await this.writes.addObject(define);
    return this.schemaSync();
  }

  async addField(objectType: number, define: (obj: ObjectDef, schema: OrgSchema) => FieldSpec): Promise<OrgSchema> {
    await this.writes.addField(objectType, define);
    return this.schemaSync();
  }

  async bulkInsert(obj: ObjectDef, rows: readonly RecordRow[]): Promise<void> {
    return this.writes.bulkInsert(obj, rows);
  }

  async upsertUser(user: { id: string; fullname: string; email: string }): Promise<void> {
    return this.writes.upsertUser(user);
  }

  close(): void {
    this.quickDb?.close();
    this.db.close();
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
   * (QUICK_ROWS) and the index walks longer than a bound in proportion, list pages included
   * (sqlite-read-plan.ts; 0 sends every query and list page to them); they start on first use. A
   * write waits `writeWaitMs` (WRITE_WAIT_MS) at most for another process's write lock.
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
    await this.open(orgId).upsertUser(user);
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
