// The mark of a fixtures load on SQLite names its process (src/store/fixture-loader.ts): a load
// finding it waits while that process runs on this host, and loads again once it is gone.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
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

// A mark outlives its process when the load is killed or the machine stops; after a reboot or a
// container started anew, the dead loader's pid may be another program's, which kill(pid, 0) finds
// alive: the mark also names the boot and when the process started, as Linux tells them.
test('a mark whose pid is now another process\'s (another boot, a later start) is abandoned', { skip: !fs.existsSync('/proc/self/stat') }, async () => {
  const module = new URL('../../src/store/fixture-loader.js', import.meta.url).href;
  const child = spawn(process.execPath, ['--input-type=module', '-e', `import { loaderMark } from ${JSON.stringify(module)}; console.log(loaderMark()); setTimeout(() => {}, 60_000);`], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const mark = await new Promise<string>((resolve) => child.stdout.setEncoding('utf8').once('data', (d: string) => resolve(d.trim())));
    assert.equal(markState(mark), 'live', 'the loader\'s own mark, while it runs');
    const loader = JSON.parse(mark) as Record<string, unknown>;
    assert.equal(markState(JSON.stringify({ ...loader, boot: 'a boot before' })), 'abandoned', 'its pid, an earlier boot');
    assert.equal(markState(JSON.stringify({ ...loader, start: `${String(loader.start)}1` })), 'abandoned', 'its pid, a process started at another time');
  } finally {
    child.kill('SIGKILL');
  }
});
