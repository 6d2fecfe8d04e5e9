// Opens the stores the configuration asks for (SQLite under DATA_DIR, or PostgreSQL), shared by
// the server and the CLI so both always see the same data.

import type { Config } from './config.js';
import { SqliteControlStore } from './store/sqlite/sqlite-control-store.js';
import { SqliteRecordStore } from './store/sqlite/sqlite-record-store.js';
import type { ControlStore, RecordStore } from './store/types.js';
import { AdminService } from './admin/admin-service.js';
import type { NoticeLedger } from './limits/notices.js';
import { openPostgresControl } from './store/postgres/open-postgres-control.js';
import { PostgresRecordStore } from './store/postgres/postgres-record-store.js';

export interface Stores {
  readonly control: ControlStore;
  readonly records: RecordStore;
  /** The shared notice ledger (PostgreSQL); undefined on the embedded store, where limits keep their own. */
  readonly ledger?: NoticeLedger;
  readonly admin: AdminService;
  close(): Promise<void>;
}

/**
 * With DATABASE_URL: the control plane in the schema DATABASE_SCHEMA and each organization's
 * records in a schema of its own, all on one pool (docs/scaling.md). Otherwise SQLite files under DATA_DIR.
 */
export function openStores(config: Config): Stores {
  if (config.databaseUrl) {
    const pg = openPostgresControl(config.databaseUrl, { schema: config.databaseSchema });
    const records = new PostgresRecordStore(pg.pool, { schemaPrefix: `${config.databaseSchema}_org_`, requestTimeoutMs: config.requestTimeoutMs });
    return {
      control: pg.control,
      records,
      ledger: pg.ledger,
      admin: new AdminService(pg.control, records),
      async close() {
        await records.close();
        await pg.close();
      },
    };
  }
  const control = new SqliteControlStore(config.dataDir);
  const records = new SqliteRecordStore(config.dataDir);
  return {
    control,
    records,
    admin: new AdminService(control, records),
    async close() {
      await records.close();
      await control.close();
    },
  };
}
