// Random filters over the fixture's accounts (fixture.ts) for property tests: a tree of conditions
// on every field kind, rendered as query text with random quoting, keyword case and parentheses,
// and the same tree as the plain JS reference reads it.

import fc from 'fast-check';
import { CONTACT_1, CONTACT_2, FIXTURE_ACCOUNTS, accountKey, type Fixture, type FixtureAccount, type RefCondition, type RefExpr, type RefField, type RefOp } from './fixture.js';

/** A single-quoted value of the filter language ('' escapes a quote). */
export const quote = (v: string): string => `'${v.replace(/'/g, "''")}'`;

/** Changes the case of ASCII letters only: SQLite folds no other letters (see the known gap in expressions.test). */
const asciiCase = (v: string, mode: number): string =>
  mode === 0 ? v : v.replace(/[A-Za-z]/g, (ch, i: number) => (mode === 1 || i % 2 === 0 ? ch.toUpperCase() : ch.toLowerCase()));

const USER_PREFIX = 'Zoe';

/** Values of a text field in the fixture, their first three characters and a few that match nothing. */
const textValues = (fx: Fixture, field: RefField): string[] => {
  const seen = new Set<string>(['', 'a', 'zzz', 'M', 'Owner', USER_PREFIX]);
  for (const a of FIXTURE_ACCOUNTS) {
    const v = field === 'ownername' ? fx.ownerName(a) : field === 'primarycontactname' ? fx.contactName(a) : a[field as keyof FixtureAccount];
    if (typeof v === 'string') {
      seen.add(v);
      seen.add(v.slice(0, 3));
    }
  }
  return [...seen];
};
const PATTERNS = [
  '%', '%corp', '%Ltd', 'acme_', '_e%', '%o%o%', '%😀%', '100%', 'A%C%', '%\\%', "%'%", '%"%', 'corp', 'ltd', 's', '_o', 'Co',
  // Words and characters a bare value must escape or keep: keywords, parentheses, backslashes, quotes inside.
  '% and %', '%) OR (%', 'back\\s%', '%\\slash co', "o'brien %", '%(%', 'a OR b', '%"Quoted" co',
];
const DATES = ['0000-01-01', '2024-12-31', '2025-01-01', '2025-01-02', '2025-02-01', '2025-03-01', '9999-12-31'];
const DATETIMES = ['2025-01-01T00:00:00', '2025-01-01T23:59:59', '2025-01-02T00:00:00', '2025-02-01T00:00:00', '2025-03-01T09:00:00', '9999-12-31T23:59:59'];

export const COMPARE: RefOp[] = ['=', '!=', '<', '>', '<=', '>='];
export const NULLS: RefOp[] = ['is-null', 'is-not-null'];
export const PREFIX: RefOp[] = ['start-with', 'not-start-with', 'end-with', 'not-end-with'];

interface GenCondition extends RefCondition {
  style: 'single' | 'double' | 'bare';
  paren: boolean;
  dummy: string | null;
}
export type GenExpr = GenCondition | { kind: 'and' | 'or'; children: GenExpr[]; paren: boolean };

function conditionArb(fx: Fixture): fc.Arbitrary<GenCondition> {
  const style = fc.constantFrom<'single' | 'double' | 'bare'>('single', 'double', 'bare');
  const extras = { style, paren: fc.boolean(), dummy: fc.constantFrom(null, null, "''", 'x', "'dummy'") };
  const text = fc.constantFrom<RefField>('accountname', 'accountnumber', 'billingcity', 'emailaddress1', 'description', 'ownername', 'primarycontactname').chain((field) =>
    fc.record({
      field: fc.constant(field),
      op: fc.constantFrom(...COMPARE, ...NULLS, ...PREFIX),
      value: fc.oneof(fc.tuple(fc.constantFrom(...textValues(fx, field)), fc.nat({ max: 2 })).map(([v, m]) => asciiCase(v, m)), fc.constantFrom(...PATTERNS)),
      ...extras,
    }));
  const number = fc.record({
    field: fc.constantFrom<RefField>('statecode', 'accounttypecode'),
    op: fc.constantFrom(...COMPARE, ...NULLS),
    value: fc.integer({ min: 0, max: 6 }).map(String),
    ...extras,
  });
  const datetime = fc.oneof(
    fc.record({
      field: fc.constantFrom<RefField>('pcfsystemfield85', 'createdon'),
      op: fc.constantFrom(...COMPARE, ...NULLS),
      value: fc.constantFrom(...DATES, ...DATETIMES),
      ...extras,
    }),
    fc.record({
      field: fc.constantFrom<RefField>('pcfsystemfield85', 'createdon'),
      op: fc.constantFrom(...PREFIX),
      value: fc.constantFrom('2025-01', '2025-03-01T', '9999', '2025-01-0_T%:00', '00:00', ':59', '_9:00:0%'),
      ...extras,
    }),
  );
  const lookup = fc.record({
    field: fc.constantFrom<RefField>('primarycontactid', 'ownerid', 'accountid'),
    op: fc.constantFrom('=', '!=', '<', '>=', ...NULLS),
    value: fc.tuple(fc.constantFrom(CONTACT_1, CONTACT_2, 'USER_A', 'USER_B', accountKey(7), accountKey(30)), fc.boolean())
      .map(([v, upper]) => (upper ? v.toUpperCase() : v)),
    ...extras,
  });
  return fc.oneof({ weight: 4, arbitrary: text }, { weight: 2, arbitrary: number }, { weight: 2, arbitrary: datetime }, { weight: 1, arbitrary: lookup });
}

/** Built once the fixture is seeded: text values come from it. */
function exprArbitrary(fx: Fixture): fc.Arbitrary<GenExpr> {
  const condition = conditionArb(fx);
  return fc.letrec<{ expr: GenExpr; group: GenExpr }>((tie) => ({
    expr: fc.oneof({ depthSize: 'small', withCrossShrink: true }, condition, tie('group')),
    group: fc.record({ kind: fc.constantFrom<'and' | 'or'>('and', 'or'), children: fc.array(tie('expr'), { minLength: 2, maxLength: 4 }), paren: fc.boolean() }),
  })).expr;
}

const KEYWORDS = { and: ['AND', 'and', 'And', 'aNd'], or: ['OR', 'or', 'Or', 'oR'] };

/** Ids known only once the fixture is seeded. */
const resolveIds = (fx: Fixture, v: string): string => v.replace(/USER_A/i, fx.userA).replace(/USER_B/i, fx.userB);

const OPERATORS = new Set(['=', '!=', '<', '>', '<=', '>=', 'start-with', 'not-start-with', 'end-with', 'not-end-with', 'is-null', 'is-not-null']);

/**
 * `v` as a query builder that never quotes writes it (docs/query.md, bare values): a backslash
 * before (, ), \ and the words AND / OR; undefined where no bare value can say it (spaces at an end,
 * a quote first, a word that would end the value: && or ||, or a name followed by an operator).
 */
export function builderBare(v: string): string | undefined {
  if (v === '' || v.trim() !== v || /^['"]/.test(v)) return undefined;
  const words = v.split(/(\s+)/);
  if (words.some((w) => w === '&&' || w === '||')) return undefined;
  for (const m of v.matchAll(/\s(?=[A-Za-z0-9_]+\s*([=!<>]+|[A-Za-z0-9_-]+))/g)) if (OPERATORS.has(m[1]!.toLowerCase())) return undefined;
  return words.map((w) => (/^(and|or)$/i.test(w) ? `\\${w}` : w.replace(/[\\()]/g, '\\$&'))).join('');
}

function renderValue(fx: Fixture, c: GenCondition): string {
  const v = resolveIds(fx, c.value);
  const bare = c.style === 'bare' ? builderBare(v) : undefined;
  if (bare !== undefined) return bare;
  if (c.style === 'double') return `"${v.replace(/"/g, '""')}"`;
  return quote(v);
}

/** Renders a tree as text, leaving out parentheses only where precedence makes them optional. */
function render(fx: Fixture, e: GenExpr, seed: { n: number }, parent?: 'and' | 'or'): string {
  if ('field' in e) {
    const operand = NULLS.includes(e.op) ? (e.dummy ? ` ${e.dummy}` : '') : ` ${renderValue(fx, e)}`;
    const text = `${e.field} ${e.op}${operand}`;
    return e.paren ? `(${text})` : text;
  }
  const words = KEYWORDS[e.kind];
  const text = e.children.map((c) => render(fx, c, seed, e.kind)).join(` ${words[seed.n++ % words.length]} `);
  const needed = parent === 'and' && e.kind === 'or';
  return needed || e.paren ? `(${text})` : text;
}

function toRef(fx: Fixture, e: GenExpr): RefExpr {
  if ('field' in e) return { field: e.field, op: e.op, value: resolveIds(fx, e.value) };
  return { kind: e.kind, children: e.children.map((c) => toRef(fx, c)) };
}

/** The generators of one seeded fixture (its user ids and names are part of the values). */
export interface QueryGenerators {
  /** Random filter trees. */
  readonly expr: fc.Arbitrary<GenExpr>;
  /** The tree as query text. */
  render(e: GenExpr): string;
  /** The tree as the reference (fixture.ts refEval) reads it. */
  toRef(e: GenExpr): RefExpr;
}

export function queryGenerators(fx: Fixture): QueryGenerators {
  return {
    expr: exprArbitrary(fx),
    render: (e) => render(fx, e, { n: 0 }),
    toRef: (e) => toRef(fx, e),
  };
}
