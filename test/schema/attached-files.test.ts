// safeFilename and safeContentType (docs/compat.md, Files on records): what is kept of a client's
// filename and content type, and that a long hostile filename is made safe at once.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FILENAME_MAX, safeContentType, safeFilename } from '../../src/schema/attached-files.js';

describe('safeFilename', () => {
  for (const [raw, kept] of [
    ['report.pdf', 'report.pdf'],
    ['C:\\Users\\me\\Q3 report.pdf', 'Q3 report.pdf'],
    ['../../etc/pa\u0007sswd ', 'passwd'],
    ['  .hidden. ', 'hidden'],
    ['\u00a0\u3000name\u2003.txt\u00a0.', 'name\u2003.txt'],
    ['a . b', 'a . b'],
    ['...', 'file'],
    [' \t ', 'file'],
    ['', 'file'],
    [undefined, 'file'],
    ['dir/', 'file'],
    ['x\u2028y', 'xy'],
  ] as const) {
    test(`${JSON.stringify(raw)} is kept as ${JSON.stringify(kept)}`, () => {
      assert.equal(safeFilename(raw), kept);
    });
  }

  test(`keeps at most ${FILENAME_MAX} code points`, () => {
    assert.equal(safeFilename('ש'.repeat(300)), 'ש'.repeat(FILENAME_MAX));
    assert.equal(safeFilename(`${'😀'.repeat(300)}.txt`), '😀'.repeat(FILENAME_MAX));
  });

  // A run of spaces or dots that does not end the name: /[\s.]+$/ was tried again from each of its
  // characters, quadratic (16 KB, a part header's most, held the event loop seconds; these megabytes hours).
  for (const [what, run] of [['spaces', ' '], ['dots', '.'], ['no-break spaces', '\u00a0']] as const) {
    test(`a megabyte of ${what} inside the name is kept, cut to ${FILENAME_MAX}`, () => {
      assert.equal(safeFilename(`a${run.repeat(1_000_000)}b`), `a${run.repeat(FILENAME_MAX - 1)}`);
      assert.equal(safeFilename(`${run.repeat(1_000_000)}b${run.repeat(1_000_000)}`), 'b');
    });
  }
});

describe('safeContentType', () => {
  for (const [raw, kept] of [
    ['application/pdf', 'application/pdf'],
    [' Text/Plain; charset=UTF-8 ', 'text/plain; charset=utf-8'],
    ['not a type', 'application/octet-stream'],
    [undefined, 'application/octet-stream'],
  ] as const) {
    test(`${JSON.stringify(raw)} is kept as ${JSON.stringify(kept)}`, () => {
      assert.equal(safeContentType(raw), kept);
    });
  }
});
