// SQLite DDL for object tables and their migrations: one table per object, one typed column per field.

import { buildObject, type ObjectSpec } from '../../schema/build-object.js';
import type { OrgSchema } from '../../schema/org-schema.js';
import { STANDARD_OBJECT_SPECS, upgradedStandardSpec } from '../../schema/standard-objects.js';
import { TEXT_TYPES, type FieldDef, type ObjectDef } from '../../schema/types.js';
import { newEpoch } from '../change-log.js';
import { dueIndexSql } from '../webhook-outbox.js';
import { FOLD_FUNCTION, prepared, type Db, type Migration } from './sqlite-db.js';

/** Identifiers come from definitions checked to be [a-z0-9_]; quoting still guards every one. */
export const q = (id: string): string => `"${id.replace(/"/g, '""')}"`;

/** ISO dates sort as text; numbers are REAL; text is compared through the fold (see indexSql). */
export function sqliteColumnType(f: FieldDef): string {
  if (f.role === 'key') return 'TEXT PRIMARY KEY NOT NULL';
  switch (f.type) {
    case 'number': return 'REAL';
    case 'picklist': return 'INTEGER';
    default: return 'TEXT'; // lookup (lowercase UUID), date, datetime
  }
}

/**
 * Each indexed field gets (field, key): it serves filters on the field and the stable sort by it
 * with ties by key. Text fields are indexed on their case fold, which is what queries compare.
 */
export function indexSql(obj: ObjectDef, f: FieldDef): string {
  return `CREATE INDEX IF NOT EXISTS ${q(fieldIndexName(obj, f))} ON ${q(obj.systemName)} (${indexedColumn(f)}, ${q(obj.keyField)})`;
}

/** The name of a field's index (indexSql). */
export function fieldIndexName(obj: ObjectDef, f: FieldDef): string {
  return `ix_${obj.systemName}_${f.name}`;
}

/** What a field's index orders by before the key: the column, or its case fold for text. */
export function indexedColumn(f: FieldDef): string {
  return TEXT_TYPES.has(f.type) ? `${FOLD_FUNCTION}(${q(f.name)})` : q(f.name);
}

/**
 * An object's table holds its field indexes once it has INDEX_ROWS rows: SQLite parses every
 * index's schema on the first statement after a file is opened, and a new organization's 28 tables
 * had 206 of them, most on empty tables (bench:orgs). Below it a read of the table scans at most
 * INDEX_ROWS rows, no more than a read may examine on the main thread (QUICK_ROWS), so such a read
 * is still answered there. Files made with every index (earlier builds) keep them.
 */
export const INDEX_ROWS = 256;

/** The table only: its field indexes come with its rows (INDEX_ROWS, GrownIndexes). */
export function createTableSql(obj: ObjectDef): string[] {
  const cols = obj.fields.filter((f) => f.role !== 'derived').map((f) => `${q(f.name)} ${sqliteColumnType(f)}`);
  return [`CREATE TABLE ${q(obj.systemName)} (${cols.join(', ')})`];
}

/** The names of the field indexes (ix_<object>_<field>) the object's table has. */
export function fieldIndexNames(db: Db, obj: ObjectDef): string[] {
  const names = prepared(db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").pluck().all(obj.systemName) as string[];
  return names.filter((n) => n.startsWith(`ix_${obj.systemName}_`));
}

/** Makes the object's missing field indexes (`present`: those it has), inside the caller's write transaction. */
export function makeFieldIndexes(db: Db, obj: ObjectDef, present: readonly string[] = fieldIndexNames(db, obj)): void {
  for (const f of obj.fields) {
    if (f.indexed && f.role !== 'derived' && !present.includes(fieldIndexName(obj, f))) db.exec(indexSql(obj, f));
  }
}

/**
 * Adds fields' columns to an existing table, then their indexes when the table has its indexes
 * (INDEX_ROWS rows, or made with every index by an earlier build); `obj` has the fields.
 */
export function addColumns(db: Db, obj: ObjectDef, fields: readonly FieldDef[]): void {
  for (const f of fields) db.exec(`ALTER TABLE ${q(obj.systemName)} ADD COLUMN ${q(f.name)} ${sqliteColumnType(f)}`);
  if (!fields.some((f) => f.indexed)) return;
  const rows = (prepared(db, COUNT_SQL).get(obj.objectType) as { n: number } | undefined)?.n ?? 0;
  const present = fieldIndexNames(db, obj);
  // An earlier build's file has every index, a small table included: it gets this one too.
  if (rows >= INDEX_ROWS || present.length > 0) makeFieldIndexes(db, obj, present);
}

/**
 * Makes, inside a write transaction, the field indexes of the tables that have reached INDEX_ROWS
 * rows, so that every write path (records, batches, bulk inserts, restores) grows them alike. It
 * remembers the objects done for a schema version (which moves when definitions change or contents
 * are replaced): past that, a write costs it one query of the row counts.
 */
export class GrownIndexes {
  private version = Number.NaN;
  private readonly done = new Set<number>();

  /** `onCounts` is given the row counts read, those of INDEX_ROWS rows or more (the planner's statistics follow them). */
  constructor(private readonly db: Db, private readonly onCounts: (counts: readonly TableCount[]) => void = () => {}) {}

  grow(schema: OrgSchema): void {
    if (schema.version !== this.version) {
      this.done.clear();
      this.version = schema.version;
    }
    const due = prepared(this.db, GROWN_SQL).all(INDEX_ROWS) as TableCount[];
    for (const { objectType } of due) {
      if (this.done.has(objectType)) continue;
      const obj = schema.find(objectType);
      if (obj) makeFieldIndexes(this.db, obj);
      this.done.add(objectType);
    }
    if (due.length > 0) this.onCounts(due);
  }
}

/** An object's row count (orchard_counts). */
export interface TableCount {
  readonly objectType: number;
  readonly n: number;
}

/** The objects of at least ? rows, with their counts. */
export const GROWN_SQL = 'SELECT object_type AS objectType, n FROM orchard_counts WHERE n >= ?';

/**
 * The row count of an object's table kept in orchard_counts by triggers, so a GET-list page reads
 * its Total_Records from one row instead of counting the table (35 ms for a million accounts).
 * Triggers run in the writing transaction, whichever connection or process writes (the CLI's seed
 * included), so the count is always the table's. Starts from the table's rows at the time.
 */
export function countSql(obj: ObjectDef): string[] {
  const table = q(obj.systemName);
  const ot = String(obj.objectType);
  return [
    `INSERT INTO orchard_counts (object_type, n) SELECT ${ot}, count(*) FROM ${table}`,
    `CREATE TRIGGER ${q(`orchard_count_insert_${obj.systemName}`)} AFTER INSERT ON ${table} BEGIN UPDATE orchard_counts SET n = n + 1 WHERE object_type = ${ot}; END`,
    `CREATE TRIGGER ${q(`orchard_count_delete_${obj.systemName}`)} AFTER DELETE ON ${table} BEGIN UPDATE orchard_counts SET n = n - 1 WHERE object_type = ${ot}; END`,
  ];
}

/** The SQL of an object's row count (see countSql). */
export const COUNT_SQL = 'SELECT n FROM orchard_counts WHERE object_type = ?';

/** The object definitions of an organization's database, by object number, as stored (JSON text). */
export function readSpecTexts(db: Db): string[] {
  return prepared(db, 'SELECT spec FROM orchard_objects ORDER BY object_type').pluck().all() as string[];
}

/** The object definitions of an organization's database, by object number. */
export function readSpecs(db: Db): ObjectSpec[] {
  return readSpecTexts(db).map((text) => JSON.parse(text) as ObjectSpec);
}

/**
 * The change log: one row an entry, numbered by `seq` in the order of the commits; the one row of
 * orchard_change_log holds the log's epoch, its highest number and its floor (change-log.ts).
 */
const CHANGE_LOG_DDL = [
  `CREATE TABLE orchard_changes (seq INTEGER PRIMARY KEY, object_type INTEGER NOT NULL, record_id TEXT NOT NULL, operation TEXT NOT NULL,
    fields TEXT NOT NULL, user_id TEXT, changedon TEXT NOT NULL)`,
  'CREATE INDEX ix_orchard_changes_record ON orchard_changes (object_type, record_id, seq)',
  `CREATE TABLE orchard_change_log (id INTEGER PRIMARY KEY CHECK (id = 1), epoch TEXT NOT NULL, last_seq INTEGER NOT NULL, floor_seq INTEGER NOT NULL)`,
];

/** Versioned migrations of an organization's database; append only, never edit a released one. */
export const ORG_MIGRATIONS: readonly Migration[] = [
  // 1: object definitions and the standard objects.
  (db: Db) => {
    db.exec(`CREATE TABLE orchard_objects (object_type INTEGER PRIMARY KEY, spec TEXT NOT NULL)`);
    db.exec(`CREATE TABLE orchard_meta (id INTEGER PRIMARY KEY CHECK (id = 1), schema_version INTEGER NOT NULL)`);
    db.exec(`INSERT INTO orchard_meta (id, schema_version) VALUES (1, 1)`);
    const insert = db.prepare('INSERT INTO orchard_objects (object_type, spec) VALUES (?, ?)');
    for (const spec of STANDARD_OBJECT_SPECS) {
      insert.run(spec.objectType, JSON.stringify(spec));
      for (const stmt of createTableSql(buildObject(spec))) db.exec(stmt);
    }
  },
  // 2: row counts kept by triggers, for every object defined so far (custom ones included).
  (db: Db) => {
    db.exec(`CREATE TABLE orchard_counts (object_type INTEGER PRIMARY KEY, n INTEGER NOT NULL)`);
    for (const spec of readSpecs(db)) for (const stmt of countSql(buildObject(spec))) db.exec(stmt);
  },
  // 3: standard objects as now defined (a note's objectid and objecttypecode), and files on records:
  // their content is on disk (sqlite-record-files.ts); orchard_file_trash names contents to remove.
  (db: Db) => {
    upgradeStandardObjects(db);
    db.exec(`CREATE TABLE orchard_files (id TEXT PRIMARY KEY NOT NULL, object_type INTEGER NOT NULL, record_id TEXT NOT NULL,
      filename TEXT NOT NULL, content_type TEXT NOT NULL, size INTEGER NOT NULL, createdon TEXT NOT NULL, createdby TEXT NOT NULL)`);
    db.exec('CREATE INDEX ix_orchard_files_record ON orchard_files (object_type, record_id, createdon, id)');
    db.exec('CREATE TABLE orchard_file_trash (id TEXT PRIMARY KEY NOT NULL, since TEXT NOT NULL)');
  },
  // 4: the change log (docs/history.md), empty: writes before the upgrade have no entries.
  (db: Db) => {
    for (const stmt of CHANGE_LOG_DDL) db.exec(stmt);
    db.prepare(`INSERT INTO orchard_change_log (id, epoch, last_seq, floor_seq) VALUES (1, ?, 0, 0)`).run(newEpoch());
  },
  // 5: webhooks and their outbox (store/webhook-outbox.ts). IF NOT EXISTS: a restore keeps the
  // deliveries of the file it replaces, then migrates a source older than this.
  (db: Db) => {
    db.exec(`CREATE TABLE IF NOT EXISTS orchard_webhooks (id TEXT PRIMARY KEY NOT NULL, event TEXT NOT NULL, object_type INTEGER, url TEXT NOT NULL,
      method TEXT NOT NULL, filter TEXT, headers TEXT NOT NULL, secret TEXT NOT NULL, created_at TEXT NOT NULL, failures INTEGER NOT NULL DEFAULT 0,
      failing_since INTEGER, disabled_at INTEGER, notice_lease INTEGER, notice_sent_at TEXT)`);
    db.exec(`CREATE TABLE IF NOT EXISTS orchard_deliveries (n INTEGER PRIMARY KEY, id TEXT NOT NULL, webhook_id TEXT NOT NULL, event TEXT NOT NULL,
      object_type INTEGER NOT NULL, record_id TEXT NOT NULL, sequence INTEGER NOT NULL, payload TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL,
      created_ms INTEGER NOT NULL, written_ms INTEGER NOT NULL, next_ms INTEGER, lease_ms INTEGER, last_ms INTEGER, last_status INTEGER,
      last_error TEXT, duration_ms REAL, response TEXT)`);
    db.exec(`CREATE INDEX IF NOT EXISTS ix_orchard_deliveries_due ON orchard_deliveries (next_ms) WHERE state = 'pending'`);
    db.exec('CREATE INDEX IF NOT EXISTS ix_orchard_deliveries_webhook ON orchard_deliveries (webhook_id, n)');
  },
  // 6: the pending deliveries indexed in a claim's order (webhook-outbox.ts dueIndexSql). Idempotent:
  // a restore keeps the outbox of the file it replaces, then migrates a source older than this.
  (db: Db) => {
    for (const stmt of dueIndexSql('')) db.exec(stmt);
  },
  // 7: standard objects as now defined (a note's parentnoteid).
  (db: Db) => upgradeStandardObjects(db),
  // 8: a webhook's previous secret, which signs beside a rotated one until it expires. Idempotent:
  // a restore of an older snapshot, or a file taken back to an earlier version, may have the columns.
  (db: Db) => {
    const has = new Set((db.prepare(`SELECT name FROM pragma_table_info('orchard_webhooks')`).all() as Array<{ name: string }>).map((c) => c.name));
    if (!has.has('previous_secret')) db.exec(`ALTER TABLE orchard_webhooks ADD COLUMN previous_secret TEXT`);
    if (!has.has('previous_secret_expires_at')) db.exec(`ALTER TABLE orchard_webhooks ADD COLUMN previous_secret_expires_at INTEGER`);
  },
];

/** The standard objects' stored definitions brought to this release's, their new fields' columns added. */
function upgradeStandardObjects(db: Db): void {
  for (const stored of readSpecs(db)) {
    const upgrade = upgradedStandardSpec(stored);
    if (!upgrade) continue;
    db.prepare('UPDATE orchard_objects SET spec = ? WHERE object_type = ?').run(JSON.stringify(upgrade.spec), stored.objectType);
    const obj = buildObject(upgrade.spec);
    addColumns(db, obj, upgrade.added.map((f) => obj.fieldsByName.get(f.name)!));
  }
  db.exec('UPDATE orchard_meta SET schema_version = schema_version + 1 WHERE id = 1');
}
