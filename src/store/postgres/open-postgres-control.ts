// Opens the shared control plane on DATABASE_URL: the control store and the usage-notice ledger
// on one pool and one schema, closed together. For the wiring in stores.ts and limits/limits.ts.

import { PostgresNoticeLedger } from './postgres-notice-ledger.js';
import { PostgresControlStore } from './postgres-control-store.js';
import { DEFAULT_CONTROL_SCHEMA } from './postgres-control-ddl.js';
import { createPool, endPool, qi, type Pool, type PoolOptions } from './pg-db.js';
import type { CacheListener } from './cache-listener.js';

export interface PostgresControl {
  readonly pool: Pool;
  readonly control: PostgresControlStore;
  readonly ledger: PostgresNoticeLedger;
  /**
   * Ends the pool, after which neither the store nor the ledger can be used; safe to call twice.
   * Waits at most `withinMs` (CLOSE_WITHIN_MS by default) for its connections, then destroys those
   * left: resolves with their number.
   */
  close(withinMs?: number): Promise<number>;
}

/** How long closing waits for the pool's connections: statements in flight, the goodbye of each. */
export const CLOSE_WITHIN_MS = 5_000;

/**
 * The control store and notice ledger in `schema` (default `orchard`, created and migrated on first
 * use); with `changes`, the store keeps token identities in memory while the listener vouches for them.
 */
export function openPostgresControl(url: string, options: PoolOptions & { schema?: string; changes?: CacheListener } = {}): PostgresControl {
  const { schema = DEFAULT_CONTROL_SCHEMA, changes, ...poolOptions } = options;
  // Named, as the cache listener is, so an operator can tell the processes' connections in pg_stat_activity.
  const pool = createPool(url, { applicationName: `orchard:${schema}`, ...poolOptions });
  let ended: Promise<number> | undefined;
  return {
    pool,
    control: new PostgresControlStore(pool, schema, changes),
    ledger: new PostgresNoticeLedger(pool, schema),
    close: (withinMs = CLOSE_WITHIN_MS) => (ended ??= endPool(pool, withinMs)),
  };
}

/**
 * Drops the control schema `schema` and every schema of its organizations (`<schema>_org_…`: their
 * records, snapshots and work schemas), with all they hold: what an ephemeral server made.
 */
export async function dropSchemasOf(url: string, schema: string): Promise<void> {
  const pool = createPool(url, { max: 1 });
  try {
    const { rows } = await pool.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = $1 OR starts_with(nspname, $2)', [schema, `${schema}_org_`]);
    for (const { nspname } of rows) await pool.query(`DROP SCHEMA ${qi(nspname)} CASCADE`);
  } finally {
    await pool.end();
  }
}
