// `orchard --json serve`: one JSON object on stdout once listening (with the demo's token on a
// first start), the request log on stderr, and a clean exit on SIGTERM.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { tempDir } from '../helpers.js';
import { BIN, childEnv } from './cli-runner.js';

test('serve --json prints one JSON object with the URL and the demo token, logs to stderr, exits 0 on SIGTERM', async () => {
  const dir = tempDir('orchard-serve-json-');
  const proc = spawn(process.execPath, [BIN, '--data-dir', dir, '--json', 'serve'], { env: { ...childEnv, PORT: '0' } });
  try {
    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    let stdout = '';
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const first = await new Promise<string>((resolve, reject) => {
      proc.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
      });
      void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
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
    assert.equal(await exited, 0, stderr);
    assert.equal(stdout.trim().split('\n').length, 1, `stdout holds exactly one line: ${stdout}`);
    assert.match(stderr, /"msg":"request completed"/, 'the request log went to stderr');
  } finally {
    if (proc.exitCode === null) proc.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
