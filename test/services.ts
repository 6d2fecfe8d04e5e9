// The shared services tests may use: PostgreSQL (DATABASE_URL) and Redis (REDIS_URL). Suites that
// need one skip with this reason when it is unset (scripts/run-tests.js refuses that under CI=true).
// Every suite works in names of its own (a schema prefix, a key prefix) and removes them after.

import { randomBytes } from 'node:crypto';

export const DATABASE_URL = process.env.DATABASE_URL || undefined;
export const REDIS_URL = process.env.REDIS_URL || undefined;

/** The `skip` option of a suite that needs PostgreSQL: false when it can run, else the reason printed. */
export const needsPostgres: false | string = DATABASE_URL ? false : 'DATABASE_URL is unset: the PostgreSQL suite is skipped (CI sets it)';
/** The `skip` option of a suite that needs Redis. */
export const needsRedis: false | string = REDIS_URL ? false : 'REDIS_URL is unset: the Redis suite is skipped (CI sets it)';

/** A name no other suite or run uses: schema names and key prefixes (lowercase, [a-z0-9_]). */
export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** Drops every schema whose name starts with `prefix` (a suite's uniqueName), with all it holds. */
export async function dropSchemas(pool: { query(text: string, values?: unknown[]): Promise<{ rows: any[] }> }, prefix: string): Promise<void> {
  const { rows } = await pool.query('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)', [prefix]);
  for (const { nspname } of rows) await pool.query(`DROP SCHEMA "${String(nspname).replace(/"/g, '""')}" CASCADE`);
}
