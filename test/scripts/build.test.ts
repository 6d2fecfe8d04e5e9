// scripts/build.js (npm run build) on a project of its own: a rebuild under a running server never
// leaves a current output missing, deletes the outputs whose source is gone, and a failed compile
// leaves dist/ as it was.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers.js';

const BUILD = fileURLToPath(new URL('../../../scripts/build.js', import.meta.url));

/** Runs the build in dir; meanwhile looks for dist/src/kept.js every 2 ms. */
function build(dir: string): Promise<{ code: number | null; stderr: string; looks: number; missed: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILD], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let looks = 0;
    let missed = 0;
    let running = true;
    const look = () => {
      if (!running) return;
      looks++;
      if (!fs.existsSync(path.join(dir, 'dist/src/kept.js'))) missed++;
      setTimeout(look, 2);
    };
    look();
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      running = false;
      resolve({ code, stderr, looks, missed });
    });
  });
}

const write = (dir: string, file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
};
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

describe('npm run build (scripts/build.js)', () => {
  let dir: string;

  before(() => {
    dir = tempDir('orchard-build-');
    // The smallest library, unchecked: a build of a second or less instead of three.
    write(dir, 'tsconfig.json', JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', outDir: 'dist', rootDir: '.', sourceMap: true, strict: true, types: [], lib: ['es5'], skipLibCheck: true },
      include: ['src/**/*.ts'],
    }));
    write(dir, 'src/kept.ts', 'export const version: number = 2;\n');
    // The outputs of an earlier build: kept.js is served, gone.ts and old/ were deleted since.
    write(dir, 'dist/src/kept.js', 'export const version = 1;\n');
    write(dir, 'dist/src/gone.js', 'export {};\n');
    write(dir, 'dist/src/gone.js.map', '{}\n');
    write(dir, 'dist/src/old/deeper/x.js', 'export {};\n');
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('replaces every output in place, never leaving one missing, and deletes those whose source is gone', async () => {
    const r = await build(dir);
    assert.equal(r.code, 0, r.stderr);
    // Looks throughout the compile: a build that empties dist/ first is caught in the act.
    assert.ok(r.looks > 20, `looked ${r.looks} times`);
    assert.equal(r.missed, 0, `dist/src/kept.js was missing at ${r.missed} of ${r.looks} looks`);
    assert.match(read(dir, 'dist/src/kept.js'), /version = 2/);
    const map = JSON.parse(read(dir, 'dist/src/kept.js.map')) as { sources: string[] };
    assert.ok(fs.existsSync(path.join(dir, 'dist/src', map.sources[0]!)), `the source map points at ${map.sources[0]}`);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'dist'), { recursive: true, encoding: 'utf8' }).sort(), ['src', 'src/kept.js', 'src/kept.js.map']);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['dist', 'src', 'tsconfig.json'], 'nothing is left beside dist/');
  });

  test('a compile that fails leaves dist/ as it was, and exits non-zero', async () => {
    write(dir, 'src/kept.ts', 'export const version: number = "three";\n');
    write(dir, 'src/added.ts', 'export const added = true;\n');
    const r = await build(dir);
    assert.notEqual(r.code, 0);
    assert.equal(r.missed, 0);
    assert.match(read(dir, 'dist/src/kept.js'), /version = 2/);
    assert.ok(!fs.existsSync(path.join(dir, 'dist/src/added.js')), 'nothing of the failed compile went in');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['dist', 'src', 'tsconfig.json']);
  });

  test('a console that does not type-check fails the build, and nothing of it or of the compile goes in', async () => {
    write(dir, 'src/kept.ts', 'export const version: number = 3;\n');
    write(dir, 'console/tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [], lib: ['es2022'] }, include: ['src/**/*.ts'] }));
    write(dir, 'console/src/main.ts', 'export const width: number = "wide";\n');
    const r = await build(dir);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /the console does not type-check/);
    assert.match(read(dir, 'dist/src/kept.js'), /version = 2/, 'the server\'s compile did not go in either');
    assert.ok(!fs.existsSync(path.join(dir, 'dist/console')));
    fs.rmSync(path.join(dir, 'console'), { recursive: true });
  });
});
