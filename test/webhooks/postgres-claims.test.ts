// One delivery per event across several processes on PostgreSQL (docs/webhooks.md § Outbox): workers
// claim due deliveries with FOR UPDATE SKIP LOCKED, so two stores claiming at once never take the
// same one and between them take all; and two servers on one database, each written to and each with
// its worker, deliver every event exactly once.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { createPool, type Pool } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import type { RecordRow } from '../../src/schema/types.js';
import type { ClaimedDelivery } from '../../src/webhooks/webhook-types.js';
import { openStores } from '../../src/stores.js';
import { serveProcess, type Served } from '../cli/cli-runner.js';
import { tempDir, TEST_AUTHOR } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { startReceiver } from './receiver.js';

const ORG = 'c1a10000-0000-4000-8000-000000000001';
const HOOK = 'c1a10000-0000-4000-8000-0000000000aa';

describe('claims of deliveries on PostgreSQL', { skip: needsPostgres }, () => {
  const prefix = `${uniqueName('claims')}_`;
  const pools: Pool[] = [];
  let first: PostgresRecordStore;
  let second: PostgresRecordStore;

  before(async () => {
    for (let i = 0; i < 2; i++) pools.push(createPool(DATABASE_URL!, { max: 4 }));
    first = new PostgresRecordStore(pools[0]!, { schemaPrefix: prefix });
    second = new PostgresRecordStore(pools[1]!, { schemaPrefix: prefix });
  });
  after(async () => {
    await first.close();
    await second.close();
    await dropSchemas(pools[0]!, prefix);
    await Promise.all(pools.map((p) => p.end()));
  });

  test('two stores claiming at once never take one delivery twice, and take them all', async () => {
    const records = await first.org(ORG);
    const schema = await records.schema();
    await records.webhooks.add({ id: HOOK, event: 'created', objectType: null, url: 'https://hooks.example.com/', method: 'POST', filter: null, headers: {}, secret: 'whsec_x', createdAt: '2026-03-01T12:00:00.000Z' });
    // The write path sees the webhook from the next schema version it reads (every request reads it first).
    await records.schema();
    const account = schema.resolve('account');
    const rows: RecordRow[] = [];
    for (let i = 0; i < 400; i++) {
      const row: RecordRow = {};
      for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
      rows.push({ ...row, accountid: `c1a10000-0000-4000-8000-${String(1000 + i).padStart(12, '0')}`, accountname: `A${i}`, statecode: 1, statuscode: 1, ownerid: null, createdon: '2026-03-01T12:00:00', modifiedon: '2026-03-01T12:00:00' });
    }
    await first.bulkInsert(ORG, account, rows, TEST_AUTHOR);
    const due = Date.parse('2026-03-01T12:00:00Z');
    const claimAll = async (store: PostgresRecordStore): Promise<ClaimedDelivery[]> => {
      const outbox = (await store.org(ORG)).webhooks;
      const mine: ClaimedDelivery[] = [];
      for (;;) {
        const batch = await outbox.claim({ dueMs: due, realMs: Date.now(), leaseMs: 60_000, limit: 7 });
        if (batch.length === 0) return mine;
        mine.push(...batch);
      }
    };
    // Two claimers on each store, all at once.
    const [a1, b1, a2, b2] = await Promise.all([claimAll(first), claimAll(second), claimAll(first), claimAll(second)]);
    const a = [...a1!, ...a2!];
    const b = [...b1!, ...b2!];
    const ids = [...a, ...b].map((d) => d.id);
    assert.equal(new Set(ids).size, ids.length, 'no delivery was claimed twice');
    assert.equal(ids.length, 400, 'every delivery was claimed');
    assert.ok(a.length > 0 && b.length > 0, `both stores claimed some (${a.length}, ${b.length})`);
    assert.deepEqual(await (await second.org(ORG)).webhooks.claim({ dueMs: due, realMs: Date.now(), leaseMs: 60_000, limit: 10 }), [], 'claimed ones stay claimed until their lease ends');
    assert.equal((await (await second.org(ORG)).webhooks.claim({ dueMs: due, realMs: Date.now() + 61_000, leaseMs: 60_000, limit: 1000 })).length, 400, 'then any worker may take them again');
  });
});

describe('two servers on one PostgreSQL database', { skip: needsPostgres }, () => {
  test('deliver every event exactly once, whichever server took the write', { timeout: 120_000 }, async () => {
    const dir = tempDir('orchard-two-servers-');
    const config = loadConfig({}, { dataDir: dir, logLevel: 'silent', databaseUrl: DATABASE_URL, databaseSchema: uniqueName('wh2') });
    const receiver = await startReceiver();
    const servers: Served[] = [];
    try {
      const setup = openStores(config);
      const { org, token } = await setup.admin.createOrganization({ name: 'Two', plan: 'enterprise', email: 'two@example.com', minuteLimit: 1_000_000_000 });
      await setup.admin.createWebhook({ orgId: org.id, definition: { event: 'created', url: receiver.url }, allowPrivate: true });
      await setup.close();
      const env = { DATA_DIR: dir, LOG_LEVEL: 'silent', DAILY_CAP: '1000000000', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '100', DATABASE_URL: config.databaseUrl, DATABASE_SCHEMA: config.databaseSchema };
      for (let i = 0; i < 2; i++) servers.push(await serveProcess(['--json', 'serve'], env));
      const urls = servers.map((s) => JSON.parse(s.first).url as string);
      const written: string[] = [];
      await Promise.all(Array.from({ length: 8 }, async (_, c) => {
        for (let i = 0; i < 25; i++) {
          const res = await fetch(`${urls[(c + i) % 2]}/api/v3/record/account/batch/create`, {
            method: 'POST', headers: { tokenid: token, 'content-type': 'application/json' }, body: JSON.stringify({ data: [{ accountname: `A${c}-${i}` }, { accountname: `B${c}-${i}` }] }),
          });
          assert.equal(res.status, 200);
          written.push(...((await res.json()) as { data: Array<{ _id: string }> }).data.map((d) => d._id));
        }
      }));
      await receiver.waitFor(written.length, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const byId = new Map<string, number>();
      for (const r of receiver.received) byId.set(r.json.data.id, (byId.get(r.json.data.id) ?? 0) + 1);
      assert.deepEqual([...byId.keys()].sort(), [...written].sort());
      assert.deepEqual([...new Set(byId.values())], [1], 'each event delivered once');
      assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, written.length);
    } finally {
      for (const s of servers) s.proc.kill('SIGTERM');
      await Promise.all(servers.map((s) => s.exited));
      await receiver.close();
      const pool = createPool(config.databaseUrl!);
      await dropSchemas(pool, config.databaseSchema).finally(() => pool.end());
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
