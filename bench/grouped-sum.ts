// The cost of the exact SUM of grouped queries (docs/query.md, "Both stores"; schema/decimal.ts)
// beside the store's own sum(), over --rows values of 2 decimal places in 10 groups. SQLite: a file
// opened by the store's openDb, so with the aggregate every connection registers (orchard_sum), once
// given the field's places (its scaled-integer path) and once without (the decimal-text path alone).
// PostgreSQL (with DATABASE_URL): sum(x) against the expression postgres-sql.ts builds, the doubles'
// text summed as numeric, rounded and cast back. Medians of --samples runs, the cases interleaved.
//
// Usage: node dist/bench/grouped-sum.js [--rows 1000000] [--samples 7]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDb, SUM_FUNCTION } from '../src/store/sqlite/sqlite-db.js';
import { median } from './lib.js';

const { values: opts } = parseArgs({ options: { rows: { type: 'string', default: '1000000' }, samples: { type: 'string', default: '7' } } });
const rows = Number(opts.rows);
const samples = Number(opts.samples);
const value = (i: number) => Math.round(((i * 7919) % 10_000_000) * 1.37) / 100;

async function timed(cases: ReadonlyArray<readonly [string, () => unknown]>): Promise<void> {
  const times = new Map(cases.map(([name]) => [name, [] as number[]]));
  for (let s = 0; s < samples + 1; s++) {
    for (const [name, run] of cases) {
      const t = process.hrtime.bigint();
      await run();
      if (s > 0) times.get(name)!.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  const anchor = median(times.get(cases[0]![0])!);
  for (const [name, ts] of times) console.log(`  ${name.padEnd(44)} ${median(ts).toFixed(0).padStart(6)} ms  ×${(median(ts) / anchor).toFixed(2)}`);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grouped-sum-'));
try {
  const db = openDb(path.join(dir, 'sum.db'));
  db.exec('CREATE TABLE t (g INTEGER, x REAL)');
  const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
  db.transaction(() => { for (let i = 0; i < rows; i++) insert.run(i % 10, value(i)); })();
  console.log(`SQLite, ${rows} rows:`);
  const native = db.prepare('SELECT g, sum(x) FROM t GROUP BY g');
  const scaled = db.prepare(`SELECT g, ${SUM_FUNCTION}(x, 2) FROM t GROUP BY g`);
  const text = db.prepare(`SELECT g, ${SUM_FUNCTION}(x, NULL) FROM t GROUP BY g`);
  await timed([['sum(x)', () => native.all()], [`${SUM_FUNCTION}(x, 2): the field's places`, () => scaled.all()], [`${SUM_FUNCTION}(x, NULL): decimal text only`, () => text.all()]]);
  db.close();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

if (process.env.DATABASE_URL) {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  const table = `grouped_sum_${process.pid}`;
  try {
    await client.query(`CREATE TABLE ${table} (g integer, x double precision)`);
    await client.query(`INSERT INTO ${table} SELECT i % 10, round(((i::bigint * 7919) % 10000000) * 1.37) / 100 FROM generate_series(0, ${rows - 1}) i`);
    await client.query(`ANALYZE ${table}`);
    console.log(`PostgreSQL, ${rows} rows:`);
    const exact = `round(sum(CAST(CAST(x AS text) AS numeric)), 2)`;
    await timed([
      ['sum(x)', () => client.query(`SELECT g, sum(x) FROM ${table} GROUP BY g`)],
      ['exact (postgres-sql.ts postgresSum)', () => client.query(`SELECT g, CASE WHEN abs(${exact}) < 1e308 THEN CAST(${exact} AS double precision) END FROM ${table} GROUP BY g`)],
    ]);
  } finally {
    await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.end();
  }
}
