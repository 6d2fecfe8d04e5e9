// The outbox's worker calls on every store (docs/webhooks.md § The outbox): a claim gives the due
// deliveries oldest first, and settle records a batch's outcomes and claims the next atomically,
// the webhooks those outcomes disabled left out of the claim. On PostgreSQL a batch's claim and
// its outcomes are one named statement each, and the worker's transactions commit without waiting
// for the WAL's flush.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPool, inTransaction, type Pool } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import type { RecordRow } from '../../src/schema/types.js';
import type { AttemptResult, ClaimedDelivery, WebhookSpec } from '../../src/webhooks/webhook-types.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import { TEST_AUTHOR } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { organizationOn, POSTGRES_UNDER_TEST, SQLITE_UNDER_TEST } from '../store/stores-under-test.js';

const A = 'c1a20000-0000-4000-8000-0000000000aa';
const B = 'c1a20000-0000-4000-8000-0000000000bb';
const DUE = Date.parse('2026-03-01T12:00:00Z');
const hook = (id: string): WebhookSpec => ({
  id, event: 'created', objectType: null, url: `https://hooks.example.com/${id}`, method: 'POST', filter: null, headers: { 'x-team': id }, secret: 'whsec_AAAA', createdAt: '2026-03-01T12:00:00.000Z',
});

/** Two webhooks on every created record, and `count` accounts written: 2 × count deliveries. */
async function withDeliveries(store: RecordStore, orgId: string, records: OrgRecords, count: number): Promise<void> {
  for (const id of [A, B]) await records.webhooks.add(hook(id));
  // The write path sees the webhooks from the next schema version it reads.
  const schema = await records.schema();
  const account = schema.resolve('account');
  const rows: RecordRow[] = [];
  for (let i = 0; i < count; i++) {
    const row: RecordRow = {};
    for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
    rows.push({ ...row, accountid: `c1a20000-0000-4000-8000-${String(1000 + i).padStart(12, '0')}`, accountname: `A${i}`, statecode: 1, statuscode: 1, ownerid: null, createdon: '2026-03-01T12:00:00', modifiedon: '2026-03-01T12:00:00' });
  }
  await store.bulkInsert(orgId, account, rows, TEST_AUTHOR);
}

const outcome = (d: ClaimedDelivery, ok: boolean): AttemptResult => ({
  row: d.row, id: d.id, webhookId: d.webhook.id, ok, status: ok ? 200 : 503, error: ok ? null : 'HTTP 503', durationMs: 1, response: null, atMs: DUE, retryAtMs: ok ? null : DUE + 60_000,
});

for (const s of [SQLITE_UNDER_TEST, POSTGRES_UNDER_TEST]) {
  describe(`the outbox's claims and outcomes on ${s.name}`, { skip: s.skip }, () => {
    const o = organizationOn(s, []);
    before(async () => withDeliveries(o.store, o.orgId, o.records, 4));

    test('a claim gives the due deliveries oldest first, each with its webhook', async () => {
      const claimed = await o.records.webhooks.claim({ dueMs: DUE, realMs: Date.now(), leaseMs: 1, limit: 8 });
      assert.equal(claimed.length, 8);
      for (const d of claimed) assert.deepEqual(d.webhook, { id: d.webhook.id, url: `https://hooks.example.com/${d.webhook.id}`, method: 'POST', headers: { 'x-team': d.webhook.id }, secret: 'whsec_AAAA' });
      // Oldest first: by the change log's number, A's before B's for each (made in that order).
      const log = [...await o.records.webhooks.deliveries(A, { limit: 10, offset: 0 }), ...await o.records.webhooks.deliveries(B, { limit: 10, offset: 0 })];
      const expected = log.sort((a, b) => a.sequence - b.sequence || (a.webhookId < b.webhookId ? -1 : 1)).map((d) => d.id);
      assert.deepEqual(claimed.map((d) => d.id), expected);
    });

    test('settle records a batch\'s outcomes, then claims the next without the webhooks they disabled', async () => {
      // The claims of the test before lasted 1 ms.
      const realMs = Date.now() + 10;
      const first = await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 2 });
      assert.deepEqual(first.map((d) => d.webhook.id).sort(), [A, B]);
      const results = first.map((d) => outcome(d, d.webhook.id === B));
      // One failure disables A (policy: 1 failure over 0 hours); its pending deliveries end with it.
      const { disabled, claimed } = await o.records.webhooks.settle(results, { failures: 1, hours: 0 }, { dueMs: DUE, realMs, leaseMs: 60_000, limit: 10 });
      assert.deepEqual(disabled.map((h) => h.id), [A]);
      assert.deepEqual(claimed.map((d) => d.webhook.id), [B, B, B]);
      const [delivered] = await o.records.webhooks.deliveries(B, { limit: 1, offset: 3 });
      assert.deepEqual([delivered!.id, delivered!.state, delivered!.attempts, delivered!.lastStatus], [first.find((d) => d.webhook.id === B)!.id, 'delivered', 1, 200]);
      const ofA = await o.records.webhooks.deliveries(A, { limit: 10, offset: 0 });
      assert.deepEqual(ofA.map((d) => d.state), ['failed', 'failed', 'failed', 'failed']);
      // Nothing to record and nothing to claim: no transaction, nothing given.
      assert.deepEqual(await o.records.webhooks.settle([], { failures: 1, hours: 0 }, null), { disabled: [], claimed: [] });
      // Outcomes alone, no claim: B's three are recorded, none claimed.
      const alone = await o.records.webhooks.settle(claimed.map((d) => outcome(d, true)), { failures: 1, hours: 0 }, null);
      assert.deepEqual(alone, { disabled: [], claimed: [] });
      assert.deepEqual((await o.records.webhooks.deliveries(B, { limit: 10, offset: 0 })).map((d) => d.state), ['delivered', 'delivered', 'delivered', 'delivered']);
    });
  });
}

describe('the outbox\'s statements on PostgreSQL', { skip: needsPostgres }, () => {
  const prefix = `${uniqueName('named')}_`;
  const ORG = 'c1a20000-0000-4000-8000-000000000001';
  let pool: Pool;
  let store: PostgresRecordStore;

  before(() => {
    // One connection: the named statements of the claims are then those of the session the test reads.
    pool = createPool(DATABASE_URL!, { max: 1 });
    store = new PostgresRecordStore(pool, { schemaPrefix: prefix });
  });
  after(async () => {
    await store.close();
    await dropSchemas(pool, prefix);
    await pool.end();
  });

  test('claims and outcomes run as named statements, planned once per connection', async () => {
    const records = await store.org(ORG);
    await withDeliveries(store, ORG, records, 2);
    const claimed = await records.webhooks.claim({ dueMs: DUE, realMs: Date.now(), leaseMs: 60_000, limit: 10 });
    await records.webhooks.settle(claimed.map((d) => outcome(d, true)), { failures: 5, hours: 1 }, null);
    const { rows } = await pool.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%orchard_deliveries%'`);
    const named = rows.map((r) => r.statement);
    // One statement for a batch's claim and its lease, one for its outcomes: a round trip each.
    assert.ok(named.some((t) => /^with "due" as \(select .* for update of "d" skip locked\) update .*"orchard_deliveries" as "d" set "lease_ms" = \$\d+ from "due"/i.test(t)), `the claim: ${named.join(' | ')}`);
    assert.ok(named.some((t) => /^update .*"orchard_deliveries" as "d" set "state" = v\.state.* from unnest\(/is.test(t)), `the outcomes: ${named.join(' | ')}`);
  });

  test('a transaction with lazyCommit commits without waiting for the WAL\'s flush; others wait', async () => {
    const setting = (lazyCommit: boolean) => inTransaction(pool, async (c) => (await c.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit, { lazyCommit });
    assert.equal(await setting(true), 'off');
    assert.equal(await setting(false), 'on');
  });
});
