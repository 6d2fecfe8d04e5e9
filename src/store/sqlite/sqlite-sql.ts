// Kysely used only to compile SQL for SQLite; statements run on better-sqlite3 through the
// per-connection cache of sqlite-db.ts. Kept apart so reader threads never load Kysely.

import { SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql } from 'kysely';
import { compileOnly, type Fold, type PageOptions, type Sum } from '../record-sql.js';
import { ALIVE_GUARD } from './read-protocol.js';
import { FOLD_FUNCTION, SUM_FUNCTION } from './sqlite-db.js';

export const sqliteSql = compileOnly({
  adapter: new SqliteAdapter(),
  introspector: (db) => new SqliteIntrospector(db),
  compiler: () => new SqliteQueryCompiler(),
});

/** Case fold through the JavaScript function every connection registers (sqlite-db.ts). */
export const sqliteFold: Fold = (e) => sql`${sql.raw(FOLD_FUNCTION)}(${e})`;

/** SUM through the aggregate every connection registers (sqlite-db.ts). */
const sqliteSum: Sum = (e, precision) => sql`${sql.raw(SUM_FUNCTION)}(${e}, ${sql.raw(precision === undefined ? 'NULL' : String(precision))})`;

/** How the SQLite store builds pages: folded text, exact sums, and the guard that lets a stopped reader abort. */
export const SQLITE_PAGE: PageOptions = { fold: sqliteFold, sum: sqliteSum, guard: ALIVE_GUARD };
