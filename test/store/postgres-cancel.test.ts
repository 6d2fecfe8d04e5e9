// Reads of the PostgreSQL store stop at the request time limit (statement_timeout) and when their
// signal aborts (a cancel on the server): REQUEST_TIMEOUT, and nothing left running in PostgreSQL.
// These tests wait for a real PostgreSQL to be running the statement; they never sleep otherwise.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { planQuery, type QueryPlan } from '../../src/query/plan.js';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import { createPool, type Pool } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { TEST_AUTHOR } from '../helpers.js';

const ROWS = 40_000;

describe('PostgreSQL reads under the time limit', { skip: needsPostgres }, () => {
  let pool: Pool;
  let schemaPrefix: string;
  let schemaName: string;
  let orgId: string;
  let account: ObjectDef;
  /** A plan that scans every account 200 times over (seconds of work): a filter matching nothing. */
  let slow: QueryPlan;

  const open = async (requestTimeoutMs: number): Promise<OrgRecords> =>
    new PostgresRecordStore(pool, { schemaPrefix, requestTimeoutMs }).org(orgId);

  /** Statements of this suite's schema that PostgreSQL is running now (parallel workers included). */
  /** Parallel workers of a cancelled statement exit a moment after its leader: 0 once they have (or the count after 1 s). */
  const settled = async (): Promise<number> => {
    const deadline = Date.now() + 1_000;
    let n = await running();
    while (n > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      n = await running();
    }
    return n;
  };

  const running = async (): Promise<number> => {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND strpos(query, $1) > 0`, [schemaName]);
    return rows[0]!.n;
  };

  before(async () => {
    pool = createPool(DATABASE_URL!);
    schemaPrefix = `${uniqueName('cancel')}_`;
    orgId = randomUUID();
    const store = new PostgresRecordStore(pool, { schemaPrefix });
    schemaName = store.schemaName(orgId);
    const records = await store.org(orgId);
    const schema = await records.schema();
    account = schema.resolve('account');
    const owner = randomUUID();
    await store.upsertUser(orgId, { id: owner, fullname: 'Owner', email: 'owner@example.com' });
    const rows: RecordRow[] = [];
    for (let i = 0; i < ROWS; i++) {
      const row: RecordRow = {};
      for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
      rows.push({ ...row, accountid: randomUUID(), accountname: `Account ${i}`, ownerid: owner, statecode: 1, statuscode: 1,
        createdon: '2025-01-01T00:00:00', modifiedon: '2025-01-01T00:00:00', createdby: owner, modifiedby: owner });
    }
    await store.bulkInsert(orgId, account, rows, TEST_AUTHOR);
    const query = Array.from({ length: 200 }, (_, i) => `accountname start-with '%zq${i}%'`).join(' OR ');
    slow = planQuery(schema, { objecttype: 'account', fields: 'accountid', query });
  });

  after(async () => {
    await dropSchemas(pool, schemaPrefix);
    await pool.end();
  });

  test('stops a statement over the time limit with REQUEST_TIMEOUT and leaves nothing running', async () => {
    const records = await open(100);
    const started = Date.now();
    await assert.rejects(records.query(slow), { name: 'AppError', code: 'REQUEST_TIMEOUT' });
    assert.ok(Date.now() - started < 3_000, `stopped after ${Date.now() - started} ms`);
    assert.equal(await settled(), 0);
    // The connection went back to the pool in working order.
    assert.equal((await records.list(account, { limit: 1, offset: 0 })).total, ROWS);
  });

  test('cancels the running statement on the server when the signal aborts', async () => {
    const records = await open(30_000);
    const controller = new AbortController();
    const reading = records.query(slow, controller.signal);
    const outcome = reading.then(() => 'finished', (err: unknown) => err);
    // Waits for PostgreSQL to be running it, then aborts (as the HTTP layer does at the limit).
    const deadline = Date.now() + 10_000;
    while ((await running()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(await running() > 0, 'the statement never showed as running');
    const aborted = Date.now();
    controller.abort();
    const err = await outcome;
    assert.equal((err as { code?: string }).code, 'REQUEST_TIMEOUT', String(err));
    assert.ok(Date.now() - aborted < 2_000, `stopped ${Date.now() - aborted} ms after the abort`);
    assert.equal(await settled(), 0, 'nothing of it runs on the server');
    assert.equal((await records.list(account, { limit: 1, offset: 0 })).total, ROWS);
  });

  test('does not start a read whose signal aborted while it waited for a connection', async () => {
    const small = createPool(DATABASE_URL!, { max: 1 });
    try {
      const records = await new PostgresRecordStore(small, { schemaPrefix }).org(orgId);
      await records.schema();
      const held = await small.connect();
      const controller = new AbortController();
      const reading = records.query(slow, controller.signal).then(() => 'finished', (err: unknown) => err);
      while (small.waitingCount === 0) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      held.release();
      const started = Date.now();
      assert.equal(((await reading) as { code?: string }).code, 'REQUEST_TIMEOUT');
      assert.ok(Date.now() - started < 1_000, `answered after ${Date.now() - started} ms`);
      assert.equal(await running(), 0);
    } finally {
      await small.end();
    }
  });

  test('refuses to start a read whose signal has already aborted', async () => {
    const records = await open(30_000);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(records.query(slow, controller.signal), { code: 'REQUEST_TIMEOUT' });
    await assert.rejects(records.list(account, { limit: 1, offset: 0 }, controller.signal), { code: 'REQUEST_TIMEOUT' });
    assert.equal(await running(), 0);
  });
});
