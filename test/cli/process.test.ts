// `node bin/orchard.js` as a child process, for what only a process shows: its exit status and
// what reaches its stdout and stderr. What each command does is tested in this process
// (cli.test.ts, access-cli.test.ts); serve as a process in serve-json.test.ts and server.test.ts.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tempDir } from '../helpers.js';
import { oneJsonObject, runProcess } from './cli-runner.js';

describe('bin/orchard.js as a child process', () => {
  let dir: string;

  before(() => {
    dir = tempDir('orchard-process-');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('--json org create prints one JSON object, nothing on stderr, and exits 0', async () => {
    const r = await runProcess(['--data-dir', dir, '--json', 'org', 'create', '--name', 'Acme', '--email', 'ops@acme.example']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(oneJsonObject(r)).sort(), ['id', 'name', 'plan', 'token', 'userId']);
    assert.equal(r.stderr, '');
  });

  test('a usage error exits 1 with the explanation on stderr and nothing on stdout', async () => {
    const r = await runProcess(['frobnicate']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /unknown command 'frobnicate'/);
    assert.match(r.stderr, /add --help for usage/);
  });

  test('a failure with --json exits 1 with the error as JSON on stdout', async () => {
    const r = await runProcess(['--data-dir', dir, '--json', 'token', 'revoke', '--token', '00000000-0000-4000-8000-000000000000']);
    assert.equal(r.code, 1);
    assert.deepEqual(oneJsonObject(r), { error: { code: 'TOKEN_INVALID', message: "No live token matches: it is unknown or already revoked. List a user's tokens, live and revoked, with orchard token list --user <user id>, and revoke one by its id with --id." } });
  });
});
