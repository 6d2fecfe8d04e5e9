// Compiles the client package (packages/client/dist/), then the TypeScript and the console (dist/console/) into dist/ with no moment
// where a current output is missing, as a running server (or a reader thread it starts) may load one
// at any time: tsc writes beside dist/, each file then replaces its old copy by a rename, and only
// outputs whose source is gone are deleted.
// A failed compile leaves dist/ as it was.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildConsole, hasConsole } from './build-console.js';

const OUT = 'dist';
// Beside dist/ and as deep, so the source maps' relative paths hold once the files move in.
const NEXT = `.dist-next-${process.pid}`;

/** The files under dir, as paths relative to it. */
const filesUnder = (dir) => fs.existsSync(dir)
  ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => fs.lstatSync(path.join(dir, f)).isFile())
  : [];

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// The client package (packages/client) first: its own dist/ with declarations, which the tests
// import by the package's name. No server loads it, so it is written in place.
const CLIENT = 'packages/client/tsconfig.json';
if (fs.existsSync(CLIENT)) {
  const client = spawnSync(process.execPath, [tsc, '-p', CLIENT], { stdio: 'inherit' });
  if (client.status !== 0) process.exit(client.status ?? 1);
}
const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--outDir', NEXT], { stdio: 'inherit' });
if (compiled.status !== 0) {
  fs.rmSync(NEXT, { recursive: true, force: true });
  process.exit(compiled.status ?? 1);
}

// The console (console/): type-checked and bundled into NEXT/console, so it moves in with the rest
// and a running server never serves a page whose assets are not there yet. Like the client package,
// only in a project that has one.
if (hasConsole()) {
  try {
    await buildConsole(path.resolve(NEXT, 'console'));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    fs.rmSync(NEXT, { recursive: true, force: true });
    process.exit(1);
  }
}

const built = new Set(filesUnder(NEXT));
for (const file of built) {
  fs.mkdirSync(path.dirname(path.join(OUT, file)), { recursive: true });
  fs.renameSync(path.join(NEXT, file), path.join(OUT, file));
}
for (const file of filesUnder(OUT)) {
  if (!built.has(file)) fs.rmSync(path.join(OUT, file));
}
// Folders the stale outputs leave empty, deepest first.
for (const dir of fs.readdirSync(OUT, { recursive: true, encoding: 'utf8' }).sort().reverse()) {
  const full = path.join(OUT, dir);
  if (fs.lstatSync(full).isDirectory() && fs.readdirSync(full).length === 0) fs.rmdirSync(full);
}
fs.rmSync(NEXT, { recursive: true, force: true });
