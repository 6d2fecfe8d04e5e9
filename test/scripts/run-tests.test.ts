// scripts/run-tests.js (npm test after the build) runs the compiled test of each test source, and
// never a compiled test left in dist/ after its source was deleted or renamed.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers.js';

const RUN_TESTS = fileURLToPath(new URL('../../../scripts/run-tests.js', import.meta.url));
// Without CI (which asks for DATABASE_URL) and NODE_TEST_CONTEXT (the runner around this file).
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['CI', 'NODE_TEST_CONTEXT'].includes(k)));

/** A compiled test that leaves a file named after itself when it runs. */
const leavesMark = "require('node:test').test('runs', () => require('node:fs').writeFileSync(__filename + '.ran', ''));\n";

let dir: string;
const put = (file: string, text = '') => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};
const runTests = () => spawnSync(process.execPath, [RUN_TESTS], { cwd: dir, env, encoding: 'utf8' });

before(() => {
  dir = tempDir('orchard-run-tests-');
  put('test/kept.test.ts');
  put('test/deep/nested.test.ts');
  put('dist/test/kept.test.js', leavesMark);
  put('dist/test/deep/nested.test.js', leavesMark);
  put('dist/test/deleted.test.js', leavesMark);
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('runs the compiled tests whose source exists, and not one whose source is gone', () => {
  const r = runTests();
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.ok(fs.existsSync(path.join(dir, 'dist/test/kept.test.js.ran')));
  assert.ok(fs.existsSync(path.join(dir, 'dist/test/deep/nested.test.js.ran')));
  assert.ok(!fs.existsSync(path.join(dir, 'dist/test/deleted.test.js.ran')), 'the test without a source ran');
});

test('fails, naming it, when a test source has no compiled test', () => {
  put('test/new.test.ts');
  const r = runTests();
  assert.equal(r.status, 1);
  assert.match(r.stderr, /Not built \(run npm run build\): .*new\.test\.js/);
});
