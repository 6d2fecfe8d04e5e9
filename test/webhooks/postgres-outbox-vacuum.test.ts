// On PostgreSQL the outbox is a queue whose rows are updated twice each (lease, outcome): the
// process that records outcomes vacuums and analyzes it after 1,000 of them and a share of its rows
// (docs/webhooks.md § The outbox), so claims do not read the dead entries of every delivery made
// since the last vacuum, whatever autovacuum does (this machine's PostgreSQL runs without it).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import type { RecordRow } from '../../src/schema/types.js';
import type { AttemptResult, ClaimedDelivery } from '../../src/webhooks/webhook-types.js';
import { TEST_AUTHOR } from '../helpers.js';
import { DATABASE_URL } from '../services.js';
import { organizationOn, POSTGRES_UNDER_TEST } from '../store/stores-under-test.js';

const HOOK = 'c1a20000-0000-4000-8000-0000000000cc';
const DUE = Date.parse('2026-03-01T12:00:00Z');

const delivered = (d: ClaimedDelivery): AttemptResult => ({
  row: d.row, id: d.id, webhookId: d.webhook.id, ok: true, status: 200, error: null, durationMs: 1, response: null, atMs: DUE, retryAtMs: null,
});

describe('the outbox vacuumed by the process that records its outcomes, on PostgreSQL', { skip: POSTGRES_UNDER_TEST.skip }, () => {
  const o = organizationOn(POSTGRES_UNDER_TEST, []);
  let client: pg.Client;
  before(async () => {
    client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await o.records.webhooks.add({ id: HOOK, event: 'created', objectType: null, url: 'https://hooks.example.com/v', method: 'POST', filter: null, headers: {}, secret: 'whsec_AAAA', createdAt: '2026-03-01T12:00:00.000Z' });
    await o.records.schema();
    const rows: RecordRow[] = [];
    for (let i = 0; i < 1_000; i++) {
      const row: RecordRow = {};
      for (const f of o.account.fields) if (f.role !== 'derived') row[f.name] = null;
      rows.push({ ...row, accountid: `c1a20000-0000-4000-8000-${String(i).padStart(12, '0')}`, accountname: `A${i}`, statecode: 1, statuscode: 1, createdon: '2026-03-01T12:00:00', modifiedon: '2026-03-01T12:00:00' });
    }
    await o.store.bulkInsert(o.orgId, o.account, rows, TEST_AUTHOR);
  });
  after(async () => client.end());

  const vacuumed = async () => {
    const { rows } = await client.query<{ last_vacuum: Date | null; last_analyze: Date | null }>(
      "SELECT last_vacuum, last_analyze FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'orchard_deliveries'", [(o.records as unknown as { schemaName: string }).schemaName]);
    return rows[0]!;
  };

  test('after 1,000 outcomes, not before', async () => {
    const realMs = Date.now();
    for (let batch = 1; batch <= 10; batch++) {
      const claimed = await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 100 });
      assert.equal(claimed.length, 100);
      await o.records.webhooks.finish(claimed.map(delivered), { failures: 20, hours: 24 });
      if (batch === 9) {
        // Time for a vacuum started at once to be done and counted: none was.
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.deepEqual(await vacuumed(), { last_vacuum: null, last_analyze: null }, '900 outcomes: no vacuum yet');
      }
    }
    const end = Date.now() + 15_000;
    let seen = await vacuumed();
    while ((seen.last_vacuum === null || seen.last_analyze === null) && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await vacuumed();
    }
    assert.ok(seen.last_vacuum instanceof Date, 'vacuumed after the 1,000th outcome');
    assert.ok(seen.last_analyze instanceof Date, 'and analyzed');
    // The columns the claims plan by, on a small sample; not the bodies.
    const { rows: stats } = await client.query<{ attname: string }>('SELECT attname FROM pg_stats WHERE schemaname = $1 AND tablename = $2 ORDER BY attname',
      [(o.records as unknown as { schemaName: string }).schemaName, 'orchard_deliveries']);
    assert.deepEqual(stats.map((r) => r.attname), ['lease_ms', 'n', 'next_ms', 'sequence', 'state', 'webhook_id']);
    const { rows: [bounds] } = await client.query<{ n: number }>("SELECT array_length(histogram_bounds::text::bigint[], 1) AS n FROM pg_stats WHERE schemaname = $1 AND tablename = 'orchard_deliveries' AND attname = 'n'",
      [(o.records as unknown as { schemaName: string }).schemaName]);
    assert.equal(bounds!.n, 11, 'a histogram of 10 buckets: statistics target 10, not the default 100');
    assert.deepEqual(await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 100 }), []);
  });
});
