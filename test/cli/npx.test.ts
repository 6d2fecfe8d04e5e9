// `npx orchard` in a checkout runs bin/orchard.js from node_modules/.bin. Were the bin declared in
// the project's own package.json, npm exec would install the project into its npx cache first,
// running `prepare` (a whole build, rewriting dist/ under a running server).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers.js';
import { childEnv } from './cli-runner.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('npx orchard --version runs the local bin without prepare, leaving dist/ and the npx cache untouched', () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const compiled = path.join(ROOT, 'dist/src/cli.js');
  const builtAt = fs.statSync(compiled).mtimeMs;
  // A cache of its own: npm exec installs into it only once per checkout, and a run before must not hide that.
  const cache = tempDir('orchard-npm-cache-');
  try {
    // --foreground-scripts: a prepare that ran would print on stdout.
    const r = spawnSync('npx', ['--foreground-scripts', 'orchard', '--version'], {
      cwd: ROOT,
      env: { ...childEnv, npm_config_cache: cache, npm_config_update_notifier: 'false' },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
    assert.equal(fs.statSync(compiled).mtimeMs, builtAt, 'dist/src/cli.js was not rewritten');
    assert.ok(!fs.existsSync(path.join(cache, '_npx')), 'nothing was installed into the npx cache');
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
