// Keeps README.md § Configuration and the settings read from the environment equal in both
// directions, with each documented default being what the server uses when the variable is unset.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir = path.join(ROOT, 'src'), out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(abs, out);
    else if (entry.name.endsWith('.ts')) out.push(abs);
  }
  return out;
}

/** Every variable the source reads: env.NAME, onOff(env, 'NAME'…), and the ['NAME', min, max] bounds of a whole number. */
function variablesRead(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources()) {
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)|\(env, '([A-Z][A-Z0-9_]+)'|\['([A-Z][A-Z0-9_]+)', \d/g)) {
      found.set((m[1] ?? m[2] ?? m[3])!, path.relative(ROOT, file));
    }
  }
  return found;
}

/** A settings table's rows (README.md § Configuration by default): variable → default as written. */
function documented(file = 'README.md', heading = '## Configuration'): Map<string, string> {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `${file} has no ${heading}`);
  const section = text.slice(start, text.indexOf('\n## ', start + 1) >>> 0);
  return new Map([...section.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| (.+?) \|/gm)].map((m) => [m[1]!, m[2]!]));
}

/** Read by the control commands only (docs/control-api.md), not a setting of the server. */
const CLIENT_ONLY = new Set(['ORCHARD_URL']);

test('README.md § Configuration lists every variable the source reads, and no other', () => {
  const read = variablesRead();
  const rows = documented();
  assert.ok(read.size > 30, `found only ${read.size} variables: has the way settings are read changed?`);
  const missing = [...read.keys()].filter((name) => !rows.has(name) && !CLIENT_ONLY.has(name)).map((name) => `${name} (${read.get(name)})`);
  assert.deepEqual(missing, []);
  assert.deepEqual([...rows.keys()].filter((name) => !read.has(name)), []);
  const controlApi = fs.readFileSync(path.join(ROOT, 'docs/control-api.md'), 'utf8');
  for (const name of CLIENT_ONLY) assert.ok(read.has(name) && controlApi.includes(`\`${name}\``), name);
});

test('the settings tables of docs/limits.md and docs/webhooks.md give the defaults README.md gives', () => {
  const readme = documented();
  const webhooks = documented('docs/webhooks.md', '## Settings');
  assert.deepEqual([...webhooks.keys()], [...readme.keys()].filter((name) => name.startsWith('WEBHOOK_')));
  const limits = documented('docs/limits.md', '## Configuration');
  assert.ok(limits.size >= 6, 'docs/limits.md § Configuration');
  for (const [name, written] of [...webhooks, ...limits]) assert.equal(written, readme.get(name), name);
});

test('each default README.md gives is what the server uses with the variable unset', () => {
  const unset = loadConfig({});
  const checked: string[] = [];
  for (const [name, written] of documented()) {
    // A literal default (`8080`, `on`, `Orchard <orchard@localhost>`); '—' and prose are not values.
    const literal = /^`([^`]+)`$/.exec(written)?.[1];
    if (literal === undefined) continue;
    assert.deepEqual(loadConfig({ [name]: literal }), unset, `${name}: the documented default ${literal}`);
    checked.push(name);
  }
  // The one default that depends on the store.
  const gather = documented().get('WEBHOOK_GATHER_MS');
  assert.equal(gather, '`50` on PostgreSQL, `10` on SQLite');
  assert.equal(unset.webhooks.gatherMs, 10);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://db.internal/orchard' }).webhooks.gatherMs, 50);
  assert.ok(checked.length > 25, `checked only ${checked.join(', ')}`);
});
