// A server killed with SIGKILL in the middle of writes leaves every write with its change-log entry
// and no entry without its write (docs/history.md), on either store: a child `orchard serve` takes
// creates, updates, deletes and batch creates from several clients at once until it is killed;
// then the log, replayed from the start, gives exactly the records the table holds, and each write
// the server acknowledged has its one entry.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadConfig, type Config } from '../../src/config.js';
import type { ChangeEntry } from '../../src/schema/changes.js';
import type { FieldValue } from '../../src/schema/types.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { openStores } from '../../src/stores.js';
import { serveProcess } from '../cli/cli-runner.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';

/** Acknowledged writes at which the server is killed; more are under way then. */
const KILL_AFTER = 150;
const CLIENTS = 8;

interface Acked {
  creates: string[];
  updates: Array<{ id: string; name: string }>;
  deletes: string[];
}

/** Writes through `url` from CLIENTS clients until a request fails (the server is gone); records what was answered 2xx. */
async function writeUntilKilled(url: string, token: string, acked: Acked, onAck: () => void): Promise<void> {
  const call = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${url}${path}`, {
      method, headers: { tokenid: token, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = await res.json() as any;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    onAck();
    return json;
  };
  const client = async (c: number) => {
    for (let i = 0; ; i++) {
      const mine = acked.creates.filter((_, k) => k % CLIENTS === c && !acked.deletes.includes(acked.creates[k]!));
      if (i % 7 === 3) {
        const reply = await call('POST', '/api/v3/record/account/batch/create', { data: [1, 2, 3].map((n) => ({ accountname: `B${c}-${i}-${n}` })) });
        acked.creates.push(...(reply.data as Array<{ _id: string }>).map((d) => d._id));
      } else if (i % 5 === 4 && mine.length > 0) {
        const id = mine[0]!;
        await call('DELETE', `/api/record/account/${id}`);
        acked.deletes.push(id);
      } else if (i % 3 === 2 && mine.length > 0) {
        const id = mine[mine.length - 1]!;
        const name = `U${c}-${i}`;
        await call('PUT', `/api/record/account/${id}`, { accountname: name, telephone1: String(i) });
        acked.updates.push({ id, name });
      } else {
        const reply = await call('POST', '/api/record/account', { accountname: `C${c}-${i}`, description: 'x'.repeat(i % 50) });
        acked.creates.push(reply.data.Record.accountid as string);
      }
    }
  };
  await Promise.allSettled(Array.from({ length: CLIENTS }, (_, c) => client(c)));
}

/** The records the log describes: each create's fields, then each update's new values; a delete removes it. */
function replay(entries: readonly ChangeEntry[]): Map<string, Record<string, FieldValue>> {
  const state = new Map<string, Record<string, FieldValue>>();
  for (const e of entries) {
    if (e.operation === 'delete') {
      assert.ok(state.delete(e.recordId), `a delete of ${e.recordId} follows its create`);
      continue;
    }
    if (e.operation === 'create') assert.ok(!state.has(e.recordId), `one create of ${e.recordId}`);
    else assert.ok(state.has(e.recordId), `an update of ${e.recordId} follows its create`);
    const fields = state.get(e.recordId) ?? {};
    for (const [name, change] of Object.entries(e.fields)) {
      if (change.new === null) delete fields[name];
      else fields[name] = change.new;
    }
    state.set(e.recordId, fields);
  }
  return state;
}

const cases: Array<{ name: string; skip: false | string; config: (dir: string) => Partial<Config> }> = [
  { name: 'SQLite', skip: false, config: () => ({}) },
  { name: 'PostgreSQL', skip: needsPostgres, config: () => ({ databaseUrl: DATABASE_URL, databaseSchema: uniqueName('kill') }) },
];

for (const c of cases) {
  describe(`a server on ${c.name} killed during writes`, { skip: c.skip }, () => {
    test('keeps no write without its entry and no entry without its write', { timeout: 180_000 }, async () => {
      const dir = tempDir('orchard-kill-');
      const config = loadConfig({}, { dataDir: dir, logLevel: 'silent', ...c.config(dir) });
      try {
        const setup = openStores(config);
        const { org, token } = await setup.admin.createOrganization({ name: 'Killed', plan: 'enterprise', email: 'k@example.com', minuteLimit: 1_000_000_000 });
        await setup.close();

        const served = await serveProcess(['--json', 'serve'], {
          DATA_DIR: dir, LOG_LEVEL: 'silent', DAILY_CAP: '1000000000',
          ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl, DATABASE_SCHEMA: config.databaseSchema } : {}),
        });
        const { url } = JSON.parse(served.first) as { url: string };
        const acked: Acked = { creates: [], updates: [], deletes: [] };
        let answered = 0;
        const writing = writeUntilKilled(url, token, acked, () => {
          if (++answered === KILL_AFTER) served.proc.kill('SIGKILL');
        });
        await served.exited;
        await writing;
        assert.ok(answered >= KILL_AFTER, `killed after ${answered} writes: ${served.stderr()}`);

        const stores = openStores(config);
        try {
          const records = await stores.records.org(org.id);
          const account = (await records.schema()).resolve('account');
          const entries: ChangeEntry[] = [];
          for (let after = 0; ;) {
            const page = await records.changes({ after, limit: 500 });
            entries.push(...page.entries);
            if (page.next >= page.last) break;
            after = page.next;
          }
          assert.ok(entries.every((e) => e.objectType === account.objectType));
          const stored = new Map<string, Record<string, FieldValue>>();
          for (const r of await records.scan(account, null, 100_000)) {
            const fields: Record<string, FieldValue> = {};
            for (const f of account.fields) if (f.role !== 'derived' && f.role !== 'key' && r[f.name] !== null) fields[f.name] = r[f.name]!;
            stored.set(r.accountid as string, fields);
          }
          assert.deepEqual(replay(entries), stored, 'the log replayed gives the table, field by field');

          const count = (id: string, op: string) => entries.filter((e) => e.recordId === id && e.operation === op).length;
          for (const id of acked.creates) assert.equal(count(id, 'create'), 1, `the acknowledged create of ${id}`);
          for (const id of acked.deletes) assert.equal(count(id, 'delete'), 1, `the acknowledged delete of ${id}`);
          for (const { id, name } of acked.updates) {
            assert.ok(entries.some((e) => e.recordId === id && e.operation === 'update' && e.fields.accountname?.new === name), `the acknowledged update of ${id} to ${name}`);
          }
        } finally {
          await stores.close();
        }
      } finally {
        if (config.databaseUrl) {
          const pool = createPool(config.databaseUrl);
          await dropSchemas(pool, config.databaseSchema).finally(() => pool.end());
        }
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
