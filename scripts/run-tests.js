// Runs the compiled test of every test/**/*.test.ts and examples/**/*.test.ts with node's test runner. The sources say what
// runs, so a compiled test whose source was deleted or renamed never runs, whatever dist/ holds.
// Suites that need PostgreSQL or Redis skip with a printed reason when DATABASE_URL / REDIS_URL
// are unset; with CI=true those variables are required, so nothing is skipped silently in CI.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// test/ holds Orchard's tests; examples/ the example suites of docs/testing.md, run so they keep working.
const files = ['test', 'examples'].filter((dir) => fs.existsSync(dir)).flatMap((dir) => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => path.resolve('dist', dir, f.replace(/\.ts$/, '.js'))))
  .sort();
const unbuilt = files.filter((f) => !fs.existsSync(f));
if (unbuilt.length > 0) {
  console.error(`Not built (run npm run build): ${unbuilt.join(', ')}`);
  process.exit(1);
}

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
