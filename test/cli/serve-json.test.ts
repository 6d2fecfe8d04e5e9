// `orchard --json serve`: one JSON object on stdout once listening (with the demo's token on a
// first start), the request log on stderr, and a clean exit on SIGTERM.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tempDir } from '../helpers.js';
import { serveProcess, type Served } from './cli-runner.js';

test('serve --json prints one JSON object with the URL and the demo token, logs to stderr, exits 0 on SIGTERM', async () => {
  const dir = tempDir('orchard-serve-json-');
  let served: Served | undefined;
  try {
    served = await serveProcess(['--data-dir', dir, '--json', 'serve']);
    const { proc, first, exited } = served;
    const info = JSON.parse(first) as { url: string; dataDir: string; docs: string; demo: { orgId: string; token: string; accounts: number; curl: string } };
    assert.match(info.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(info.dataDir, dir);
    assert.equal(info.docs, `${info.url}/docs`);
    assert.equal(info.demo.accounts, 200);
    assert.ok(info.demo.curl.includes(info.demo.token));

    const res = await fetch(`${info.url}/api/record/account?pagesize=1`, { headers: { tokenid: info.demo.token } });
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { data: { Total_Records: number } }).data.Total_Records, 200);

    proc.kill('SIGTERM');
    assert.equal(await exited, 0, served.stderr());
    assert.equal(served.stdout().trim().split('\n').length, 1, `stdout holds exactly one line: ${served.stdout()}`);
    assert.match(served.stderr(), /"msg":"request completed"/, 'the request log went to stderr');
  } finally {
    if (served && served.proc.exitCode === null) served.proc.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
