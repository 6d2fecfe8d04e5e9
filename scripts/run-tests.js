// Runs every compiled test file under dist/test with node's test runner.
// Suites that need PostgreSQL or Redis skip with a printed reason when DATABASE_URL / REDIS_URL
// are unset; with CI=true those variables are required, so nothing is skipped silently in CI.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve('dist/test');
const files = [];
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p);
    else if (entry.name.endsWith('.test.js')) files.push(p);
  }
})(root);
files.sort();

if (process.env.CI === 'true') {
  const missing = ['DATABASE_URL', 'REDIS_URL'].filter((v) => !process.env[v]);
  if (missing.length > 0) {
    console.error(`CI=true but ${missing.join(' and ')} unset: the PostgreSQL and Redis suites must run in CI.`);
    process.exit(1);
  }
}

const args = ['--test', '--test-reporter=spec', '--test-concurrency=2', ...process.argv.slice(2), ...files];
const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
process.exit(result.status ?? 1);
