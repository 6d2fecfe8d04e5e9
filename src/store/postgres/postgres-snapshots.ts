// Snapshots of an organization's PostgreSQL schema: each a schema of its own holding copies of the
// tables (CREATE TABLE … (LIKE … INCLUDING ALL) and INSERT … SELECT), named from a digest of the
// organization and the snapshot's name and described by a JSON comment on the schema; and the
// replacement of an organization's tables by another schema's, in one transaction.

import { createHash } from 'node:crypto';
import { errorOf } from '../../errors.js';
import { buildObject, type ObjectSpec } from '../../schema/build-object.js';
import { STANDARD_OBJECT_SPECS } from '../../schema/standard-objects.js';
import { newEpoch } from '../change-log.js';
import { postgresCreateTableSql } from './postgres-ddl.js';
import { KEPT_ON_REPLACE, orphanDeliveriesSql, WEBHOOKS_TABLE } from '../webhook-outbox.js';
import type { SnapshotInfo } from '../types.js';
import { qi, run, type Pool, type PoolClient } from './pg-db.js';

/** The table of the users' mirror, which a replacement keeps (it follows the control plane, not the records). */
const CRMUSER_TABLE = 'crmuser';

/** What the comment on a snapshot's schema says. */
interface SnapshotComment {
  readonly orchardSnapshot: 1;
  readonly org: string;
  readonly name: string;
  readonly createdAt: string;
}

/**
 * The schema of a snapshot: `<prefix>snap_` and 24 hex digits of a digest of the organization and
 * the name (at most 63 bytes with the store's longest prefix; never an organization's schema, whose
 * suffix is 32 hex digits).
 */
export function snapshotSchema(prefix: string, orgId: string, name: string): string {
  return `${prefix}snap_${createHash('sha256').update(`${orgId}\u0000${name}`).digest('hex').slice(0, 24)}`;
}

async function tablesOf(client: PoolClient, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename COLLATE "C"', [schema]);
  return rows.map((r) => r.tablename);
}

/** The object definitions of a schema, each as its stored JSON text, by object number. */
async function specTexts(client: PoolClient, schema: string): Promise<string[]> {
  const { rows } = await client.query<{ spec: string }>(`SELECT spec::text AS spec FROM ${qi(schema)}.orchard_objects ORDER BY object_type`);
  return rows.map((r) => r.spec);
}

const sameTexts = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * The SQL copying the rows of `table` from schema `from` to `to`, column by name: a table made
 * from its definition has its columns in another order than one that grew by ALTER TABLE.
 */
async function copyRowsSql(client: PoolClient, from: string, to: string, table: string): Promise<string> {
  const { rows } = await client.query<{ attname: string }>(
    'SELECT attname FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum', [`${qi(from)}.${qi(table)}`]);
  const columns = rows.map((r) => qi(r.attname)).join(', ');
  return `INSERT INTO ${qi(to)}.${qi(table)} (${columns}) SELECT ${columns} FROM ${qi(from)}.${qi(table)}`;
}

/**
 * Copies every table of `from` into `to` with its rows: the tables of objects bare (a snapshot is
 * only ever read whole; restoring makes their indexes from the definitions), the others with
 * LIKE … INCLUDING ALL.
 */
async function copyTables(client: PoolClient, from: string, to: string): Promise<void> {
  const objects = new Set((await specTexts(client, from)).map((t) => (JSON.parse(t) as ObjectSpec).systemName));
  for (const table of await tablesOf(client, from)) {
    await client.query(`CREATE TABLE ${qi(to)}.${qi(table)} (LIKE ${qi(from)}.${qi(table)} INCLUDING ALL${objects.has(table) ? ' EXCLUDING INDEXES' : ''})`);
    await client.query(await copyRowsSql(client, from, to, table));
  }
}

/** The tables of the objects of `schema` but crmuser. */
async function recordTables(client: PoolClient, schema: string): Promise<string[]> {
  return (await specTexts(client, schema)).map((t) => (JSON.parse(t) as ObjectSpec).systemName).filter((n) => n !== CRMUSER_TABLE);
}

/**
 * Inside the caller's REPEATABLE READ transaction (one view of every table): replaces the snapshot
 * schema `target` with a copy of `orgSchema`.
 */
export async function takeSnapshot(client: PoolClient, orgSchema: string, target: string, orgId: string, name: string): Promise<SnapshotInfo> {
  const createdAt = new Date().toISOString();
  await client.query(`DROP SCHEMA IF EXISTS ${qi(target)} CASCADE`);
  await client.query(`CREATE SCHEMA ${qi(target)}`);
  await copyTables(client, orgSchema, target);
  const comment: SnapshotComment = { orchardSnapshot: 1, org: orgId, name, createdAt };
  // COMMENT takes no parameters: the text is a quoted literal.
  await client.query(`COMMENT ON SCHEMA ${qi(target)} IS '${JSON.stringify(comment).replace(/'/g, "''")}'`);
  return { name, createdAt, bytes: await schemaBytes(client, target) };
}

async function schemaBytes(client: PoolClient, schema: string): Promise<number> {
  const { rows } = await client.query<{ bytes: number | null }>(
    `SELECT sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`, [schema]);
  return Number(rows[0]?.bytes ?? 0);
}

/** The snapshots of the organization among the schemas starting with `<prefix>snap_`. */
export async function listSnapshotSchemas(client: PoolClient, prefix: string, orgId: string): Promise<Array<SnapshotInfo & { schema: string }>> {
  const { rows } = await client.query<{ nspname: string; comment: string | null }>(
    `SELECT nspname, obj_description(oid, 'pg_namespace') AS comment FROM pg_namespace WHERE starts_with(nspname, $1)`, [`${prefix}snap_`]);
  const out: Array<SnapshotInfo & { schema: string }> = [];
  for (const r of rows) {
    let c: Partial<SnapshotComment> | undefined;
    try {
      c = JSON.parse(r.comment ?? 'null') as Partial<SnapshotComment>;
    } catch {
      continue; // not one of ours
    }
    if (c?.orchardSnapshot !== 1 || c.org !== orgId || typeof c.name !== 'string' || typeof c.createdAt !== 'string') continue;
    out.push({ schema: r.nspname, name: c.name, createdAt: c.createdAt, bytes: await schemaBytes(client, r.nspname) });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Inside the caller's transaction: makes the tables of `orgSchema` but crmuser hold what `source`'s
 * hold, and sets the schema version past both, so every process reads the definitions again. An
 * object defined the same way in both keeps its table and has its rows replaced (DELETE, not
 * TRUNCATE: a TRUNCATE makes new files for every table and index, which took longer than copying a
 * test's few rows); one defined otherwise, or only on one side, has its table dropped and made
 * again from the source's definition, indexes included. DDL for every table and index took 1.5 s.
 * The meta row is locked first, so schema changes of any process queue behind the replacement.
 */
export async function replaceTables(client: PoolClient, orgSchema: string, source: string): Promise<void> {
  const o = qi(orgSchema);
  await client.query(`SELECT 1 FROM ${o}.orchard_meta WHERE id = 1 FOR UPDATE`);
  const version = async (schema: string) => (await client.query<{ v: number }>(`SELECT schema_version AS v FROM ${qi(schema)}.orchard_meta WHERE id = 1`)).rows[0]!.v;
  const next = Math.max(await version(orgSchema), await version(source)) + 1;
  const bySystemName = async (schema: string) => new Map((await specTexts(client, schema)).map((t) => [(JSON.parse(t) as ObjectSpec).systemName, t]));
  const mine = await bySystemName(orgSchema);
  const theirs = await bySystemName(source);
  const statements: string[] = [];
  for (const [name, text] of mine) {
    if (name !== CRMUSER_TABLE && theirs.get(name) !== text) statements.push(`DROP TABLE ${o}.${qi(name)} CASCADE`);
  }
  for (const [name, text] of theirs) {
    if (name === CRMUSER_TABLE) continue;
    if (mine.get(name) === text) statements.push(`DELETE FROM ${o}.${qi(name)}`);
    else statements.push(...postgresCreateTableSql(orgSchema, buildObject(JSON.parse(text) as ObjectSpec)));
    statements.push(await copyRowsSql(client, source, orgSchema, name));
  }
  // The other tables (the definitions, the migration version, whatever later migrations add) hold
  // rows only: replaced as they are, the meta row aside (its version is set below).
  const present = new Set(await tablesOf(client, orgSchema));
  for (const table of await tablesOf(client, source)) {
    if (theirs.has(table) || table === 'orchard_meta' || table === KEPT_ON_REPLACE) continue;
    statements.push(present.has(table) ? `DELETE FROM ${o}.${qi(table)}` : `CREATE TABLE ${o}.${qi(table)} (LIKE ${qi(source)}.${qi(table)} INCLUDING ALL)`);
    statements.push(await copyRowsSql(client, source, orgSchema, table));
  }
  // The deliveries stay (KEPT_ON_REPLACE) but those of webhooks the source lacks; a source from
  // before webhooks has none (its migration makes the table).
  if ((await tablesOf(client, source)).includes(WEBHOOKS_TABLE)) statements.push(orphanDeliveriesSql(`${o}.`));
  else statements.push(`DELETE FROM ${o}.${WEBHOOKS_TABLE}`, `DELETE FROM ${o}.${KEPT_ON_REPLACE}`);
  statements.push(`UPDATE ${o}.orchard_meta SET schema_version = ${next} WHERE id = 1`);
  await client.query(statements.join(';\n'));
  await newChangeLogEpoch(client, orgSchema);
}

/**
 * The change log after a replacement is the source's (or, from a snapshot before it, the one its
 * migration makes), under a new epoch: a cursor into the log replaced is refused (docs/history.md).
 */
async function newChangeLogEpoch(client: PoolClient, orgSchema: string): Promise<void> {
  if ((await client.query(`SELECT to_regclass($1) AS t`, [`${qi(orgSchema)}.orchard_change_log`])).rows[0].t === null) return;
  await client.query(`UPDATE ${qi(orgSchema)}.orchard_change_log SET epoch = $1 WHERE id = 1`, [newEpoch()]);
}

/**
 * The change log's epoch is kept with the OID of its table (`epoch:oid`). A table pg_restore made
 * again (--clean, or into a new database) has another OID, and its log has gone back to the dump's
 * numbers: it gets a new epoch, so a cursor given since is refused rather than followed past the
 * writes it never saw (docs/history.md). Checked when a process opens the organization; an epoch
 * stored without its OID (before this, or by a snapshot's restore) keeps its value.
 */
export async function followRestoredLog(pool: Pool, orgSchema: string): Promise<void> {
  await run(pool, `UPDATE ${qi(orgSchema)}.orchard_change_log
    SET epoch = CASE WHEN position(':' in epoch) = 0 THEN epoch ELSE $1 END || ':' || tableoid::text
    WHERE id = 1 AND epoch <> split_part(epoch, ':', 1) || ':' || tableoid::text`, [newEpoch()]);
}

/**
 * Inside the caller's transaction: when the organization has the standard objects only, empties
 * their tables (crmuser kept), its webhooks with their deliveries and the change log, moves the schema version on, and returns true; false otherwise
 * (the caller then replaces the tables from a new organization's schema).
 */
export async function emptyStandardTables(client: PoolClient, orgSchema: string): Promise<boolean> {
  const o = qi(orgSchema);
  await client.query(`SELECT 1 FROM ${o}.orchard_meta WHERE id = 1 FOR UPDATE`);
  if (!sameTexts(await specTexts(client, orgSchema), STANDARD_OBJECT_SPECS.map((s) => JSON.stringify(s)))) return false;
  await client.query([
    ...(await recordTables(client, orgSchema)).map((t) => `DELETE FROM ${o}.${qi(t)}`),
    // As a new organization's: no webhooks, so no deliveries either; no entries, numbered from 1
    // again, under a new epoch.
    `DELETE FROM ${o}.${WEBHOOKS_TABLE}`,
    `DELETE FROM ${o}.${KEPT_ON_REPLACE}`,
    `DELETE FROM ${o}.orchard_changes`,
    `UPDATE ${o}.orchard_change_log SET last_seq = 0, floor_seq = 0 WHERE id = 1`,
  ].join(';\n'));
  await newChangeLogEpoch(client, orgSchema);
  await client.query(`UPDATE ${o}.orchard_meta SET schema_version = schema_version + 1 WHERE id = 1`);
  return true;
}

/** The snapshot schema of that name, or SNAPSHOT_NOT_FOUND. */
export async function existingSnapshot(client: PoolClient, prefix: string, orgId: string, name: string): Promise<string> {
  const schema = snapshotSchema(prefix, orgId, name);
  const found = (await listSnapshotSchemas(client, prefix, orgId)).find((s) => s.schema === schema && s.name === name);
  if (!found) throw errorOf('SNAPSHOT_NOT_FOUND', orgId, name);
  return schema;
}
