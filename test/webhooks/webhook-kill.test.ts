// At least once after any crash (docs/webhooks.md § Outbox): a child `orchard serve` with webhooks
// on created, updated and deleted takes writes from several clients while its receiver refuses or
// accepts deliveries at random, and is killed with SIGKILL; a server started again on the same data
// delivers every event of every write the first one acknowledged, on either store.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadConfig, type ConfigOverrides } from '../../src/config.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { openStores } from '../../src/stores.js';
import { serveProcess, type Served } from '../cli/cli-runner.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { startReceiver } from './receiver.js';

/** Acknowledged writes at which the server is killed; more are under way then. */
const KILL_AFTER = 120;
const CLIENTS = 6;

/** `created <id>`, `updated <id> <name>`, `deleted <id>`: an event a receiver must get. */
type Owed = string;

/** Each client creates a record, renames it, and deletes every other one, until the server is gone; resolves with the first failure. */
async function writeUntilGone(url: string, token: string, owed: Set<Owed>, onAck: () => void): Promise<string> {
  const call = async (method: string, path: string, body?: object): Promise<any> => {
    const res = await fetch(`${url}${path}`, { method, headers: { tokenid: token, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    onAck();
    return res.json();
  };
  const client = async (c: number) => {
    for (let i = 0; ; i++) {
      if (i % 4 === 3) {
        const reply = await call('POST', '/api/v3/record/contact/batch/create', { data: [{ firstname: `B${c}`, lastname: `${i}a` }, { firstname: `B${c}`, lastname: `${i}b` }] });
        for (const d of reply.data as Array<{ _id: string }>) owed.add(`created ${d._id}`);
        continue;
      }
      const id = (await call('POST', '/api/record/account', { accountname: `C${c}-${i}` })).data.Record.accountid as string;
      owed.add(`created ${id}`);
      await call('PUT', `/api/record/account/${id}`, { accountname: `R${c}-${i}` });
      owed.add(`updated ${id} R${c}-${i}`);
      if (i % 2 === 0) {
        await call('DELETE', `/api/record/account/${id}`);
        owed.add(`deleted ${id}`);
      }
    }
  };
  const ended = await Promise.allSettled(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  return ended.map((e) => (e.status === 'rejected' ? String((e.reason as Error).message ?? e.reason) : '')).find(Boolean) ?? '';
}

const cases: Array<{ name: string; skip: false | string; config: () => ConfigOverrides }> = [
  { name: 'SQLite', skip: false, config: () => ({}) },
  { name: 'PostgreSQL', skip: needsPostgres, config: () => ({ databaseUrl: DATABASE_URL, databaseSchema: uniqueName('whk') }) },
];

for (const c of cases) {
  describe(`webhooks of a server on ${c.name} killed during writes`, { skip: c.skip }, () => {
    test('a server started again delivers every event of every acknowledged write', { timeout: 180_000 }, async () => {
      const dir = tempDir('orchard-webhook-kill-');
      const config = loadConfig({}, { dataDir: dir, logLevel: 'silent', ...c.config() });
      const receiver = await startReceiver();
      const servers: Served[] = [];
      try {
        const setup = openStores(config);
        const { org, token } = await setup.admin.createOrganization({ name: 'Killed', plan: 'enterprise', email: 'k@example.com', minuteLimit: 1_000_000_000 });
        for (const event of ['created', 'updated', 'deleted']) {
          await setup.admin.createWebhook({ orgId: org.id, definition: { event, url: receiver.url }, allowPrivate: true });
        }
        await setup.close();
        const env = {
          DATA_DIR: dir, LOG_LEVEL: 'silent', DAILY_CAP: '1000000000', WEBHOOK_ALLOW_PRIVATE: 'true',
          WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_CAP_MS: '200', WEBHOOK_POLL_MS: '200',
          ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl, DATABASE_SCHEMA: config.databaseSchema } : {}),
        };
        // Before the kill, half the attempts are refused: some events are delivered, some retried, some not attempted yet.
        let killed = false;
        receiver.answer = () => (killed || Math.random() < 0.5 ? 200 : 503);
        const first = await serveProcess(['--json', 'serve'], env);
        servers.push(first);
        const owed = new Set<Owed>();
        let answered = 0;
        const writing = writeUntilGone(JSON.parse(first.first).url, token, owed, () => {
          if (++answered === KILL_AFTER) first.proc.kill('SIGKILL');
        });
        await first.exited;
        const failure = await writing;
        killed = true;
        assert.ok(answered >= KILL_AFTER, `killed after ${answered} writes (${failure}; first line ${first.first}): ${first.stderr()}`);
        const before = receiver.received.length;

        servers.push(await serveProcess(['--json', 'serve'], env));
        const got = () => new Set(receiver.received.filter((r) => r.headers['webhook-id']).map((r) => {
          const d = r.json.data;
          return d.event === 'updated' ? `updated ${d.id} ${d.record.accountname}` : `${d.event} ${d.id}`;
        }));
        const deadline = Date.now() + 60_000;
        let missing = [...owed].filter((e) => !got().has(e));
        while (missing.length > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          missing = [...owed].filter((e) => !got().has(e));
        }
        assert.deepEqual(missing, [], `${missing.length} of ${owed.size} acknowledged events never arrived`);
        assert.ok(receiver.received.length > before, 'the second server delivered what the first left');
      } finally {
        for (const s of servers) if (s.proc.exitCode === null) s.proc.kill('SIGKILL');
        await Promise.all(servers.map((s) => s.exited));
        await receiver.close();
        if (config.databaseUrl) {
          const pool = createPool(config.databaseUrl);
          await dropSchemas(pool, config.databaseSchema).finally(() => pool.end());
        }
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
