// A PostgreSQL connection is closed when it goes back to the pool once it has prepared
// PREPARED_PER_CONNECTION named statements (pg-db.ts), which frees the plans and the table caches the
// server kept for it. Without that bound every organization's hot statements stayed prepared, and
// its tables cached, on every connection for its whole life.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createPool, inTransaction, prepared, run, type Pool, type Prepared } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import type { RecordRow } from '../../src/schema/types.js';
import { TEST_AUTHOR } from '../helpers.js';

/** The names prepared on the pool's one connection, sorted. */
async function preparedNames(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name');
  return rows.map((r) => r.name);
}

/** The server process of the pool's one connection. */
async function backend(pool: Pool): Promise<number> {
  return (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
}

describe('prepared statements per PostgreSQL connection', { skip: needsPostgres }, () => {
  let pool: Pool;
  let schema: string;
  /** Five statements, each adding its own number to its parameter. */
  const statements: Prepared[] = Array.from({ length: 5 }, (_, i) => prepared(`SELECT $1::int + ${i} AS n /* bound ${randomUUID()} */`));
  const names = (...indexes: number[]) => indexes.map((i) => statements[i]!.name).sort();
  const use = async (i: number, db: Pool | { query: Pool['query'] } = pool) =>
    (await (db === pool ? run(pool, statements[i]!, [100]) : db.query({ ...statements[i]!, values: [100] }))).rows[0].n as number;

  before(async () => {
    pool = createPool(DATABASE_URL!, { max: 1, preparedPerConnection: 3 });
    schema = uniqueName('bound');
    await pool.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (x int)`);
  });
  after(async () => {
    await pool.query(`DROP SCHEMA ${schema} CASCADE`);
    await pool.end();
  });

  test('a connection that has prepared three is closed when it goes back to the pool; the next one parses again what it runs', async () => {
    const first = await backend(pool);
    for (const i of [0, 1, 0]) assert.equal(await use(i), 100 + i);
    assert.deepEqual(await preparedNames(pool), names(0, 1));
    assert.equal(await backend(pool), first, 'two statements: kept');
    assert.equal(await use(2), 102);
    const second = await backend(pool);
    assert.notEqual(second, first, 'the third closed it');
    assert.deepEqual(await preparedNames(pool), []);
    assert.equal(await use(0), 100);
    assert.deepEqual(await preparedNames(pool), names(0));
  });

  test('a transaction that passes the bound keeps its connection to its end, commits, and the connection is then closed', async () => {
    const before = await backend(pool);
    const seen = await inTransaction(pool, async (client) => {
      const out: number[] = [];
      for (const i of [4, 3, 2, 1, 0]) out.push(await use(i, client));
      await client.query(`INSERT INTO ${schema}.t VALUES (7)`);
      out.push((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
      return out;
    });
    assert.deepEqual(seen, [104, 103, 102, 101, 100, before]);
    assert.notEqual(await backend(pool), before);
    assert.deepEqual((await pool.query(`SELECT x FROM ${schema}.t`)).rows, [{ x: 7 }]);
  });

  test('a connection whose statement failed is closed, as pg-pool does; the next statement works', async () => {
    const before = await backend(pool);
    await assert.rejects(run(pool, prepared(`SELEC 1 /* bound ${randomUUID()} */`)), { code: '42601' });
    assert.notEqual(await backend(pool), before);
    assert.equal(await use(4), 104);
  });
});

describe('a record store serving more organizations than a connection keeps statements for', { skip: needsPostgres }, () => {
  let pool: Pool;
  let schemaPrefix: string;

  before(() => {
    pool = createPool(DATABASE_URL!, { max: 1, preparedPerConnection: 4 });
    schemaPrefix = `${uniqueName('bound')}_`;
  });
  after(async () => {
    await dropSchemas(pool, schemaPrefix);
    await pool.end();
  });

  test('reads and writes each organization right, round after round, with at most the bound prepared', async () => {
    const store = new PostgresRecordStore(pool, { schemaPrefix });
    const made: Array<{ orgId: string; id: string; name: string }> = [];
    for (let i = 0; i < 5; i++) {
      const orgId = randomUUID();
      const records = await store.org(orgId);
      const account = (await records.schema()).resolve('account');
      const row: RecordRow = {};
      for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
      const id = randomUUID();
      await records.create(account, { ...row, accountid: id, accountname: `Org ${i}`, statecode: 1, statuscode: 1, createdon: TEST_AUTHOR.at, modifiedon: TEST_AUTHOR.at }, TEST_AUTHOR);
      made.push({ orgId, id, name: `Org ${i}` });
    }
    const counts: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (const m of made) {
        const records = await store.org(m.orgId);
        const account = (await records.schema()).resolve('account');
        assert.equal((await records.get(account, m.id))?.accountname, m.name);
        const renamed = `${m.name} r${round}`;
        await records.update(account, m.id, { accountname: renamed }, TEST_AUTHOR);
        m.name = renamed;
        counts.push((await preparedNames(pool)).length);
      }
    }
    assert.ok(counts.every((n) => n <= 4), `prepared after each read and write: ${counts.join()}`);
  });
});
