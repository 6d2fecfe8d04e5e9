// A fixtures load killed with SIGKILL midway (docs/fixtures.md § A load that never finished): the
// organization it was making keeps the mark of a load under way, so the next load of the same file
// (`serve --fixtures`, or the control API's that `orchard fixtures load` calls) removes what was left
// and loads it again, reporting `reloaded`, rather than calling it `existing` and serving it half
// loaded for ever. On PostgreSQL, two servers started together with one file end with one whole
// organization: loaders of one organization take turns on an advisory lock.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig, type Config } from '../../src/config.js';
import { ControlClient } from '../../src/control-client.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { openStores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { BIN, childEnv, serveProcess, type Served } from './cli-runner.js';

/** Accounts in the file: enough that the load is still writing them when the organization appears. */
const ACCOUNTS = 2_000;
const ORG_ID = '11111111-2222-4333-8444-555555555555';
const TOKEN = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const ADMIN_KEY = 'fixtures-kill-admin-key-0123456789';

function writeFixtures(dir: string): string {
  const file = path.join(dir, 'fx.json');
  fs.writeFileSync(file, JSON.stringify({
    organizations: [{
      id: ORG_ID, name: 'Killed', plan: 'enterprise',
      users: [{ email: 'f@example.com', tokens: [TOKEN] }],
      records: { account: Array.from({ length: ACCOUNTS }, (_, i) => ({ accountname: `A${i}` })) },
    }],
  }));
  return file;
}

async function totalAccounts(url: string): Promise<unknown> {
  const res = await fetch(`${url}/api/record/account?pagesize=1`, { headers: { tokenid: TOKEN } });
  const body = await res.json() as { data?: { Total_Records?: unknown } };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.data?.Total_Records;
}

async function stop(served: Served): Promise<void> {
  served.proc.kill('SIGTERM');
  await served.exited;
}

const cases: Array<{ name: string; skip: false | string; config: () => Partial<Config> }> = [
  { name: 'SQLite', skip: false, config: () => ({}) },
  { name: 'PostgreSQL', skip: needsPostgres, config: () => ({ databaseUrl: DATABASE_URL!, databaseSchema: uniqueName('fxkill') }) },
];

for (const c of cases) {
  describe(`fixtures on ${c.name}`, { skip: c.skip }, () => {
    const setUp = () => {
      const dir = tempDir('orchard-fixtures-kill-');
      const config = loadConfig({}, { dataDir: path.join(dir, 'data'), logLevel: 'silent', ...c.config() });
      const env = { DATA_DIR: config.dataDir, LOG_LEVEL: 'silent', ADMIN_KEY, ...(config.databaseUrl ? { DATABASE_URL: config.databaseUrl, DATABASE_SCHEMA: config.databaseSchema } : {}) };
      const cleanUp = async () => {
        fs.rmSync(dir, { recursive: true, force: true });
        if (config.databaseUrl) {
          const pool = createPool(config.databaseUrl, { max: 1 });
          await dropSchemas(pool, config.databaseSchema).finally(() => pool.end());
        }
      };
      return { dir, config, env, file: writeFixtures(dir), cleanUp };
    };

    /** `serve --fixtures file` killed with SIGKILL as soon as the organization exists; asserts the kill landed mid-load. */
    const killMidLoad = async (config: Config, env: NodeJS.ProcessEnv, file: string) => {
      // The stores are opened (made, migrated) before the child starts: it finds them made.
      const watching = openStores(config);
      const child = spawn(process.execPath, [BIN, '--json', 'serve', '--fixtures', file], { env: { ...childEnv, ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      try {
        const started = Date.now();
        while (!stdout && Date.now() - started < 30_000) {
          if (await watching.control.getOrganization(ORG_ID)) {
            child.kill('SIGKILL');
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      } finally {
        await watching.close();
      }
      assert.equal(await exited, 'SIGKILL', `killed before the load ended (it printed ${stdout})`);
      const stores = openStores(config);
      try {
        const records = await stores.records.org(ORG_ID);
        const { total: kept } = await records.list((await records.schema()).resolve('account'), { limit: 1, offset: 0 });
        assert.ok(kept < ACCOUNTS, `the kill landed mid-load: ${kept} of ${ACCOUNTS} accounts were written`);
      } finally {
        await stores.close();
      }
    };

    test('serve --fixtures killed mid-load: served again with the same file, the organization is loaded again, whole', { timeout: 120_000 }, async () => {
      const { config, env, file, cleanUp } = setUp();
      try {
        await killMidLoad(config, env, file);
        const served = await serveProcess(['--json', 'serve', '--fixtures', file], env);
        try {
          const { url, fixtures } = JSON.parse(served.first) as { url: string; fixtures: Array<{ id: string; status: string; records: number }> };
          assert.deepEqual(fixtures.map((f) => [f.id, f.status, f.records]), [[ORG_ID, 'reloaded', ACCOUNTS]]);
          assert.equal(await totalAccounts(url), ACCOUNTS);
        } finally {
          await stop(served);
        }
        // Once whole, it is left as it is.
        const again = await serveProcess(['--json', 'serve', '--fixtures', file], env);
        try {
          const { url, fixtures } = JSON.parse(again.first) as { url: string; fixtures: Array<{ status: string }> };
          assert.deepEqual(fixtures.map((f) => f.status), ['existing']);
          assert.equal(await totalAccounts(url), ACCOUNTS);
        } finally {
          await stop(again);
        }
      } finally {
        await cleanUp();
      }
    });

    test('killed mid-load, then loaded through the control API (orchard fixtures load): loaded again, whole', { timeout: 120_000 }, async () => {
      const { config, env, file, cleanUp } = setUp();
      try {
        await killMidLoad(config, env, file);
        const served = await serveProcess(['--json', 'serve'], env);
        try {
          const { url } = JSON.parse(served.first) as { url: string };
          const loaded = await new ControlClient({ url, adminKey: ADMIN_KEY }).loadFixtures(JSON.parse(fs.readFileSync(file, 'utf8')));
          assert.deepEqual(loaded.map((f) => [f.id, f.status, f.records]), [[ORG_ID, 'reloaded', ACCOUNTS]]);
          assert.equal(await totalAccounts(url), ACCOUNTS);
        } finally {
          await stop(served);
        }
      } finally {
        await cleanUp();
      }
    });

    test('two servers started together with the same file end with one whole organization', { timeout: 120_000, skip: c.name === 'SQLite' ? false : false }, async () => {
      const { env, file, cleanUp } = setUp();
      try {
        const both = await Promise.all([serveProcess(['--json', 'serve', '--fixtures', file], env), serveProcess(['--json', 'serve', '--fixtures', file], env)]);
        try {
          const statuses = both.map((s) => (JSON.parse(s.first) as { fixtures?: Array<{ status: string }> }).fixtures?.[0]?.status ?? s.first).sort();
          assert.deepEqual(statuses, ['created', 'existing']);
          for (const s of both) assert.equal(await totalAccounts((JSON.parse(s.first) as { url: string }).url), ACCOUNTS);
        } finally {
          await Promise.all(both.map(stop));
        }
      } finally {
        await cleanUp();
      }
    });
  });
}
