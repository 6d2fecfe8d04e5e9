// The change feed with two `orchard serve` processes on one PostgreSQL (docs/history.md): clients
// write through both at once while a follower asks each in turn for the next page; then one process
// is restarted and the follower goes on with the cursor it had. It sees every write once, in order.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { openStores } from '../../src/stores.js';
import { serveProcess, type Served } from '../cli/cli-runner.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';

describe('the change feed on two API processes sharing PostgreSQL', { skip: needsPostgres }, () => {
  let dir: string;
  let schema: string;
  let token: string;
  let env: NodeJS.ProcessEnv;
  const servers: Array<{ served: Served; url: string }> = [];

  const start = async () => {
    const served = await serveProcess(['--json', 'serve'], env);
    return { served, url: (JSON.parse(served.first) as { url: string }).url };
  };
  const stop = async (s: { served: Served }) => {
    s.served.proc.kill('SIGTERM');
    await s.served.exited;
  };
  const call = async (url: string, method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${url}${path}`, {
      method, headers: { tokenid: token, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = await res.json() as any;
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };

  before(async () => {
    dir = tempDir('orchard-feed-');
    schema = uniqueName('feed');
    const config = loadConfig({}, { dataDir: dir, logLevel: 'silent', databaseUrl: DATABASE_URL, databaseSchema: schema });
    const stores = openStores(config);
    ({ token } = await stores.admin.createOrganization({ name: 'Fed', plan: 'enterprise', email: 'f@example.com', minuteLimit: 1_000_000_000 }));
    await stores.close();
    env = { DATABASE_URL, DATABASE_SCHEMA: schema, DATA_DIR: dir, LOG_LEVEL: 'silent' };
    servers.push(await start(), await start());
  });

  after(async () => {
    for (const s of servers) if (s.served.proc.exitCode === null) await stop(s);
    const pool = createPool(DATABASE_URL!);
    await dropSchemas(pool, schema).finally(() => pool.end());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a follower asking either process sees every write once, in order, and goes on after a restart', { timeout: 180_000 }, async () => {
    const written: string[] = [];
    const seen: any[] = [];
    let cursor: string | undefined;
    let turn = 0;
    const page = async () => {
      const url = servers[turn++ % servers.length]!.url;
      const reply = await call(url, 'GET', `/api/changes?pagesize=4${cursor === undefined ? '' : `&since=${cursor}`}`);
      seen.push(...reply.data.Entries);
      cursor = reply.data.Cursor;
      return reply.data as { Entries: unknown[]; HasMore: boolean };
    };
    const writer = async (w: number) => {
      for (let i = 0; i < 40; i++) {
        const url = servers[(w + i) % servers.length]!.url;
        if (i % 4 === 3) {
          const reply = await call(url, 'POST', '/api/v3/record/account/batch/create', { data: [{ accountname: `B${w}-${i}a` }, { accountname: `B${w}-${i}b` }] });
          written.push(...reply.data.map((d: { _id: string }) => d._id));
        } else {
          const reply = await call(url, 'POST', '/api/record/account', { accountname: `W${w}-${i}` });
          written.push(reply.data.Record.accountid);
        }
      }
    };
    let writing = true;
    const following = (async () => {
      for (let caughtUp = false; ;) {
        const p = await page();
        if (caughtUp && !p.HasMore && p.Entries.length === 0) return;
        if (!writing) caughtUp = true;
      }
    })();
    await Promise.all([0, 1, 2, 3].map(writer));
    writing = false;
    await following;

    // A restart of one process; the cursor goes on with it and with the other.
    await stop(servers[0]!);
    servers[0] = await start();
    for (let i = 0; i < 6; i++) {
      const reply = await call(servers[i % 2]!.url, 'POST', '/api/record/account', { accountname: `After ${i}` });
      written.push(reply.data.Record.accountid);
    }
    for (let p = await page(); p.HasMore || p.Entries.length > 0; p = await page());

    const seqs = seen.map((e) => e.sequence);
    assert.deepEqual(seqs, [...seqs].sort((a: number, b: number) => a - b), 'in order');
    assert.equal(new Set(seqs).size, seqs.length, 'none twice');
    assert.deepEqual(seen.map((e) => e.recordid).sort(), [...written].sort(), 'every write once');
  });
});
