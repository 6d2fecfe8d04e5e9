// `orchard/testing` as a suite elsewhere imports it (the package's own name, resolved through its
// `exports`): startOrchard on a free port from a fixtures object, its tokens and control client,
// and close() removing everything.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ControlError, startOrchard } from 'orchard/testing';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { DATABASE_URL, needsPostgres } from '../services.js';
import { eventually } from '../helpers.js';

const TOKEN = '3f6c1a2b-9d8e-4c7f-a1b2-c3d4e5f60718';

test('startOrchard serves the fixtures on a free port with their tokens; the control client resets; close() removes everything', async () => {
  const orchard = await startOrchard({
    fixtures: {
      organizations: [{
        name: 'Suite Org', plan: 'enterprise',
        users: [{ email: 'qa@suite.example', tokens: [TOKEN] }, { email: 'viewer@suite.example', role: 'viewer', tokens: ['viewer-token-1'] }],
        roles: [{ name: 'viewer', grants: { account: ['read'] } }],
        records: { account: [{ accountname: 'Fixture Account', createdon: '2024-06-01T12:00:00' }] },
      }],
    },
  });
  try {
    assert.match(orchard.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(orchard.tokens, { 'qa@suite.example': TOKEN, 'viewer@suite.example': 'viewer-token-1' });
    assert.ok(fs.existsSync(orchard.dataDir));
    const list = async () => {
      const res = await fetch(`${orchard.url}/api/record/account`, { headers: { tokenid: orchard.tokens['qa@suite.example']! } });
      assert.equal(res.status, 200);
      return ((await res.json()) as { data: { Records: Array<{ accountname: string; createdon: string }> } }).data.Records;
    };
    assert.deepEqual((await list()).map((r) => [r.accountname, r.createdon]), [['Fixture Account', '2024-06-01T12:00:00']]);

    const created = await fetch(`${orchard.url}/api/record/account`, {
      method: 'POST', headers: { tokenid: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ accountname: 'Made by the test' }),
    });
    assert.equal(created.status, 201);
    assert.equal((await list()).length, 2);
    const orgId = orchard.organizations[0]!.id;
    assert.deepEqual(await orchard.control.reset(orgId), { id: orgId, fixture: true });
    assert.deepEqual((await list()).map((r) => r.accountname), ['Fixture Account']);
    await assert.rejects(orchard.control.restore(orgId, 'nope'), (err: unknown) => err instanceof ControlError && err.code === 'SNAPSHOT_NOT_FOUND');
  } finally {
    await orchard.close();
  }
  assert.equal(fs.existsSync(orchard.dataDir), false, 'the data directory is gone');
  await assert.rejects(fetch(`${orchard.url}/api/record/account`));
});

test('startOrchard refuses a bad fixtures object with the path of the bad member, leaving nothing behind', async () => {
  await assert.rejects(startOrchard({ fixtures: { organizations: [{ name: 'X', users: [{ email: 'a@x.example' }, { email: 'b@x.example', role: 'salse' }] }] } }),
    (err: unknown) => (err as { code?: string }).code === 'FIXTURE_INVALID' && (err as Error).message.startsWith("organizations[0].users[1].role: unknown role 'salse'"));
});

test('POST /_orchard/fixtures takes YAML with a YAML Content-Type, and says where a bad one is', async () => {
  const orchard = await startOrchard();
  try {
    const post = (body: string, type: string) => fetch(`${orchard.url}/_orchard/fixtures`, { method: 'POST', headers: { authorization: `Bearer ${orchard.adminKey}`, 'content-type': type }, body });
    const yaml = 'organizations:\n  - name: From YAML\n    users:\n      - { email: y@yaml.example, tokens: [yaml-token-0001] }\n    records:\n      account:\n        - { accountname: Yamled, createdon: 2025-01-05T09:00:00 }\n';
    const loaded = await post(yaml, 'application/yaml');
    assert.equal(loaded.status, 200, await loaded.clone().text());
    assert.deepEqual((await loaded.json() as { organizations: Array<{ name: string; records: number }> }).organizations.map((o) => [o.name, o.records]), [['From YAML', 1]]);
    const read = await fetch(`${orchard.url}/api/record/account`, { headers: { tokenid: 'yaml-token-0001' } });
    assert.equal(((await read.json()) as { data: { Records: Array<{ createdon: string }> } }).data.Records[0]!.createdon, '2025-01-05T09:00:00', 'a date stays the text it was, as in a file');
    const bad = await post('organizations: [\n', 'text/yaml');
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: { code: string; message: string } }).error.message, /^The request body is not valid YAML: /);
  } finally {
    await orchard.close();
  }
});

test('startOrchard refuses a config setting that is not one, or out of its bounds, as the environment\'s would be', async () => {
  await assert.rejects(startOrchard({ config: { journalsize: 50 } as never }), /^AppError: config\.journalsize is not a setting; the settings are port, host, .*journalSize/);
  await assert.rejects(startOrchard({ config: { journalSize: -5 } }), /^AppError: config\.journalSize \(JOURNAL_SIZE\) must be a whole number from 0 to 100000; got -5\.$/);
  await assert.rejects(startOrchard({ config: { dailyCap: 0 } }), /^AppError: config\.dailyCap \(DAILY_CAP\) must be a whole number from 1 to /);
  await assert.rejects(startOrchard({ config: { webhooks: { timeout: 5 } as never } }), /^AppError: config\.webhooks\.timeout is not a webhook setting; they are allowPrivate, timeoutMs/);
  await assert.rejects(startOrchard({ config: { webhooks: { concurrency: 0 } } }), /^AppError: config\.webhooks\.concurrency \(WEBHOOK_CONCURRENCY\) must be a whole number from 1 to 1000; got 0\.$/);
  await assert.rejects(startOrchard({ config: { trustProxy: ['10.0.0.0/33'] } }), /^AppError: TRUST_PROXY must be /);
  await assert.rejects(startOrchard({ config: { databaseSchema: 'Bad-Name' } }), /^AppError: DATABASE_SCHEMA must be /);
  await assert.rejects(startOrchard({ config: { databaseSchema: 'a'.repeat(27) } }), /^AppError: DATABASE_SCHEMA must be 1 to 26 lowercase letters/, '<schema>_org_ and 32 hex digits must fit in 63 bytes');
  await assert.rejects(startOrchard({ adminKey: 'x' }), /^AppError: ADMIN_KEY must be 16 to 512 visible ASCII characters/);
  const fine = await startOrchard({ config: { dailyCap: null, journalSize: 5 } });
  await fine.close();
});

test('on PostgreSQL (config.databaseUrl) it works in a schema of its own, and close() drops every schema it made', { skip: needsPostgres }, async () => {
  const pool = createPool(DATABASE_URL!);
  try {
    const schemas = async () => new Set((await pool.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE starts_with(nspname, 'eph_')")).rows.map((r) => r.nspname));
    const before = await schemas();
    const orchard = await startOrchard({ config: { databaseUrl: DATABASE_URL }, fixtures: { organizations: [{ name: 'PG Org', users: [{ email: 'pg@suite.example', tokens: [TOKEN] }] }] } });
    let made: string[];
    try {
      await orchard.control.snapshot(orchard.organizations[0]!.id, 'one');
      made = [...await schemas()].filter((s) => !before.has(s));
      assert.ok(made.length >= 3, `the control schema, the organization's and its snapshots: ${made.join(', ')}`);
      const res = await fetch(`${orchard.url}/api/record/account`, { headers: { tokenid: TOKEN } });
      assert.equal(res.status, 200);
    } finally {
      await orchard.close();
    }
    const left = await schemas();
    assert.deepEqual(made.filter((s) => left.has(s)), []);
  } finally {
    await pool.end();
  }
});

test('on PostgreSQL a fixtures file of 1,000 records of an object or more leaves its table analyzed when the load ends, and one of fewer does not', { skip: needsPostgres }, async () => {
  const pool = createPool(DATABASE_URL!);
  const accounts = (n: number) => Array.from({ length: n }, (_, i) => ({ accountname: `Fixture ${i}` }));
  const orchard = await startOrchard({
    config: { databaseUrl: DATABASE_URL },
    fixtures: { organizations: [{ name: 'Big', users: [{ email: 'big@suite.example' }], records: { account: accounts(1_000), contact: [{ firstname: 'Few', lastname: 'Of them' }] } }] },
  });
  try {
    const schema = (await pool.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE '%\\_org\\_' || $1", [orchard.organizations[0]!.id.replace(/-/g, '')])).rows[0]!.nspname;
    const analyzes = async (table: string) => Number((await pool.query("SELECT analyze_count FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2", [schema, table])).rows[0]?.analyze_count ?? 0);
    // Orchard's ANALYZE ran before the load ended; the statistics' view may show it a moment later.
    await eventually(async () => (await analyzes('account')) > 0, 'the account table analyzed');
    assert.equal(await analyzes('contact'), 0);
  } finally {
    await orchard.close();
    await pool.end();
  }
});

test('fault rules of the fixtures are held once the server starts, and by a fixtures load, each once; a rule for no organization or object is refused', async () => {
  const orchard = await startOrchard({
    fixtures: {
      organizations: [{ name: 'Faulty', plan: 'enterprise', users: [{ email: 'qa@faulty.example', tokens: [TOKEN] }] }],
      faults: [{ families: ['records'], methods: ['GET'], status: 503, count: 1 }],
    },
  });
  try {
    const get = () => fetch(`${orchard.url}/api/record/account`, { headers: { tokenid: TOKEN } });
    const first = await get();
    assert.equal(first.status, 503);
    assert.equal(first.headers.get('x-error-code'), 'STORE_UNAVAILABLE');
    assert.equal((await get()).status, 200, 'the rule fired for its one match and is gone');
    await orchard.control.loadFixtures({ organizations: [], faults: [{ status: 500, count: 1 }] });
    assert.equal((await get()).status, 500);
    assert.equal((await get()).status, 200);
    // A file loaded again holds each of its rules once: the one held is left as it stands.
    const file = { organizations: [], faults: [{ status: 500, families: ['v3'], probability: 0.5, seed: 3 }] };
    await orchard.control.loadFixtures(file);
    await orchard.control.loadFixtures(file);
    assert.equal((await orchard.control.call<{ items: unknown[] }>('GET', 'faults')).items.length, 1);
    const orgId = orchard.organizations[0]!.id;
    await assert.rejects(orchard.control.loadFixtures({ organizations: [], faults: [{ orgId: '44444444-4444-4444-8444-444444444444', status: 500 }] }),
      (err: Error & { code?: string }) => err.code === 'FIXTURE_INVALID' && /^faults\[0\]\.orgId: no organization of this file or of the server has id '44444444-4444-4444-8444-444444444444'/.test(err.message));
    await assert.rejects(orchard.control.loadFixtures({ organizations: [], faults: [{ orgId, object: 'acount', status: 500 }] }),
      (err: Error & { code?: string }) => err.code === 'FIXTURE_INVALID' && /^faults\[0\]\.object: No organization has an object 'acount'\. Did you mean 'account'\?/.test(err.message));
  } finally {
    await orchard.close();
  }
});
