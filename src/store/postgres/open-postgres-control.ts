// Opens the shared control plane on DATABASE_URL: the control store and the usage-notice ledger
// on one pool and one schema, closed together. For the wiring in stores.ts and limits/limits.ts.

import { PostgresNoticeLedger } from './postgres-notice-ledger.js';
import { PostgresControlStore } from './postgres-control-store.js';
import { DEFAULT_CONTROL_SCHEMA } from './postgres-control-ddl.js';
import { createPool, type Pool, type PoolOptions } from './pg-db.js';

export interface PostgresControl {
  readonly pool: Pool;
  readonly control: PostgresControlStore;
  readonly ledger: PostgresNoticeLedger;
  /** Ends the pool, after which neither the store nor the ledger can be used; safe to call twice. */
  close(): Promise<void>;
}

/** The control store and notice ledger in `schema` (default `orchard`, created and migrated on first use). */
export function openPostgresControl(url: string, options: PoolOptions & { schema?: string } = {}): PostgresControl {
  const { schema = DEFAULT_CONTROL_SCHEMA, ...poolOptions } = options;
  const pool = createPool(url, poolOptions);
  let ended: Promise<void> | undefined;
  return {
    pool,
    control: new PostgresControlStore(pool, schema),
    ledger: new PostgresNoticeLedger(pool, schema),
    close: () => (ended ??= pool.end()),
  };
}
