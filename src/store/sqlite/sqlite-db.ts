// Opens a better-sqlite3 database the way every Orchard SQLite file is opened (WAL,
// synchronous=FULL, a busy timeout for the CLI writing beside a running server), keeps
// a prepared-statement cache per connection, and applies versioned migrations.
// Reader threads load this file, so it stays free of Kysely (a thread starts in milliseconds).

import Database from 'better-sqlite3';
import { DecimalSum } from '../../schema/decimal.js';

/**
 * Modes of what holds secrets (token digests in control.db, webhook secrets in an organization's
 * file): directories Orchard makes for its data or a backup are owner-only, and a backup's files too.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export type Db = Database.Database;
export type Statement = Database.Statement;

/** A migration runs inside a transaction; its index + 1 is the version it brings the file to. */
export type Migration = (db: Db) => void;

const statementCaches = new WeakMap<Db, Map<string, Statement>>();

/** The prepared statement for `sql` on this connection, prepared once. */
export function prepared(db: Db, sql: string): Statement {
  let cache = statementCaches.get(db);
  if (!cache) {
    cache = new Map();
    statementCaches.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    if (cache.size > 500) cache.clear(); // bounded: dynamic filters make many shapes
    cache.set(sql, stmt);
  }
  return stmt;
}

/**
 * The case fold of text comparisons, sorts and their indexes. SQLite's NOCASE and LIKE fold A–Z
 * only; this folds every script ('CAFÉ' = 'café'). Indexes are built on it, so every connection
 * that writes those tables must have it: openDb registers it on each one.
 */
export const FOLD_FUNCTION = 'orchard_fold';

export function fold(value: unknown): unknown {
  return typeof value === 'string' ? value.toLowerCase() : value;
}

/**
 * The size the WAL of every file is kept under: cut back to it on restart (journal_size_limit),
 * and no transaction of the store writes more than a quarter of it (see bulkInsert).
 */
export const WAL_LIMIT_BYTES = 64 * 1024 * 1024;

/** How long a statement waits in SQLite for a lock another connection holds (the CLI beside a server). */
export const BUSY_TIMEOUT_MS = 5_000;

/** SUM of grouped queries: an aggregate every connection registers (schema/decimal.ts). */
export const SUM_FUNCTION = 'orchard_sum';

export function openDb(file: string, options: { readonly?: boolean } = {}): Db {
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  db.function(FOLD_FUNCTION, { deterministic: true }, fold);
  // SUM of grouped queries (schema/decimal.ts): (column, precision or null). better-sqlite3 takes the
  // arity from step's parameters; its types know only one argument.
  type Total = { sum: DecimalSum; precision: number | null };
  const step = (acc: Total, value: unknown, precision: unknown): Total => {
    acc.precision = typeof precision === 'number' ? precision : null;
    if (typeof value === 'number') acc.sum.add(value, acc.precision ?? undefined);
    return acc;
  };
  db.aggregate(SUM_FUNCTION, {
    deterministic: true,
    start: (): Total => ({ sum: new DecimalSum(), precision: null }),
    step: step as unknown as (total: Total, next: unknown) => Total,
    result: (acc: Total) => acc.sum.value(acc.precision),
  });
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // 64 MiB for writers: inserts touch a dozen indexes, and the default 2 MB cache spills
  // mid-transaction (a 100,000-record seed took 16 s with it, 11 s without). Readers get 16 MiB.
  db.pragma(`cache_size = ${options.readonly ? -16384 : -65536}`);
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    // Statement journals in memory: past 64 KiB SQLite spills one to a temporary file, which a
    // create did (about a dozen writes to it each), for nothing a crash could need.
    db.pragma('temp_store = MEMORY');
    // A WAL that grew (a large transaction, a checkpoint held back by a long read) is cut back to
    // this when it next restarts, rather than keeping its largest size until the file is closed.
    db.pragma(`journal_size_limit = ${WAL_LIMIT_BYTES}`);
  }
  return db;
}

/**
 * Brings the file to the latest version; each step is atomic. Returns the version reached. A new
 * file (version 0) gets every step in one transaction, as each commit costs a WAL write and a sync
 * (a new organization's file was migrated in five commits); a file made by an older Orchard still
 * upgrades step by step, each step committed before the next is tried.
 */
export function migrate(db: Db, migrations: readonly Migration[]): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(`database ${db.name} is at schema version ${current}, newer than this Orchard (${migrations.length}); upgrade Orchard`);
  }
  const steps = current === 0 ? [migrations.length] : migrations.map((_, v) => v + 1).slice(current);
  for (const to of steps) {
    // IMMEDIATE: two processes opening a new file at once must not both migrate it.
    db.transaction(() => {
      const now = db.pragma('user_version', { simple: true }) as number;
      // Another process may have migrated meanwhile: only what it left is run.
      for (let v = now; v < to; v++) migrations[v]!(db);
      if (now < to) db.pragma(`user_version = ${to}`);
    }).immediate();
  }
  return migrations.length;
}
