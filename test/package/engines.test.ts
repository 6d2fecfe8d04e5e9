// package.json's `engines` is true to what is installed: no package under node_modules, production
// or dev, asks for a Node newer than the oldest the project says it runs on (npm only warns).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Manifest { name?: string; version?: string; engines?: { node?: string } }

const readManifest = (dir: string): Manifest | undefined => {
  const file = path.join(dir, 'package.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest) : undefined;
};

/** Every package directory under a node_modules folder, scoped and nested ones included. */
function installedPackages(nodeModules: string): string[] {
  if (!fs.existsSync(nodeModules)) return [];
  const dirs: string[] = [];
  for (const entry of fs.readdirSync(nodeModules, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
    const full = path.join(nodeModules, entry.name);
    const packages = entry.name.startsWith('@') ? fs.readdirSync(full).map((name) => path.join(full, name)) : [full];
    for (const dir of packages) dirs.push(dir, ...installedPackages(path.join(dir, 'node_modules')));
  }
  return dirs;
}

test('no installed package declares engines.node that excludes the minimum Node of package.json', () => {
  const range = readManifest(ROOT)?.engines?.node;
  assert.ok(range, 'package.json declares engines.node');
  const minimum = semver.minVersion(range)!.version;
  const dirs = installedPackages(path.join(ROOT, 'node_modules'));
  // A walk that found nothing would pass whatever is installed.
  assert.ok(dirs.length > 100, `found ${dirs.length} packages under node_modules`);
  const excluding = dirs.flatMap((dir) => {
    const m = readManifest(dir);
    const needs = m?.engines?.node;
    return needs && !semver.satisfies(minimum, needs) ? [`${m.name}@${m.version} (${path.relative(ROOT, dir)}) needs node ${needs}`] : [];
  });
  assert.deepEqual(excluding, [], `Node ${minimum} (engines ${range}) is excluded by`);
});
