// Schema migrations behind a pooler in transaction mode (PgBouncer's `pool_mode = transaction`,
// which docs/operations.md supports): each transaction, and each statement outside one, may run on
// whichever server connection is free. A lock the migration takes must be released on the
// connection that took it, whatever the pooler does, or the next process to start waits for ever.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { createPool, endPool, migrateSchema, type PgMigration, type Pool } from '../../src/store/postgres/pg-db.js';
import { DATABASE_URL, needsPostgres, uniqueName } from '../services.js';
import { dropSchema } from './control-kinds.js';

/**
 * A pool that behaves as a pooler in transaction mode: a statement outside a transaction goes to the
 * next of `size` server connections in turn, and a transaction stays on the connection of its BEGIN
 * until its COMMIT or ROLLBACK.
 */
async function transactionPooling(size: number): Promise<{ pool: Pool; pids: number[]; end(): Promise<void> }> {
  const servers = await Promise.all(Array.from({ length: size }, async () => {
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    return c;
  }));
  const pids = await Promise.all(servers.map(async (c) => Number((await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid)));
  let next = 0;
  let pinned: pg.Client | null = null;
  const client = {
    async query(text: string, values?: unknown[]) {
      const server = pinned ?? servers[next++ % size]!;
      if (/^\s*BEGIN\b/i.test(text)) pinned = server;
      try {
        return await server.query(text, values);
      } finally {
        if (/^\s*(COMMIT|ROLLBACK)\b/i.test(text)) pinned = null;
      }
    },
    release() {},
  };
  const pool = { connect: async () => client } as unknown as Pool;
  return { pool, pids, end: async () => { await Promise.all(servers.map((c) => c.end())); } };
}

describe('schema migrations behind a pooler in transaction mode', { skip: needsPostgres }, () => {
  const schemas: string[] = [];
  after(async () => {
    for (const s of schemas) await dropSchema(s);
  });

  test('leave no advisory lock held on any server connection, and a second start migrates on', async () => {
    const schema = uniqueName('orchard_pool');
    schemas.push(schema);
    const ran: number[] = [];
    const step = (n: number): PgMigration => async (client) => {
      ran.push(n);
      await client.query(`CREATE TABLE step_${n} (id int)`);
    };
    const pooler = await transactionPooling(8);
    try {
      assert.equal(await migrateSchema(pooler.pool, schema, [step(1), step(2)]), 2);
      const held = await pooler.pool.connect().then((c) => c.query("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND pid = ANY($1)", [pooler.pids]));
      assert.deepEqual(held.rows, [], 'an advisory lock stayed held after the migration');
      // Another process starting later (its own connection) takes the lock and applies the new step.
      const other = await transactionPooling(1);
      try {
        assert.equal(await migrateSchema(other.pool, schema, [step(1), step(2), step(3)]), 3);
      } finally {
        await other.end();
      }
      assert.deepEqual(ran, [1, 2, 3]);
    } finally {
      await pooler.end();
    }
  });

  test('processes starting at once apply each step once, in order', async () => {
    const schema = uniqueName('orchard_pool');
    schemas.push(schema);
    const ran: number[] = [];
    // CREATE TABLE without IF NOT EXISTS: a step run twice fails.
    const steps: PgMigration[] = [1, 2, 3, 4].map((n) => async (client) => {
      ran.push(n);
      await client.query(`CREATE TABLE step_${n} (id int)`);
    });
    const pools = [createPool(DATABASE_URL!, { max: 1 }), createPool(DATABASE_URL!, { max: 1 }), createPool(DATABASE_URL!, { max: 1 })];
    try {
      assert.deepEqual(await Promise.all(pools.map((p) => migrateSchema(p, schema, steps))), [4, 4, 4]);
      assert.deepEqual(ran, [1, 2, 3, 4]);
    } finally {
      await Promise.all(pools.map((p) => endPool(p, 5_000)));
    }
  });
});
