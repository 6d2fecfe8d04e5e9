// The PostgreSQL store's case fold (postgres-sql.ts foldSql) is the SQLite store's, JavaScript's
// toLowerCase: on the letters where fold choices differ, in context (Greek final sigma), and on
// every code point the server's ICU knows.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createPool, type Pool } from '../../src/store/postgres/pg-db.js';
import { foldSql } from '../../src/store/postgres/postgres-sql.js';
import { DATABASE_URL, needsPostgres } from '../services.js';

describe('PostgreSQL case fold', { skip: needsPostgres }, () => {
  let pool: Pool;
  const fold = async (s: string): Promise<string> => (await pool.query(`SELECT ${foldSql('$1::text')} AS f`, [s])).rows[0].f;

  before(() => {
    pool = createPool(DATABASE_URL!);
  });
  after(async () => pool.end());

  test('folds the letters where lower() under libc and JavaScript part ways as toLowerCase does', async () => {
    for (const s of ['É', 'Ö', 'İ', 'ß', 'ẞ', 'ǅ', 'Ǆ', 'K', 'Å', 'I', 'ı', 'Ꭰ', '𐐀', 'Ⓐ', 'ΐ', 'CAFÉ', 'İSTANBUL', 'STRASSE']) {
      assert.equal(await fold(s), s.toLowerCase(), s);
    }
    assert.equal(await fold('İ'), 'i\u0307', 'a dotted capital I keeps its dot as a combining mark');
  });

  test('folds a capital sigma to the final form at the end of a word only, as toLowerCase does', async () => {
    for (const s of ['ΟΔΟΣ', 'ΟΔΟΣ ΟΔΟΣ', 'Σ', 'ΑΣ.', 'Α.Σ', 'ΑΣΑ', 'ΑΣ\u0301', 'ΑΣ\u0301Β', 'Σ\u0301Α', 'ΑΣ\'', 'ΑΣ\'Α']) {
      assert.equal(await fold(s), s.toLowerCase(), s);
    }
    assert.equal(await fold('ΟΔΟΣ'), 'οδος');
  });

  test('folds random text of case-sensitive letters and marks as toLowerCase does', async () => {
    const unit = fc.constantFrom('Σ', 'σ', 'ς', 'Α', 'α', 'I', 'i', 'İ', 'ı', '\u0307', '\u0301', '\u00ad', "'", ' ', '.', 'ß', 'ẞ', 'Ǆ', 'ǅ', 'A', 'É', '𐐀', '1');
    await fc.assert(fc.asyncProperty(fc.string({ unit, maxLength: 12 }), async (s) => {
      assert.equal(await fold(s), s.toLowerCase(), JSON.stringify(s));
    }), { numRuns: 300 });
  });

  test('folds every code point as toLowerCase does, but for letters newer than the server\'s ICU', async () => {
    // Space separates the code points: it is neither cased nor case-ignorable, so no context rule
    // reaches across it. Surrogates are not text, NUL cannot be stored.
    const points: string[] = [];
    for (let cp = 1; cp <= 0x10ffff; cp++) if (cp !== 0x20 && (cp < 0xd800 || cp > 0xdfff)) points.push(String.fromCodePoint(cp));
    const folded = (await fold(points.join(' '))).split(' ');
    assert.equal(folded.length, points.length);
    const differing = points.filter((p, i) => folded[i] !== p.toLowerCase());
    // Node may know a newer Unicode than the server's ICU: a letter assigned since has no case
    // mapping there yet. Every difference must be such a letter, unassigned (not printable) there.
    const { rows } = await pool.query<{ known: boolean }>(
      `SELECT (p COLLATE "und-x-icu") ~ '[[:print:]]' AS known FROM unnest($1::text[]) AS p`, [differing]);
    const knownThere = differing.filter((_, i) => rows[i]!.known).map((p) => `U+${p.codePointAt(0)!.toString(16).toUpperCase()}`);
    assert.deepEqual(knownThere, [], 'code points the server knows but folds differently');
    assert.ok(differing.length < 200, `${differing.length} code points fold differently`);
  });
});
