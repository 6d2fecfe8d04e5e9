// Keeps docs/errors.md and the error catalogue equal in both directions.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { errorCatalogue } from '../src/errors.js';

function documentedCodes(): Map<string, { status: number; summary: string }> {
  const text = fs.readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = new Map<string, { status: number; summary: string }>();
  for (const m of text.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| (.+?) \|$/gm)) {
    rows.set(m[1]!, { status: Number(m[2]), summary: m[3]! });
  }
  return rows;
}

test('docs/errors.md lists every catalogue code with its status and summary', () => {
  const documented = documentedCodes();
  for (const [code, entry] of Object.entries(errorCatalogue)) {
    assert.deepEqual(documented.get(code), { status: entry.status, summary: entry.summary }, `code ${code}`);
  }
});

test('docs/errors.md documents no code the catalogue lacks', () => {
  const extra = [...documentedCodes().keys()].filter((code) => !(code in errorCatalogue));
  assert.deepEqual(extra, []);
});

/** docs/operations.md § Exit status and error codes: the codes only the orchard command gives. */
function commandCodes(): string[] {
  const text = fs.readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('### Exit status and error codes'), text.indexOf('\n### ', text.indexOf('### Exit status and error codes') + 1));
  return [...section.matchAll(/^\| `([A-Z_]+)` \| /gm)].map((m) => m[1]!);
}

test('every code the orchard command gives of its own (ControlError, USAGE, ERROR) is in the catalogue or docs/operations.md', () => {
  const given = new Set<string>();
  for (const file of ['cli.ts', 'control-client.ts', 'cli-control.ts']) {
    const text = fs.readFileSync(new URL(`../../src/${file}`, import.meta.url), 'utf8');
    for (const m of text.matchAll(/ControlError\('([A-Z_]+)'|\bcode = '([A-Z_]+)'|: '([A-Z_]+)';/g)) given.add((m[1] ?? m[2] ?? m[3])!);
  }
  for (const code of ['USAGE', 'UNREACHABLE', 'CONTROL_API_OFF', 'ERROR']) assert.ok(given.has(code), `the scan no longer finds ${code}`);
  const documented = commandCodes();
  const missing = [...given].filter((code) => !(code in errorCatalogue) && !documented.includes(code));
  assert.deepEqual(missing, []);
  assert.deepEqual(documented.filter((code) => code in errorCatalogue || !given.has(code)), [], 'a row of its own for a catalogue code, or for a code no command gives');
});
