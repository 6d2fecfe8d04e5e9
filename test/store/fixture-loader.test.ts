// The mark of a fixtures load on SQLite names its process (src/store/fixture-loader.ts): a load
// finding it waits while that process runs on this host, and loads again once it is gone.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { markState } from '../../src/store/fixture-loader.js';
import os from 'node:os';

test('a mark is live while its process runs on this host, abandoned once it is gone, of another host, or of this process', async () => {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  try {
    const mark = JSON.stringify({ host: os.hostname(), pid: child.pid });
    assert.equal(markState(mark), 'live');
    assert.equal(markState(JSON.stringify({ host: `${os.hostname()}-elsewhere`, pid: child.pid })), 'abandoned');
    assert.equal(markState(JSON.stringify({ host: os.hostname(), pid: process.pid })), 'abandoned');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(markState(mark), 'abandoned');
    assert.equal(markState(null), 'none');
    assert.equal(markState('not json'), 'abandoned');
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});
