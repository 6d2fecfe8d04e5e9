// `orchard export … | head`: a reader of stdout that goes away before the records end is no failure.
// The command stops reading the store, prints no summary of records nobody read, and exits 0, as
// other tools piped into head do; before, Node's unhandled EPIPE error ended it with a stack.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../helpers.js';
import { BIN, childEnv, ok } from './cli-runner.js';

let dir: string;
let org: string;

before(async () => {
  dir = tempDir('orchard-export-pipe-');
  org = (await ok(dir, ['org', 'create', '--name', 'Piped', '--email', 'p@piped.example'])).id as string;
  // Far more than a pipe's buffer holds, so the export is still writing when its reader leaves.
  await ok(dir, ['seed', '--org', org, '--object', 'account', '--count', '5000']);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('an export whose reader closes the pipe after two lines exits 0, quietly', async () => {
  const child = spawn(process.execPath, [BIN, '--data-dir', dir, 'export', '--org', org, '--object', 'account', '--format', 'csv'], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  let read = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    read += d;
    if (read.split('\n').length > 2) child.stdout.destroy();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.ok(read.startsWith('accountid,'), read.slice(0, 80));
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /EPIPE|Error|Exported/, stderr);
});

test('an export to --out that fails midway (the file size limit reached) leaves the earlier file as it was and no part of its own', async () => {
  const outDir = tempDir('orchard-export-whole-');
  try {
    const out = path.join(outDir, 'accounts.csv');
    fs.writeFileSync(out, 'the earlier export\n');
    // `ulimit -f`: writes past 512 KiB fail with EFBIG (Node ignores SIGXFSZ); the CSV of 5,000 accounts is larger.
    const command = `ulimit -f 512 && exec "$0" "$@"`;
    const child = spawn('bash', ['-c', command, process.execPath, BIN, '--data-dir', dir, 'export', '--org', org, '--object', 'account', '--format', 'csv', '--out', out],
      { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 1, stderr);
    assert.match(stderr, /EFBIG.*Nothing was written to .*accounts\.csv, which is as it was: the file is written whole or not at all\./s);
    assert.equal(fs.readFileSync(out, 'utf8'), 'the earlier export\n');
    assert.deepEqual(fs.readdirSync(outDir), ['accounts.csv']);
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
});
