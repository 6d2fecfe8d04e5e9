// The fixture commands: `orchard serve --ephemeral --fixtures FILE` (a YAML file loaded before
// listening, nothing left once it stops), a bad file refused with the member's path, and the
// commands that call a running server (org reset, snapshot create/list/restore/delete, org export,
// fixtures load) with --json.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli.js';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { readFixturesFile } from '../../src/fixtures/fixtures-file.js';
import { tempDir } from '../helpers.js';
import { serveProcess, type Served } from './cli-runner.js';

const KEY = 'test-admin-key-0123456789abcdef';
const TOKEN = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const YAML = `organizations:
  - name: CLI Org
    plan: enterprise
    users:
      - email: cli@orchard.example
        tokens: [${TOKEN}]
    records:
      account:
        - { accountname: From the file, createdon: 2024-02-03T04:05:06 }
`;

/**
 * `orchard …` in this process with `env`: its exit code and what it printed. Its standard input is
 * not a terminal (a script's), unless `typed` is given: then a terminal where that line is typed.
 */
async function runWith(args: string[], env: NodeJS.ProcessEnv, typed?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const input = typed === undefined ? Readable.from([]) : Object.assign(Readable.from([`${typed}\n`]), { isTTY: true });
  const code = await runCli(args, { env, input, output: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } } });
  return { code, stdout, stderr };
}

/** `orchard --json …` in this process with `env` (and `typed` at a terminal, as runWith); its one JSON object. */
async function json(args: string[], env: NodeJS.ProcessEnv, typed?: string): Promise<{ code: number; value: any; stderr: string }> {
  const { code, stdout, stderr } = await runWith(['--json', ...args], env, typed);
  assert.equal(stdout.trim().split('\n').length, 1, stdout);
  return { code, value: JSON.parse(stdout), stderr };
}

test('serve --ephemeral --fixtures FILE.yaml loads the file before listening and leaves nothing once stopped', async () => {
  const dir = tempDir('orchard-fixtures-cli-');
  fs.writeFileSync(`${dir}/fixtures.yaml`, YAML);
  let served: Served | undefined;
  try {
    served = await serveProcess(['--json', 'serve', '--ephemeral', '--fixtures', `${dir}/fixtures.yaml`]);
    const { proc, first: line, exited } = served;
    const info = JSON.parse(line);
    assert.equal(info.ephemeral, true);
    assert.equal(info.demo, null, 'no demo organization beside fixtures');
    assert.equal(info.fixtures[0].status, 'created');
    assert.ok(fs.existsSync(info.dataDir));
    const res = await fetch(`${info.url}/api/record/account`, { headers: { tokenid: TOKEN } });
    assert.equal(res.status, 200);
    const records = ((await res.json()) as { data: { Records: Array<{ accountname: string; createdon: string }> } }).data.Records;
    assert.deepEqual(records.map((r) => [r.accountname, r.createdon]), [['From the file', '2024-02-03T04:05:06']]);
    proc.kill('SIGTERM');
    assert.equal(await exited, 0, served.stderr());
    assert.equal(fs.existsSync(info.dataDir), false, 'the ephemeral data directory is removed');
  } finally {
    if (served && served.proc.exitCode === null) served.proc.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('serve refuses a bad fixtures file with the path of the bad member, before starting; fixtures check says the same', async () => {
  const dir = tempDir('orchard-fixtures-cli-');
  try {
    fs.writeFileSync(`${dir}/bad.json`, JSON.stringify({ organizations: [{ name: 'X', roles: [{ name: 'sales', grants: { account: ['read'] } }], users: [{ email: 'a@x.example' }, { email: 'b@x.example', role: 'salse' }] }] }));
    const served = await json(['--data-dir', `${dir}/data`, 'serve', '--fixtures', `${dir}/bad.json`], { PORT: '0' });
    assert.equal(served.code, 1);
    assert.equal(served.value.error.code, 'FIXTURE_INVALID');
    assert.match(served.value.error.message, /bad\.json: organizations\[0\]\.users\[1\]\.role: unknown role 'salse'/);
    assert.equal(fs.existsSync(`${dir}/data`), false, 'nothing was started');
    const checked = await json(['fixtures', 'check', '--file', `${dir}/bad.json`], {});
    assert.equal(checked.value.error.message, served.value.error.message);
    fs.writeFileSync(`${dir}/good.yaml`, YAML);
    const good = await json(['fixtures', 'check', '--file', `${dir}/good.yaml`], {});
    assert.equal(good.code, 0);
    assert.deepEqual(good.value.organizations.map((o: { name: string; records: number }) => [o.name, o.records]), [['CLI Org', 1]]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('commands that call the running server', () => {
  let dir: string;
  let server: RunningServer;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    dir = tempDir('orchard-fixtures-cli-');
    server = await startServer(loadConfig({}, { dataDir: `${dir}/data`, port: 0, logLevel: 'silent', adminKey: KEY }), () => {});
    env = { ADMIN_KEY: KEY, ORCHARD_URL: server.url };
    fs.writeFileSync(`${dir}/fixtures.yaml`, YAML);
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('fixtures load, snapshot create/list/restore/delete, org reset, org export (JSON or YAML) and org copy, each printing one JSON object', async () => {
    const loaded = await json(['fixtures', 'load', '--file', `${dir}/fixtures.yaml`], env);
    assert.equal(loaded.code, 0, JSON.stringify(loaded.value));
    const orgId = loaded.value.organizations[0].id as string;
    const count = async () => ((await (await fetch(`${server.url}/api/record/account`, { headers: { tokenid: TOKEN } })).json()) as { data: { Total_Records: number } }).data.Total_Records;
    const add = () => fetch(`${server.url}/api/record/account`, { method: 'POST', headers: { tokenid: TOKEN, 'content-type': 'application/json' }, body: '{"accountname": "More"}' });

    await add();
    const taken = await json(['snapshot', 'create', '--org', orgId, '--name', 'two'], env);
    assert.equal(taken.value.name, 'two');
    await add();
    assert.equal(await count(), 3);
    assert.deepEqual((await json(['snapshot', 'list', '--org', orgId], env)).value.items.map((s: { name: string }) => s.name), ['two']);
    // What drops the organization's records asks first: a script (no terminal) is refused without --yes.
    for (const args of [['snapshot', 'restore', '--org', orgId, '--name', 'two'], ['org', 'reset', '--id', orgId]]) {
      const refused = await json(args, env);
      assert.equal(refused.code, 1);
      assert.equal(refused.value.error.code, 'CONFIRMATION_REQUIRED', args.join(' '));
      assert.match(refused.value.error.message, new RegExp(`orchard ${args[0]} ${args[1]} cannot be undone.*Add --yes`));
      assert.equal(await count(), 3, `${args.join(' ')} refused changes nothing`);
    }
    assert.deepEqual((await json(['snapshot', 'restore', '--org', orgId, '--name', 'two', '--yes'], env)).value, { org: orgId, restored: 'two' });
    assert.equal(await count(), 2);
    assert.deepEqual((await json(['org', 'reset', '--id', orgId, '--yes'], env)).value, { id: orgId, fixture: true });
    assert.equal(await count(), 1);
    // At a terminal, the organization's name or id typed back; anything else changes nothing.
    await add();
    await add();
    const mistyped = await json(['snapshot', 'restore', '--org', orgId, '--name', 'two'], env, 'CLI');
    assert.equal(mistyped.value.error.code, 'CONFIRMATION_MISMATCH');
    assert.equal(mistyped.stderr, `Organization 'CLI Org' (${orgId}): its objects and records are replaced by those of snapshot 'two'. This cannot be undone.\nType the organization's name or id to go on: `);
    assert.equal(await count(), 3);
    assert.deepEqual((await json(['snapshot', 'restore', '--org', orgId, '--name', 'two'], env, 'CLI Org')).value, { org: orgId, restored: 'two' });
    assert.equal(await count(), 2);
    assert.equal((await json(['org', 'reset', '--id', orgId], env, 'nope')).value.error.code, 'CONFIRMATION_MISMATCH');
    assert.equal(await count(), 2);
    assert.deepEqual((await json(['org', 'reset', '--id', orgId], env, orgId)).value, { id: orgId, fixture: true });
    assert.equal(await count(), 1);
    assert.deepEqual((await json(['snapshot', 'delete', '--org', orgId, '--name', 'two'], env)).value, { org: orgId, deleted: 'two' });
    // Nothing to restore: nothing is asked, and the server's refusal is the answer.
    const missing = await json(['snapshot', 'restore', '--org', orgId, '--name', 'two'], env, '');
    assert.equal(missing.code, 1);
    assert.equal(missing.value.error.code, 'SNAPSHOT_NOT_FOUND');
    assert.equal(missing.stderr, '', 'no question');

    const exported = await json(['org', 'export', '--id', orgId], env);
    assert.equal(exported.value.organizations[0].records.account[0].accountname, 'From the file');
    const written = await json(['org', 'export', '--id', orgId, '--out', `${dir}/out.json`], env);
    assert.deepEqual(written.value, { id: orgId, file: `${dir}/out.json` });
    assert.deepEqual(JSON.parse(fs.readFileSync(`${dir}/out.json`, 'utf8')), exported.value);
    assert.equal((await json(['org', 'export', '--id', orgId, '--out', `${dir}/out.yaml`], env)).code, 0);
    assert.match(fs.readFileSync(`${dir}/out.yaml`, 'utf8'), /^version: 1\norganizations:\n/, 'a .yaml name is written as YAML');
    assert.deepEqual(readFixturesFile(`${dir}/out.yaml`), readFixturesFile(`${dir}/out.json`), 'and reads back as the same fixtures');

    const copied = await json(['org', 'copy', '--id', orgId, '--name', 'Copied'], env);
    assert.equal(copied.code, 0, JSON.stringify(copied.value));
    assert.deepEqual(Object.keys(copied.value).sort(), ['id', 'name', 'records', 'token', 'users']);
    assert.deepEqual([copied.value.name, copied.value.records], ['Copied', 1]);
    const copyCount = ((await (await fetch(`${server.url}/api/record/account`, { headers: { tokenid: copied.value.token } })).json()) as { data: { Total_Records: number } }).data.Total_Records;
    assert.equal(copyCount, 1, 'the token printed opens the copy');
    const text = await runWith(['org', 'copy', '--id', orgId], env);
    assert.match(text.stdout, /^Organization .* \(copy\) \([0-9a-f-]{36}\), a copy of [0-9a-f-]{36}: 1 user\(s\), 1 record\(s\)\nToken of .* \(shown once\): [0-9a-f-]{36}\n$/);

    const noKey = await json(['org', 'reset', '--id', orgId, '--yes', '--url', server.url], {});
    assert.equal(noKey.value.error.code, 'ADMIN_KEY_MISSING');
  });
});
