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
