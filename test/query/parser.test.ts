// Example-based tests of the filter language: input → AST and input → error tables, plus printer and suggestName.
// Tables keep each case on one line so a reader can scan the language at a glance.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '../../src/errors.js';
import type { Condition, FilterNode, FilterOp, FilterValue } from '../../src/query/ast.js';
import { FILTER_LIMITS, parseFilter } from '../../src/query/parser.js';
import { printFilter } from '../../src/query/printer.js';
import { suggestName } from '../../src/schema/suggest.js';

type Shape = { kind: 'and' | 'or'; children: Shape[] } | Omit<Condition, 'pos'>;

const bare = (text: string): FilterValue => ({ text, style: 'bare' });
const sq = (text: string): FilterValue => ({ text, style: 'single' });
const dq = (text: string): FilterValue => ({ text, style: 'double' });
const c = (field: string, op: FilterOp, value: FilterValue | null = null): Shape => ({ kind: 'condition', field, op, value });
const and = (...children: Shape[]): Shape => ({ kind: 'and', children });
const or = (...children: Shape[]): Shape => ({ kind: 'or', children });

/** The tree without positions, so tables compare structure only. */
function shape(node: FilterNode): Shape {
  if (node.kind === 'condition') return { kind: 'condition', field: node.field, op: node.op, value: node.value };
  return { kind: node.kind, children: node.children.map(shape) };
}

function assertSyntaxError(input: string, message: RegExp): void {
  assert.throws(() => parseFilter(input), (err: unknown) => {
    assert.ok(isAppError(err), 'expected an AppError');
    assert.equal(err.code, 'QUERY_SYNTAX');
    assert.match(err.message, message);
    return true;
  });
}

function parseShape(text: string): Shape | null {
  const node = parseFilter(text);
  return node === null ? null : shape(node);
}

const parses: Array<[string, Shape]> = [
  ['(statuscode = 1)', c('statuscode', '=', bare('1'))],
  ["(accountname = 'Acme')", c('accountname', '=', sq('Acme'))],
  ['accountname = Acme', c('accountname', '=', bare('Acme'))],
  ["(createdon >= '2025-01-01')", c('createdon', '>=', sq('2025-01-01'))],
  ['(emailaddress1 is-null)', c('emailaddress1', 'is-null')],
  ["(emailaddress1 is-null '')", c('emailaddress1', 'is-null')],
  ['(x is-not-null 0)', c('x', 'is-not-null')],
  ["(a = 1 and b = 2) OR (c start-with '%x')", or(and(c('a', '=', bare('1')), c('b', '=', bare('2'))), c('c', 'start-with', sq('%x')))],
  ['a = 1 AND b = 2 OR c = 3', or(and(c('a', '=', bare('1')), c('b', '=', bare('2'))), c('c', '=', bare('3')))],
  ['a = 1 OR b = 2 AND c = 3', or(c('a', '=', bare('1')), and(c('b', '=', bare('2')), c('c', '=', bare('3'))))],
  ['a = 1 and (b = 2 or c = 3)', and(c('a', '=', bare('1')), or(c('b', '=', bare('2')), c('c', '=', bare('3'))))],
  ['a = 1 Or b = 2', or(c('a', '=', bare('1')), c('b', '=', bare('2')))],
  ['AccountName = 1 aNd OwnerId_FullName = 2', and(c('accountname', '=', bare('1')), c('ownerid_fullname', '=', bare('2')))],
  ["name START-WITH 'x'", c('name', 'start-with', sq('x'))],
  ['name Not-Start-With x', c('name', 'not-start-with', bare('x'))],
  ["name END-WITH '%x'", c('name', 'end-with', sq('%x'))],
  ['name Not-End-With x', c('name', 'not-end-with', bare('x'))],
  ["a end-with'x'or b not-end-with'y'", or(c('a', 'end-with', sq('x')), c('b', 'not-end-with', sq('y')))],
  ['x IS-NOT-NULL', c('x', 'is-not-null')],
  ['(a=1)', c('a', '=', bare('1'))],
  ['a>=2', c('a', '>=', bare('2'))],
  ["a!='x'", c('a', '!=', sq('x'))],
  ['a<=-3.5', c('a', '<=', bare('-3.5'))],
  ['a<5 or a>6', or(c('a', '<', bare('5')), c('a', '>', bare('6')))],
  ['d = 2025-01-01T10:00:00', c('d', '=', bare('2025-01-01T10:00:00'))],
  ['e = abc@x.com', c('e', '=', bare('abc@x.com'))],
  ['id = 3f2504e0-4f89-11d3-9a0c-0305e82c3301', c('id', '=', bare('3f2504e0-4f89-11d3-9a0c-0305e82c3301'))],
  ["name = 'O''Brien'", c('name', '=', sq("O'Brien"))],
  ['name = "say ""hi"""', c('name', '=', dq('say "hi"'))],
  ['name = "it\'s"', c('name', '=', dq("it's"))],
  ["name = ''", c('name', '=', sq(''))],
  ["name = 'a AND b = (c)'", c('name', '=', sq('a AND b = (c)'))],
  ['((a = 1))', c('a', '=', bare('1'))],
  ['(a = 1 and b = 2) and c = 3', and(c('a', '=', bare('1')), c('b', '=', bare('2')), c('c', '=', bare('3')))],
  ['a = 1 or (b = 2 or c = 3)', or(c('a', '=', bare('1')), c('b', '=', bare('2')), c('c', '=', bare('3')))],
  ['pcfsystemfield85 = 1', c('pcfsystemfield85', '=', bare('1'))],
  ["ownerid_fullname = 'Jane Doe'", c('ownerid_fullname', '=', sq('Jane Doe'))],
  ['   a = 1   ', c('a', '=', bare('1'))],
  ['a\t=\n1', c('a', '=', bare('1'))],
  ['x is-null and y = 1', and(c('x', 'is-null'), c('y', '=', bare('1')))],
  ["x is-null 'dummy' or y = 1", or(c('x', 'is-null'), c('y', '=', bare('1')))],
  ['a = x<y', c('a', '=', bare('x<y'))],
  ["a = 'and'", c('a', '=', sq('and'))],
  ['(a=1)and(b=2)', and(c('a', '=', bare('1')), c('b', '=', bare('2')))],
  ['a = 😀', c('a', '=', bare('😀'))],
  ["a = '; DROP TABLE x; --'", c('a', '=', sq('; DROP TABLE x; --'))],
  ['a = é', c('a', '=', bare('é'))],
  ['a = =1', c('a', '=', bare('=1'))],
  ['a = 1 and b = 2 and c = 3 or d = 4 and e = 5', or(and(c('a', '=', bare('1')), c('b', '=', bare('2')), c('c', '=', bare('3'))), and(c('d', '=', bare('4')), c('e', '=', bare('5'))))],
  ['((a = 1 or b = 2) and c = 3) or d = 4', or(and(or(c('a', '=', bare('1')), c('b', '=', bare('2'))), c('c', '=', bare('3'))), c('d', '=', bare('4')))],
  ["a = 1 and b is-null and c != 'x'", and(c('a', '=', bare('1')), c('b', 'is-null'), c('c', '!=', sq('x')))],
];

/** Bare values as client query builders write them (docs/query.md, "Bare values"): runs of words and backslash escapes. */
const builderValues: Array<[string, Shape]> = [
  ['(accountname = Smith Sons Ltd)', c('accountname', '=', bare('Smith Sons Ltd'))],
  ['(accountname = Smith \\and Sons \\(Ltd\\))', c('accountname', '=', bare('Smith and Sons (Ltd)'))],
  ['accountname = Acme Widgets Ltd and statecode = 1', and(c('accountname', '=', bare('Acme Widgets Ltd')), c('statecode', '=', bare('1')))],
  ['(a = one two) OR (b = three four)', or(c('a', '=', bare('one two')), c('b', '=', bare('three four')))],
  ['a = x  y\tz   and b = 1', and(c('a', '=', bare('x  y\tz')), c('b', '=', bare('1')))],
  ['a = x OR\tb = 1', or(c('a', '=', bare('x')), c('b', '=', bare('1')))],
  ['a = x y or(b = 1)', or(c('a', '=', bare('x y')), c('b', '=', bare('1')))],
  ['(a = x y)and(b = 1)', and(c('a', '=', bare('x y')), c('b', '=', bare('1')))],
  ['a = Rock \\OR Roll', c('a', '=', bare('Rock OR Roll'))],
  ['a = \\and', c('a', '=', bare('and'))],
  ['a = \\And more', c('a', '=', bare('And more'))],
  ['a = \\\\and', c('a', '=', bare('\\and'))],
  ['a = x\\and y', c('a', '=', bare('x\\and y'))],
  // The builder escapes `and`/`or` at every regex word boundary, inside words too.
  ['(accountname = Smith-\\and-Sons)', c('accountname', '=', bare('Smith-and-Sons'))],
  ['(accountname = Rock \\(\\and\\) Roll)', c('accountname', '=', bare('Rock (and) Roll'))],
  ['(accountname start-with %\\or first)', c('accountname', 'start-with', bare('%or first'))],
  ['a = \\\\\\or', c('a', '=', bare('\\or'))],
  ['a = x.\\OR', c('a', '=', bare('x.OR'))],
  ['a = \\order \\or_x', c('a', '=', bare('\\order \\or_x'))],
  ['a = Back\\slash Co', c('a', '=', bare('Back\\slash Co'))],
  ['a = x\\\\', c('a', '=', bare('x\\'))],
  ['(a = x\\\\)', c('a', '=', bare('x\\'))],
  ['a = \\(x\\)', c('a', '=', bare('(x)'))],
  ["a = O'Brien Ltd", c('a', '=', bare("O'Brien Ltd"))],
  ['a = Say "hi" now', c('a', '=', bare('Say "hi" now'))],
  ['a = android orchard', c('a', '=', bare('android orchard'))],
  ['a = 1 < 2 units', c('a', '=', bare('1 < 2 units'))],
  ['a = x = y', c('a', '=', bare('x = y'))],
  ['name start-with %Smith Sons', c('name', 'start-with', bare('%Smith Sons'))],
  ['name end-with Sons Ltd', c('name', 'end-with', bare('Sons Ltd'))],
];

/** Where a bare value of several words ends, and what it cannot hold. */
const builderFails: Array<[string, RegExp]> = [
  ['a = Smith Sons Ltd b = 2', /^Syntax error in query at position 20 near 'b': expected AND, OR or the end of the query after a condition\.$/],
  ['a = Smith Sons b=2', /position 16 near 'b=2': expected AND, OR or the end/],
  ['(a = x y b start-with 1)', /position 10 near 'b': expected AND, OR, '\)' or the end/],
  ['a = x (y)', /position 7 near '\(': expected AND, OR or the end of the query after a condition; inside a value, quote it or write \\\( and \\\) for parentheses\.$/],
  ['a = Smith Sons && b = 1', /position 16 near '&&': .*write AND instead/],
  ['a = x || b = 1', /position 7 near '\|\|': .*write OR instead/],
  ['(a = x\\)', /position 9: unexpected end of query: expected '\)' to close '\(' opened at position 1/],
  ['a = \\and and', /position 13: unexpected end of query: expected a condition .* after 'and'/],
  ['a = OR x', /position 5 near 'OR': expected a value after '=', but 'OR' is a keyword/],
];

const fails: Array<[string, RegExp]> = [
  ['(a=1', /^Syntax error in query at position 5: unexpected end of query: expected '\)' to close '\(' opened at position 1\.$/],
  ['a = )', /^Syntax error in query at position 5 near '\)': expected a value after '='\.$/],
  ['a == 1', /position 3 near '==': unknown operator '=='; use one of =, !=, <, >, <=, >=, start-with, not-start-with, end-with, not-end-with, is-null, is-not-null\.$/],
  ['a <> 1', /position 3 near '<>': unknown operator '<>'/],
  ["a like 'x'", /position 3 near 'like': unknown operator 'like'/],
  ["a = 'x", /position 5: unterminated single-quoted value; end it with '/],
  ['a = "x', /position 5: unterminated double-quoted value; end it with "/],
  ["a = 'it''s", /position 5: unterminated single-quoted/],
  ['a.b = 1', /position 2 near '\.b': invalid character '\.' in field name 'a\.b'/],
  ['café = 1', /position 4 near 'é': invalid character 'é'/],
  ['()', /position 2 near '\)': empty parentheses/],
  ['a = 1 and ()', /position 12 near '\)': empty parentheses/],
  ['a = 1)', /position 6 near '\)': unmatched '\)'/],
  ['(a = 1))', /position 8 near '\)': unmatched '\)'/],
  ['((a = 1)', /position 9: unexpected end of query: expected '\)' to close '\(' opened at position 1/],
  ['a = 1 and', /position 10: unexpected end of query: expected a condition .* after 'and'/],
  ['a = 1 b = 2', /position 7 near 'b': expected AND, OR or the end of the query/],
  ['(a = 1 b = 2)', /position 8 near 'b': expected AND, OR, '\)' or the end of the query/],
  ['a', /position 2: unexpected end of query: expected an operator after field 'a'/],
  ['a =', /position 4: unexpected end of query: expected a value after '='/],
  ['a = and', /position 5 near 'and': expected a value after '=', but 'and' is a keyword; quote it/],
  ['= 1', /position 1 near '=': expected a condition/],
  ["'a' = 1", /position 1 near ''a'': expected a condition/],
  ['and a = 1', /position 1 near 'and': expected a condition, but 'and' is a keyword/],
  ['a = 1 or or b = 2', /position 10 near 'or': expected a condition after 'or'/],
  ['a = 1 && b = 2', /position 7 near '&&': .*write AND instead/],
  ["a = 'x' 'y'", /position 9 near ''y'': expected AND, OR/],
  ['a = (b)', /position 5 near '\(': expected a value after '='/],
  ['a (= 1)', /position 3 near '\(': expected an operator after field 'a'/],
];

describe('parseFilter', () => {
  for (const [input, expected] of parses) {
    test(`parses ${JSON.stringify(input)}`, () => {
      assert.deepEqual(parseShape(input), expected);
    });
  }

  for (const [input, message] of fails) {
    test(`rejects ${JSON.stringify(input)} with a positioned QUERY_SYNTAX message`, () => assertSyntaxError(input, message));
  }

  for (const [input, expected] of builderValues) {
    test(`reads the bare value of ${JSON.stringify(input)} as a client query builder means it`, () => {
      assert.deepEqual(parseShape(input), expected);
    });
  }

  for (const [input, message] of builderFails) {
    test(`ends a bare value where ${JSON.stringify(input)} says, and rejects the rest with a positioned QUERY_SYNTAX message`, () => assertSyntaxError(input, message));
  }

  test('records the position of a bare value of several words at its first character', () => {
    assert.deepEqual((parseFilter('(a = Smith \\and Sons) or b = 1') as { children: Condition[] }).children[0]!.pos, { field: 1, op: 3, value: 5 });
  });

  test('treats an empty or whitespace-only text as no filter', () => {
    assert.equal(parseFilter(''), null);
    assert.equal(parseFilter(' \t\n '), null);
  });

  test('binds AND tighter than OR', () => {
    assert.deepEqual(parseShape('a = 1 or b = 2 and c = 3'), parseShape('a = 1 or (b = 2 and c = 3)'));
  });

  test('records 0-based positions of field, operator and value', () => {
    const node = parseFilter("(a = 1 and b = 2) OR (c start-with '%x')");
    assert.ok(node?.kind === 'or' && node.children[0]?.kind === 'and');
    const [a, b] = node.children[0].children;
    assert.deepEqual(a?.kind === 'condition' && a.pos, { field: 1, op: 3, value: 5 });
    assert.deepEqual(b?.kind === 'condition' && b.pos, { field: 11, op: 13, value: 15 });
    assert.deepEqual(node.children[1]?.kind === 'condition' && node.children[1].pos, { field: 22, op: 24, value: 35 });
  });

  test('records positions when nothing separates the tokens', () => {
    assert.deepEqual((parseFilter('a>=2') as Condition).pos, { field: 0, op: 1, value: 3 });
    assert.deepEqual((parseFilter("  name!='O''Brien'") as Condition).pos, { field: 2, op: 6, value: 8 });
  });

  test('records no value position for is-null, even with a dummy operand', () => {
    assert.deepEqual((parseFilter("x is-null ''") as Condition).pos, { field: 0, op: 2 });
  });

  test('rejects text longer than the length limit with QUERY_TOO_COMPLEX', () => {
    const text = `a = '${'x'.repeat(FILTER_LIMITS.maxLength)}'`;
    assert.throws(() => parseFilter(text), { code: 'QUERY_TOO_COMPLEX', message: /10006 characters long, over the limit of 10000/ });
  });

  test('counts the length limit in characters: an emoji is one, not two UTF-16 units', () => {
    const filter = (chars: number) => `a = '${'🍐'.repeat(chars - 6)}'`;
    assert.deepEqual(parseShape(filter(FILTER_LIMITS.maxLength)), c('a', '=', sq('🍐'.repeat(FILTER_LIMITS.maxLength - 6))));
    assert.throws(() => parseFilter(filter(FILTER_LIMITS.maxLength + 1)), { code: 'QUERY_TOO_COMPLEX', message: /10001 characters long/ });
  });

  test('accepts 64 nested parentheses and rejects 65 with QUERY_TOO_COMPLEX', () => {
    const nest = (n: number) => `${'('.repeat(n)}a = 1${')'.repeat(n)}`;
    assert.deepEqual(parseShape(nest(64)), c('a', '=', bare('1')));
    assert.throws(() => parseFilter(nest(65)), { code: 'QUERY_TOO_COMPLEX', message: /'\(' at position 65 nests parentheses more than 64 deep/ });
  });

  test('accepts 200 conditions and rejects 201 with QUERY_TOO_COMPLEX', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `f${i} = ${i}`).join(' or ');
    assert.equal((parseFilter(many(200)) as { children: unknown[] }).children.length, 200);
    assert.throws(() => parseFilter(many(201)), { code: 'QUERY_TOO_COMPLEX', message: /more than 200 conditions/ });
  });
});

describe('printFilter', () => {
  test('prints canonical text with upper-case keywords and parenthesized groups', () => {
    const node = parseFilter("(A = 1 and b = \"x\") or c START-WITH 'O''B' or d is-null ''");
    assert.equal(printFilter(node!), "(a = 1 AND b = 'x') OR c start-with 'O''B' OR d is-null");
  });

  test('quotes bare values that would not read back as one bare word', () => {
    const node = { kind: 'condition', field: 'a', op: '=', value: bare('two words'), pos: { field: 0, op: 0 } } as const;
    assert.equal(printFilter(node), "a = 'two words'");
  });

  test('prints bare values in the builder style with backslash escapes where a word or parenthesis would end them', () => {
    const node = parseFilter("a = 'Smith and Sons (Ltd)' or b = 'x\\y' or c = 'O''Brien Ltd' or d = ' padded' or e = 'x b = 2'")!;
    assert.equal(printFilter(node, 'builder'), "a = 'Smith and Sons (Ltd)' OR b = 'x\\y' OR c = 'O''Brien Ltd' OR d = ' padded' OR e = 'x b = 2'");
    const bareNode = { kind: 'or', children: ['Smith and Sons (Ltd)', 'x\\y', "O'Brien Ltd", ' padded', 'x b = 2', 'OR'].map((text, i) => ({ kind: 'condition', field: `f${i}`, op: '=', value: bare(text), pos: { field: 0, op: 0 } })) } as const;
    assert.equal(printFilter(bareNode as FilterNode, 'builder'), "f0 = Smith \\and Sons \\(Ltd\\) OR f1 = x\\\\y OR f2 = O'Brien Ltd OR f3 = ' padded' OR f4 = 'x b = 2' OR f5 = \\OR");
    assert.equal(printFilter(bareNode as FilterNode), "f0 = 'Smith and Sons (Ltd)' OR f1 = 'x\\y' OR f2 = 'O''Brien Ltd' OR f3 = ' padded' OR f4 = 'x b = 2' OR f5 = 'OR'");
  });

  test('flattens nested groups of the same kind', () => {
    assert.equal(printFilter(parseFilter('(a = 1 and (b = 2 and c = 3))')!), 'a = 1 AND b = 2 AND c = 3');
  });
});

describe('suggestName', () => {
  const fields = ['accountname', 'accountnumber', 'emailaddress1', 'statuscode'];

  test('suggests the closest candidate within the distance bound', () => {
    assert.equal(suggestName('acountname', fields), 'accountname');
    assert.equal(suggestName('acocuntname', fields), 'accountname');
    assert.equal(suggestName('StatusCod', fields), 'statuscode');
  });

  test('suggests nothing when every candidate is too far', () => {
    assert.equal(suggestName('ab', fields), undefined);
    assert.equal(suggestName('phone', fields), undefined);
    assert.equal(suggestName('x', []), undefined);
  });

  test('allows one edit for short names', () => {
    assert.equal(suggestName('ib', ['id', 'name']), 'id');
  });
});
