// Opens the stores the configuration asks for (today the embedded SQLite ones), shared by
// the server and the CLI so both always see the same data.

import type { Config } from './config.js';
import { SqliteControlStore } from './store/sqlite/sqlite-control-store.js';
import { SqliteRecordStore } from './store/sqlite/sqlite-record-store.js';
import type { ControlStore, RecordStore } from './store/types.js';
import { AdminService } from './admin/admin-service.js';

export interface Stores {
  readonly control: ControlStore;
  readonly records: RecordStore;
  readonly admin: AdminService;
  close(): Promise<void>;
}

export function openStores(config: Config): Stores {
  if (config.databaseUrl) {
    throw new Error('DATABASE_URL is set, but this build of Orchard serves the embedded SQLite store only; unset DATABASE_URL.');
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
