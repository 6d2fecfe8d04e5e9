// What a reader connection does, apart from the thread that owns it: the functions its SQL calls
// and how each kind of statement runs, on a reader thread (read-worker.ts) or, within a bound of
// rows examined, on the main thread (runBounded). Kept out of read-worker.ts so tests run it in-process.

import { BUDGET_FUNCTION, budgetOf, type ChooseStatement, type RawRows, type ReadStatement, type SqlStatement } from './read-protocol.js';
import { openDb, prepared, type Db } from './sqlite-db.js';

/** Thrown by the budget function to abort a statement over its budget; never leaves this file. */
class BudgetSpent extends Error {}

/** Rows the running statement may still examine; one budget per thread, as one statement runs at a time. */
let budget = Number.POSITIVE_INFINITY;

/** A read-only connection to `file` with the functions reader SQL calls. */
export function openReader(file: string): Db {
  return withReaderFunctions(openDb(file, { readonly: true }));
}

/** Registers on `db` the functions reader SQL calls; returns it. */
export function withReaderFunctions(db: Db): Db {
  // Answers while the thread lives; the pool stops a read by terminating its thread (ALIVE_GUARD).
  db.function('orchard_alive', { deterministic: false }, () => 1);
  // One argument, the rowid (better-sqlite3 takes the arity from the parameter list).
  db.function(BUDGET_FUNCTION, { deterministic: false }, (_rowid: unknown) => {
    if (--budget < 0) throw new BudgetSpent('the budget of rows examined is spent');
    return 1;
  });
  return db;
}

function runPlain(db: Db, s: SqlStatement): unknown {
  const stmt = prepared(db, s.sql);
  if (s.first) return stmt.get(...s.parameters);
  if (!s.raw) return stmt.all(...s.parameters);
  try {
    const rows = stmt.raw(true).all(...s.parameters) as unknown[][];
    return { columns: stmt.columns().map((c) => c.name), rows } satisfies RawRows;
  } finally {
    stmt.raw(false);
  }
}

const SPENT = Symbol('spent');

/** Runs `s`, whose SQL carries BUDGET_TERM, examining at most `rows` rows; SPENT past them. */
function withinBudget(db: Db, s: SqlStatement, rows: number): unknown {
  budget = rows;
  try {
    return runPlain(db, s);
  } catch (err) {
    if (err instanceof BudgetSpent) return SPENT;
    throw err;
  } finally {
    budget = Number.POSITIVE_INFINITY;
  }
}

/** The budget of a ChooseStatement's `common` statement on this connection's table. */
function choiceBudget(db: Db, { choose }: ChooseStatement): number {
  const rows = (prepared(db, choose.tableRows).get() as { n: number | null }).n ?? 0;
  return budgetOf(choose.need, rows);
}

/** Runs a ChooseStatement: `common` within its budget, `rare` once that is spent. */
function runChoose(db: Db, statement: ChooseStatement): unknown {
  const result = withinBudget(db, statement.choose.common, choiceBudget(db, statement));
  return result === SPENT ? runPlain(db, statement.choose.rare) : result;
}

/** Runs one statement of a read job. */
export function runRead(db: Db, s: ReadStatement): unknown {
  return 'choose' in s ? runChoose(db, s) : runPlain(db, s);
}

/**
 * Runs `s` in one read transaction if it examines at most `rows` rows, for reads cheap enough to
 * answer on the main thread without the hand-off to a reader thread; undefined once it has examined
 * more (what it read is dropped: a reader thread runs it in full). Every statement of `s`, `common`
 * and `rare` included, must carry BUDGET_TERM. A choice whose own budget is larger than `rows` and
 * is spent past `rows` is left undecided, to the reader thread.
 */
export function runBounded(db: Db, s: ReadStatement, rows: number): unknown {
  // One statement is its own snapshot; a choice's statements share one (and one read lock).
  const result = !('choose' in s) ? withinBudget(db, s, rows) : db.transaction(() => {
    const choice = choiceBudget(db, s);
    const common = withinBudget(db, s.choose.common, Math.min(choice, rows));
    if (common !== SPENT || choice > rows) return common;
    return withinBudget(db, s.choose.rare, rows);
  })();
  return result === SPENT ? undefined : result;
}
