// The query planner's statistics of an organization's file (docs/decisions.md, "SQLite's planner
// gets statistics"). Without them SQLite takes an equality on any index to match about ten rows, so
// on a large table it may read half the table through a picklist's index where a nearly unique
// field's index reads one row (a query of 200,000 accounts: 64 ms against 0.08). SQLite's ANALYZE
// would count them on the main thread holding the file's write lock for as long as it reads every
// index (0.4 s for 200,000 accounts); here a reader thread counts the same figures and a short
// write stores them, and every connection to the file loads them (store()).

import { COUNT_SQL, fieldIndexName, fieldIndexNames, GROWN_SQL, indexedColumn, q, type TableCount } from './sqlite-ddl.js';
import { prepared, type Db } from './sqlite-db.js';
import type { ObjectDef } from '../../schema/types.js';
import type { SqlStatement } from './read-protocol.js';

/** Tables smaller than this get no statistics: every plan reads them in about a millisecond. */
export const STATS_MIN_ROWS = 1000;

/** Statistics hold while the table has between half and twice the rows they were counted on. */
export function statsHold(counted: number, rows: number): boolean {
  return rows <= counted * 2 && rows * 2 >= counted;
}

/** What refreshing an object's statistics needs from its file (OrgFile). */
export interface StatisticsFile {
  /** Runs statements in one snapshot on a reader thread. */
  read(statements: SqlStatement[]): Promise<unknown[]>;
  /** Runs `work` holding the file's write lock, waiting for another process's as writes do. */
  write<T>(work: () => T): Promise<T>;
}

/**
 * The rows each table's statistics were counted on, as this process's connections have them
 * loaded: the check after every write compares the counts it reads anyway (GrownIndexes) with
 * these, so it costs no query. Read from the file when it is opened, as its connection loads them.
 */
export class PlannerStatistics {
  private readonly counted: Map<string, number>;

  /** `db`: the file's connection of this process (its writes' one). */
  constructor(private readonly db: Db) {
    this.counted = countedOnDisk(db);
  }

  /** The objects among `counts` whose statistics are missing or no longer hold. */
  stale(counts: readonly TableCount[], tableOf: (objectType: number) => string | undefined): number[] {
    const out: number[] = [];
    for (const { objectType, n } of counts) {
      if (n < STATS_MIN_ROWS) continue;
      const table = tableOf(objectType);
      if (table === undefined) continue;
      const counted = this.counted.get(table);
      if (counted === undefined || !statsHold(counted, n)) out.push(objectType);
    }
    return out;
  }

  /** The objects whose statistics are missing or no longer hold, by the counts as they are now (at open). */
  staleNow(tableOf: (objectType: number) => string | undefined): number[] {
    return this.stale(prepared(this.db, GROWN_SQL).all(STATS_MIN_ROWS) as TableCount[], tableOf);
  }

  /**
   * Counts `obj`'s statistics on a reader thread and stores them; when the file's already hold for
   * its rows (another process counted them, and this one has loaded them since), counts nothing.
   * Ends without doing anything for a table under STATS_MIN_ROWS rows.
   */
  async refresh(file: StatisticsFile, obj: ObjectDef): Promise<void> {
    const table = obj.systemName;
    const onDisk = countedOnDisk(this.db);
    const rows = (prepared(this.db, COUNT_SQL).get(obj.objectType) as { n: number } | undefined)?.n ?? 0;
    const ready = onDisk.get(table);
    if (ready !== undefined && statsHold(ready, rows)) {
      // Another connection stored them, and every connection has loaded them since (store()).
      this.remember(table, ready);
      return;
    }
    if (rows < STATS_MIN_ROWS) return;
    try {
      this.remember(table, await this.count(file, obj));
    } catch (err) {
      // Not tried again until the table has doubled or halved, or the file is opened again.
      this.remember(table, rows);
      throw err;
    }
  }

  /** Counts and stores `obj`'s statistics; returns the rows they were counted on. */
  private async count(file: StatisticsFile, obj: ObjectDef): Promise<number> {
    const table = obj.systemName;
    const fields = new Map(obj.fields.map((f) => [fieldIndexName(obj, f), f]));
    const indexes = fieldIndexNames(this.db, obj).filter((name) => fields.has(name));
    const unique = prepared(this.db, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name LIKE 'sqlite_autoindex_%'").pluck().all(table) as string[];
    // One snapshot: the rows, then for each field index the number of distinct values it orders by
    // (the key after it is unique), by walking the index itself.
    const results = await file.read([
      { sql: COUNT_SQL, parameters: [obj.objectType], first: true },
      ...indexes.map((name) => ({ sql: `SELECT count(*) AS d FROM (SELECT 1 FROM ${q(table)} INDEXED BY ${q(name)} GROUP BY ${indexedColumn(fields.get(name)!)})`, parameters: [], first: true })),
    ]);
    const n = (results[0] as { n: number } | undefined)?.n ?? 0;
    // sqlite_stat1's form: the rows, then the average rows per distinct value of each prefix of the index's columns.
    const stats: Array<[string, string]> = [
      ...unique.map((name): [string, string] => [name, `${n} 1`]),
      ...indexes.map((name, i): [string, string] => {
        const distinct = Math.max(1, (results[i + 1] as { d: number }).d);
        return [name, `${n} ${Math.ceil(n / distinct)} 1`];
      }),
    ];
    await file.write(() => this.db.transaction(() => store(this.db, table, stats)).immediate());
    return n;
  }

  private remember(table: string, rows: number): void {
    this.counted.set(table, rows);
  }
}

/**
 * Stores a table's statistics, inside a write transaction, and has every connection to the file
 * load them: this one by ANALYZE of sqlite_schema (which also makes sqlite_stat1 when missing), the
 * others (reader threads, other processes) because a change of the schema makes each read it
 * again, statistics included, at its next statement. Storing rows in sqlite_stat1 alone changes no
 * schema, so a table is made and dropped in the same transaction. Statements prepared before are
 * planned again.
 */
function store(db: Db, table: string, stats: ReadonlyArray<readonly [string, string]>): void {
  db.exec('ANALYZE sqlite_schema');
  prepared(db, 'DELETE FROM sqlite_stat1 WHERE tbl = ?').run(table);
  const insert = prepared(db, 'INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)');
  for (const [idx, stat] of stats) insert.run(table, idx, stat);
  db.exec('CREATE TABLE orchard_statistics_stored (x); DROP TABLE orchard_statistics_stored');
  db.exec('ANALYZE sqlite_schema');
}

/** The rows each table's statistics in the file were counted on. */
function countedOnDisk(db: Db): Map<string, number> {
  const out = new Map<string, number>();
  if (prepared(db, "SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() === undefined) return out;
  for (const { tbl, stat } of prepared(db, 'SELECT tbl, stat FROM sqlite_stat1').all() as Array<{ tbl: string; stat: string }>) {
    const rows = Number.parseInt(stat, 10);
    if (Number.isFinite(rows)) out.set(tbl, Math.max(out.get(tbl) ?? 0, rows));
  }
  return out;
}
