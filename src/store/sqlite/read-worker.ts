// A reader thread: runs SELECTs on its own read-only connections, so a slow query never
// blocks the main event loop. The pool terminates the thread to cancel a query.

import { parentPort } from 'node:worker_threads';
import { READY, type CloseFile, type ReadJob, type ReadResult } from './read-protocol.js';
import { openReader, runRead } from './reader.js';
import type { Db } from './sqlite-db.js';

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
  db = openReader(file);
  connections.set(file, db);
  if (connections.size > MAX_OPEN) {
    const [oldest, old] = connections.entries().next().value as [string, Db];
    connections.delete(oldest);
    old.close();
  }
  return db;
}

parentPort!.on('message', (job: ReadJob | CloseFile) => {
  if ('close' in job) {
    connections.get(job.close)?.close();
    connections.delete(job.close);
    return;
  }
  let reply: ReadResult;
  try {
    const db = connection(job.file);
    const results = db.transaction(() => job.statements.map((s) => runRead(db, s)))();
    reply = { id: job.id, ok: true, results };
  } catch (err) {
    const e = err as { message?: string; code?: string };
    reply = { id: job.id, ok: false, message: String(e.message ?? err), ...(typeof e.code === 'string' ? { code: e.code } : {}) };
  }
  parentPort!.postMessage(reply);
});

parentPort!.postMessage(READY);
