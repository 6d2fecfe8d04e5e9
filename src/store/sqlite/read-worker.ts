// A reader thread: runs SELECTs on its own read-only connections, so a slow query never
// blocks the main event loop. The pool terminates the thread to cancel a query.

import { parentPort } from 'node:worker_threads';
import { READY, type RawRows, type ReadJob, type ReadResult, type ReadStatement, type SqlStatement } from './read-protocol.js';
import { openDb, prepared, type Db } from './sqlite-db.js';

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
  db.function('orchard_alive', { deterministic: false }, () => 1);
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
  if (s.first) return stmt.get(...s.parameters);
  if (!s.raw) return stmt.all(...s.parameters);
  try {
    const rows = stmt.raw(true).all(...s.parameters) as unknown[][];
    return { columns: stmt.columns().map((c) => c.name), rows } satisfies RawRows;
  } finally {
    stmt.raw(false);
  }
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

parentPort!.postMessage(READY);
