// Table tests of the one place that knows what a valid value of each field type is:
// normalizeValue (writes and filters) and parseDateTime / formatDateTime / isUuid.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeField, type FieldSpec } from '../../src/schema/build-object.js';
import type { FieldDef, FieldValue } from '../../src/schema/types.js';
import { formatDateTime, isEmailAddress, isUuid, normalizeValue, parseDateTime, quoteOutOfRangeNumbers } from '../../src/schema/values.js';

type Valid = readonly [input: unknown, expected: FieldValue];
type Invalid = readonly [input: unknown, code: string, message: RegExp];

function field(spec: Partial<FieldSpec> & Pick<FieldSpec, 'type'>): FieldDef {
  return makeField({ name: 'f', label: 'F', ...spec });
}

/** Runs the valid and invalid rows of one field as one test each, named after the input. */
function table(title: string, f: FieldDef, valid: readonly Valid[], invalid: readonly Invalid[]): void {
  describe(title, () => {
    for (const [input, expected] of valid) {
      test(`accepts ${show(input)} as ${show(expected)}`, () => {
        const got = normalizeValue(f, input);
        assert.ok(Object.is(got, expected), `got ${show(got)}, want ${show(expected)}`);
      });
    }
    for (const [input, code, message] of invalid) {
      test(`refuses ${show(input)} with ${code}`, () => {
        assert.throws(() => normalizeValue(f, input), { name: 'AppError', code, message });
      });
    }
  });
}

function show(v: unknown): string {
  if (typeof v === 'string') {
    const s = v.length > 24 ? `${v.slice(0, 12)}…(${[...v].length} chars)` : v;
    return JSON.stringify(s);
  }
  if (typeof v === 'number' && Object.is(v, -0)) return '-0';
  return v === undefined ? 'undefined' : typeof v === 'number' ? String(v) : JSON.stringify(v);
}

const EMOJI = '\u{1F600}'; // one character, two UTF-16 code units

describe('normalizeValue', () => {
  table('text (maxlength 200 by default)', field({ type: 'text' }), [
    ['Acme', 'Acme'],
    ['  spaced  ', '  spaced  '],
    [42, '42'],
    ['', null],
    [null, null],
    [undefined, null],
    [`caf\u00e9 ${EMOJI}`, `caf\u00e9 ${EMOJI}`],
    ['a'.repeat(200), 'a'.repeat(200)],
    // maxlength counts characters, not UTF-16 units: 200 emoji are 400 units but 200 characters.
    [EMOJI.repeat(200), EMOJI.repeat(200)],
  ], [
    ['a'.repeat(201), 'FIELD_TOO_LONG', /^'f' is 201 characters long; its maxlength is 200\. Shorten the value\.$/],
    [EMOJI.repeat(201), 'FIELD_TOO_LONG', /^'f' is 201 characters long; its maxlength is 200\./],
    [true, 'FIELD_TYPE', /^'f' must be a valid Text; got true\. Send a JSON string\.$/],
    [{ a: 1 }, 'FIELD_TYPE', /^'f' must be a valid Text; got \{"a":1\}\./],
    [['x'], 'FIELD_TYPE', /^'f' must be a valid Text/],
    // PostgreSQL text cannot hold NUL, so no store accepts it.
    ['a\u0000b', 'FIELD_TYPE', /^'f' must be a valid Text; it contains a NUL character \(\\u0000\)/],
    ['\u0000', 'FIELD_TYPE', /NUL character/],
  ]);

  table('text with its own maxlength', field({ type: 'text', maxLength: 3 }), [
    ['abc', 'abc'],
    [`${EMOJI}${EMOJI}${EMOJI}`, `${EMOJI}${EMOJI}${EMOJI}`],
  ], [
    ['abcd', 'FIELD_TOO_LONG', /is 4 characters long; its maxlength is 3/],
    [`${EMOJI}${EMOJI}${EMOJI}${EMOJI}`, 'FIELD_TOO_LONG', /is 4 characters long; its maxlength is 3/],
  ]);

  table('text without a maxlength', field({ type: 'text', maxLength: null }), [
    ['a'.repeat(5000), 'a'.repeat(5000)],
  ], []);

  table('email (maxlength 100)', field({ type: 'email' }), [
    ['ada@example.com', 'ada@example.com'],
    ['Ada.Lopez+crm@Mail.Example.org', 'Ada.Lopez+crm@Mail.Example.org'],
    ['', null],
  ], [
    ['nope', 'FIELD_TYPE', /^'f' must be a valid Email; got 'nope'\. Send an address such as name@example\.com\.$/],
    ['a b@example.com', 'FIELD_TYPE', /valid Email/],
    ['ada@example', 'FIELD_TYPE', /valid Email/],
    [`${'a'.repeat(95)}@b.com`, 'FIELD_TOO_LONG', /is 101 characters long; its maxlength is 100/],
  ]);

  table('telephone (maxlength 50)', field({ type: 'telephone' }), [
    ['+1 (555) 010-0199', '+1 (555) 010-0199'],
    [5550100, '5550100'],
  ], [
    ['1'.repeat(51), 'FIELD_TOO_LONG', /maxlength is 50/],
  ]);

  table('url (maxlength 2000)', field({ type: 'url' }), [
    ['https://example.com/a?b=c', 'https://example.com/a?b=c'],
  ], [
    [`https://e.com/${'a'.repeat(1990)}`, 'FIELD_TOO_LONG', /maxlength is 2000/],
  ]);

  table('textarea (maxlength 10000)', field({ type: 'textarea' }), [
    ['line 1\nline 2\ttab', 'line 1\nline 2\ttab'],
    ['x'.repeat(10000), 'x'.repeat(10000)],
  ], [
    ['x'.repeat(10001), 'FIELD_TOO_LONG', /maxlength is 10000/],
  ]);

  table('html', field({ type: 'html' }), [
    ['<p>Hello <b>world</b></p>', '<p>Hello <b>world</b></p>'],
  ], [
    [false, 'FIELD_TYPE', /^'f' must be a valid Text/],
  ]);

  table('number without precision', field({ type: 'number' }), [
    [42, 42],
    [-3.25, -3.25],
    [1.23456789, 1.23456789],
    [0, 0],
    ['42', 42],
    [' 3.5 ', 3.5],
    ['-.5', -0.5],
    ['+7', 7],
    ['1e3', 1000],
    ['2.5E-1', 0.25],
    ['0e-999', 0],
    ['5e-324', 5e-324],
    ['12.', 12],
    ['1.e3', 1000],
    ['', null],
    [null, null],
  ], [
    ['x', 'FIELD_TYPE', /^'f' must be a valid Number; got 'x'\. Send a JSON number such as 42 or 3\.5\.$/],
    ['0x10', 'FIELD_TYPE', /'f' must be a valid Number; got '0x10'/],
    ['1,5', 'FIELD_TYPE', /'f' must be a valid Number/],
    ['12abc', 'FIELD_TYPE', /'f' must be a valid Number/],
    ['1e400', 'FIELD_TYPE', /'f' must be a valid Number; got '1e400'\. A Number holds 0 and magnitudes from 5e-324/],
    ['-1e-400', 'FIELD_TYPE', /'f' must be a valid Number; got '-1e-400'\. A Number holds/],
    ['0.' + '0'.repeat(400) + '1', 'FIELD_TYPE', /'f' must be a valid Number/],
    [Number.POSITIVE_INFINITY, 'FIELD_TYPE', /'f' must be a valid Number/],
    [Number.NaN, 'FIELD_TYPE', /'f' must be a valid Number/],
    [true, 'FIELD_TYPE', /'f' must be a valid Number; got true/],
    [[1], 'FIELD_TYPE', /'f' must be a valid Number; got \[1\]/],
    [{}, 'FIELD_TYPE', /'f' must be a valid Number/],
  ]);

  // Rounded on the decimal value, halves away from zero: 1.005 is 1.00499999… as a double.
  table('number with precision 2', field({ type: 'number', precision: 2 }), [
    [1.005, 1.01],
    [2.675, 2.68],
    [1.004, 1],
    [-0.125, -0.13],
    [-2.675, -2.68],
    [0.1 + 0.2, 0.3],
    [123456789.125, 123456789.13],
    ['19.999', 20],
    [1e-7, 0],
    [-0.001, 0], // never -0
    [1e300, 1e300], // beyond 2^52 there is nothing to round, and it must not overflow to Infinity
    [-1e300, -1e300],
    [Number.MAX_VALUE, Number.MAX_VALUE],
    // Between 2^46 and 2^52 a double has fewer than two decimals: what it says is kept, not moved
    // to another number (123456789012345.67 was stored as 123456789012345.69, the shifted value
    // 12345678901234567 being past 2^53); 1000000000000000.13 reads as 1000000000000000.125.
    [123456789012345.67, 123456789012345.67],
    [-123456789012345.67, -123456789012345.67],
    [1000000000000000.13, 1000000000000000.125],
    [70368744177664.015, 70368744177664.02],
  ], []);

  table('number with precision 0 (whole numbers)', field({ type: 'number', precision: 0 }), [
    [2.5, 3],
    [-2.5, -3],
    [2.4999, 2],
    ['7.5', 8],
    [0.4, 0],
    [-0.4, 0],
  ], []);

  table('picklist (codes 1 Low, 2 Normal, 3 High)', field({
    type: 'picklist', options: [{ value: 1, label: 'Low' }, { value: 2, label: 'Normal' }, { value: 3, label: 'High' }],
  }), [
    [1, 1],
    [3, 3],
    ['2', 2],
    [2.0, 2],
    ['', null],
    [null, null],
  ], [
    [4, 'FIELD_TYPE', /^'f' must be a valid Picklist code; got 4\. Send one of the codes 1 \(Low\), 2 \(Normal\), 3 \(High\)\.$/],
    [0, 'FIELD_TYPE', /valid Picklist code; got 0/],
    [1.5, 'FIELD_TYPE', /valid Picklist code; got 1\.5/],
    ['High', 'FIELD_TYPE', /valid Picklist code; got 'High'/],
    [true, 'FIELD_TYPE', /valid Picklist code; got true/],
  ]);

  table('lookup', field({ type: 'lookup', target: 1 }), [
    ['3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f', '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f'],
    ['3F2B8C1E-5D4A-4B6F-9E2D-7A1C0B9D8E6F', '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f'],
    ['', null],
  ], [
    ['abc', 'FIELD_TYPE', /^'f' must be a valid Lookup id \(a UUID\); got 'abc'\. Send the id of the related record\.$/],
    ['00000000-0000-0000-0000-000000000000', 'FIELD_TYPE', /valid Lookup id/],
    ['3f2b8c1e-5d4a-4b6f-ce2d-7a1c0b9d8e6f', 'FIELD_TYPE', /valid Lookup id/], // variant c
    ['{3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f}', 'FIELD_TYPE', /valid Lookup id/],
    [42, 'FIELD_TYPE', /valid Lookup id \(a UUID\); got 42/],
  ]);

  table('date', field({ type: 'date' }), [
    ['2025-01-31', '2025-01-31'],
    ['2024-02-29', '2024-02-29'], // leap year
    ['2000-02-29', '2000-02-29'], // divisible by 400
    ['0004-02-29', '0004-02-29'],
    ['0000-02-29', '0000-02-29'], // year 0 is a leap year (Date.UTC would read it as 1900)
    ['2025-01-31T14:05:00', '2025-01-31'],
    ['2025-01-31T23:00:00-05:00', '2025-02-01'], // a datetime keeps its date in UTC
    ['', null],
  ], [
    ['2023-02-29', 'FIELD_TYPE', /^'f' must be a valid Date; got '2023-02-29'\. Send a date as YYYY-MM-DD\.$/],
    ['1900-02-29', 'FIELD_TYPE', /valid Date/], // divisible by 100, not by 400
    ['2025-04-31', 'FIELD_TYPE', /valid Date/],
    ['2025-13-01', 'FIELD_TYPE', /valid Date/],
    ['2025-00-10', 'FIELD_TYPE', /valid Date/],
    ['2025-01-00', 'FIELD_TYPE', /valid Date/],
    ['25-01-31', 'FIELD_TYPE', /valid Date/],
    ['2025/01/31', 'FIELD_TYPE', /valid Date/],
    ['31.01.2025', 'FIELD_TYPE', /valid Date/],
    [20250131, 'FIELD_TYPE', /valid Date; got 20250131/],
  ]);

  table('datetime', field({ type: 'datetime' }), [
    ['2025-01-31T14:05:09', '2025-01-31T14:05:09'],
    ['2025-01-31T14:05', '2025-01-31T14:05:00'],
    ['2025-01-31 14:05:09', '2025-01-31T14:05:09'],
    ['2025-01-31t14:05:09z', '2025-01-31T14:05:09'],
    ['2025-01-31T14:05:09Z', '2025-01-31T14:05:09'],
    ['2025-01-31T14:05:09.999Z', '2025-01-31T14:05:09'],
    ['2025-01-31', '2025-01-31T00:00:00'], // date only → midnight UTC
    ['2025-01-31T14:05:00+02:00', '2025-01-31T12:05:00'],
    ['2025-01-31T14:05:00-0530', '2025-01-31T19:35:00'],
    ['2025-01-01T01:30:00+02:00', '2024-12-31T23:30:00'], // across a year boundary
    ['2024-02-28T23:00:00-02:00', '2024-02-29T01:00:00'], // into a leap day
    ['2023-02-28T23:00:00-02:00', '2023-03-01T01:00:00'],
    ['2024-02-29T12:00:00', '2024-02-29T12:00:00'],
    ['2025-01-31T14:05:00+14:00', '2025-01-31T00:05:00'],
    ['0050-01-01T00:30:00+01:00', '0049-12-31T23:30:00'], // years below 100 stay themselves
    ['', null],
  ], [
    ['yesterday', 'FIELD_TYPE', /^'f' must be a valid DateTime; got 'yesterday'\. Send an ISO 8601 datetime such as 2025-01-31T14:05:00 \(no zone means UTC\)\.$/],
    ['2023-02-29T10:00:00', 'FIELD_TYPE', /valid DateTime/],
    ['2025-01-31T24:00:00', 'FIELD_TYPE', /valid DateTime/],
    ['2025-01-31T10:60:00', 'FIELD_TYPE', /valid DateTime/],
    ['2025-01-31T10:00:60', 'FIELD_TYPE', /valid DateTime/],
    ['2025-01-31T10:00:00+24:00', 'FIELD_TYPE', /valid DateTime/],
    ['2025-01-31T10:00:00+05:60', 'FIELD_TYPE', /valid DateTime/],
    ['2025-01-31T10:00:00+99:99', 'FIELD_TYPE', /valid DateTime/],
    ['2025-01-31T10:00:00 UTC', 'FIELD_TYPE', /valid DateTime/],
    ['0000-01-01T00:30:00+01:00', 'FIELD_TYPE', /valid DateTime/], // would be year -1
    ['9999-12-31T23:30:00-01:00', 'FIELD_TYPE', /valid DateTime/], // would be year 10000
    [1738332300000, 'FIELD_TYPE', /valid DateTime; got 1738332300000/],
    [{}, 'FIELD_TYPE', /valid DateTime/],
  ]);
});

describe('parseDateTime', () => {
  const cases: ReadonlyArray<[string, string | undefined]> = [
    ['2024-02-29', '2024-02-29T00:00:00'],
    ['2023-02-29', undefined],
    ['2100-02-29', undefined],
    ['2400-02-29', '2400-02-29T00:00:00'],
    ['2025-12-31T23:59:59', '2025-12-31T23:59:59'],
    ['2025-12-31T23:59:59+00:00', '2025-12-31T23:59:59'],
    ['2025-12-31T23:59:59-00:01', '2026-01-01T00:00:59'],
    ['2025-06-15T10:00:00+0100', '2025-06-15T09:00:00'],
    ['2025-06-15', '2025-06-15T00:00:00'],
    [' 2025-06-15', undefined],
    ['2025-06-15T10', undefined],
    ['', undefined],
  ];
  for (const [input, expected] of cases) {
    test(`reads ${JSON.stringify(input)} as ${expected ?? 'not a datetime'}`, () => {
      assert.equal(parseDateTime(input), expected);
    });
  }
});

describe('formatDateTime', () => {
  test('writes a UTC instant as YYYY-MM-DDThh:mm:ss without zone or fraction', () => {
    assert.equal(formatDateTime(new Date(Date.UTC(2026, 2, 1, 12, 0, 5, 999))), '2026-03-01T12:00:05');
    assert.equal(formatDateTime(new Date('0049-12-31T23:30:00Z')), '0049-12-31T23:30:00');
  });
});

describe('isUuid', () => {
  const cases: ReadonlyArray<[string, boolean]> = [
    ['3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f', true],
    ['3F2B8C1E-5D4A-4B6F-9E2D-7A1C0B9D8E6F', true],
    ['3f2b8c1e-5d4a-1b6f-8e2d-7a1c0b9d8e6f', true], // version 1, variant 8
    ['3f2b8c1e-5d4a-8b6f-be2d-7a1c0b9d8e6f', true], // version 8, variant b
    ['00000000-0000-0000-0000-000000000000', false], // version 0
    ['3f2b8c1e-5d4a-9b6f-9e2d-7a1c0b9d8e6f', false], // version 9
    ['3f2b8c1e-5d4a-4b6f-7e2d-7a1c0b9d8e6f', false], // variant 7
    ['3f2b8c1e5d4a4b6f9e2d7a1c0b9d8e6f', false],
    ['3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f0', false],
    ['3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6g', false],
    ['', false],
  ];
  for (const [input, expected] of cases) {
    test(`${expected ? 'accepts' : 'refuses'} ${JSON.stringify(input)}`, () => {
      assert.equal(isUuid(input), expected);
    });
  }
});

describe('quoteOutOfRangeNumbers', () => {
  test('quotes an underflow whose exponent has two digits (250 decimal places and e-80 is 1e-331)', () => {
    const tiny = `0.${'0'.repeat(250)}1e-80`;
    assert.equal(JSON.parse(tiny), 0, 'JSON.parse makes it 0');
    assert.equal(quoteOutOfRangeNumbers(`{"price": ${tiny}}`), `{"price": "${tiny}"}`);
    // In range however long: kept as the number it is.
    assert.equal(quoteOutOfRangeNumbers(`{"price": 1${'0'.repeat(250)}, "cost": 0.${'0'.repeat(250)}1e-20}`), null);
  });

  test('quotes only numbers, not what strings hold, escaped quotes and backslashes included', () => {
    // A string holding escaped quotes and ending in an escaped backslash, a key and a string like numbers.
    const text = JSON.stringify({ a: 'say "1e-400" \\', '1e400': ['\\\\', 0] });
    const body = text.replace(/0\]/, '-1E+400, 5e-324, 1e-400]');
    assert.equal(quoteOutOfRangeNumbers(body), text.replace(/0\]/, '"-1E+400", 5e-324, "1e-400"]'));
    assert.deepEqual(JSON.parse(quoteOutOfRangeNumbers(body)!), { a: 'say "1e-400" \\', '1e400': ['\\\\', '-1E+400', 5e-324, '1e-400'] });
    assert.equal(quoteOutOfRangeNumbers('{"a": "1e-400", "b": [1e300, -0, 0e-999]}'), null);
  });

  test('reads a body of 20 MB (the body limit) holding one long string', () => {
    // A regular expression matching the string overflowed the stack here (RangeError, a 500).
    const body = JSON.stringify({ description: 'x'.repeat(20 * 1024 * 1024 - 40), price: 1 }).replace('"price":1', '"price":1e-400');
    const quoted = quoteOutOfRangeNumbers(body);
    assert.equal((JSON.parse(quoted!) as { price: unknown }).price, '1e-400');
  });
});

describe('number text of a megabyte', () => {
  // Digits and one letter: the pattern's two runs of digits (\d+\.?\d*) split them every way,
  // quadratic (100,000 digits took 13 s; these about 20 minutes, the event loop held); now refused at once.
  const f = field({ type: 'number' });
  for (const [what, text] of [['digits', `${'1'.repeat(1_000_000)}x`], ['exponent digits', `1e${'1'.repeat(1_000_000)}x`], ['decimals', `1.${'1'.repeat(1_000_000)}x`]] as const) {
    test(`refuses ${what} and a letter`, () => {
      assert.throws(() => normalizeValue(f, text), { name: 'AppError', code: 'FIELD_TYPE', message: /'f' must be a valid Number/ });
    });
  }
  test('takes a megabyte of digits as the number they are', () => {
    assert.equal(normalizeValue(f, `0.${'0'.repeat(1_000_000)}`), 0);
  });
});

describe('isEmailAddress', () => {
  // The pattern it replaced, which tried each dot of the domain against the rest: quadratic on a
  // failing address (40,000 characters held the event loop 9 s; a megabyte hours).
  const PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

  test('agrees with the pattern on every text of up to 6 of a, ., @ and a blank', () => {
    const alphabet = ['a', '.', '@', ' '];
    let texts = [''];
    for (let length = 1; length <= 6; length++) {
      texts = texts.flatMap((t) => alphabet.map((c) => t + c));
      for (const t of texts) assert.equal(isEmailAddress(t), PATTERN.test(t), JSON.stringify(t));
    }
  });

  for (const [what, text, valid] of [
    ['a domain of a megabyte of labels and a second @', `a@${'a.'.repeat(500_000)}@`, false],
    ['a domain of a megabyte of labels and a blank', `a@${'a.'.repeat(500_000)} `, false],
    ['a megabyte of dots and a second @', `a@${'.'.repeat(1_000_000)}@`, false],
    ['a domain of a megabyte of labels', `a@${'a.'.repeat(500_000)}a`, true],
  ] as const) {
    test(`takes ${what} at once`, () => {
      assert.equal(isEmailAddress(text), valid);
    });
  }
});
