// Every record store the store suites run against, each opened in a place of its own (a temporary
// directory, a schema prefix) that the suite removes afterwards.

import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { after, before } from 'node:test';
import { createPool, type Pool } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import type { OrgSchema } from '../../src/schema/org-schema.js';
import type { ObjectDef } from '../../src/schema/types.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';

/** Where one suite keeps a store's data; `open` may be called again after the store is closed. */
export interface StorePlace {
  open(): RecordStore;
  /** Removes the data (and ends what the place opened). */
  remove(): Promise<void>;
}

export interface StoreUnderTest {
  readonly name: string;
  /** The `skip` of a suite on this store: false, or why it cannot run here. */
  readonly skip: false | string;
  place(): Promise<StorePlace>;
}

function sqliteUnderTest(name: string, options: ConstructorParameters<typeof SqliteRecordStore>[1] = {}): StoreUnderTest {
  return {
    name,
    skip: false,
    async place() {
      const dir = tempDir('orchard-store-');
      return {
        open: () => new SqliteRecordStore(dir, options),
        remove: async () => fs.rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
}

export const SQLITE_UNDER_TEST = sqliteUnderTest('sqlite');

/** The SQLite store with every query on its reader threads, none answered on the calling thread (quickRows 0). */
export const SQLITE_READERS_UNDER_TEST = sqliteUnderTest('sqlite-readers', { quickRows: 0 });

export const POSTGRES_UNDER_TEST: StoreUnderTest = {
  name: 'postgres',
  skip: needsPostgres,
  async place() {
    const pool = createPool(DATABASE_URL!);
    const schemaPrefix = `${uniqueName('rs')}_`;
    return {
      open: () => new PostgresRecordStore(pool, { schemaPrefix }),
      async remove() {
        await dropSchemas(pool, schemaPrefix);
        await pool.end();
      },
    };
  },
};

/** The stores the conformance suites loop over; the SQLite store twice, each way it answers reads. */
export const STORES_UNDER_TEST: readonly StoreUnderTest[] = [SQLITE_UNDER_TEST, SQLITE_READERS_UNDER_TEST, POSTGRES_UNDER_TEST];

/** Takes an organization's database back to where an older Orchard left it; `store` is the one that made it. */
export type Downgrade = (store: RecordStore, orgId: string) => Promise<void>;

/** A store whose organizations a test takes back to an earlier schema version, to open them again with this one. */
export interface DowngradeCase {
  readonly name: string;
  readonly skip: false | string;
  place(): Promise<{ place: StorePlace; downgrade: Downgrade }>;
}

/**
 * SQLite and PostgreSQL, each with a downgrade that runs its statements on the organization's
 * database and sets its version: SQLite's on the file, PostgreSQL's given the schema's quoted name.
 */
export function downgradeCases(sqlite: { readonly sql: string; readonly version: number }, postgres: { readonly sql: (s: string) => string; readonly version: number }): DowngradeCase[] {
  return [
    {
      name: 'sqlite',
      skip: false,
      async place() {
        const dir = tempDir('orchard-upgrade-');
        return {
          place: { open: () => new SqliteRecordStore(dir), remove: async () => fs.rmSync(dir, { recursive: true, force: true }) },
          async downgrade(_store, orgId) {
            const db = new Database(path.join(dir, 'orgs', `${orgId}.db`));
            try {
              db.exec(sqlite.sql);
              db.pragma(`user_version = ${sqlite.version}`);
            } finally {
              db.close();
            }
          },
        };
      },
    },
    {
      name: 'postgres',
      skip: POSTGRES_UNDER_TEST.skip,
      place: async () => ({
        place: await POSTGRES_UNDER_TEST.place(),
        async downgrade(store, orgId) {
          const client = new pg.Client({ connectionString: DATABASE_URL });
          await client.connect();
          try {
            const s = `"${(store as PostgresRecordStore).schemaName(orgId)}"`;
            await client.query(`${postgres.sql(s)}; UPDATE ${s}.orchard_version SET version = ${postgres.version}`);
          } finally {
            await client.end();
          }
        },
      }),
    },
  ];
}

/** A suite's store and its organization (organizationOn). */
export interface OrganizationOnStore {
  place: StorePlace;
  store: RecordStore;
  orgId: string;
  records: OrgRecords;
  schema: OrgSchema;
  account: ObjectDef;
  contact: ObjectDef;
}

/**
 * Hooks of a suite on `s`: before its tests, a new organization with these users mirrored; after
 * them, the store closed and its data removed. The object returned is filled in by then.
 */
export function organizationOn(s: StoreUnderTest, users: ReadonlyArray<{ id: string; fullname: string; email: string }>): OrganizationOnStore {
  const o = {} as OrganizationOnStore;
  before(async () => {
    o.place = await s.place();
    o.store = o.place.open();
    o.orgId = randomUUID();
    for (const user of users) await o.store.upsertUser(o.orgId, user);
    o.records = await o.store.org(o.orgId);
    o.schema = await o.records.schema();
    o.account = o.schema.resolve('account');
    o.contact = o.schema.resolve('contact');
  });
  after(async () => {
    await o.store.close();
    await o.place.remove();
  });
  return o;
}

/** A suite's PostgreSQL store on a pool of one connection whose statements are recorded (postgresRecordingStatements). */
export interface RecordingStore {
  store: PostgresRecordStore;
  /** Its one connection. */
  pool: Pool;
  /** The text of every statement sent, in order: what a test counts round trips by. */
  readonly sent: string[];
  /** The texts that went as named (prepared) statements, each with its name. */
  readonly named: Map<string, string>;
}

/** Hooks of a suite on DATABASE_URL: before its tests, a store in schemas named after `name`; after them, its schemas dropped. */
export function postgresRecordingStatements(name: string): RecordingStore {
  const prefix = `${uniqueName(name)}_`;
  const o = { sent: [] as string[], named: new Map<string, string>() } as RecordingStore;
  before(() => {
    const pool = (o.pool = createPool(DATABASE_URL!, { max: 1 }));
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as { query: unknown }).query = (...args: unknown[]) => {
        const q = args[0];
        o.sent.push(typeof q === 'string' ? q : String((q as { text?: unknown }).text));
        const name = typeof q === 'string' ? undefined : (q as { name?: string }).name;
        if (name) o.named.set(o.sent.at(-1)!, name);
        return query(...args);
      };
    });
    o.store = new PostgresRecordStore(pool, { schemaPrefix: prefix });
  });
  after(async () => {
    await o.store.close();
    await dropSchemas(o.pool, prefix);
    await o.pool.end();
  });
  return o;
}
