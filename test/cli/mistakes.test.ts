// The `orchard` command as its users get it wrong: an unknown --org answered with the code every
// command gives and where the ids are listed, a missing fixtures file said in words, an --out that
// cannot be written refused before anything is read (and no file left), a --url that is no URL, a
// --limit out of range refused or served as the API serves it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildCli, runCli } from '../../src/cli.js';
import { loadConfig } from '../../src/config.js';
import { openStores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { fails, ok, run } from './cli-runner.js';

describe('orchard used wrongly', () => {
  let dir: string;
  let org: { id: string };
  const unknown = '00000000-0000-4000-8000-000000000000';
  before(async () => {
    dir = tempDir('orchard-cli-mistakes-');
    org = await ok(dir, ['org', 'create', '--name', 'Acme', '--plan', 'enterprise', '--email', 'ops@acme.example']) as typeof org;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('an unknown command, typed alone or after help, in a group too, is refused naming it, the nearest command and the --help that lists them', async () => {
    for (const args of [['nosuch'], ['help', 'nosuch']]) {
      const r = await run(args);
      assert.equal(r.code, 1, args.join(' '));
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, "error: unknown command 'nosuch'. List the commands with orchard --help.\n(add --help for usage)\n");
    }
    for (const args of [['org', 'craete'], ['org', 'help', 'craete']]) {
      const error = await fails(dir, args, 'USAGE');
      assert.equal(error.message, "unknown command 'craete'. Did you mean 'create'? List the commands with orchard org --help.");
    }
    // A command help knows still gets its help, with exit status 0.
    const known = await run(['help', 'seed']);
    assert.equal(known.code, 0);
    assert.match(known.stdout, /Usage: orchard seed/);
  });

  test('a group typed without its subcommand, the program without a command, is refused naming it and the --help that lists them', async () => {
    const groups = buildCli({}).commands.filter((c) => c.commands.length > 0).map((c) => c.name());
    assert.ok(groups.includes('org') && groups.includes('webhook'), groups.join(' '));
    for (const group of groups) {
      const error = await fails(dir, [group], 'USAGE');
      assert.equal(error.message, `orchard ${group} needs a subcommand. List its subcommands with orchard ${group} --help.`);
    }
    const r = await run(['org']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'error: orchard org needs a subcommand. List its subcommands with orchard org --help.\n(add --help for usage)\n');
    const error = await fails(dir, [], 'USAGE');
    assert.equal(error.message, 'orchard needs a command. List the commands with orchard --help.');
  });

  test('export and import refuse an unknown organization with ORGANIZATION_NOT_FOUND, as seed and user create do', async () => {
    const csv = path.join(dir, 'in.csv');
    fs.writeFileSync(csv, 'accountname\nAcme\n');
    for (const args of [
      ['export', '--org', unknown, '--object', 'account', '--format', 'csv'],
      ['import', '--org', unknown, '--object', 'account', '--format', 'csv', '--in', csv],
    ]) {
      const error = await fails(dir, args, 'ORGANIZATION_NOT_FOUND');
      assert.match(error.message, new RegExp(`${unknown}.*orchard org list`));
    }
  });

  test('an unknown organization or user id is answered with the command that lists the ids', async () => {
    const org = await fails(dir, ['user', 'list', '--org', unknown], 'ORGANIZATION_NOT_FOUND');
    assert.equal(org.message, `No organization has id '${unknown}'. List the organizations and their ids with orchard org list (GET /_orchard/organizations).`);
    const user = await fails(dir, ['token', 'create', '--user', unknown], 'USER_NOT_FOUND');
    assert.equal(user.message, `No user has id '${unknown}'. List an organization's users and their ids with orchard user list --org <organization id> (GET /_orchard/organizations/{id}/users).`);
  });

  test('token revoke of a token no live one matches says where to find its id', async () => {
    const error = await fails(dir, ['token', 'revoke', '--token', unknown], 'TOKEN_INVALID');
    assert.match(error.message, /unknown or already revoked\. List a user's tokens, live and revoked, with orchard token list --user <user id>, and revoke one by its id with --id\.$/);
  });

  test('export and org export refuse an --out they cannot write before reading anything, saying why, and leave no file', async () => {
    const missing = path.join(dir, 'no-such-dir', 'accounts.csv');
    const error = await fails(dir, ['export', '--org', org.id, '--object', 'account', '--format', 'csv', '--out', missing], 'PARAM_INVALID');
    assert.match(error.message, /^Cannot write --out .*accounts\.csv: there is no directory .*no-such-dir\. Give a file path in an existing directory/);
    const intoDir = await fails(dir, ['export', '--org', org.id, '--object', 'account', '--format', 'csv', '--out', dir], 'PARAM_INVALID');
    assert.match(intoDir.message, /it is a directory/);
    // Refused before the organization is even looked at: the --out is the first thing wrong.
    const first = await fails(dir, ['export', '--org', unknown, '--object', 'account', '--format', 'csv', '--out', missing], 'PARAM_INVALID');
    assert.match(first.message, /--out/);
    // org export checks its --out the same way, before it calls the server (none runs here).
    const fixtures = await fails(dir, ['org', 'export', '--id', org.id, '--out', path.join(dir, 'no-such-dir', 'acme.yaml')], 'PARAM_INVALID');
    assert.match(fixtures.message, /^Cannot write --out .*acme\.yaml: there is no directory/);
    assert.equal(fs.existsSync(path.dirname(missing)), false);
  });

  test('fixtures check, fixtures load and serve --fixtures say a fixtures file is missing, or a directory, in words and how to fix it', async () => {
    const missing = path.join(dir, 'none.yaml');
    for (const args of [['fixtures', 'check', '--file', missing], ['fixtures', 'load', '--file', missing], ['serve', '--fixtures', missing]]) {
      const error = await fails(dir, args, 'FIXTURE_INVALID');
      assert.equal(error.message, `Cannot read the fixtures file ${missing}: no such file. Give the path of a fixtures file: JSON, or YAML for .yaml/.yml (docs/fixtures.md).`);
    }
    assert.match((await fails(dir, ['fixtures', 'check', '--file', dir], 'FIXTURE_INVALID')).message, /: it is a directory\. Give the path/);
  });

  test('a --url that is no http(s) URL is refused as PARAM_INVALID saying so, not as a server that does not answer', async () => {
    for (const url of ['notaurl', 'ftp://127.0.0.1:8080']) {
      const error = await fails(dir, ['clock', 'show', '--url', url], 'PARAM_INVALID');
      assert.equal(error.message, `'${url}' is not a server's address (--url or ORCHARD_URL): give an http(s) URL such as http://127.0.0.1:8080.`);
    }
  });

  test('seed refuses a --count past 10,000,000, or not a whole number, before looking at the organization', async () => {
    for (const count of ['10000001', '9007199254740991', '1e6', '1.5', '-1']) {
      const error = await fails(dir, ['seed', '--org', unknown, '--count', count], 'USAGE');
      assert.match(error.message, /--count must be a whole number from 0 to 10,000,000\.$/, count);
    }
  });

  test('webhook deliveries refuses --limit 0 and serves more than 500 as 500, as the API\'s pagesize', async () => {
    const stores = openStores(loadConfig({}, { dataDir: dir }));
    let id: string;
    try {
      const made = await stores.admin.createWebhook({ orgId: org.id, definition: { event: 'created', url: 'http://127.0.0.1:9/h' }, allowPrivate: true });
      id = made.webhook.id;
      for (let i = 0; i < 501; i++) await stores.admin.testWebhook(org.id, id, new Date());
    } finally {
      await stores.close();
    }
    const zero = await fails(dir, ['webhook', 'deliveries', '--org', org.id, '--id', id, '--limit', '0'], 'USAGE');
    assert.match(zero.message, /--limit must be a whole number of at least 1/);
    const many = await ok(dir, ['webhook', 'deliveries', '--org', org.id, '--id', id, '--limit', '100000']);
    assert.equal((many.items as unknown[]).length, 500);
  });
});

describe('orchard with a setting it does not take', () => {
  /** `orchard --json …` in this environment: its exit status and its one JSON object. */
  const runIn = async (env: NodeJS.ProcessEnv, args: readonly string[]) => {
    let stdout = '';
    const code = await runCli(['--json', ...args], { env, output: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } } });
    return { code, body: JSON.parse(stdout) as { error: { code: string; message: string } } };
  };

  test('is refused with CONFIG_INVALID and the message naming the variable, not the catch-all ERROR', async () => {
    const dir = tempDir('orchard-cli-config-');
    try {
      const r = await runIn({ DATA_DIR: dir, PORT: 'abc' }, ['org', 'list']);
      assert.equal(r.code, 1);
      assert.deepEqual(r.body, { error: { code: 'CONFIG_INVALID', message: "PORT must be a whole number from 0 to 65535; got 'abc'." } });
      assert.equal((await runIn({ DATA_DIR: dir, HOST: 'http://0.0.0.0' }, ['serve'])).body.error.code, 'CONFIG_INVALID');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a command calling the running server finds it at the HOST and PORT the server reads, and refuses a PORT the server would', async () => {
    const env = { ADMIN_KEY: 'cli-config-admin-key-0123456789' };
    // A PORT with a letter was put in the URL as it was: 'http://127.0.0.1:80a' is not a server's address (--url or ORCHARD_URL).
    assert.deepEqual((await runIn({ ...env, PORT: '80a' }, ['clock', 'show'])).body,
      { error: { code: 'CONFIG_INVALID', message: "PORT must be a whole number from 0 to 65535; got '80a'." } });
    // Nothing listens on port 1: the message names the address asked, the server's HOST and PORT.
    const unreachable = (await runIn({ ...env, HOST: '::1', PORT: ' 1 ' }, ['clock', 'show'])).body.error;
    assert.equal(unreachable.code, 'UNREACHABLE');
    assert.match(unreachable.message, /^No Orchard server answers at http:\/\/\[::1\]:1 /);
    assert.match((await runIn({ ...env, HOST: '0.0.0.0', PORT: '1' }, ['clock', 'show'])).body.error.message, /^No Orchard server answers at http:\/\/127\.0\.0\.1:1 /);
  });
});
