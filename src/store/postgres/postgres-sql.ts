// Kysely used only to compile SQL for PostgreSQL; statements run on the pg pool. Here are the
// PostgreSQL hooks that make record-sql.ts return what SQLite returns: the fold, LIKE, NULL order, SUM.

import { PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type SqlBool } from 'kysely';
import { compileOnly, type Fold, type Like, type PageOptions, type Sum } from '../record-sql.js';

export const postgresSql = compileOnly({
  adapter: new PostgresAdapter(),
  introspector: (db) => new PostgresIntrospector(db),
  compiler: () => new PostgresQueryCompiler(),
});

/**
 * The case fold as SQL text around an SQL expression, for DDL and queries alike (an expression
 * index serves a query only when both write the same expression).
 *
 * lower() under ICU's root locale is JavaScript's toLowerCase, the fold of the SQLite store: full
 * case mapping ('İ' → 'i̇') and the Greek final sigma, which lower() under the libc collation of
 * the database gets wrong. Its result is compared and sorted under "C", byte (= code point) order,
 * which is how SQLite compares text. test/store/postgres-fold.test.ts checks every code point.
 */
export function foldSql(expression: string): string {
  return `${FOLD_OPEN}${expression}${FOLD_CLOSE}`;
}

const FOLD_OPEN = 'lower(';
const FOLD_CLOSE = ' COLLATE "und-x-icu") COLLATE "C"';

export const postgresFold: Fold = (e) => sql`${sql.raw(FOLD_OPEN)}${e}${sql.raw(FOLD_CLOSE)}`;

/**
 * SQLite's LIKE: no escape character (PostgreSQL's default is a backslash), and A–Z in either case
 * (ILIKE under "C" folds ASCII letters only). Folded text has no capitals left, so a plain LIKE,
 * which the folded index can serve, gives the same answer there.
 */
export const postgresLike: Like = (lhs, pattern, folded) =>
  folded ? sql<SqlBool>`${lhs} LIKE ${pattern} ESCAPE ''` : sql<SqlBool>`${lhs} COLLATE "C" ILIKE ${pattern} ESCAPE ''`;

/**
 * SUM as schema/decimal.ts defines it: each double's text (the shortest that reads back as it, with the
 * default extra_float_digits of 1) as numeric, whose sum is exact, rounded (numeric rounds halves
 * away from zero) and read back as the nearest double; null past the largest double, where the cast
 * would fail. A cast of float8 straight to numeric would keep 15 digits only; float8's own sum()
 * adds in row order, loses what the SQLite store keeps, and fails the query past the largest double.
 */
const postgresSum: Sum = (e, precision) => {
  const sum = sql`sum(CAST(CAST(${e} AS text) AS numeric))`;
  const total = precision === undefined ? sum : sql`round(${sum}, ${sql.raw(String(precision))})`;
  return sql`CASE WHEN abs(${total}) < ${sql.raw(`${BEYOND_DOUBLE}::numeric`)} THEN CAST(${total} AS double precision) END`;
};

/** 2^1024 - 2^970: the least number that reads as Infinity, not as the largest double. */
const BEYOND_DOUBLE = (2n ** 1024n - 2n ** 970n).toString();

/** How the PostgreSQL store builds pages. */
export const POSTGRES_PAGE: PageOptions = { fold: postgresFold, sum: postgresSum, like: postgresLike, nullsFirstAscending: true };
