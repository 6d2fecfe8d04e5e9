// What the main thread and the reader threads say to each other, and the SQL term that lets a
// stopped reader abort its statement. Shared by read-pool.ts, read-worker.ts, reader.ts and the store.

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
 * Two ways to read one page, where SQLite's planner cannot tell which is cheaper (it does not weigh
 * LIMIT, so it would sort 850,000 matches of a common picklist code rather than read the sort
 * index for the first 51). `common` reads the sort index and tests the filter on each row, so it
 * examines need / s rows for a share s of matches; `rare` reads the matches by the filter's index
 * and sorts them, s × table rows. The first is cheaper when it examines fewer than
 * threshold = sqrt(need × table rows) rows; ceil(that), at least 100, is its budget.
 *
 * So `common` runs first, its SQL carrying BUDGET_TERM, which counts the rows it examines and
 * aborts it past the budget; then `rare` runs, and costs under the threshold too (s < need /
 * threshold). The common case pays nothing for the choice; the rare one at most the budget.
 * `tableRows` gives the table's row count (an upper bound will do).
 */
export interface ChooseStatement {
  choose: { tableRows: string; need: number; common: SqlStatement; rare: SqlStatement };
}

/** The smallest budget of a ChooseStatement, in rows examined. */
export const MIN_BUDGET = 100;

/** Its budget for `need` rows of a page out of `tableRows`. */
export function budgetOf(need: number, tableRows: number): number {
  return Math.max(MIN_BUDGET, Math.ceil(Math.sqrt(need * tableRows)));
}

/**
 * The WHERE term of a ChooseStatement's `common` SQL: true, but each call spends one row of the
 * budget, and past it the call throws, which aborts the statement. On the rowid, which every index
 * covers, so SQLite tests it on every row examined before the filter (record-sql.ts puts it first).
 */
export const BUDGET_FUNCTION = 'orchard_budget';
export const BUDGET_TERM = `${BUDGET_FUNCTION}("r"."rowid")`;

export type ReadStatement = SqlStatement | ChooseStatement;

export interface ReadJob {
  id: number;
  file: string;
  /** Statements run in order inside one read transaction (one snapshot); each result is returned. */
  statements: ReadStatement[];
}

/** Tells a reader thread to close its connection to `close`: the store closed that organization. */
export interface CloseFile {
  close: string;
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
