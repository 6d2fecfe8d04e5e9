// What a reader thread does with a connection, apart from the thread: the functions its SQL calls
// and how each kind of statement runs. Kept out of read-worker.ts so tests can run it in-process.

import { BUDGET_FUNCTION, budgetOf, type ChooseStatement, type RawRows, type ReadStatement, type SqlStatement } from './read-protocol.js';
import { openDb, prepared, type Db } from './sqlite-db.js';

/** Thrown by the budget function to abort a `common` statement; never leaves runRead. */
class BudgetSpent extends Error {}

/** Rows the running `common` statement may still examine; one budget per thread, as one statement runs at a time. */
let budget = Number.POSITIVE_INFINITY;

/** A read-only connection to `file` with the functions reader SQL calls. */
export function openReader(file: string): Db {
  const db = openDb(file, { readonly: true });
  // Answers while the thread lives; the pool stops a read by terminating its thread (ALIVE_GUARD).
  db.function('orchard_alive', { deterministic: false }, () => 1);
  // One argument, the rowid (better-sqlite3 takes the arity from the parameter list).
  db.function(BUDGET_FUNCTION, { deterministic: false }, (_rowid: unknown) => {
    if (--budget < 0) throw new BudgetSpent('the plan choice budget is spent');
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

/** Runs a ChooseStatement; says which of its statements gave the result. */
export function runChoose(db: Db, { choose }: ChooseStatement): { result: unknown; ran: 'common' | 'rare' } {
  const rows = (prepared(db, choose.tableRows).get() as { n: number | null }).n ?? 0;
  budget = budgetOf(choose.need, rows);
  try {
    return { result: runPlain(db, choose.common), ran: 'common' };
  } catch (err) {
    if (!(err instanceof BudgetSpent)) throw err;
    return { result: runPlain(db, choose.rare), ran: 'rare' };
  } finally {
    budget = Number.POSITIVE_INFINITY;
  }
}

/** Runs one statement of a read job. */
export function runRead(db: Db, s: ReadStatement): unknown {
  return 'choose' in s ? runChoose(db, s).result : runPlain(db, s);
}
