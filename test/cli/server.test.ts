// The server and the CLI together: the first start on an empty data directory creates a demo
// organization and prints a working curl line; CLI commands run beside a live server on the same
// directory take effect on its very next request; `npm start` serves and closes cleanly on SIGTERM.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { tempDir } from '../helpers.js';
import { sparePort } from '../throwaway-redis.js';
import { childEnv, ok } from './cli-runner.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';

const CLI_JS = fileURLToPath(new URL('../../src/cli.js', import.meta.url));
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
/** The announced example: curl -s -H 'tokenid: <uuid>' '<url>' */
const CURL_RE = new RegExp(`curl .*-H 'tokenid: (${UUID})' '(http://[^']+)'`);

const serverConfig = (dataDir: string) => loadConfig({}, { dataDir, port: 0, logLevel: 'silent', host: '127.0.0.1' });

async function listAccounts(url: string, token: string): Promise<{ status: number; total?: number }> {
  const res = await fetch(`${url}/api/record/account?pagesize=2`, { headers: { tokenid: token } });
  const body = (await res.json()) as { data?: { Total_Records: number } };
  return { status: res.status, ...(body.data ? { total: body.data.Total_Records } : {}) };
}

describe('the first start on an empty data directory', () => {
  let dir: string;
  let server: RunningServer | undefined;
  const lines: string[] = [];

  before(async () => {
    dir = tempDir('orchard-first-start-');
    server = await startServer(serverConfig(dir), (line) => lines.push(line));
  });
  after(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('announces a curl line with a tokenid and the URL that answers 200 with the 200 demo accounts', async () => {
    const curl = lines.find((l) => l.includes('curl'));
    assert.ok(curl, `a curl line among: ${lines.join(' | ')}`);
    assert.ok(!curl.includes('\n'), 'one line per announcement');
    const [, token, url] = CURL_RE.exec(curl) ?? [];
    assert.ok(token && url, curl);
    assert.ok(url.startsWith(`${server!.url}/`), `${url} is on ${server!.url}`);
    const res = await fetch(url, { headers: { tokenid: token } });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { data: { Total_Records: number; Records: unknown[] } };
    assert.equal(body.data.Total_Records, 200);
    assert.equal(body.data.Records.length, 2);
    const orgs = await server!.stores.control.listOrganizations();
    assert.equal(orgs.length, 1);
    assert.equal(orgs[0]!.name, 'Demo');
  });

  test('says where the data is: the data directory', () => {
    assert.ok(lines.some((l) => l.startsWith('Orchard listening on') && l.includes(`(data in ${dir})`)), lines.join(' | '));
  });

  test("names the demo user's id, with which a lost token is replaced by token create", async () => {
    const created = lines.find((l) => l.startsWith('Created a demo organization'));
    const [, orgId, userId] = new RegExp(`^Created a demo organization "Demo" \\((${UUID})\\) with 200 sample accounts; its user is (${UUID})\\.$`).exec(created ?? '') ?? [];
    assert.ok(orgId && userId, created);
    const user = await server!.stores.control.getUser(userId);
    assert.equal(user?.orgId, orgId);
    const fresh = await server!.stores.admin.createToken(userId);
    const res = await fetch(`${server!.url}/api/record/account?pagesize=1`, { headers: { tokenid: fresh } });
    assert.equal(res.status, 200);
  });

  test('a second start on the same directory creates nothing and prints no token', async () => {
    await server!.close();
    server = undefined;
    const again: string[] = [];
    server = await startServer(serverConfig(dir), (line) => again.push(line));
    assert.ok(again.length > 0 && again.some((l) => l.includes(server!.url)), again.join(' | '));
    assert.ok(again.every((l) => !l.includes('tokenid') && !l.includes('curl') && !new RegExp(UUID).test(l)), again.join(' | '));
    assert.equal((await server.stores.control.listOrganizations()).length, 1);
  });

  test('a start that cannot listen (port taken) leaves no demo organization whose token was never shown', async () => {
    const other = tempDir('orchard-port-taken-');
    try {
      const port = Number(new URL(server!.url).port);
      const announced: string[] = [];
      await assert.rejects(startServer(loadConfig({}, { dataDir: other, port, logLevel: 'silent', host: '127.0.0.1' }), (l) => announced.push(l)), /EADDRINUSE/);
      assert.equal(announced.length, 0, announced.join(' | '));
      // A later start that listens creates the demo and shows its token.
      const later = await startServer(serverConfig(other), (l) => announced.push(l));
      await later.close();
      assert.ok(announced.some((l) => CURL_RE.test(l)), announced.join(' | '));
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('CLI commands beside a running server on the same data directory', () => {
  let dir: string;
  let server: RunningServer;

  before(async () => {
    dir = tempDir('orchard-cli-server-');
    server = await startServer(serverConfig(dir), () => {});
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an organization, a user and a token created by the CLI work over HTTP at once; a revoked token is refused on its next request', async () => {
    const org = await ok(dir, ['org', 'create', '--name', 'Live', '--plan', 'professional', '--email', 'live@example.com']);
    assert.deepEqual(await listAccounts(server.url, org.token as string), { status: 200, total: 0 });

    const user = await ok(dir, ['user', 'create', '--org', org.id as string, '--email', 'second@example.com', '--role', 'admin']);
    assert.deepEqual(await listAccounts(server.url, user.token as string), { status: 200, total: 0 });

    const { token } = await ok(dir, ['token', 'create', '--user', user.id as string]) as { token: string };
    assert.equal((await listAccounts(server.url, token)).status, 200);
    assert.deepEqual(await ok(dir, ['token', 'revoke', '--token', token]), { revoked: true });
    // No waiting: the very next request with it is refused; the user's other token still works.
    assert.equal((await listAccounts(server.url, token)).status, 401);
    assert.equal((await listAccounts(server.url, user.token as string)).status, 200);
  });

  test('1,000 accounts seeded by the CLI show in Total_Records at once', async () => {
    const org = await ok(dir, ['org', 'create', '--name', 'Seeded', '--plan', 'enterprise', '--email', 'seed@example.com']);
    const token = org.token as string;
    assert.deepEqual(await listAccounts(server.url, token), { status: 200, total: 0 });
    const seeded = await ok(dir, ['seed', '--org', org.id as string, '--object', 'account', '--count', '1000']);
    assert.equal(seeded.inserted, 1000);
    assert.deepEqual(await listAccounts(server.url, token), { status: 200, total: 1000 });
  });
});

describe('npm start (node dist/src/cli.js serve)', () => {
  let dir: string;
  let child: ChildProcessWithoutNullStreams | undefined;

  before(() => {
    dir = tempDir('orchard-npm-start-');
  });
  after(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('serves the demo on an empty data directory, prints a curl line that works, and exits 0 on SIGTERM', async () => {
    const proc = spawn(process.execPath, [CLI_JS, 'serve'], { env: { ...childEnv, PORT: '0', DATA_DIR: dir } });
    child = proc;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      proc.on('exit', (code, signal) => resolve({ code, signal })));
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));

    const curl = await new Promise<RegExpExecArray>((resolve, reject) => {
      let stdout = '';
      const onData = (d: string) => {
        stdout += d;
        const m = CURL_RE.exec(stdout);
        if (m) {
          proc.stdout.off('data', onData);
          resolve(m);
        }
      };
      proc.stdout.setEncoding('utf8').on('data', onData);
      void exited.then(({ code }) => reject(new Error(`serve exited ${code} before printing a curl line: ${stdout} ${stderr}`)));
    });
    proc.stdout.resume(); // keep draining the log lines
    const [, token, url] = curl;
    const res = await fetch(url!, { headers: { tokenid: token! } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { data: { Total_Records: number } }).data.Total_Records, 200);

    proc.kill('SIGTERM');
    assert.deepEqual(await exited, { code: 0, signal: null }, stderr);
  });
});

describe('the start on PostgreSQL', { skip: needsPostgres }, () => {
  test('names the address and the cause, once, when PostgreSQL cannot be reached at start (it said only "Retry the request")', async () => {
    const port = await sparePort();
    const dir = tempDir('orchard-pg-refused-');
    try {
      const env = { DATABASE_URL: `postgres://orchard:s3cret@127.0.0.1:${port}/crm`, DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
      const proc = spawn(process.execPath, [CLI_JS, 'serve'], { env: { ...childEnv, ...env } });
      let stdout = '';
      let stderr = '';
      proc.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => proc.on('close', resolve));
      assert.equal(code, 1);
      assert.equal(stdout, '');
      assert.equal(stderr, `orchard: PostgreSQL at 127.0.0.1:${port}/crm cannot be reached (connect ECONNREFUSED 127.0.0.1:${port}), so Orchard did not start. Check DATABASE_URL, and that PostgreSQL runs and accepts connections from this host.\n`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('says where the records are: the schema, not the data directory', async () => {
    const dir = tempDir('orchard-pg-start-');
    const schema = uniqueName('banner');
    const lines: string[] = [];
    const server = await startServer(loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent', host: '127.0.0.1', databaseUrl: DATABASE_URL!, databaseSchema: schema }), (line) => lines.push(line));
    const pool = createPool(DATABASE_URL!, { max: 1 });
    try {
      const banner = lines.find((l) => l.startsWith('Orchard listening on'));
      assert.ok(banner?.includes(`(records in PostgreSQL schema ${schema})`), lines.join(' | '));
      assert.ok(!banner!.includes(dir));
      const named = await pool.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [`orchard:${schema}`]);
      assert.ok(named.rows[0].n >= 1, 'the pool\'s connections are named orchard:<schema>');
    } finally {
      await server.close();
      await dropSchemas(pool, schema);
      await pool.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a HOST the server cannot listen on', () => {
  // 192.0.2.1 is TEST-NET-1 (RFC 5737): an address, of no machine here.
  const refusals = [
    { host: 'orchard-test.invalid', message: /^HOST 'orchard-test\.invalid' does not resolve to an address \(getaddrinfo (ENOTFOUND|EAI_AGAIN) orchard-test\.invalid\), so Orchard did not start\. HOST must be an IP address of this machine to listen on/ },
    { host: '192.0.2.1', message: /^HOST '192\.0\.2\.1' is not an address of this machine \(listen EADDRNOTAVAIL.*\), so Orchard did not start\. HOST must be an IP address of this machine/ },
  ];
  const refused = (host: string, message: RegExp) => (err: Error & { code?: string }) => {
    assert.equal(err.code, 'CONFIG_INVALID', `${host}: ${err.message}`);
    assert.match(err.message, message);
    return true;
  };

  test('is refused naming HOST and what it takes, not with the resolver\'s message alone, before anything is written to the data directory', async () => {
    const parent = tempDir('orchard-host-');
    try {
      for (const { host, message } of refusals) {
        // A data directory not made yet is not made; one that exists is left empty.
        const fresh = `${parent}/fresh-${host}`;
        await assert.rejects(startServer(loadConfig({}, { dataDir: fresh, port: 0, logLevel: 'silent', host }), () => {}), refused(host, message));
        assert.equal(fs.existsSync(fresh), false, `${host}: ${fresh} was made`);
        const empty = tempDir('orchard-host-empty-');
        await assert.rejects(startServer(loadConfig({}, { dataDir: empty, port: 0, logLevel: 'silent', host }), () => {}), refused(host, message));
        assert.deepEqual(fs.readdirSync(empty), [], `${host}: left in the data directory`);
        fs.rmSync(empty, { recursive: true, force: true });
      }
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  test('is refused before PostgreSQL is written to: no schema is made', { skip: needsPostgres }, async () => {
    const schema = uniqueName('badhost');
    const dir = tempDir('orchard-host-pg-');
    const pool = createPool(DATABASE_URL!, { max: 1 });
    try {
      for (const { host, message } of refusals) {
        await assert.rejects(startServer(loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent', host, databaseUrl: DATABASE_URL!, databaseSchema: schema }), () => {}), refused(host, message));
      }
      const { rows } = await pool.query('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)', [schema]);
      assert.deepEqual(rows, []);
      assert.deepEqual(fs.readdirSync(dir), [], 'nor anything in the data directory');
    } finally {
      await dropSchemas(pool, schema);
      await pool.end();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
