// The change log's numbers on PostgreSQL follow the order of the commits, whichever connection or
// process writes (docs/history.md): a writer that has taken a number holds it until it commits, so
// another writer of the organization waits and takes the next; and a reader following the feed
// while two stores (two pools, as two processes) write misses no entry and sees none twice.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ChangeEntry } from '../../src/schema/changes.js';
import { createPool, qi } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { newAccount } from './count-fixtures.js';
import { TEST_AUTHOR } from '../helpers.js';

describe('the change log\'s order on PostgreSQL with several connections', { skip: needsPostgres }, () => {
  let pools: pg.Pool[];
  let prefix: string;
  let stores: PostgresRecordStore[];

  before(() => {
    prefix = `${uniqueName('co')}_`;
    pools = [createPool(DATABASE_URL!), createPool(DATABASE_URL!), createPool(DATABASE_URL!)];
    stores = pools.map((pool) => new PostgresRecordStore(pool, { schemaPrefix: prefix }));
  });

  after(async () => {
    for (const s of stores) await s.close();
    await dropSchemas(pools[0]!, prefix);
    for (const p of pools) await p.end();
  });

  test('a write waits while another transaction holds the number it would take, and numbers after it', async () => {
    const orgId = randomUUID();
    const records = await stores[0]!.org(orgId);
    const account = (await records.schema()).resolve('account');
    await records.create(account, newAccount(), TEST_AUTHOR);
    const holder = new pg.Client({ connectionString: DATABASE_URL });
    await holder.connect();
    try {
      // An uncommitted writer of this organization that has taken number 2.
      const log = `${qi(stores[0]!.schemaName(orgId))}.orchard_change_log`;
      await holder.query(`BEGIN; UPDATE ${log} SET last_seq = last_seq + 1 WHERE id = 1`);
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      let done = false;
      const writing = (await stores[1]!.org(orgId)).create(account, newAccount(), TEST_AUTHOR).finally(() => { done = true; });
      // Until the other write is seen waiting for the holder's lock.
      for (;;) {
        const waiting = await pools[2]!.query<{ n: number }>('SELECT count(*)::integer AS n FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))', [holderPid]);
        if (waiting.rows[0]!.n > 0) break;
        assert.equal(done, false, 'the write finished while number 2 was held by an uncommitted transaction');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(done, false);
      await holder.query('COMMIT');
      await writing;
      const page = await records.changes({ after: 0, limit: 10 });
      // Number 2 went to the holder, which wrote no entry: a gap, never a number out of order.
      assert.deepEqual(page.entries.map((e) => e.seq), [1, 3]);
    } finally {
      await holder.end();
    }
  });

  test('a reader following the feed while two stores write sees every entry once, in order', { timeout: 120_000 }, async () => {
    const orgId = randomUUID();
    const [one, two, reader] = await Promise.all(stores.map((s) => s.org(orgId))) as [OrgRecords, OrgRecords, OrgRecords];
    const account = (await one.schema()).resolve('account');
    const written: string[] = [];
    let writing = true;
    const writer = async (records: OrgRecords) => {
      for (let i = 0; i < 60; i++) {
        const row = newAccount();
        if (i % 3 === 2) {
          // A batch: several entries in one transaction.
          const batch = [row, newAccount()];
          await records.createMany(account, batch, TEST_AUTHOR);
          written.push(...batch.map((r) => r.accountid as string));
        } else {
          await records.create(account, row, TEST_AUTHOR);
          written.push(row.accountid as string);
        }
      }
    };
    const seen: ChangeEntry[] = [];
    const follow = async () => {
      let after = 0;
      for (let caughtUp = false; ;) {
        const page = await reader.changes({ after, limit: 3 });
        seen.push(...page.entries);
        assert.ok(page.next >= after);
        after = page.next;
        if (caughtUp && page.entries.length === 0 && page.next === page.last) return;
        if (!writing) caughtUp = true;
      }
    };
    const following = follow();
    await Promise.all([writer(one), writer(two)]);
    writing = false;
    await following;
    const seqs = seen.map((e) => e.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'in order');
    assert.equal(new Set(seqs).size, seqs.length, 'none twice');
    assert.deepEqual(seen.map((e) => e.recordId).sort(), [...written].sort(), 'every write once');
  });
});
