// The `orchard` command as scripts use it (run in this process, its output captured): with --json
// every command prints exactly one JSON object on stdout (failures too, with a non-zero exit),
// tokens are v4 UUIDs kept only as SHA-256 digests, seeding writes valid records; plus the
// progress bar.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Readable } from 'node:stream';
import { progressBar, runCli } from '../../src/cli.js';
import { loadConfig } from '../../src/config.js';
import { startServer } from '../../src/server.js';
import { openStores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { fails, ok, run } from './cli-runner.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const keys = (o: object): string[] => Object.keys(o).sort();

describe('orchard with --json', () => {
  let dir: string;
  let org: { id: string; name: string; plan: string; userId: string; token: string };
  const printedTokens: string[] = [];

  before(async () => {
    dir = tempDir('orchard-cli-');
    org = await ok(dir, ['org', 'create', '--name', 'Acme', '--plan', 'standard', '--email', 'ops@acme.example', '--minute-limit', '250']) as typeof org;
    printedTokens.push(org.token);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('org create prints {id, name, plan, userId, token} with a v4 UUID token', () => {
    assert.deepEqual(keys(org), ['id', 'name', 'plan', 'token', 'userId']);
    assert.equal(org.name, 'Acme');
    assert.equal(org.plan, 'standard');
    assert.match(org.id, UUID_V4);
    assert.match(org.userId, UUID_V4);
    assert.match(org.token, UUID_V4);
  });

  test('org list shows each organization with its primary user; an empty data directory says which it is', async () => {
    const listed = await run(['--data-dir', dir, 'org', 'list']);
    assert.equal(listed.stdout, `${org.id}  Acme  plan standard, 250/min, primary user ${org.userId}\n`);
    const empty = tempDir('orchard-cli-empty-');
    try {
      const none = await run(['--data-dir', empty, 'org', 'list']);
      assert.equal(none.stdout, `No organizations in ${path.resolve(empty)} (another directory: --data-dir or DATA_DIR).\n`);
      assert.deepEqual(fs.readdirSync(empty), [], 'listing made nothing there');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  test('a command pointed at a directory without Orchard data says so and makes nothing there; only org create starts one', async () => {
    const parent = tempDir('orchard-cli-nodata-');
    const data = path.join(parent, 'data');
    try {
      for (const args of [['user', 'list', '--org', org.id], ['token', 'list', '--user', org.userId], ['seed', '--org', org.id, '--count', '1'], ['org', 'delete', '--id', org.id]]) {
        const refused = await run(['--data-dir', data, ...args]);
        assert.equal(refused.code, 1, args.join(' '));
        assert.equal(refused.stderr, `orchard: ${data} holds no Orchard data (no control.db). Run the command where the server was started, or give its data directory with --data-dir or DATA_DIR (on PostgreSQL, DATABASE_URL); orchard org create or orchard serve starts one here.\n`);
        assert.deepEqual(fs.readdirSync(parent), [], `${args.join(' ')} made nothing`);
      }
      const json = await run(['--data-dir', data, '--json', 'org', 'list']);
      assert.deepEqual(JSON.parse(json.stdout), { items: [] });
      const created = await run(['--data-dir', data, '--json', 'org', 'create', '--name', 'Here', '--email', 'here@example.com']);
      assert.equal(created.code, 0, created.stderr);
      assert.ok(fs.existsSync(path.join(data, 'control.db')));
      assert.equal((await run(['--data-dir', data, 'user', 'list', '--org', JSON.parse(created.stdout).id])).code, 0);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  test('org create keeps the minute limit and makes the new user the primary user', async () => {
    const stores = openStores(loadConfig({}, { dataDir: dir }));
    try {
      const stored = await stores.control.getOrganization(org.id);
      assert.equal(stored?.minuteLimit, 250);
      assert.equal(stored?.primaryUserId, org.userId);
    } finally {
      await stores.close();
    }
  });

  test('user create prints {id, token}, token create prints {token, id}, token revoke prints {revoked: true}', async () => {
    const user = await ok(dir, ['user', 'create', '--org', org.id, '--email', 'ada.lopez@acme.example', '--role', 'admin']);
    assert.deepEqual(keys(user), ['id', 'token']);
    assert.match(user.id as string, UUID_V4);
    assert.match(user.token as string, UUID_V4);
    const created = await ok(dir, ['token', 'create', '--user', user.id as string]);
    assert.deepEqual(keys(created), ['id', 'token']);
    assert.match(created.token as string, UUID_V4);
    assert.match(created.id as string, UUID_V4);
    assert.notEqual(created.id, created.token);
    assert.notEqual(created.token, user.token);
    printedTokens.push(user.token as string, created.token as string);
    assert.deepEqual(await ok(dir, ['token', 'revoke', '--token', created.token as string]), { revoked: true });
    // Revoked once; a second revocation finds no live token.
    await fails(dir, ['token', 'revoke', '--token', created.token as string], 'TOKEN_INVALID');
  });

  test('stores only the SHA-256 digest of each token it prints, never the token', () => {
    const db = new Database(path.join(dir, 'control.db'), { readonly: true });
    let text: string;
    let hashes: string[];
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
      text = tables.map((t) => JSON.stringify(db.prepare(`SELECT * FROM "${t}"`).all())).join('\n').toLowerCase();
      hashes = (db.prepare('SELECT hash FROM tokens').all() as Array<{ hash: string }>).map((r) => r.hash);
    } finally {
      db.close();
    }
    assert.ok(printedTokens.length >= 3);
    for (const token of printedTokens) {
      assert.ok(!text.includes(token.toLowerCase()), `token ${token} is not stored`);
      assert.ok(hashes.includes(createHash('sha256').update(token).digest('hex')), `the digest of ${token} is stored`);
    }
    // Nor in any file of the data directory, byte for byte (the WAL included, were one left).
    for (const file of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const full = path.join(dir, file);
      if (!fs.statSync(full).isFile()) continue;
      const bytes = fs.readFileSync(full);
      for (const token of printedTokens) assert.equal(bytes.indexOf(token), -1, `${token} in ${file}`);
    }
  });

  test('seed prints {inserted, object, seconds} and writes valid sample records owned by the primary user', async () => {
    const seeded = await ok(dir, ['seed', '--org', org.id, '--object', 'account', '--count', '2000']);
    assert.deepEqual(keys(seeded), ['inserted', 'object', 'seconds']);
    assert.equal(seeded.inserted, 2000);
    assert.equal(seeded.object, 'account');
    assert.equal(typeof seeded.seconds, 'number');

    // Read back through the HTTP API of a server on the same directory.
    const server = await startServer(loadConfig({}, { dataDir: dir, port: 0, host: '127.0.0.1', logLevel: 'silent' }), () => {});
    try {
      const records = await server.stores.records.org(org.id);
      const obj = (await records.schema()).resolve('account');
      for (const pagenumber of [1, 17, 40]) {
        const res = await fetch(`${server.url}/api/record/account?pagesize=50&pagenumber=${pagenumber}`, { headers: { tokenid: org.token } });
        assert.equal(res.status, 200);
        const data = ((await res.json()) as { data: { Total_Records: number; Records: Array<Record<string, unknown>> } }).data;
        assert.equal(data.Total_Records, 2000);
        assert.equal(data.Records.length, 50);
        for (const record of data.Records) {
          assert.match(record.accountid as string, UUID_V4);
          for (const f of obj.fields) {
            const v = record[f.name];
            assert.ok(f.name in record, `${f.name} present`);
            if (f.required) assert.ok(v !== null && v !== undefined && String(v).trim() !== '', `required ${f.name} is set`);
            if (f.type === 'picklist' && v !== null) {
              assert.ok(f.options!.some((o) => o.value === v), `${f.name}=${String(v)} is one of its codes`);
            }
            if (f.type === 'email' && v !== null) assert.match(v as string, /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
          }
          assert.equal(record.ownerid, org.userId);
          assert.equal(record.createdby, org.userId);
          assert.ok(record.statecode === 1 || record.statecode === 2);
          assert.ok(!Number.isNaN(Date.parse(record.createdon as string)), `createdon ${String(record.createdon)} is a date`);
        }
      }
      // Numbers run on across the seed's batches: no two accounts share one.
      const first500 = await records.list(obj, { limit: 500, offset: 0 });
      assert.equal(new Set(first500.records.map((r) => r.accountnumber)).size, 500);
    } finally {
      await server.close();
    }
  });

  test('prints {error: {code, message}} and exits non-zero for a bad plan, a bad e-mail, an unknown organization, user or token', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const [plan, email, userOrg, seedOrg, user, token, duplicate] = await Promise.all([
      fails(dir, ['org', 'create', '--name', 'X', '--plan', 'gold', '--email', 'x@example.com']),
      fails(dir, ['org', 'create', '--name', 'X', '--plan', 'free', '--email', 'not-an-email'], 'PARAM_INVALID'),
      fails(dir, ['user', 'create', '--org', unknown, '--email', 'x@example.com', '--role', 'admin'], 'ORGANIZATION_NOT_FOUND'),
      fails(dir, ['seed', '--org', unknown, '--object', 'account', '--count', '5'], 'ORGANIZATION_NOT_FOUND'),
      fails(dir, ['token', 'create', '--user', unknown], 'USER_NOT_FOUND'),
      fails(dir, ['token', 'revoke', '--token', unknown], 'TOKEN_INVALID'),
      fails(dir, ['user', 'create', '--org', org.id, '--email', 'OPS@acme.example', '--role', 'admin'], 'PARAM_INVALID'),
    ]);
    assert.match(plan.message, /free, standard, professional, enterprise/);
    assert.match(email.message, /not-an-email/);
    assert.match(userOrg.message, new RegExp(unknown));
    assert.match(seedOrg.message, new RegExp(unknown));
    assert.match(user.message, new RegExp(unknown));
    assert.match(token.message, /unknown or already revoked/);
    assert.match(duplicate.message, /already has a user/);
  });

  test('prints a USAGE error as JSON for a missing option, a bad number or an unknown command, wherever --json sits', async () => {
    const [missing, badCount, unknown, jsonLast] = await Promise.all([
      fails(dir, ['org', 'create', '--name', 'X'], 'USAGE'),
      fails(dir, ['seed', '--org', org.id, '--count', 'lots'], 'USAGE'),
      fails(dir, ['frobnicate'], 'USAGE'),
      run(['org', 'create', '--data-dir', dir, '--name', 'X', '--email', 'bad', '--json']),
    ]);
    assert.match(missing.message, /--email/);
    assert.match(badCount.message, /--count/);
    assert.match(unknown.message, /frobnicate/);
    assert.notEqual(jsonLast.code, 0);
    assert.equal((JSON.parse(jsonLast.stdout) as { error: { code: string } }).error.code, 'PARAM_INVALID');
  });
});

describe('orchard --help', () => {
  test('says which commands call a running server, with ADMIN_KEY', async () => {
    const { stdout } = await run(['--help']);
    assert.match(stdout.replace(/\s+/g, ' '), /org reset, org export, org copy, snapshot, fixtures load, clock, fault, journal, usage, outbox and webhook flush call the running server's control API \(--url or ORCHARD_URL, and ADMIN_KEY\)/);
  });

  test('explains every command and its options, with exit status 0', async () => {
    const expected: Array<[string[], RegExp[]]> = [
      [[], [/Usage: orchard /, /serve/, /org/, /user/, /token/, /seed/, /--data-dir/, /--json/, /Examples:/]],
      [['serve'], [/Usage: orchard serve/, /PORT/, /DATA_DIR/, /curl/]],
      [['org', 'create'], [/Usage: orchard org create/, /--name/, /--email/, /--plan/, /enterprise/, /--minute-limit/, /--json/]],
      [['user', 'create'], [/Usage: orchard user create/, /--org/, /--email/, /--role/]],
      [['token', 'create'], [/Usage: orchard token create/, /--user/]],
      [['token', 'revoke'], [/Usage: orchard token revoke/, /--token/]],
      [['seed'], [/Usage: orchard seed/, /--org/, /--object/, /--count/]],
      [['webhook'], [/flush/]],
    ];
    const runs = await Promise.all(expected.map(([cmd]) => run([...cmd, '--help'])));
    runs.forEach((r, i) => {
      const [cmd, patterns] = expected[i]!;
      assert.equal(r.code, 0, `orchard ${cmd.join(' ')} --help exits 0`);
      for (const p of patterns) assert.match(r.stdout, p, `orchard ${cmd.join(' ')} --help mentions ${p}`);
    });
  });
});

describe('progressBar', () => {
  const fakeStream = (isTTY: boolean) => {
    const writes: string[] = [];
    return { writes, stream: { isTTY, write: (s: string) => writes.push(s) } };
  };

  test('draws [###---] NN% done/total in place, at most every 100 ms, and ends with a newline at 100%', () => {
    let now = 1_000;
    const { writes, stream } = fakeStream(true);
    const bar = progressBar(stream, () => now);
    now += 1_000;
    bar(0, 4);
    assert.match(writes.join(''), /^\r\[-{30}\] 0% 0\/4 0\/s\x1b\[K$/);
    writes.length = 0;
    now += 50;
    bar(1, 4); // too soon after the last draw
    assert.deepEqual(writes, []);
    now += 200;
    bar(2, 4);
    assert.match(writes.join(''), /^\r\[#{15}-{15}\] 50% 2\/4 \d+\/s\x1b\[K$/);
    writes.length = 0;
    now += 1; // the last step always draws
    bar(4, 4);
    assert.match(writes.join(''), /^\r\[#{30}\] 100% 4\/4 \d+\/s\x1b\[K\n$/);
  });

  test('writes nothing when the stream is not a terminal', () => {
    const { writes, stream } = fakeStream(false);
    const bar = progressBar(stream, () => 0);
    bar(0, 10);
    bar(10, 10);
    assert.deepEqual(writes, []);
  });
});

test('orchard seed prunes the organization\'s change log when due, as any write does (docs/history.md § Retention)', async () => {
  const dir = tempDir('orchard-cli-seed-prune-');
  try {
    const org = await ok(dir, ['org', 'create', '--name', 'Old log', '--email', 'ops@old.example']) as { id: string };
    // Entries made long ago (the store prunes nothing itself).
    let stores = openStores(loadConfig({}, { dataDir: dir, logLevel: 'silent' }));
    try {
      await stores.admin.seed({ orgId: org.id, object: 'account', count: 2, now: new Date('2020-01-01T00:00:00Z') });
      const before = await (await stores.records.org(org.id)).changes({ after: 0, limit: 10 });
      assert.deepEqual([before.floor, before.entries.length], [0, 2]);
    } finally {
      await stores.close();
    }
    const code = await runCli(['--data-dir', dir, '--json', 'seed', '--org', org.id, '--count', '1'], { env: { CHANGELOG_RETENTION_DAYS: '2' }, output: { stdout: { write: () => true }, stderr: { write: () => true } }, input: Readable.from([]) });
    assert.equal(code, 0);
    stores = openStores(loadConfig({}, { dataDir: dir, logLevel: 'silent' }));
    try {
      const after = await (await stores.records.org(org.id)).changes({ after: 0, limit: 10 });
      assert.equal(after.entries.length, 1, 'the entries of 2020 are pruned, the seed\'s own kept');
      assert.ok(after.floor >= 2);
    } finally {
      await stores.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
