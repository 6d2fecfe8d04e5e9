// Deliveries whose webhook no longer exists (docs/webhooks.md § The delivery log): on PostgreSQL a
// write that read its webhooks may commit after a delete of one of them, leaving a delivery no
// claim takes (a claim joins its webhook). The worker's prune removes them, on every store; here
// the webhook's row is removed by hand, its delivery left, as that race leaves it.

import assert from 'node:assert/strict';
import path from 'node:path';
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { RecordRow } from '../../src/schema/types.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import { SqliteRecordStore } from '../../src/store/sqlite/sqlite-record-store.js';
import type { RecordStore } from '../../src/store/types.js';
import type { WebhookSpec } from '../../src/webhooks/webhook-types.js';
import { TEST_AUTHOR, tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';

const GONE = 'c1a20000-0000-4000-8000-00000000000a';
const KEPT = 'c1a20000-0000-4000-8000-00000000000b';
const hook = (id: string): WebhookSpec => ({
  id, event: 'created', objectType: null, url: `https://hooks.example.com/${id}`, method: 'POST', filter: null, headers: {}, secret: 'whsec_AAAA', createdAt: '2026-03-01T12:00:00.000Z',
});

interface Place {
  store: RecordStore;
  /** Runs SQL on the organization's tables (unqualified names). */
  exec(orgId: string, text: string): Promise<void>;
  count(orgId: string, text: string): Promise<number>;
  end(): Promise<void>;
}

const STORES: ReadonlyArray<{ name: string; skip: false | string; place(): Place }> = [
  {
    name: 'SQLite',
    skip: false,
    place() {
      const dir = tempDir('orchard-orphans-');
      const file = (orgId: string) => path.join(dir, 'orgs', `${orgId}.db`);
      const store = new SqliteRecordStore(dir);
      const open = <T>(orgId: string, f: (db: Database.Database) => T): T => {
        const db = new Database(file(orgId));
        try {
          return f(db);
        } finally {
          db.close();
        }
      };
      return {
        store,
        exec: async (orgId, text) => open(orgId, (db) => void db.exec(text)),
        count: async (orgId, text) => open(orgId, (db) => Number((db.prepare(text).get() as { n: number }).n)),
        async end() {
          await store.close();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: needsPostgres,
    place() {
      const pool = createPool(DATABASE_URL!);
      const schemaPrefix = `${uniqueName('orph')}_`;
      const store = new PostgresRecordStore(pool, { schemaPrefix });
      const inSchema = async <T>(orgId: string, f: (c: pg.PoolClient) => Promise<T>): Promise<T> => {
        const c = await pool.connect();
        try {
          await c.query(`SET search_path TO "${store.schemaName(orgId)}"`);
          return await f(c);
        } finally {
          await c.query('RESET search_path');
          c.release();
        }
      };
      return {
        store,
        exec: (orgId, text) => inSchema(orgId, async (c) => void await c.query(text)),
        count: (orgId, text) => inSchema(orgId, async (c) => Number((await c.query<{ n: string }>(text)).rows[0]!.n)),
        async end() {
          await store.close();
          await dropSchemas(pool, schemaPrefix);
          await pool.end();
        },
      };
    },
  },
];

for (const s of STORES) {
  describe(`deliveries of a webhook that is gone, on ${s.name}`, { skip: s.skip }, () => {
    let place: Place;
    const orgId = randomUUID();
    before(() => {
      place = s.place();
    });
    after(async () => place?.end());

    test('are removed by the prune, whatever their age; the others\' pending ones stay', async () => {
      const records = await place.store.org(orgId);
      for (const id of [GONE, KEPT]) await records.webhooks.add(hook(id));
      const account = (await records.schema()).resolve('account');
      const row: RecordRow = {};
      for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
      await place.store.bulkInsert(orgId, account, [{ ...row, accountid: randomUUID(), accountname: 'Raced', statecode: 1, statuscode: 1, createdon: '2026-03-01T12:00:00', modifiedon: '2026-03-01T12:00:00' }], TEST_AUTHOR);
      const pending = (id: string) => place.count(orgId, `SELECT count(*) AS n FROM orchard_deliveries WHERE webhook_id = '${id}' AND state = 'pending'`);
      assert.deepEqual([await pending(GONE), await pending(KEPT)], [1, 1]);
      // What the race leaves: the webhook's row gone, its delivery not.
      await place.exec(orgId, `DELETE FROM orchard_webhooks WHERE id = '${GONE}'`);
      // Made just now: older than no log retention, yet of no webhook.
      assert.equal(await records.webhooks.prune(0), 1);
      assert.deepEqual([await pending(GONE), await pending(KEPT)], [0, 1]);
    });
  });
}
