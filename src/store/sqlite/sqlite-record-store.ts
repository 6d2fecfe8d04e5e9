// The embedded data plane: one SQLite file per organization under <data>/orgs/, so no query
// can reach another organization's rows (docs/internals/architecture.md, tenancy by construction); a bounded number of
// them open at once (open-organizations.ts).

import fs from 'node:fs';
import path from 'node:path';
import type { AppError } from '../../errors.js';
import type { FieldSpec, ObjectSpec } from '../../schema/build-object.js';
import { OrgSchema } from '../../schema/org-schema.js';
import type { ObjectDef, RecordRow, ViewSpec } from '../../schema/types.js';
import type { GroupedPlan } from '../../query/group-plan.js';
import type { QueryPlan } from '../../query/plan.js';
import { SqlCache } from '../record-sql.js';
import { noOrganization } from '../control-errors.js';
import { IDLE_CLOSE_MS, OPEN_ORGANIZATIONS, OpenOrganizations } from '../open-organizations.js';
import { errorOf } from '../../errors.js';
import type { ChangePage, ChangeRequest, HistoryRequest, MirroredUser, OrgRecords, RecordCheck, PageRequest, RecordStore, RecordStoreStats, SnapshotInfo, StoreLog } from '../types.js';
import { alignContents, backupTo, copyContents, fileIdsOf, listSnapshotFiles, removeDbFile, snapshotContentsDir, snapshotDir, snapshotFile, writeEmptyOrgFile } from './sqlite-snapshots.js';
import { ORG_MIGRATIONS, readSpecTexts, type TableCount } from './sqlite-ddl.js';
import { PlannerStatistics } from './sqlite-statistics.js';
import { ReadPool } from './read-pool.js';
import { withReaderFunctions } from './reader.js';
import { QUICK_ROWS } from './sqlite-read-plan.js';
import { SqliteRecordReads } from './sqlite-record-reads.js';
import { SqliteRecordWrites, WRITE_WAIT_MS, type SqliteWritableOrgFile } from './sqlite-record-writes.js';
import { SqliteRecordFiles } from './sqlite-record-files.js';
import type { AttachedFile } from '../../schema/attached-files.js';
import { migrate, openDb, prepared, PRIVATE_DIR_MODE, type Db } from './sqlite-db.js';
import { readChanges, readHistory } from './sqlite-change-log.js';
import type { ChangeAuthor, ChangeEntry } from '../../schema/changes.js';
import { runSync } from '../record-writes.js';
import { DeliveryWatchers, outboxOf } from '../webhook-outbox.js';
import type { WebhookOutbox } from '../../webhooks/webhook-types.js';

const ORG_ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Definitions built, with their compiled SQL, shared by every organization that has the same. */
interface Definitions {
  readonly schema: OrgSchema;
  readonly sql: SqlCache;
}

/** Distinct definitions kept at most (organizations without custom objects or fields share one). */
const MAX_DEFINITIONS = 256;

/**
 * The definitions of the organizations a store has open, by their stored text and version: opening
 * an organization whose definitions another organization has (all those without custom objects and
 * fields of one version) neither builds them nor compiles their SQL again, which were most of the
 * cost of opening one but SQLite's own (bench:orgs). Definitions are never changed in place; a change
 * gives the organization another entry.
 */
class SharedDefinitions {
  private readonly byText = new Map<string, Definitions>();

  of(version: number, specs: readonly string[]): Definitions {
    const key = `${version}\n${specs.join('\n')}`;
    let found = this.byText.get(key);
    if (!found) {
      if (this.byText.size >= MAX_DEFINITIONS) this.byText.clear();
      found = { schema: new OrgSchema(specs.map((text) => JSON.parse(text) as ObjectSpec), version), sql: new SqlCache() };
      this.byText.set(key, found);
    }
    return found;
  }
}

/** An open organization's file: its one connection, its schema as last read, its reads and writes. */
class OrgFile implements SqliteWritableOrgFile {
  private cached: Definitions | undefined;
  readonly reads: SqliteRecordReads;
  readonly writes: SqliteRecordWrites;
  readonly files: SqliteRecordFiles;

  /**
   * `db` serves the writes and the reads answered on the main thread alike: one connection a file
   * (three descriptors: the file, its WAL and its wal-index), so that many organizations fit under
   * a process's descriptor limit. See SqliteRecordReads and SqliteRecordWrites for the rest.
   * `onDeliveries`: after a commit that made webhook deliveries.
   */
  /** `onStale`: an object's planner statistics are missing or no longer hold (sqlite-statistics.ts); called inside a write's transaction, so it only schedules. */
  constructor(private readonly db: Db, readonly file: string, filesDir: string, private readonly readers: () => ReadPool, quickLimit: number, writeWaitMs: number, onDeliveries: () => void,
    private readonly definitions: SharedDefinitions, private readonly onStale: (objectType: number) => void) {
    this.reads = new SqliteRecordReads(this, () => db, readers, quickLimit);
    this.writes = new SqliteRecordWrites(db, this, writeWaitMs, onDeliveries);
    this.files = new SqliteRecordFiles(db, this, this.writes, filesDir);
    this.statistics = new PlannerStatistics(db);
  }

  private readonly statistics: PlannerStatistics;
  private readonly tableOf = (objectType: number): string | undefined => this.current().find(objectType)?.systemName;

  countsSeen(counts: readonly TableCount[]): void {
    for (const objectType of this.statistics.stale(counts, this.tableOf)) this.onStale(objectType);
  }

  /** The objects whose planner statistics are missing or no longer hold, by the counts as they are now. */
  staleStatistics(): number[] {
    return this.statistics.staleNow(this.tableOf);
  }

  /** Counts and stores an object's planner statistics (sqlite-statistics.ts); every connection to the file then plans with them. */
  async refreshStatistics(objectType: number): Promise<void> {
    const obj = this.current().find(objectType);
    if (!obj) return;
    await this.statistics.refresh({
      // In the background: queries queued meanwhile go first, and one thread stays theirs.
      read: (statements) => this.readers().run(this.file, statements, undefined, { background: true }),
      write: (work) => this.writes.write(work),
    }, obj);
  }

  /** The schema as committed: the version is read on every call, so a field added by another process is seen at once. */
  schemaSync(): OrgSchema {
    const { schema_version: version } = prepared(this.db, 'SELECT schema_version FROM orchard_meta WHERE id = 1').get() as { schema_version: number };
    if (this.cached?.schema.version !== version) this.cached = this.definitions.of(version, readSpecTexts(this.db));
    return this.cached.schema;
  }

  /** The compiled SQL of the schema as last read. */
  get sqlCache(): SqlCache {
    if (!this.cached) this.schemaSync();
    return this.cached!.sql;
  }

  /**
   * The schema as last read. Callers go through schema() once per request (routes resolve the
   * object with it), so the reads and writes after it need not read the version again.
   */
  current(): OrgSchema {
    return this.cached?.schema ?? this.schemaSync();
  }

  changes(request: ChangeRequest): ChangePage {
    return readChanges(this.db, request);
  }

  history(objectType: number, recordId: string, page: HistoryRequest): ChangeEntry[] {
    return readHistory(this.db, objectType, recordId, page);
  }

  /** An online backup of the file to `target` (sqlite-snapshots.ts backupTo), with the contents of the files its rows name. */
  async backup(target: string): Promise<SnapshotInfo> {
    const info = await backupTo(this.db, target);
    const copy = openDb(target, { readonly: true });
    try {
      copyContents(this.files.dir, snapshotContentsDir(target), fileIdsOf(copy));
    } finally {
      copy.close();
    }
    return info;
  }

  /**
   * Replaces the objects and records with `source`'s, then brings the file to the latest version;
   * the contents of files on records follow the rows (taken from `contents`, a snapshot's).
   */
  async replaceWith(source: string, contents?: string): Promise<void> {
    await this.writes.replaceWith(source);
    migrate(this.db, ORG_MIGRATIONS);
    this.schemaSync();
    await this.writes.growIndexes();
    alignContents(this.db, this.files.dir, contents);
  }

  close(): void {
    this.db.close();
  }
}

/** The records of one organization: each call runs on its file, opened for it if the store had closed it. */
class SqliteOrgRecords implements OrgRecords {
  /** Reads in autocommit, changes in an IMMEDIATE transaction that waits for the write lock as writes do. */
  readonly webhooks: WebhookOutbox = outboxOf({
    read: (steps) => this.use((f) => runSync(steps(f.writes.outbox))),
    change: (steps) => this.use((f) => f.writes.inTransaction(() => steps(f.writes.outbox))),
    keep: (steps) => this.use((f) => f.writes.inTransaction(() => steps(f.writes.outbox), false)),
    made: () => this.onDeliveries(),
  });

  /** `onDeliveries`: after a commit of this organization that made webhook deliveries outside a write (RecordStore.watchDeliveries). */
  constructor(private readonly opened: OpenOrganizations<OrgFile>, private readonly orgId: string, private readonly onDeliveries: () => void) {}

  private use<R>(work: (file: OrgFile) => R | Promise<R>): Promise<R> {
    return this.opened.use(this.orgId, work);
  }

  schema(): Promise<OrgSchema> {
    return this.use((f) => f.schemaSync());
  }

  /** schema() reads the definitions as committed on every call: the ones it gave were current. */
  async refreshSchema(): Promise<boolean> {
    return false;
  }

  get(obj: ObjectDef, id: string): Promise<RecordRow | null> {
    return this.use((f) => f.reads.get(obj, id));
  }

  list(obj: ObjectDef, page: PageRequest, signal?: AbortSignal): Promise<{ total: number; records: RecordRow[] }> {
    return this.use((f) => f.reads.list(obj, page, signal));
  }

  scan(obj: ObjectDef, after: string | null, limit: number): Promise<RecordRow[]> {
    return this.use((f) => f.reads.scan(obj, after, limit));
  }

  query(plan: QueryPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    return this.use((f) => f.reads.query(plan, signal));
  }

  groups(plan: GroupedPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    return this.use((f) => f.reads.groups(plan, signal));
  }

  create(obj: ObjectDef, row: RecordRow, author: ChangeAuthor): Promise<RecordRow> {
    return this.use((f) => f.writes.create(obj, row, author));
  }

  update(obj: ObjectDef, id: string, changes: RecordRow, author: ChangeAuthor, check?: RecordCheck): Promise<RecordRow | null> {
    return this.use((f) => f.writes.update(obj, id, changes, author, check));
  }

  delete(obj: ObjectDef, id: string, author: ChangeAuthor, check?: RecordCheck): Promise<boolean> {
    return this.use(async (f) => {
      const deleted = await f.writes.delete(obj, id, author, check);
      if (deleted) await f.files.emptyTrash();
      return deleted;
    });
  }

  createMany(obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<Array<RecordRow | AppError>> {
    return this.use((f) => f.writes.createMany(obj, rows, author));
  }

  updateMany(obj: ObjectDef, items: ReadonlyArray<{ id: string; changes: RecordRow }>, author: ChangeAuthor): Promise<Array<RecordRow | null | AppError>> {
    return this.use((f) => f.writes.updateMany(obj, items, author));
  }

  deleteMany(obj: ObjectDef, ids: readonly string[], author: ChangeAuthor): Promise<boolean[]> {
    return this.use(async (f) => {
      const deleted = await f.writes.deleteMany(obj, ids, author);
      if (deleted.includes(true)) await f.files.emptyTrash();
      return deleted;
    });
  }

  changes(request: ChangeRequest): Promise<ChangePage> {
    return this.use((f) => f.changes(request));
  }

  history(objectType: number, recordId: string, page: HistoryRequest): Promise<ChangeEntry[]> {
    return this.use((f) => f.history(objectType, recordId, page));
  }

  pruneChanges(before: string): Promise<number> {
    return this.use((f) => f.writes.pruneChanges(before));
  }

  attachFile(obj: ObjectDef, file: AttachedFile, content: Buffer): Promise<boolean> {
    return this.use((f) => f.files.attach(obj, file, content));
  }

  files(obj: ObjectDef, recordId: string): Promise<AttachedFile[] | null> {
    return this.use((f) => f.files.list(obj, recordId));
  }

  objectFiles(obj: ObjectDef): Promise<AttachedFile[]> {
    return this.use((f) => f.files.listObject(obj));
  }

  fileContent(obj: ObjectDef, recordId: string, fileId: string): Promise<{ file: AttachedFile; content: Buffer } | null> {
    return this.use((f) => f.files.content(obj, recordId, fileId));
  }

  deleteFile(obj: ObjectDef, recordId: string, fileId: string): Promise<boolean> {
    return this.use((f) => f.files.delete(obj, recordId, fileId));
  }

  addObject(define: (schema: OrgSchema) => ObjectSpec): Promise<OrgSchema> {
    return this.use(async (f) => {
      await f.writes.addObject(define);
      return f.schemaSync();
    });
  }

  addField(objectType: number, define: (obj: ObjectDef, schema: OrgSchema) => FieldSpec): Promise<OrgSchema> {
    return this.use(async (f) => {
      await f.writes.addField(objectType, define);
      return f.schemaSync();
    });
  }

  setViews(objectType: number, change: (obj: ObjectDef, schema: OrgSchema) => readonly ViewSpec[]): Promise<OrgSchema> {
    return this.use(async (f) => {
      await f.writes.setViews(objectType, change);
      return f.schemaSync();
    });
  }
}

export interface SqliteRecordStoreOptions {
  /** Reader threads (2); they start on first use. */
  readonly readers?: number;
  /**
   * Rows a query may examine on the calling thread (QUICK_ROWS), and in proportion the entries an
   * index walk (list pages included) may step; 0 sends every query and list page to the reader
   * threads (sqlite-read-plan.ts).
   */
  readonly quickRows?: number;
  /** How long a write waits at most for another process's write lock (WRITE_WAIT_MS). */
  readonly writeWaitMs?: number;
  /** Organizations kept open at most, beyond those in use at the moment (OPEN_ORGANIZATIONS; config.openOrganizations). */
  readonly openOrganizations?: number;
  /** Milliseconds after which an organization left unused is closed (IDLE_CLOSE_MS). */
  readonly idleCloseMs?: number;
}

export class SqliteRecordStore implements RecordStore {
  private readonly files: OpenOrganizations<OrgFile>;
  private readonly dir: string;
  /** File contents: <dataDir>/files/<org id>/<file id> (sqlite-record-files.ts). */
  private readonly filesDir: string;
  private readonly dataDir: string;
  private pool: ReadPool | undefined;
  private readonly readers: number;
  /** Organizations dropped by this store: never opened (so never created) again by a call still under way. */
  private readonly dropped = new Set<string>();
  private readonly watchers = new DeliveryWatchers();
  private readonly definitions = new SharedDefinitions();

  /** `dataDir` is the server's data directory; organization files go to `<dataDir>/orgs/<orgId>.db`. */
  constructor(dataDir: string, options: SqliteRecordStoreOptions = {}) {
    this.readers = options.readers ?? 2;
    const quickRows = options.quickRows ?? QUICK_ROWS;
    const writeWaitMs = options.writeWaitMs ?? WRITE_WAIT_MS;
    this.dataDir = dataDir;
    this.dir = path.join(dataDir, 'orgs');
    this.filesDir = path.join(dataDir, 'files');
    fs.mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    this.files = new OpenOrganizations<OrgFile>({
      max: options.openOrganizations ?? OPEN_ORGANIZATIONS,
      idleMs: options.idleCloseMs ?? IDLE_CLOSE_MS,
      open: (orgId) => {
        // Every way in (SqliteOrgRecords included) opens here: a dropped organization's file is not made anew.
        if (this.dropped.has(orgId)) throw noOrganization(orgId);
        const file = path.join(this.dir, `${orgId}.db`);
        const db = withReaderFunctions(openDb(file));
        try {
          migrate(db, ORG_MIGRATIONS);
        } catch (err) {
          db.close();
          throw err;
        }
        const org = new OrgFile(db, file, path.join(this.filesDir, orgId), () => (this.pool ??= new ReadPool(this.readers)), quickRows, writeWaitMs, () => this.watchers.told(orgId), this.definitions,
          (objectType) => this.refreshStatistics(orgId, objectType));
        // Files of earlier builds, or grown by another process, get their statistics without waiting for a write.
        for (const objectType of org.staleStatistics()) this.refreshStatistics(orgId, objectType);
        // A crash's leftovers (sqlite-record-files.ts); usually the trash is empty and this is one read.
        void org.files.emptyTrash(true).catch(() => {});
        return org;
      },
      close: (org) => {
        org.close();
        this.pool?.forget(org.file);
      },
    });
  }

  private use<R>(orgId: string, work: (file: OrgFile) => R | Promise<R>): Promise<R> {
    if (!ORG_ID_RE.test(orgId)) return Promise.reject(new Error(`not an organization id: ${orgId}`));
    return this.files.use(orgId, work);
  }

  async org(orgId: string): Promise<OrgRecords> {
    // Opened (created and migrated on first use) now, so that a file that cannot be opened fails here.
    await this.use(orgId, () => undefined);
    return new SqliteOrgRecords(this.files, orgId, () => this.watchers.told(orgId));
  }

  /** Reader threads started: 0 until a read needs them, then `readers`. */
  get readerThreads(): number {
    return this.pool?.size ?? 0;
  }

  upsertUser(orgId: string, user: MirroredUser): Promise<void> {
    return this.use(orgId, (f) => f.writes.upsertUser(user));
  }

  bulkInsert(orgId: string, obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<void> {
    return this.use(orgId, (f) => f.writes.bulkInsert(obj, rows, author));
  }

  snapshot(orgId: string, name: string): Promise<SnapshotInfo> {
    return this.use(orgId, (f) => f.backup(snapshotFile(this.dataDir, orgId, name)));
  }

  async listSnapshots(orgId: string): Promise<SnapshotInfo[]> {
    if (!ORG_ID_RE.test(orgId)) return [];
    return listSnapshotFiles(this.dataDir, orgId);
  }

  async deleteSnapshot(orgId: string, name: string): Promise<boolean> {
    if (!ORG_ID_RE.test(orgId)) return false;
    const file = snapshotFile(this.dataDir, orgId, name);
    fs.rmSync(snapshotContentsDir(file), { recursive: true, force: true });
    return removeDbFile(file);
  }

  restore(orgId: string, name: string): Promise<void> {
    return this.use(orgId, async (f) => {
      const file = snapshotFile(this.dataDir, orgId, name);
      if (!fs.existsSync(file)) throw errorOf('SNAPSHOT_NOT_FOUND', orgId, name);
      await f.replaceWith(file, snapshotContentsDir(file));
    });
  }

  clear(orgId: string): Promise<void> {
    return this.use(orgId, async (f) => {
      // A new organization's file beside the snapshots (same file system), copied from, then removed.
      const empty = path.join(snapshotDir(this.dataDir, orgId), `.empty-${process.pid}-${Date.now()}.db`);
      writeEmptyOrgFile(empty);
      try {
        await f.replaceWith(empty);
      } finally {
        removeDbFile(empty);
      }
    });
  }

  recreatable(orgId: string): void {
    this.dropped.delete(orgId);
  }

  async dropOrg(orgId: string): Promise<void> {
    if (!ORG_ID_RE.test(orgId)) return;
    this.dropped.add(orgId);
    this.files.discard(orgId);
    // A connection still open on it (a call under way, another process) keeps reading the unlinked
    // file until it closes; nothing can reach the organization any more once its tokens are gone.
    const file = path.join(this.dir, `${orgId}.db`);
    for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
    // Its files on records and its snapshots go with it.
    fs.rmSync(path.join(this.filesDir, orgId), { recursive: true, force: true });
    fs.rmSync(snapshotDir(this.dataDir, orgId), { recursive: true, force: true });
  }

  watchDeliveries(listener: (orgId: string) => void): () => void {
    return this.watchers.watch(listener);
  }

  async ping(): Promise<void> {
    // Every organization file lives in this directory, and new ones are created there.
    await fs.promises.access(this.dir, fs.constants.R_OK | fs.constants.W_OK);
  }

  stats(): RecordStoreStats {
    return { openOrganizations: this.files.size, readerThreads: this.readerThreads, busyReaderThreads: this.pool?.busy ?? 0 };
  }

  /**
   * Refreshes an object's planner statistics after the current turn (it is asked for inside a
   * write's transaction), one refresh an object at a time. A refresh that fails is tried again when
   * the table has doubled or halved since, or when the file is opened again: statistics only make
   * queries faster, and a query planned without them still answers.
   */
  private refreshStatistics(orgId: string, objectType: number): void {
    const key = `${orgId}/${objectType}`;
    if (this.refreshing.has(key) || this.closing) return;
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.use(orgId, (f) => f.refreshStatistics(objectType)))
      .catch((err: unknown) => this.log?.warn({ err, orgId, objectType },
        `The query planner's statistics of object type ${objectType} were not counted: its queries are planned without them, which answers the same but may read more rows. Tried again when the table has doubled or halved, or when the organization's file is opened again`))
      .finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, done);
  }

  private log: StoreLog | undefined;

  /** Where the store tells of work it does on its own and could not do (a server's log). */
  logTo(log: StoreLog): void {
    this.log = log;
  }

  /** Planner statistics being refreshed, by organization and object; close() waits for them (the CLI's seed leaves them made). */
  private readonly refreshing = new Map<string, Promise<void>>();
  private closing = false;

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.refreshing.values());
    await this.pool?.close();
    this.pool = undefined;
    this.files.closeAll();
  }
}
