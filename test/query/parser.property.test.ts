// Property tests of the filter language: print → parse round trips (canonical, and bare values with
// escapes as query builders write them), no stray exceptions on any input, and hostile sizes
// rejected quickly with QUERY_TOO_COMPLEX instead of a stack overflow.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isAppError } from '../../src/errors.js';
import { FILTER_OPS, isNullOp } from '../../src/query/ast.js';
import type { Condition, FilterNode, FilterOp, ValueStyle } from '../../src/query/ast.js';
import { FILTER_LIMITS, parseFilter } from '../../src/query/parser.js';
import { normalizeFilter, printFilter, type PrintStyle } from '../../src/query/printer.js';

const PIECES = [
  "'", "''", '"', ';', '--', '\0', '😀', ' ', '(', ')', 'and', 'OR', '=', '<>', 'is-null', '\t', '\n', 'é',
  '\\', '\\(', '\\and', ' and ', ' Or ', 'x y', ' b = ', 'c>=', '&&', ' || ', 'end-with',
];

const fieldArb = fc.stringMatching(/^[A-Za-z0-9_]{1,12}$/).filter((s) => !/^(and|or)$/i.test(s));
const opArb = fc.constantFrom<FilterOp>(...FILTER_OPS);
const textArb = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 }), fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 6 })
  .map((parts) => parts.join(''));
const styleArb = fc.constantFrom<ValueStyle>('single', 'double', 'bare');

const conditionArb: fc.Arbitrary<FilterNode> = fc
  .record({ field: fieldArb, op: opArb, text: textArb, style: styleArb })
  .map(({ field, op, text, style }): Condition => ({
    kind: 'condition',
    field,
    op,
    value: isNullOp(op) ? null : { text, style },
    pos: { field: 0, op: 0 },
  }));

// Children may be lone or of the parent's kind on purpose: normalizeFilter must absorb both.
const { tree: treeArb } = fc.letrec<{ tree: FilterNode; group: FilterNode }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, conditionArb, tie('group')),
  group: fc.record({
    kind: fc.constantFrom<'and' | 'or'>('and', 'or'),
    children: fc.array(tie('tree'), { minLength: 1, maxLength: 4 }),
  }),
}));

const STYLES: PrintStyle[] = ['canonical', 'builder'];

/** The tree without positions. */
function shape(node: FilterNode): unknown {
  if (node.kind === 'condition') return { field: node.field, op: node.op, value: node.value };
  return { kind: node.kind, children: node.children.map(shape) };
}

/** Runs the parser, insisting that any failure is one of the two documented AppErrors. */
function parseOrReject(text: string): FilterNode | null {
  try {
    return parseFilter(text);
  } catch (err) {
    if (!isAppError(err) || (err.code !== 'QUERY_SYNTAX' && err.code !== 'QUERY_TOO_COMPLEX')) {
      assert.fail(`unexpected exception for ${JSON.stringify(text)}: ${String(err)}`);
    }
    assert.match(err.message, /position \d+|too complex/i);
    return null;
  }
}

function conditions(node: FilterNode): Condition[] {
  return node.kind === 'condition' ? [node] : node.children.flatMap(conditions);
}

/** Every recorded position must point at the text it claims to come from. */
function assertPositions(text: string, node: FilterNode): void {
  for (const c of conditions(node)) {
    assert.equal(text.slice(c.pos.field, c.pos.field + c.field.length).toLowerCase(), c.field);
    assert.equal(text.slice(c.pos.op, c.pos.op + c.op.length).toLowerCase(), c.op);
    // A bare value's escapes are gone from its text: compare both without backslashes.
    const unescaped = (t: string) => t.replaceAll('\\', '');
    if (c.value?.style === 'bare') assert.ok(unescaped(text.slice(c.pos.value)).startsWith(unescaped(c.value.text)));
    if (c.value?.style === 'single') assert.equal(text[c.pos.value!], "'");
    if (c.value?.style === 'double') assert.equal(text[c.pos.value!], '"');
  }
}

const mutationArb = fc.array(
  fc.record({ kind: fc.constantFrom('insert', 'delete', 'replace'), at: fc.nat(), piece: fc.constantFrom(...PIECES, 'x', '1', '!') }),
  { minLength: 1, maxLength: 4 },
);

function mutate(text: string, mutations: Array<{ kind: string; at: number; piece: string }>): string {
  let out = text;
  for (const { kind, at, piece } of mutations) {
    const i = out.length === 0 ? 0 : at % (out.length + 1);
    if (kind === 'insert') out = out.slice(0, i) + piece + out.slice(i);
    else if (kind === 'delete') out = out.slice(0, i) + out.slice(i + 1);
    else out = out.slice(0, i) + piece + out.slice(i + 1);
  }
  return out;
}

describe('filter language properties', () => {
  for (const style of STYLES) {
    test(`printing (${style}) then parsing a tree gives back its normalized form`, () => {
      fc.assert(
        fc.property(treeArb, (tree) => {
          const text = printFilter(tree, style);
          const parsed = parseFilter(text);
          assert.ok(parsed !== null);
          assert.deepEqual(shape(parsed), shape(normalizeFilter(tree, style)));
          assertPositions(text, parsed);
        }),
        { numRuns: 400 },
      );
    });
  }

  test('the builder style prints bare values of several words, escapes and quotes inside, so the round trip covers them', () => {
    const seen = { spaces: 0, keyword: 0, paren: 0, backslash: 0, quote: 0 };
    for (const tree of fc.sample(treeArb, { numRuns: 2000, seed: 11 })) {
      const walk = (node: FilterNode): void => {
        if (node.kind !== 'condition') return node.children.forEach(walk);
        if (node.value?.style !== 'bare') return;
        const printed = printFilter(node, 'builder');
        if (!/^\w+ [^ ]+ [^']/.test(printed)) return; // quoted
        const value = node.value.text;
        if (/\S\s+\S/.test(value)) seen.spaces++;
        if (/(^|\s)(and|or)(\s|$)/i.test(value)) seen.keyword++;
        if (/[()]/.test(value)) seen.paren++;
        if (value.includes('\\')) seen.backslash++;
        if (/.['"]/.test(value)) seen.quote++;
      };
      walk(tree);
    }
    for (const [what, n] of Object.entries(seen)) assert.ok(n >= 20, `only ${n} bare values printed with ${what}`);
  });

  test('arbitrary strings either parse or fail with a query AppError', () => {
    const syntaxy = fc.string({ unit: fc.constantFrom(...PIECES, 'a', 'b1', '1', '!=', '>=', 'start-with', '"x"', ' = ', '\\)'), maxLength: 30 });
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), syntaxy), (text) => {
        const node = parseOrReject(text);
        if (node !== null) assertPositions(text, node);
      }),
      { numRuns: 1500 },
    );
  });

  test('mutated valid expressions either parse or fail with a query AppError', () => {
    fc.assert(
      fc.property(treeArb, mutationArb, (tree, mutations) => {
        const text = mutate(printFilter(tree), mutations);
        const node = parseOrReject(text);
        if (node === null) return;
        assertPositions(text, node);
        // Whatever parses must survive its own round trip too, in either style.
        for (const style of STYLES) assert.deepEqual(shape(parseFilter(printFilter(node, style))!), shape(normalizeFilter(node, style)));
      }),
      { numRuns: 1000 },
    );
  });

  // Speed is a benchmark's business, not a test's: this checks the outcome only.
  test('rejects hostile sizes with QUERY_TOO_COMPLEX and without a RangeError', () => {
    const hostile = [
      '('.repeat(100_000),
      `${'('.repeat(100_000)}a = 1${')'.repeat(100_000)}`,
      'x'.repeat(100_000),
      'a = 1 and '.repeat(10_000) + 'a = 1',
      `a = '${"''".repeat(50_000)}'`,
      '('.repeat(FILTER_LIMITS.maxLength),
      `${'('.repeat(5_000)}a = 1${')'.repeat(4_990)}`,
      Array.from({ length: 1_000 }, (_, i) => `f${i}=1`).join(' or '),
    ];
    for (const text of hostile) {
      assert.throws(() => parseFilter(text), (err: unknown) => {
        assert.ok(isAppError(err), `expected an AppError, got ${String(err)}`);
        assert.equal(err.code, 'QUERY_TOO_COMPLEX');
        return true;
      });
    }
  });
});
