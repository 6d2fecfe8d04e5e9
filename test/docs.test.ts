// The repository cites only documents that ship with it: no reference to the design notes, the
// spec or the compatibility facts kept outside it, and every relative link of the Markdown files,
// and every docs/…md or README named in a source comment, names a file that exists.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.git', 'data', '.bench-data', '.scratch']);

function files(dir = ROOT, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) files(abs, out);
    else if (/\.(md|ts|js|json)$/.test(entry.name) && entry.name !== 'package-lock.json') out.push(abs);
  }
  return out;
}

const rel = (abs: string) => path.relative(ROOT, abs);
/** What this file itself must name to look for it. */
const UNSHIPPED = new RegExp(['DESIGN\\.md', 'COMPAT\\.md', '\\bspec §', '\\bDESIGN §', '\\bCOMPAT\\b', '\\.\\./shared/'].join('|'));

test('no file cites a document that does not ship with the repository', () => {
  const self = fileURLToPath(import.meta.url).replace(/\/dist\/test\/docs\.test\.js$/, '/test/docs.test.ts');
  const found = files().filter((f) => f !== self).flatMap((f) => fs.readFileSync(f, 'utf8').split('\n')
    .map((line, i) => (UNSHIPPED.test(line) ? `${rel(f)}:${i + 1}: ${line.trim().slice(0, 100)}` : null))
    .filter((x): x is string => x !== null));
  assert.deepEqual(found, []);
});

test('every relative link of the Markdown files and every document a source comment names exists', () => {
  const missing: string[] = [];
  for (const f of files()) {
    const text = fs.readFileSync(f, 'utf8');
    const targets = f.endsWith('.md')
      ? [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t)).map((t) => path.resolve(path.dirname(f), t))
      : [...text.matchAll(/\b((?:docs\/[\w./-]+|bench\/README)\.md|README\.md)\b/g)].map((m) => path.resolve(ROOT, m[1]!));
    for (const t of targets) if (!fs.existsSync(t)) missing.push(`${rel(f)} → ${rel(t)}`);
  }
  assert.deepEqual(missing, []);
});
