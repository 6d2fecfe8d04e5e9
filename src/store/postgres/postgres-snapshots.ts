// Snapshots of an organization's PostgreSQL schema: each a schema of its own holding copies of the
// tables (CREATE TABLE … (LIKE … INCLUDING ALL) and INSERT … SELECT), named from a digest of the
// organization and the snapshot's name and described by a JSON comment on the schema; and the
// replacement of an organization's tables by another schema's, in one transaction.

import { createHash } from 'node:crypto';
import { errorOf } from '../../errors.js';
import type { SnapshotInfo } from '../types.js';
import { qi, type PoolClient } from './pg-db.js';

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

/** Copies the tables of `from` (but those in `skip`) into `to`: columns, defaults, constraints and indexes, then rows. */
async function copyTables(client: PoolClient, from: string, to: string, skip: ReadonlySet<string> = new Set()): Promise<void> {
  for (const table of await tablesOf(client, from)) {
    if (skip.has(table)) continue;
    await client.query(`CREATE TABLE ${qi(to)}.${qi(table)} (LIKE ${qi(from)}.${qi(table)} INCLUDING ALL)`);
    await client.query(`INSERT INTO ${qi(to)}.${qi(table)} SELECT * FROM ${qi(from)}.${qi(table)}`);
  }
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
 * Inside the caller's transaction: replaces every table of `orgSchema` but crmuser with copies of
 * `source`'s, and sets the schema version past both, so every process reads the definitions again.
 * The meta row is locked first, so schema changes of any process queue behind the replacement.
 */
export async function replaceTables(client: PoolClient, orgSchema: string, source: string): Promise<void> {
  const o = qi(orgSchema);
  await client.query(`SELECT 1 FROM ${o}.orchard_meta WHERE id = 1 FOR UPDATE`);
  const version = async (schema: string) => (await client.query<{ v: number }>(`SELECT schema_version AS v FROM ${qi(schema)}.orchard_meta WHERE id = 1`)).rows[0]!.v;
  const next = Math.max(await version(orgSchema), await version(source)) + 1;
  for (const table of await tablesOf(client, orgSchema)) {
    if (table !== CRMUSER_TABLE) await client.query(`DROP TABLE ${o}.${qi(table)} CASCADE`);
  }
  await copyTables(client, source, orgSchema, new Set([CRMUSER_TABLE]));
  await client.query(`UPDATE ${o}.orchard_meta SET schema_version = $1 WHERE id = 1`, [next]);
}

/** The snapshot schema of that name, or SNAPSHOT_NOT_FOUND. */
export async function existingSnapshot(client: PoolClient, prefix: string, orgId: string, name: string): Promise<string> {
  const schema = snapshotSchema(prefix, orgId, name);
  const found = (await listSnapshotSchemas(client, prefix, orgId)).find((s) => s.schema === schema && s.name === name);
  if (!found) throw errorOf('SNAPSHOT_NOT_FOUND', orgId, name);
  return schema;
}
