// Queries whose plan SQLite's statistics change (docs/decisions.md, "SQLite's planner gets
// statistics"): each case's SQL, made by Orchard's own code, run on a reader connection to an
// organization of --accounts accounts made by `orchard seed` (so with the statistics Orchard counts),
// then on the same file with its statistics removed, medians of --samples runs after one warm-up;
// then the time to count them again as a store does when it opens a file without them. Each case has an equality on a picklist beside a condition that selects far
// fewer rows, and sorts by a field without an index, so that Orchard leaves the choice of index to
// SQLite (no ChooseStatement).
//
// Usage: node dist/bench/plan-statistics.js [--accounts 200000] [--samples 7] [--fresh]

import { parseArgs } from 'node:util';
import path from 'node:path';
import { planQuery } from '../src/query/plan.js';
import { SqlCache } from '../src/store/record-sql.js';
import type { SqlStatement } from '../src/store/sqlite/read-protocol.js';
import { openReader } from '../src/store/sqlite/reader.js';
import { openDb, type Db } from '../src/store/sqlite/sqlite-db.js';
import { queryStatement } from '../src/store/sqlite/sqlite-read-plan.js';
import { SqliteRecordStore } from '../src/store/sqlite/sqlite-record-store.js';
import { median } from './lib.js';
import { cliDataSet } from './orchard-target.js';

const { values: opts } = parseArgs({
  options: {
    accounts: { type: 'string', default: '200000' },
    samples: { type: 'string', default: '7' },
    fresh: { type: 'boolean', default: false },
  },
});

const accounts = Number(opts.accounts);
const samples = Number(opts.samples);
const { dataDir, orgId } = cliDataSet(`plan-statistics-${accounts}`, accounts, opts.fresh);
const file = path.join(dataDir, 'orgs', `${orgId}.db`);

// A data set made by an earlier build has no statistics: opening it through the store counts them, and closing waits for them.
const store = new SqliteRecordStore(dataDir);
const schema = await (await store.org(orgId)).schema();
await store.close();

const probe = openReader(file);
const sample = probe.prepare('SELECT accountnumber, industrycode FROM account WHERE rowid = ?').get(Math.floor(accounts / 2)) as { accountnumber: string; industrycode: number };
probe.close();

const cases: Array<{ query: string }> = [
  { query: `(industrycode = ${sample.industrycode} AND accountnumber = '${sample.accountnumber}')` },
  { query: "(statecode = 1 AND createdon > '2026-11-01')" },
  { query: "(accounttypecode = 5 AND accountname start-with 'Summit')" },
];
const statements = cases.map(({ query }) => {
  const plan = planQuery(schema, { objecttype: 1, fields: 'accountid,accountname,statecode,createdon', query, sort_by: 'telephone1', page_size: 50 });
  const statement = queryStatement(new SqlCache(), schema, plan);
  if ('choose' in statement) throw new Error(`${query}: Orchard chooses the index itself; not a case for this bench`);
  return statement;
});

function timeAll(): Array<{ ms: number; index: string }> {
  const db = openReader(file);
  try {
    return statements.map((s) => {
      const stmt = db.prepare(s.sql);
      stmt.all(...s.parameters);
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const t = process.hrtime.bigint();
        stmt.all(...s.parameters);
        times.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      return { ms: median(times), index: indexOf(db, s) };
    });
  } finally {
    db.close();
  }
}

function indexOf(db: Db, s: SqlStatement): string {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${s.sql}`).all(...s.parameters) as Array<{ detail: string }>;
  return plan.map((r) => /SEARCH r USING INDEX (\S+)/.exec(r.detail)?.[1] ?? (/SCAN r\b/.test(r.detail) ? 'scan' : '')).find((x) => x !== '') ?? '?';
}

const withStats = timeAll();
const writer = openDb(file);
writer.exec('DELETE FROM sqlite_stat1');
writer.close();
const without = timeAll();

// Counting them again, as at the opening of a file without them: a reader thread's work, and the short write that stores them.
const recount = new SqliteRecordStore(dataDir);
const started = process.hrtime.bigint();
await recount.org(orgId);
await recount.close();
const countedMs = Number(process.hrtime.bigint() - started) / 1e6;

console.log(`${accounts.toLocaleString('en-US')} accounts, medians of ${samples} runs, sorted by telephone1 (no index):`);
console.log('| query | with statistics | without | without / with |');
console.log('|---|---|---|---|');
cases.forEach(({ query }, i) => {
  const a = withStats[i]!;
  const b = without[i]!;
  console.log(`| \`${query}\` | ${a.ms.toFixed(2)} ms (${a.index}) | ${b.ms.toFixed(2)} ms (${b.index}) | ×${(b.ms / a.ms).toFixed(1)} |`);
});
console.log(`Statistics counted again (open, count on a reader thread, store, close): ${countedMs.toFixed(0)} ms.`);
