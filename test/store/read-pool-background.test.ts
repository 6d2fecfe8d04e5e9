// Background reads of the reader threads (the planner's statistics, sqlite-statistics.ts) wait for
// the queries queued and run one at a time, so that a query never waits behind two of them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ReadPool } from '../../src/store/sqlite/read-pool.js';
import { openDb } from '../../src/store/sqlite/sqlite-db.js';
import { tempDir } from '../helpers.js';

/** A statement that keeps a thread busy for a while (a few hundred milliseconds here), then answers. */
const slow = { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) AS n FROM c', parameters: [], first: true };
const quick = { sql: 'SELECT 1 AS n', parameters: [], first: true };

/** Runs `use` with a pool of `size` threads and an empty database file, both gone after. */
async function withPool(size: number, use: (pool: ReadPool, file: string) => Promise<void>): Promise<void> {
  const dir = tempDir('orchard-pool-');
  const file = path.join(dir, 'x.db');
  openDb(file).close();
  const pool = new ReadPool(size);
  try {
    await use(pool, file);
  } finally {
    await pool.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test('with two threads, a query queued after two background reads runs beside the first, not after both', () => withPool(2, async (pool, file) => {
  const order: string[] = [];
  const note = (name: string) => () => order.push(name);
  const first = pool.run(file, [slow], undefined, { background: true }).then(note('background 1'));
  const second = pool.run(file, [slow], undefined, { background: true }).then(note('background 2'));
  const query = pool.run(file, [quick]).then(note('query'));
  await Promise.all([first, second, query]);
  assert.deepEqual(order, ['query', 'background 1', 'background 2']);
}));

// One thread, kept busy by a query while both are queued.
test('a background read queued first waits for a query queued after it', () => withPool(1, async (pool, file) => {
  const order: string[] = [];
  const note = (name: string) => () => order.push(name);
  const busy = pool.run(file, [slow]).then(note('busy'));
  const background = pool.run(file, [quick], undefined, { background: true }).then(note('background'));
  const query = pool.run(file, [quick]).then(note('query'));
  await Promise.all([busy, background, query]);
  assert.deepEqual(order, ['busy', 'query', 'background']);
}));
