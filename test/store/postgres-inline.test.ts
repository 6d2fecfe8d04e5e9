// A statement run in one round trip with its values written into its text (pg-db.ts runLazily, the
// webhook worker's claims and outcomes): each value reads back as the driver's parameters give it,
// the commit does not wait for the WAL's flush and the setting ends with the statement, and a
// statement that fails rolls back whole.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPool, inlineValues, runLazily, type Pool } from '../../src/store/postgres/pg-db.js';
import { DATABASE_URL, needsPostgres, uniqueName } from '../services.js';

const TRICKY = ["it's", 'a \\ b', '"quoted"', '{a,b}', 'NULL', '', 'é 😀', "\\'; SELECT 1; --", '$1 $2'];

describe('a statement with its values in its text', () => {
  test('each $n is replaced once: a value holding "$2" is not read again, a negative number is no comment', () => {
    assert.equal(inlineValues('SELECT $1::text, 10 -$2, $3', ['$2', -5, null]), "SELECT '$2'::text, 10 -(-5), NULL");
  });
});

describe('runLazily on PostgreSQL', { skip: needsPostgres }, () => {
  let pool: Pool;
  before(() => {
    // One connection: what the next statement sees is what the last one left.
    pool = createPool(DATABASE_URL!, { max: 1 });
  });
  after(async () => pool.end());

  test('strings, numbers, NULL and arrays read back as the driver\'s parameters give them', async () => {
    const text = `SELECT $1::text[] AS texts, $2::bigint[] AS numbers, 10 -$3 AS difference, $4::double precision AS float, $5::text AS nothing,
      $6::text[] AS empty, ${TRICKY.map((_, i) => `$${i + 7}::text AS t${i}`).join(', ')}`;
    const values = [[...TRICKY, null], [1, -2, 9_007_199_254_740_991], -5, 1.5, null, [], ...TRICKY];
    const lazily = await runLazily(pool, text, values);
    const bound = await pool.query(text, values);
    assert.deepEqual(lazily.rows, bound.rows);
    assert.deepEqual(lazily.rows[0].texts, [...TRICKY, null]);
    assert.equal(lazily.rows[0].difference, 15);
  });

  test('its commit does not wait for the disk, and the setting ends with it', async () => {
    const { rows } = await runLazily(pool, 'SELECT current_setting($1) AS setting', ['synchronous_commit']);
    assert.equal(rows[0].setting, 'off');
    assert.equal((await pool.query("SELECT current_setting('synchronous_commit') AS setting")).rows[0].setting, 'on');
  });

  test('a statement that fails rejects and rolls back whole; the pool serves the next', async () => {
    const table = uniqueName('lazily');
    await pool.query(`CREATE TABLE ${table} (n integer PRIMARY KEY)`);
    try {
      await runLazily(pool, `INSERT INTO ${table} VALUES ($1)`, [1]);
      await assert.rejects(runLazily(pool, `INSERT INTO ${table} VALUES ($1), ($2)`, [2, 1]), { code: '23505' });
      assert.deepEqual((await pool.query(`SELECT n FROM ${table} ORDER BY n`)).rows, [{ n: 1 }]);
    } finally {
      await pool.query(`DROP TABLE ${table}`);
    }
  });
});
