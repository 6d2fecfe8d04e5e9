// What the main thread and the reader threads say to each other, and the SQL term that lets a
// stopped reader abort its statement. Shared by read-pool.ts, read-worker.ts and the store.

export interface SqlStatement {
  sql: string;
  parameters: readonly unknown[];
  /** Return the first row only (or undefined), instead of all rows. */
  first?: boolean;
  /**
   * Return all rows as `{columns, rows}` with each row an array of values: copying arrays
   * between threads costs a fraction of copying objects that repeat every key (see toObjects).
   */
  raw?: boolean;
}

export interface RawRows {
  columns: string[];
  rows: unknown[][];
}

/** Rows of a `raw` statement as objects keyed by column, in column order. */
export function toObjects<T>(raw: RawRows): T[] {
  const { columns, rows } = raw;
  const out = new Array<T>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const o: Record<string, unknown> = {};
    for (let j = 0; j < columns.length; j++) o[columns[j]!] = row[j];
    out[i] = o as T;
  }
  return out;
}

/**
 * Runs `common` when every probe finds at least `threshold` rows, else `rare`, where
 * threshold = ceil(sqrt(need × table rows)): the point where scanning the sort index until `need`
 * matches costs as much as sorting all matches. Each probe's SQL ends in `LIMIT ?`, bound here.
 * SQLite's planner does not weigh LIMIT, so it sorts 500,000 matches of a common picklist code
 * rather than read the sort index for the first 51; this choice, made on live counts, fixes that.
 */
export interface ChooseStatement {
  choose: { tableRows: string; need: number; probes: SqlStatement[]; common: SqlStatement; rare: SqlStatement };
}

export type ReadStatement = SqlStatement | ChooseStatement;

export interface ReadJob {
  id: number;
  file: string;
  /** Statements run in order inside one read transaction (one snapshot); each result is returned. */
  statements: ReadStatement[];
}

export type ReadResult =
  | { id: number; ok: true; results: unknown[] }
  | { id: number; ok: false; message: string; code?: string };

/** Posted once when the thread can take jobs. */
export const READY = 'ready';

/**
 * A WHERE term for statements that may run long: true for every row, but each 1,024th row calls
 * into JavaScript, and once the pool has terminated this thread that call fails, which aborts
 * the statement. better-sqlite3 has no sqlite3_interrupt; without this a stopped query would
 * run to its end on a thread nobody waits for.
 */
export const ALIVE_GUARD = `(("r"."rowid" & 1023) != 0 OR orchard_alive())`;
