// The control planes the control-store and notice-ledger suites run against: the embedded one
// (control.db and limits.db in a data directory) always, PostgreSQL (a schema of its own per
// place) when DATABASE_URL is set. Each open() is a separate connection, as another process has.

import fs from 'node:fs';
import type { NoticeLedger } from '../../src/limits/notices.js';
import { SqliteNoticeLedger } from '../../src/store/sqlite/sqlite-notice-ledger.js';
import { openPostgresControl, type PostgresControl } from '../../src/store/postgres/open-postgres-control.js';
import { createPool, qi } from '../../src/store/postgres/pg-db.js';
import { SqliteControlStore } from '../../src/store/sqlite/sqlite-control-store.js';
import type { ControlStore } from '../../src/store/types.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, needsPostgres, uniqueName } from '../services.js';

export interface ControlKind {
  readonly name: string;
  /** The `skip` option of the kind's suites: false, or why it cannot run here. */
  readonly skip: false | string;
  /** A fresh, empty place for a control plane (a data directory, a schema). */
  newPlace(): string;
  /** A control store on `place`, on a connection of its own. */
  control(place: string): ControlStore;
  /** A notice ledger on `place`, on a connection of its own. */
  ledger(place: string): NoticeLedger;
  /** Closes every connection opened on `place` and removes it. */
  removePlace(place: string): Promise<void>;
}

/** The pools opened per schema, ended before the schema is dropped. */
const pgOpened = new Map<string, PostgresControl[]>();

function openPg(schema: string): PostgresControl {
  const opened = openPostgresControl(DATABASE_URL!, { schema, max: 4 });
  pgOpened.set(schema, [...(pgOpened.get(schema) ?? []), opened]);
  return opened;
}

/** Drops a test schema (and ends the pools opened on it); for suites that make schemas of their own too. */
export async function dropSchema(schema: string): Promise<void> {
  for (const opened of pgOpened.get(schema) ?? []) await opened.close();
  pgOpened.delete(schema);
  const pool = createPool(DATABASE_URL!, { max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS ${qi(schema)} CASCADE`);
  } finally {
    await pool.end();
  }
}

export const CONTROL_KINDS: readonly ControlKind[] = [
  {
    name: 'sqlite',
    skip: false,
    newPlace: () => tempDir('orchard-control-'),
    control: (dir) => new SqliteControlStore(dir),
    ledger: (dir) => new SqliteNoticeLedger(dir),
    async removePlace(dir) {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  },
  {
    name: 'postgres',
    skip: needsPostgres,
    newPlace: () => uniqueName('orchard_ctl'),
    control: (schema) => openPg(schema).control,
    ledger: (schema) => openPg(schema).ledger,
    removePlace: dropSchema,
  },
];
