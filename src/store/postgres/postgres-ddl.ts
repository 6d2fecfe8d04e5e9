// PostgreSQL DDL of an organization's schema: the tables of sqlite-ddl.ts (one per object, one typed
// column per field, (field, key) indexes) with types chosen so every comparison gives SQLite's answer.

import { buildObject } from '../../schema/build-object.js';
import { STANDARD_OBJECT_SPECS, upgradedStandardSpec } from '../../schema/standard-objects.js';
import type { ObjectSpec } from '../../schema/build-object.js';
import { TEXT_TYPES, type FieldDef, type ObjectDef } from '../../schema/types.js';
import { newEpoch } from '../change-log.js';
import { qi, type PgMigration, type PoolClient } from './pg-db.js';
import { foldSql } from './postgres-sql.js';

/**
 * Numbers and picklist codes are double precision: every JavaScript number is exact there, and a
 * filter value of any size compares as SQLite compares it (an integer column refuses 1e20).
 * Everything else (keys and lookups as lowercase UUID text, dates, datetimes, text) is text under
 * "C", so ordering, ranges and prefixes compare bytes = code points, as SQLite's text does.
 */
export function postgresColumnType(f: FieldDef): string {
  const type = postgresValueType(f);
  const column = type === 'text' ? 'text COLLATE "C"' : type;
  return f.role === 'key' ? `${column} PRIMARY KEY` : column;
}

/** The type of a field's values, for casts (bulkInsert's column arrays). */
export function postgresValueType(f: FieldDef): 'double precision' | 'text' {
  return f.type === 'number' || f.type === 'picklist' ? 'double precision' : 'text';
}

/**
 * (field, key) for each indexed field, as SQLite has it: text on its fold. NULLS FIRST, so that
 * one index serves the SQLite order of empty values (first ascending, last descending) both ways.
 */
export function postgresIndexSql(schema: string, obj: ObjectDef, f: FieldDef): string {
  const column = TEXT_TYPES.has(f.type) ? `(${foldSql(qi(f.name))})` : qi(f.name);
  return `CREATE INDEX IF NOT EXISTS ${qi(`ix_${obj.systemName}_${f.name}`)} ON ${qi(schema)}.${qi(obj.systemName)} (${column} NULLS FIRST, ${qi(obj.keyField)})`;
}

export function postgresCreateTableSql(schema: string, obj: ObjectDef): string[] {
  const cols = obj.fields.filter((f) => f.role !== 'derived').map((f) => `${qi(f.name)} ${postgresColumnType(f)}`);
  return [
    `CREATE TABLE ${qi(schema)}.${qi(obj.systemName)} (${cols.join(', ')})`,
    ...obj.fields.filter((f) => f.indexed && f.role !== 'derived').map((f) => postgresIndexSql(schema, obj, f)),
  ];
}

/** Adds a field's column (and its index) to an existing table. */
export function postgresAddColumnSql(schema: string, obj: ObjectDef, f: FieldDef): string[] {
  return [
    `ALTER TABLE ${qi(schema)}.${qi(obj.systemName)} ADD COLUMN ${qi(f.name)} ${postgresColumnType(f)}`,
    ...(f.indexed ? [postgresIndexSql(schema, obj, f)] : []),
  ];
}

/**
 * Versioned migrations of an organization's schema (pg-db.ts migrateSchema); append only. The object
 * definitions live beside the tables, as in SQLite: `orchard_objects` (one JSON spec per object)
 * and `orchard_meta.schema_version`, bumped with every change so other processes see it at once.
 */
export const POSTGRES_ORG_MIGRATIONS: readonly PgMigration[] = [
  // 1: object definitions and the standard objects, in one round trip of DDL.
  async (client, schema) => {
    const s = qi(schema);
    await client.query([
      `CREATE TABLE ${s}.orchard_objects (object_type integer PRIMARY KEY, spec json NOT NULL)`,
      `CREATE TABLE ${s}.orchard_meta (id integer PRIMARY KEY CHECK (id = 1), schema_version integer NOT NULL)`,
      `INSERT INTO ${s}.orchard_meta (id, schema_version) VALUES (1, 1)`,
      ...STANDARD_OBJECT_SPECS.flatMap((spec) => postgresCreateTableSql(schema, buildObject(spec))),
    ].join(';\n'));
    await client.query(
      `INSERT INTO ${s}.orchard_objects (object_type, spec) SELECT (e ->> 'objectType')::integer, e FROM json_array_elements($1::json) AS e`,
      [JSON.stringify(STANDARD_OBJECT_SPECS)],
    );
  },
  // 2: standard objects as now defined (a note's objectid and objecttypecode), and files on
  // records with their content.
  async (client, schema) => {
    const s = qi(schema);
    await upgradeStandardObjects(client, schema);
    await client.query([
      `CREATE TABLE ${s}.orchard_files (id text COLLATE "C" PRIMARY KEY, object_type integer NOT NULL, record_id text COLLATE "C" NOT NULL,
        filename text NOT NULL, content_type text NOT NULL, size integer NOT NULL, createdon text COLLATE "C" NOT NULL, createdby text NOT NULL, content bytea NOT NULL)`,
      `CREATE INDEX ix_orchard_files_record ON ${s}.orchard_files (object_type, record_id, createdon, id)`,
    ].join(';\n'));
  },
  // 3: the change log (docs/history.md), empty: writes before the upgrade have no entries. Its
  // tables are made anew when they exist: only a restore of a snapshot from before it brings the
  // version back below 3, and then they hold the log of the state replaced.
  async (client, schema) => {
    const s = qi(schema);
    await client.query([
      `DROP TABLE IF EXISTS ${s}.orchard_changes, ${s}.orchard_change_log`,
      `CREATE TABLE ${s}.orchard_changes (seq bigint PRIMARY KEY, object_type integer NOT NULL, record_id text COLLATE "C" NOT NULL,
        operation text NOT NULL, fields text NOT NULL, user_id text, changedon text COLLATE "C" NOT NULL)`,
      `CREATE INDEX ix_orchard_changes_record ON ${s}.orchard_changes (object_type, record_id, seq)`,
      `CREATE TABLE ${s}.orchard_change_log (id integer PRIMARY KEY CHECK (id = 1), epoch text NOT NULL, last_seq bigint NOT NULL, floor_seq bigint NOT NULL)`,
    ].join(';\n'));
    await client.query(`INSERT INTO ${s}.orchard_change_log (id, epoch, last_seq, floor_seq) VALUES (1, $1, 0, 0)`, [newEpoch()]);
  },
  // 4: webhooks and their outbox (store/webhook-outbox.ts). IF NOT EXISTS: a restore keeps the
  // deliveries of the schema it replaces, then migrates a source older than this.
  async (client, schema) => {
    const s = qi(schema);
    await client.query([
      `CREATE TABLE IF NOT EXISTS ${s}.orchard_webhooks (id text COLLATE "C" PRIMARY KEY, event text NOT NULL, object_type integer, url text NOT NULL,
        method text NOT NULL, filter text, headers text NOT NULL, secret text NOT NULL, created_at text NOT NULL, failures integer NOT NULL DEFAULT 0,
        failing_since bigint, disabled_at bigint, notice_lease bigint, notice_sent_at text)`,
      `CREATE TABLE IF NOT EXISTS ${s}.orchard_deliveries (n bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, id text COLLATE "C" NOT NULL, webhook_id text COLLATE "C" NOT NULL, event text NOT NULL,
        object_type integer NOT NULL, record_id text NOT NULL, sequence bigint NOT NULL, payload text NOT NULL, state text NOT NULL, attempts integer NOT NULL,
        created_ms bigint NOT NULL, written_ms bigint NOT NULL, next_ms bigint, lease_ms bigint, last_ms bigint, last_status integer,
        last_error text, duration_ms double precision, response text)`,
      `CREATE INDEX IF NOT EXISTS ix_orchard_deliveries_due ON ${s}.orchard_deliveries (next_ms) WHERE state = 'pending'`,
      `CREATE INDEX IF NOT EXISTS ix_orchard_deliveries_webhook ON ${s}.orchard_deliveries (webhook_id, n)`,
    ].join(';\n'));
  },
  // 5: standard objects as now defined (a note's parentnoteid).
  (client, schema) => upgradeStandardObjects(client, schema),
  // 6: a webhook's previous secret, which signs beside a rotated one until it expires. IF NOT
  // EXISTS: a restore of an older snapshot keeps the table's columns and takes the version back.
  async (client, schema) => {
    await client.query(`ALTER TABLE ${qi(schema)}.orchard_webhooks ADD COLUMN IF NOT EXISTS previous_secret text, ADD COLUMN IF NOT EXISTS previous_secret_expires_at bigint`);
  },
];

/** The standard objects' stored definitions brought to this release's, their new fields' columns added. */
async function upgradeStandardObjects(client: PoolClient, schema: string): Promise<void> {
  const s = qi(schema);
  const { rows } = await client.query<{ spec: ObjectSpec }>(`SELECT spec FROM ${s}.orchard_objects ORDER BY object_type`);
  for (const { spec: stored } of rows) {
    const upgrade = upgradedStandardSpec(stored);
    if (!upgrade) continue;
    await client.query(`UPDATE ${s}.orchard_objects SET spec = $1 WHERE object_type = $2`, [JSON.stringify(upgrade.spec), stored.objectType]);
    const obj = buildObject(upgrade.spec);
    for (const f of upgrade.added) for (const stmt of postgresAddColumnSql(schema, obj, obj.fieldsByName.get(f.name)!)) await client.query(stmt);
  }
  await client.query(`UPDATE ${s}.orchard_meta SET schema_version = schema_version + 1 WHERE id = 1`);
}
