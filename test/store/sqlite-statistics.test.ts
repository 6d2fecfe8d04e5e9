// The query planner's statistics of an organization's file (sqlite-statistics.ts): counted on a
// reader thread once a table holds STATS_MIN_ROWS rows, again when it doubles or halves, and for a
// file opened without them; the same figures SQLite's ANALYZE writes, so that a query reads the index
// of its selective equality rather than a picklist's.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sampleRows } from '../../src/admin/sample-data.js';
import { planQuery } from '../../src/query/plan.js';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import { SqlCache } from '../../src/store/record-sql.js';
import type { SqlStatement } from '../../src/store/sqlite/read-protocol.js';
import { openReader, withReaderFunctions } from '../../src/store/sqlite/reader.js';
import { openDb, type Db } from '../../src/store/sqlite/sqlite-db.js';
import { queryStatement } from '../../src/store/sqlite/sqlite-read-plan.js';
import { PlannerStatistics, STATS_MIN_ROWS } from '../../src/store/sqlite/sqlite-statistics.js';
import { withOwnedOrg, type SqliteFixture } from './sqlite-fixture.js';
import { TEST_AUTHOR } from '../helpers.js';

const OWNER = 'c4005e00-0000-4000-8000-0000000000bb';
const NOW = new Date(Date.UTC(2026, 0, 1));
const rows = (obj: ObjectDef, count: number, seed: number): RecordRow[] => sampleRows(obj, count, { ownerId: OWNER, now: NOW, seed });

/** The account table's statistics in the file, by index. */
function statsOf(db: Db): Record<string, string> {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() === undefined) return {};
  const found = db.prepare("SELECT idx, stat FROM sqlite_stat1 WHERE tbl = 'account' ORDER BY idx").all() as Array<{ idx: string; stat: string }>;
  return Object.fromEntries(found.map((r) => [r.idx, r.stat]));
}

function withReader<T>(file: string, use: (db: Db) => T): T {
  const db = openReader(file);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** The indexes SQLite's plan of `statement` reads. */
function indexesRead(db: Db, statement: SqlStatement): string[] {
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.parameters) as Array<{ detail: string }>;
  return plan.flatMap((r) => /USING (?:COVERING )?INDEX (\S+)/.exec(r.detail)?.[1] ?? []).filter((name) => !name.startsWith('sqlite_autoindex'));
}

const withOrg = (use: (fx: SqliteFixture, orgId: string) => Promise<void>): Promise<void> => withOwnedOrg(OWNER, use);

describe('the query planner\'s statistics (SQLite)', () => {
  test('a bulk insert past STATS_MIN_ROWS leaves the table the statistics ANALYZE would make, and a query then reads its selective equality\'s index', async () => {
    await withOrg(async (fx, orgId) => {
      const made = rows(fx.accounts, 2 * STATS_MIN_ROWS, 1);
      // Another store, as the CLI's seed beside the server: closing it waits for the statistics.
      await fx.withStore((cli) => cli.bulkInsert(orgId, fx.accounts, made, TEST_AUTHOR));
      const ours = withReader(fx.file, statsOf);
      assert.equal(ours['ix_account_statecode']?.split(' ')[0], String(made.length));

      // SQLite's own ANALYZE, on a copy of the file, gives the same figures for every index.
      const copy = path.join(fx.dir, 'analyzed.db');
      withReader(fx.file, (db) => db.exec(`VACUUM INTO '${copy}'`));
      const analyzed = openDb(copy);
      try {
        analyzed.exec("DELETE FROM sqlite_stat1; ANALYZE account");
        assert.deepEqual(ours, statsOf(analyzed));
      } finally {
        analyzed.close();
      }

      // An equality on a picklist (a tenth of the rows) beside one on a field nearly unique, sorted by a field without an index.
      const target = made[777]!;
      const schema = await fx.records.schema();
      const plan = planQuery(schema, { objecttype: 1, fields: 'accountid,accountname', query: `(industrycode = ${String(target.industrycode)} AND accountnumber = '${String(target.accountnumber)}')`, sort_by: 'telephone1', page_size: 50 });
      const statement = queryStatement(new SqlCache(), schema, plan) as SqlStatement;
      assert.deepEqual(withReader(fx.file, (db) => indexesRead(db, statement)), ['ix_account_accountnumber']);
      // Without them SQLite reads the picklist's index (each equality "matches ten rows" to it): what the statistics change.
      const bare = openDb(fx.file);
      try {
        bare.exec('DELETE FROM sqlite_stat1');
      } finally {
        bare.close();
      }
      assert.deepEqual(withReader(fx.file, (db) => indexesRead(db, statement)), ['ix_account_industrycode']);
      const page = await fx.records.query(plan);
      assert.deepEqual(page.rows.map((r) => r.accountid), [target.accountid]);
    });
  });

  test('statistics are counted again when the table has doubled, not before', async () => {
    await withOrg(async (fx, orgId) => {
      await fx.withStore((s) => s.bulkInsert(orgId, fx.accounts, rows(fx.accounts, STATS_MIN_ROWS, 1), TEST_AUTHOR));
      const rowsCounted = () => withReader(fx.file, statsOf)['ix_account_createdon']?.split(' ')[0];
      assert.equal(rowsCounted(), String(STATS_MIN_ROWS));
      await fx.withStore((s) => s.bulkInsert(orgId, fx.accounts, rows(fx.accounts, STATS_MIN_ROWS / 2, 2), TEST_AUTHOR));
      assert.equal(rowsCounted(), String(STATS_MIN_ROWS));
      await fx.withStore((s) => s.bulkInsert(orgId, fx.accounts, rows(fx.accounts, STATS_MIN_ROWS, 3), TEST_AUTHOR));
      assert.equal(rowsCounted(), String(2.5 * STATS_MIN_ROWS));
    });
  });

  test('a table under STATS_MIN_ROWS gets none; a file opened without statistics for a large table gets them', async () => {
    await withOrg(async (fx, orgId) => {
      await fx.withStore((s) => s.bulkInsert(orgId, fx.accounts, rows(fx.accounts, STATS_MIN_ROWS - 1, 1), TEST_AUTHOR));
      assert.deepEqual(withReader(fx.file, statsOf), {});
      await fx.withStore((s) => s.bulkInsert(orgId, fx.accounts, rows(fx.accounts, 2, 2), TEST_AUTHOR));
      assert.notDeepEqual(withReader(fx.file, statsOf), {});
      // A file of an earlier build: the rows, no statistics. Opening it is enough.
      const db = openDb(fx.file);
      try {
        db.exec('DELETE FROM sqlite_stat1');
      } finally {
        db.close();
      }
      await fx.withStore((s) => s.org(orgId));
      assert.equal(withReader(fx.file, statsOf)['ix_account_statecode']?.split(' ')[0], String(STATS_MIN_ROWS + 1));
    });
  });

  test('statistics another process counts are planned with by a connection that read the file\'s schema before, at its next statement, and not counted again', async () => {
    await withOrg(async (fx, orgId) => {
      const made = rows(fx.accounts, 2 * STATS_MIN_ROWS, 1);
      const schema = await fx.records.schema();
      const target = made[777]!;
      const plan = planQuery(schema, { objecttype: 1, fields: 'accountid', query: `(industrycode = ${String(target.industrycode)} AND accountnumber = '${String(target.accountnumber)}')`, sort_by: 'telephone1', page_size: 50 });
      const statement = queryStatement(new SqlCache(), schema, plan) as SqlStatement;
      // The rows and their indexes first, statistics removed: a server's connection reads the schema then.
      await fx.withStore((cli) => cli.bulkInsert(orgId, fx.accounts, made, TEST_AUTHOR));
      const other = openDb(fx.file);
      other.exec('DELETE FROM sqlite_stat1');
      other.close();
      const server = withReaderFunctions(openDb(fx.file));
      try {
        const statistics = new PlannerStatistics(server);
        assert.deepEqual(indexesRead(server, statement), ['ix_account_industrycode']);
        // Another process counts them (a store opening the file without them).
        await fx.withStore((cli) => cli.org(orgId));
        server.prepare('SELECT count(*) FROM orchard_meta').get();
        assert.deepEqual(indexesRead(server, statement), ['ix_account_accountnumber']);
        const stale = statistics.stale([{ objectType: fx.accounts.objectType, n: made.length }], () => 'account');
        assert.deepEqual(stale, [fx.accounts.objectType]);
        await statistics.refresh({ read: () => Promise.reject(new Error('counted again')), write: async (work) => work() }, fx.accounts);
        assert.deepEqual(statistics.stale([{ objectType: fx.accounts.objectType, n: made.length }], () => 'account'), []);
      } finally {
        server.close();
      }
    });
  });

  test('a count that cannot be stored (another process holds the write lock past the wait) is told to the log, and the write that asked for it stands', async () => {
    await withOrg(async (fx, orgId) => {
      const warnings: Array<{ obj: object; msg: string }> = [];
      const log = { warn: (obj: object, msg: string) => warnings.push({ obj, msg }), info: () => {} };
      const made = rows(fx.accounts, 2 * STATS_MIN_ROWS, 1);
      const holder = openDb(fx.file);
      try {
        await fx.withStore(async (cli) => {
          cli.logTo(log);
          await cli.bulkInsert(orgId, fx.accounts, made, TEST_AUTHOR);
          // Before the refresh's turn (it waits for the next one): its count reads, its write waits 50 ms and gives up.
          holder.exec('BEGIN IMMEDIATE');
        }, { writeWaitMs: 50 });
      } finally {
        if (holder.inTransaction) holder.exec('ROLLBACK');
        holder.close();
      }
      assert.equal(warnings.length, 1, JSON.stringify(warnings));
      const [{ obj, msg }] = warnings as [{ obj: { orgId: string; objectType: number; err: unknown }; msg: string }];
      assert.equal(obj.orgId, orgId);
      assert.equal(obj.objectType, fx.accounts.objectType);
      assert.ok(obj.err instanceof Error);
      assert.match(msg, /statistics of object type 1 were not counted: its queries are planned without them/);
      assert.deepEqual(withReader(fx.file, statsOf), {});
      assert.equal(withReader(fx.file, (db) => (db.prepare('SELECT count(*) AS n FROM account').get() as { n: number }).n), made.length);
    });
  });
});
