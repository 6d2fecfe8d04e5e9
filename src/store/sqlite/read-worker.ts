// A reader thread: runs SELECTs on its own read-only connections, so a slow query never
// blocks the main event loop. The pool terminates the thread to cancel a query.

import { parentPort } from 'node:worker_threads';
import { openDb, prepared, type Db } from './sqlite-db.js';

export interface SqlStatement {
  sql: string;
  parameters: readonly unknown[];
  /** Return the first row only (or undefined), instead of all rows. */
  first?: boolean;
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

const MAX_OPEN = 64;
const connections = new Map<string, Db>();

function connection(file: string): Db {
  let db = connections.get(file);
  if (db) {
    // Most recently used last, so the first entry is the one to close when full.
    connections.delete(file);
    connections.set(file, db);
    return db;
  }
  db = openDb(file, { readonly: true });
  connections.set(file, db);
  if (connections.size > MAX_OPEN) {
    const [oldest, old] = connections.entries().next().value as [string, Db];
    connections.delete(oldest);
    old.close();
  }
  return db;
}

function runPlain(db: Db, s: SqlStatement): unknown {
  const stmt = prepared(db, s.sql);
  return s.first ? stmt.get(...s.parameters) : stmt.all(...s.parameters);
}

function run(db: Db, s: ReadStatement): unknown {
  if (!('choose' in s)) return runPlain(db, s);
  const { tableRows, need, probes, common, rare } = s.choose;
  const rows = (prepared(db, tableRows).get() as { n: number | null }).n ?? 0;
  const threshold = Math.max(100, Math.ceil(Math.sqrt(need * rows)));
  const allCommon = probes.every((p) => (prepared(db, p.sql).get(...p.parameters, threshold) as { n: number }).n >= threshold);
  return runPlain(db, allCommon ? common : rare);
}

parentPort!.on('message', (job: ReadJob) => {
  let reply: ReadResult;
  try {
    const db = connection(job.file);
    const results = db.transaction(() => job.statements.map((s) => run(db, s)))();
    reply = { id: job.id, ok: true, results };
  } catch (err) {
    const e = err as { message?: string; code?: string };
    reply = { id: job.id, ok: false, message: String(e.message ?? err), ...(typeof e.code === 'string' ? { code: e.code } : {}) };
  }
  parentPort!.postMessage(reply);
});
