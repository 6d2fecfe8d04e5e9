// DecimalSum's two paths: a value of at most `places` decimal places is added as a scaled integer,
// every other one through its decimal text. Both must give the exact sum the text alone gives.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DecimalSum } from '../../src/schema/decimal.js';

/** A fixed-seed generator (mulberry32), so a failure names values that can be run again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sumOf = (values: readonly number[], precision: number | null, places?: number): number | null => {
  const s = new DecimalSum();
  for (const v of values) s.add(v, places);
  return s.value(precision);
};

test('the scaled path gives what the decimal text gives, for values of the places, more places, large and mixed', () => {
  const next = random(20261125);
  for (let round = 0; round < 600; round++) {
    const places = Math.floor(next() * 5);
    // One scale a round (a huge value beside small ones would hide their digits in the total).
    const top = 10 ** Math.floor(next() * 17);
    const values: number[] = [];
    for (let i = 0; i < 200; i++) {
      const kind = next();
      const sign = next() < 0.3 ? -1 : 1;
      // Mostly values of `places` decimals (what a field stores), some with more, some past 2^50 units.
      const v = kind < 0.75 ? sign * Math.round(next() * top) / 10 ** places
        : kind < 0.9 ? sign * next() * top
          : sign * (2 ** 50 + Math.floor(next() * 2 ** 20)) / 10 ** places;
      values.push(v);
    }
    for (const precision of [null, places]) {
      assert.equal(sumOf(values, precision, places), sumOf(values, precision), `places ${places}, precision ${precision}: ${JSON.stringify(values)}`);
    }
  }
});

test('a total past the safe integers moves to the exact sum and goes on', () => {
  const values = Array.from({ length: 10 }, () => 2 ** 50 / 100);
  assert.equal(sumOf(values, 2, 2), sumOf(values, 2));
  assert.equal(sumOf(values, 2, 2), 10 * (2 ** 50 / 100));
  // 1e15 + 0.06 × 3 is 1000000000000000.18 exactly; doubles added in order lose the 0.06s.
  assert.equal(sumOf([1e15, 0.06, 0.06, 0.06], 2, 2), Number('1000000000000000.18'));
  assert.equal(sumOf([0.1, 0.2], null, 1), 0.3);
  assert.equal(sumOf([-0.125, 0], 2, 3), -0.13);
  assert.equal(sumOf([], 2, 2), null);
});
