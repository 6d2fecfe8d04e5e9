// The plan stage: resolves a query's object, fields, filter and sort against an organization's
// schema and types every filter value by its field (docs/api.md). What comes out can be turned
// into SQL by any store without further checks; nothing here knows HTTP or a SQL dialect.

import { AppError, quote } from '../errors.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { TEXT_TYPES, type FieldDef, type ObjectDef, type RecordRow } from '../schema/types.js';
import { isUuid, numberRangeHint, parseDateTime, parseNumber, picklistCodes } from '../schema/values.js';
import { isMatchOp, type Condition, type FilterNode } from './ast.js';
import { parseFilter } from './parser.js';
import { NOTHING_HIDDEN, QueryFields, READ_ALL, knownField, type ReadAccess } from './query-fields.js';

// Re-exported: auth/permissions.ts implements these against the plan stage's contract.
export { READ_ALL, type FieldHiding, type ReadAccess } from './query-fields.js';

export type CompareOp = '=' | '!=' | '<' | '>' | '<=' | '>=';

/** A typed condition. Values are already in stored form (lowercase UUIDs, UTC datetimes, numbers). */
export type PlanCondition =
  | { kind: 'compare'; field: FieldDef; op: CompareOp; value: string | number }
  /** A whole UTC day of a datetime field: from ≤ v < to; `negate` also matches empty values. */
  | { kind: 'range'; field: FieldDef; from: string; to: string; negate: boolean }
  /**
   * LIKE `pattern`: the client's text, where `%` and `_` are wildcards, with a `%` added after it
   * (start-with) or before it (end-with); `negate` also matches empty values.
   */
  | { kind: 'match'; field: FieldDef; pattern: string; negate: boolean }
  | { kind: 'null'; field: FieldDef; negate: boolean };

export interface PlanGroup {
  kind: 'and' | 'or';
  children: PlanNode[];
}

export type PlanNode = PlanGroup | PlanCondition;

export function isPlanGroup(node: PlanNode): node is PlanGroup {
  return node.kind === 'and' || node.kind === 'or';
}

export interface QueryPlan {
  readonly obj: ObjectDef;
  /** Fields to return, in the order asked. */
  readonly fields: readonly FieldDef[];
  readonly filter: PlanNode | null;
  readonly sort: { readonly field: FieldDef; readonly desc: boolean };
  readonly pageSize: number;
  readonly pageNumber: number;
  /** `show_real_value`: picklist fields come back as their labels, not their codes (withPicklistLabels). */
  readonly picklistLabels: boolean;
}

/** The field of the default order (a query without sort_by; a view unless defined with another), which needs no permission. */
export const DEFAULT_SORT_FIELD = 'createdon';

/** docs/api.md: page_size 1–500, larger served as 500; default 50. */
export const QUERY_PAGE = { default: 50, max: 500 } as const;
/** What a query's page size may be, as its errors say. */
export const PAGE_SIZE_RULE = `a whole number from 1 to ${QUERY_PAGE.max} (larger is served as ${QUERY_PAGE.max})`;

export interface QueryInput {
  objecttype?: unknown;
  fields?: unknown;
  query?: unknown;
  sort_by?: unknown;
  sort_type?: unknown;
  page_size?: unknown;
  page_number?: unknown;
  show_real_value?: unknown;
}

function param(name: string, expected: string, got: unknown): AppError {
  return new AppError('PARAM_INVALID', `'${name}' must be ${expected}; got ${quote(got)}.`);
}

/**
 * What a page member must be, as its message says it: `expected`, or, for a whole number past 2^53 − 1
 * (1e21, which the schema may hand over as the string '1e+21'), the bound it is past.
 */
export function wholeNumberRule(raw: unknown, expected: string): string {
  const value = typeof raw === 'string' ? Number(raw) : raw;
  return Number.isInteger(value) && !Number.isSafeInteger(value) ? `a whole number up to ${Number.MAX_SAFE_INTEGER}` : expected;
}

/** A whole number from a JSON number or digit string; undefined when absent. */
function wholeNumber(name: string, raw: unknown): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw param(name, wholeNumberRule(raw, 'a whole number'), raw);
  return n;
}

/** A yes/no member: 1, true, '1' or 'true' is yes; absent, null, '', 0, false, '0' or 'false' is no. */
function yesNo(name: string, raw: unknown): boolean {
  const v = typeof raw === 'string' ? raw.trim().toLowerCase() : raw;
  if (v === 1 || v === true || v === '1' || v === 'true') return true;
  if (v === undefined || v === null || v === '' || v === 0 || v === false || v === '0' || v === 'false') return false;
  throw param(name, '1 or 0 (or true or false)', raw);
}

export function resolveObject(schema: OrgSchema, raw: unknown): ObjectDef {
  if (typeof raw === 'number' || (typeof raw === 'string' && raw.trim() !== '')) return schema.resolve(raw);
  if (raw === undefined || raw === null || raw === '') {
    throw new AppError('PARAM_INVALID', "'objecttype' is required: the object's number (1) or system name ('account').");
  }
  throw param('objecttype', "an object's number or system name", raw);
}

function resolveFields(named: QueryFields, raw: unknown): FieldDef[] {
  const all = () => named.all();
  if (raw === undefined || raw === null) return all();
  if (typeof raw !== 'string') throw param('fields', "a comma-separated string of field names, or '*'", raw);
  const names = raw.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  if (names.length === 0) return all();
  // '*' stands for every readable field where it is named; the names beside it are still checked
  // (unknown 400, hidden 403) and kept, a related field among them too.
  const seen = new Set<string>();
  const fields: FieldDef[] = [];
  for (const name of names) {
    for (const f of name === '*' ? all() : [named.field(name, " in 'fields'")]) {
      if (!seen.has(f.name)) fields.push(f);
      seen.add(f.name);
    }
  }
  return fields;
}

/**
 * A comparison with a span of time [from, to) (a whole day, or a relative span such as 'this-week'):
 * `=` is within it, `<` before it, `<=` up to its end, `>` after it, `>=` from its start.
 */
export function spanCondition(field: FieldDef, op: CompareOp, from: string, to: string): PlanCondition {
  switch (op) {
    case '=': return { kind: 'range', field, from, to, negate: false };
    case '!=': return { kind: 'range', field, from, to, negate: true };
    case '<': return { kind: 'compare', field, op: '<', value: from };
    case '>=': return { kind: 'compare', field, op: '>=', value: from };
    case '<=': return { kind: 'compare', field, op: '<', value: to };
    case '>': return { kind: 'compare', field, op: '>=', value: to };
  }
}

/** A condition to type, from the filter language or from a v3 body. */
export interface ConditionInput {
  /** Lower-cased field name. */
  readonly field: string;
  readonly op: Condition['op'];
  /** null for is-null / is-not-null. */
  readonly value: string | null;
}

/** Where a condition's parts were written, as phrases for error messages (" at position 5 of the query"). */
export interface ConditionSite {
  readonly field: string;
  readonly op: string;
  readonly value: string;
}

function valueError(field: FieldDef, c: ConditionInput, site: ConditionSite, what: string, hint: string): AppError {
  return new AppError('FIELD_TYPE', `'${field.name}' must be a valid ${what}; got '${c.value}'${site.value}. ${hint}`);
}

/**
 * The exclusive end of a UTC day, in stored form: the next midnight. After 9999-12-31 there is no
 * four-digit day (toISOString gives '+010000-01-01', which sorts before every stored value, so
 * `<= '9999-12-31'` matched nothing); ISO 8601's end-of-day '24:00:00' sorts after that day instead.
 */
const dayEnd = (date: string): string => {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.getUTCFullYear() > 9999 ? `${date}T24:00:00` : `${d.toISOString().slice(0, 10)}T00:00:00`;
};

/** The sites of a parsed condition: positions in the query text. */
function siteOf(c: Condition): ConditionSite {
  const at = (n: number) => ` at position ${n + 1} of the query`;
  return { field: at(c.pos.field), op: at(c.pos.op), value: at(c.pos.value ?? c.pos.op) };
}

function planCondition(named: QueryFields, c: Condition): PlanCondition {
  return typeCondition(named, { field: c.field, op: c.op, value: c.value?.text ?? null }, siteOf(c));
}

/** Types one condition; `''` compared with `=`/`!=` means empty / not empty, as clients use it. */
export function typeCondition(named: QueryFields, c: ConditionInput, site: ConditionSite): PlanCondition {
  const field = named.field(c.field, site.field);
  if (c.op === 'is-null' || c.op === 'is-not-null') return { kind: 'null', field, negate: c.op === 'is-not-null' };
  const text = c.value!;
  // No stored value holds U+0000 (writes refuse it), and SQLite's LIKE would end a pattern at one:
  // `start-with 'Acme\0x'` matched 'Acme'. Refused here, as on writes, so every store agrees.
  if (text.includes('\u0000')) {
    throw new AppError('FIELD_TYPE', `'${field.name}' cannot hold a NUL character (\\u0000), but the value${site.value} contains one. Remove it.`);
  }
  if (isMatchOp(c.op)) {
    if (field.type === 'number' || field.type === 'picklist') {
      throw new AppError('FIELD_TYPE', `'${c.op}' compares text, but '${field.name}' is a ${field.type} field (the operator${site.op}). Use =, <, >, <= or >=.`);
    }
    // In the stored case (lookups lowercase, dates and datetimes with an uppercase T), so that a plain
    // prefix, run as a range on the stored text, matches A–Z in either case as a LIKE does: 'A0000000'
    // found no key while 'A000000_' found them.
    const stored = field.type === 'lookup' ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase())
      : field.type === 'date' || field.type === 'datetime' ? text.replace(/[a-z]+/g, (s) => s.toUpperCase()) : text;
    const pattern = c.op.endsWith('start-with') ? `${stored}%` : `%${stored}`;
    return { kind: 'match', field, pattern, negate: c.op.startsWith('not-') };
  }
  const op = c.op;
  if (text === '' && (op === '=' || op === '!=')) return { kind: 'null', field, negate: op === '!=' };
  // By type: a derived name is text, a related field the type of the field it reads.
  if (TEXT_TYPES.has(field.type)) return { kind: 'compare', field, op, value: text };
  switch (field.type) {
    case 'number':
    case 'picklist': {
      const n = parseNumber(text);
      if (n === undefined || (field.type === 'picklist' && !Number.isInteger(n))) {
        throw field.type === 'number'
          ? valueError(field, c, site, 'Number', numberRangeHint(text) ?? 'Write a number such as 1 or 2.5.')
          : valueError(field, c, site, 'Picklist code', `Write one of its codes: ${picklistCodes(field)}.`);
      }
      return { kind: 'compare', field, op, value: n };
    }
    case 'lookup':
      if (!isUuid(text)) throw valueError(field, c, site, 'Lookup id (a UUID)', 'Write the id of the related record.');
      return { kind: 'compare', field, op, value: text.toLowerCase() };
    case 'date': {
      const dt = parseDateTime(text);
      if (dt === undefined) throw valueError(field, c, site, 'Date', "Write a date as 'YYYY-MM-DD'.");
      return { kind: 'compare', field, op, value: dt.slice(0, 10) };
    }
    case 'datetime': {
      const dt = parseDateTime(text);
      if (dt === undefined) throw valueError(field, c, site, 'DateTime', "Write 'YYYY-MM-DD' for a whole day or 'YYYY-MM-DDThh:mm:ss' (UTC).");
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text.trim())) return { kind: 'compare', field, op, value: dt };
      // A date-only value means the whole UTC day (docs/api.md): `<= '2025-01-01'` includes that day.
      const day = dt.slice(0, 10);
      return spanCondition(field, op, `${day}T00:00:00`, dayEnd(day));
    }
  }
  throw new Error(`unplanned field type ${field.type}`);
}

function planFilter(named: QueryFields, node: FilterNode): PlanNode {
  // Recursion is safe: the parser bounds nesting at 64.
  if (node.kind === 'condition') return planCondition(named, node);
  return { kind: node.kind, children: node.children.map((child) => planFilter(named, child)) };
}

/** A filter text parsed and typed against the fields `named` allows; null for an empty filter. Throws as planQuery does for `query`. */
export function planFilterText(named: QueryFields, text: string): PlanNode | null {
  const ast = parseFilter(text);
  return ast ? planFilter(named, ast) : null;
}

/**
 * Checks and types a query body against the schema and what the caller may read; throws AppError
 * (400/404, and 402/403 from `access`) on anything invalid. Hidden fields are left out of '*'.
 */
export function planQuery(schema: OrgSchema, input: QueryInput, access: ReadAccess = READ_ALL): QueryPlan {
  const obj = resolveObject(schema, input.objecttype);
  const named = new QueryFields(schema, obj, access);
  const fields = resolveFields(named, input.fields);

  let filter: PlanNode | null = null;
  if (input.query !== undefined && input.query !== null) {
    if (typeof input.query !== 'string') throw param('query', "a filter expression string such as \"(accountname = 'Acme')\"", input.query);
    filter = planFilterText(named, input.query);
  }

  const sortGiven = !(input.sort_by === undefined || input.sort_by === null || input.sort_by === '');
  const sortName = sortGiven ? input.sort_by : DEFAULT_SORT_FIELD;
  if (typeof sortName !== 'string') throw param('sort_by', 'a field name', sortName);
  // The default order applies even when createdon is hidden: it discloses no value.
  const sortKey = sortName.trim().toLowerCase();
  const sortField = sortGiven ? named.field(sortKey, " in 'sort_by'", sortName) : knownField(obj, sortKey, " in 'sort_by'", NOTHING_HIDDEN, sortName);
  const sortType = input.sort_type === undefined || input.sort_type === null || input.sort_type === '' ? 'asc' : input.sort_type;
  if (typeof sortType !== 'string' || !/^(asc|desc)$/i.test(sortType.trim())) {
    throw new AppError('SORT_INVALID', `'sort_type' must be 'asc' or 'desc' (any case); got ${quote(sortType)}.`);
  }

  const size = wholeNumber('page_size', input.page_size) ?? QUERY_PAGE.default;
  if (size < 1) throw param('page_size', PAGE_SIZE_RULE, input.page_size);
  const number = wholeNumber('page_number', input.page_number) ?? 1;
  if (number < 1) throw param('page_number', 'a whole number of at least 1', input.page_number);

  return {
    obj,
    fields,
    filter,
    sort: { field: sortField, desc: sortType.trim().toLowerCase() === 'desc' },
    pageSize: Math.min(size, QUERY_PAGE.max),
    pageNumber: number,
    picklistLabels: yesNo('show_real_value', input.show_real_value),
  };
}

/**
 * The rows as the plan asks to show them: with picklistLabels, each picklist code of `plan.fields`
 * becomes its option's label (a code no option has stays the code). Changes `rows` in place.
 */
export function withPicklistLabels(plan: QueryPlan, rows: RecordRow[]): RecordRow[] {
  if (!plan.picklistLabels) return rows;
  const labels = plan.fields
    .filter((f) => f.type === 'picklist' && f.options !== undefined)
    .map((f) => [f.name, new Map(f.options!.map((o) => [o.value, o.label]))] as const);
  for (const row of rows) {
    for (const [name, byCode] of labels) {
      const code = row[name];
      if (typeof code === 'number') row[name] = byCode.get(code) ?? code;
    }
  }
  return rows;
}
