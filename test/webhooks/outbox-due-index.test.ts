// On SQLite a claim walks the pending deliveries' index in the claim's order and stops at its batch,
// rather than sorting every due delivery (webhook-outbox.ts dueIndexSql): the deliveries of a bulk
// import share one due time, and a backlog of 8,000 was sorted whole for each batch of 100.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import type { CompiledSql } from '../../src/store/record-sql.js';
import { runSync } from '../../src/store/record-writes.js';
import { openDb } from '../../src/store/sqlite/sqlite-db.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import { sqliteSql } from '../../src/store/sqlite/sqlite-sql.js';
import { claimDeliveries, type OutboxExec } from '../../src/store/webhook-outbox.js';
import type { RecordRow } from '../../src/schema/types.js';
import type { RecordStore } from '../../src/store/types.js';
import type { ClaimRequest, WebhookSpec } from '../../src/webhooks/webhook-types.js';
import { tempDir, TEST_AUTHOR } from '../helpers.js';

const ORG = 'd0e00000-0000-4000-8000-000000000001';
const REQUEST: ClaimRequest = { dueMs: Date.parse('2026-03-01T13:00:00Z'), realMs: Date.now(), leaseMs: 60_000, limit: 100 };

/** Two webhooks on every created account, and `count` accounts imported at once: 2 × count deliveries due at one time. */
async function backlog(store: RecordStore, count: number): Promise<void> {
  const records = await store.org(ORG);
  for (const id of ['d0e00000-0000-4000-8000-0000000000aa', 'd0e00000-0000-4000-8000-0000000000bb']) {
    const hook: WebhookSpec = { id, event: 'created', objectType: null, url: `https://hooks.example.com/${id}`, method: 'POST', filter: null, headers: {}, secret: 'whsec_AAAA', createdAt: '2026-03-01T12:00:00.000Z' };
    await records.webhooks.add(hook);
  }
  const account = (await records.schema()).resolve('account');
  const rows: RecordRow[] = [];
  for (let i = 0; i < count; i++) {
    const row: RecordRow = {};
    for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
    rows.push({ ...row, accountid: `d0e00000-0000-4000-8000-${String(i).padStart(12, '0')}`, accountname: `A${i}`, statecode: 1, statuscode: 1, createdon: '2026-03-01T12:00:00', modifiedon: '2026-03-01T12:00:00' });
  }
  await store.bulkInsert(ORG, account, rows, TEST_AUTHOR);
}

/** The statement a claim sends first (the claim, with its lease on PostgreSQL), compiled for `x`'s store and not run. */
function claimStatement(x: Omit<OutboxExec, 'rows' | 'run'>): CompiledSql {
  const sent: CompiledSql[] = [];
  runSync(claimDeliveries({ ...x, rows: (s) => (sent.push(s), []), run: () => 0 }, REQUEST));
  return sent[0]!;
}

describe('a claim walks the pending deliveries\' index on SQLite', () => {
  const dir = tempDir('orchard-due-index-');
  let store: SqliteRecordStore;
  before(async () => {
    store = new SqliteRecordStore(dir);
    await backlog(store, 500);
  });
  after(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('in the claim\'s order, with no sort of the due deliveries', () => {
    const { sql, parameters } = claimStatement({ k: sqliteSql, batchStatements: false });
    const db = openDb(path.join(dir, 'orgs', `${ORG}.db`));
    try {
      db.exec('ANALYZE');
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as Array<{ detail: string }>).map((r) => r.detail);
      assert.ok(plan.some((d) => d.includes('ix_orchard_deliveries_pending')), plan.join(' | '));
      assert.ok(!plan.some((d) => d.includes('TEMP B-TREE')), plan.join(' | '));
      assert.equal((db.prepare(sql).all(...parameters) as unknown[]).length, 100);
    } finally {
      db.close();
    }
  });
});
