// PostgreSQL DDL of an organization's schema: the tables of sqlite-ddl.ts (one per object, one typed
// column per field, (field, key) indexes) with types chosen so every comparison gives SQLite's answer.

import { buildObject, type ObjectSpec } from '../../schema/build-object.js';
import { STANDARD_OBJECT_SPECS } from '../../schema/standard-objects.js';
import { TEXT_TYPES, type FieldDef, type ObjectDef } from '../../schema/types.js';
import { qi, type PgMigration } from './pg-db.js';
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
 * Slots of an object's row count: each connection adds to the slot of its backend, so concurrent
 * writers of one object (several processes) never queue on one row; the count is the slots' sum.
 */
export const COUNT_SLOTS = 16;

/**
 * The table of row counts and the trigger functions that keep them (once per schema): statement
 * triggers that add the rows a statement inserted or deleted, read from its transition table, to
 * the slot of the writing connection, in the writing transaction. As on SQLite (countSql), a
 * GET-list page reads Total_Records from the counts instead of counting the table.
 */
export function postgresCountTableSql(schema: string): string[] {
  const s = qi(schema);
  const fn = (name: string, rows: string, sign: string) => `CREATE FUNCTION ${s}.${name}() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  INSERT INTO ${s}.orchard_counts AS c (object_type, slot, n)
    SELECT TG_ARGV[0]::integer, pg_backend_pid() % ${COUNT_SLOTS}, ${sign}count(*) FROM ${rows}
    ON CONFLICT (object_type, slot) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $f$`;
  return [
    `CREATE TABLE ${s}.orchard_counts (object_type integer NOT NULL, slot integer NOT NULL, n bigint NOT NULL, PRIMARY KEY (object_type, slot))`,
    fn('orchard_count_inserted', 'inserted', ''),
    fn('orchard_count_deleted', 'deleted', '-'),
  ];
}

/**
 * The count triggers of an object's table and its starting count. The triggers come first: creating
 * one locks the table against writes until the transaction commits, so no row is written between
 * the count and the triggers, neither counted nor seen by them.
 */
export function postgresCountSql(schema: string, obj: ObjectDef): string[] {
  const s = qi(schema);
  const table = `${s}.${qi(obj.systemName)}`;
  const ot = String(obj.objectType);
  return [
    `CREATE TRIGGER orchard_count_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION ${s}.orchard_count_inserted('${ot}')`,
    `CREATE TRIGGER orchard_count_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION ${s}.orchard_count_deleted('${ot}')`,
    `INSERT INTO ${s}.orchard_counts (object_type, slot, n) SELECT ${ot}, 0, count(*) FROM ${table}`,
  ];
}

/** Total_Records of an object (see postgresCountSql); $1 is the object type. */
export function postgresCountQuery(schema: string): string {
  return `SELECT coalesce(sum(n), 0) AS n FROM ${qi(schema)}.orchard_counts WHERE object_type = $1`;
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
  // 2: row counts kept by triggers, for every object defined so far (custom ones included).
  async (client, schema) => {
    for (const stmt of postgresCountTableSql(schema)) await client.query(stmt);
    const { rows } = await client.query<{ spec: ObjectSpec }>(`SELECT spec FROM ${qi(schema)}.orchard_objects ORDER BY object_type`);
    for (const { spec } of rows) for (const stmt of postgresCountSql(schema, buildObject(spec))) await client.query(stmt);
  },
];
