// The fixture of the SQLite store's own suites: a store on a temporary data directory with one
// organization open, that organization's database file for connections of a test's own, and more
// stores on the same directory, as the CLI's beside a running server or a freshly started one.

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ObjectDef } from '../../src/schema/types.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { tempDir } from '../helpers.js';

export type SqliteOptions = ConstructorParameters<typeof SqliteRecordStore>[1];

export interface SqliteFixture {
  readonly dir: string;
  /** The organization's database file. */
  readonly file: string;
  readonly store: SqliteRecordStore;
  readonly records: OrgRecords;
  readonly accounts: ObjectDef;
  /** Runs `use` with another store on the same data directory, closed after. */
  withStore<T>(use: (store: SqliteRecordStore) => Promise<T>, options?: SqliteOptions): Promise<T>;
  /** Closes the store and removes the directory. */
  close(): Promise<void>;
}

/** The database file of an organization in a SQLite data directory. */
export const orgFile = (dir: string, orgId: string): string => path.join(dir, 'orgs', `${orgId}.db`);

export async function sqliteFixture(orgId: string, options: SqliteOptions = {}): Promise<SqliteFixture> {
  const dir = tempDir('orchard-sqlite-');
  const store = new SqliteRecordStore(dir, options);
  const records = await store.org(orgId);
  return {
    dir,
    file: orgFile(dir, orgId),
    store,
    records,
    accounts: (await records.schema()).resolve('account'),
    async withStore(use, more) {
      const other = new SqliteRecordStore(dir, more);
      try {
        return await use(other);
      } finally {
        await other.close();
      }
    },
    async close() {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `use` with a fixture of a new organization whose primary user `ownerId` is mirrored (sample rows name it), closed after. */
export async function withOwnedOrg(ownerId: string, use: (fx: SqliteFixture, orgId: string) => Promise<void>): Promise<void> {
  const orgId = randomUUID();
  const fx = await sqliteFixture(orgId);
  try {
    await fx.store.upsertUser(orgId, { id: ownerId, fullname: 'Owner', email: 'owner@example.com' });
    await use(fx, orgId);
  } finally {
    await fx.close();
  }
}
