// An organization deleted and loaded again under the same id and token by another process (a second
// server on the same stores, or `orchard org delete` and a load): a request the first server admitted
// before the delete, and that reaches the records after the load, fails 401 TOKEN_INVALID and writes
// nothing into the organization loaded since (docs/control-api.md § An organization deleted under a
// request). On SQLite (two servers on one data directory), and on PostgreSQL + Redis when
// DATABASE_URL is set.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openStores, type Stores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, REDIS_URL, uniqueName } from '../services.js';

const ADMIN_KEY = 'org-delete-processes-admin-key-0123';
const TOKEN = 'org-delete-processes-token-0001';
const ORG_ID = '2f1d2c3b-4a59-4f6e-8d7c-6b5a49382716';
const fixture = { organizations: [{ id: ORG_ID, name: 'Deleted by the other', plan: 'enterprise', users: [{ email: 'qa@processes.example', tokens: [TOKEN] }] }] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const stores: Array<[string, boolean]> = [['SQLite', false]];
if (DATABASE_URL) stores.push(['PostgreSQL', true]);

for (const [store, postgres] of stores) {
  describe(`a request of one server across a delete and load through another (${store})`, () => {
    test('fails TOKEN_INVALID and writes nothing into the organization loaded since', async () => {
      const dir = tempDir('orchard-org-delete-processes-');
      const schema = uniqueName('odp');
      const config = loadConfig({}, {
        dataDir: dir, logLevel: 'silent', adminKey: ADMIN_KEY,
        ...(postgres ? { databaseUrl: DATABASE_URL, databaseSchema: schema, ...(REDIS_URL ? { redisUrl: REDIS_URL } : {}) } : {}),
      });
      const servers: Array<{ stores: Stores; app: FastifyInstance }> = [];
      const open = async () => {
        const opened = openStores(config);
        const app = await buildApp({ ...opened, config, clock: Date.now, logger: false });
        await app.ready();
        servers.push({ stores: opened, app });
        return app;
      };
      const control = async (app: FastifyInstance, method: string, url: string, payload?: object) => {
        const res = await app.inject({ method: method as 'GET', url: `/_orchard${url}`, headers: { authorization: `Bearer ${ADMIN_KEY}` }, ...(payload ? { payload } : {}) });
        assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      };
      const accounts = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/record/account', headers: { tokenid: TOKEN } });
      try {
        const a = await open();
        const b = await open();
        await control(a, 'POST', '/fixtures', fixture);
        // Each server has served the organization: its identity is kept, its listener vouching for it.
        for (const app of [a, b]) assert.equal((await accounts(app)).statusCode, 200);
        await sleep(300);
        await control(a, 'POST', '/faults', { orgId: ORG_ID, methods: ['POST'], latencyMs: 1_500 });
        const slow = a.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: TOKEN }, payload: { accountname: 'Of the old one' } });
        await sleep(200);
        await control(b, 'DELETE', `/organizations/${ORG_ID}`);
        await control(b, 'POST', '/fixtures', fixture);
        const res = await slow;
        assert.equal(res.statusCode, 401, res.body);
        assert.equal(res.headers['x-error-code'], 'TOKEN_INVALID');
        const list = await accounts(b);
        assert.equal(list.statusCode, 200);
        assert.deepEqual((list.json() as { data: { Records: unknown[] } }).data.Records, [], 'nothing of the old request in the organization loaded since');
        // The first server serves the organization loaded since.
        assert.equal((await a.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: TOKEN }, payload: { accountname: 'Of the new one' } })).statusCode, 201);
      } finally {
        for (const s of servers) {
          await s.app.close();
          await s.stores.close();
        }
        if (postgres) {
          const sql = new pg.Client({ connectionString: DATABASE_URL });
          await sql.connect();
          await dropSchemas(sql, schema);
          await sql.end();
        }
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
