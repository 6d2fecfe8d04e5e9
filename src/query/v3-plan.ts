// The plan of a v3 query body (docs/compat.md): `{objectType, fields: [{name}], filter: [{type,
// conditions: [{fieldName, operator, value}]}], orderBy: [{name, order}], pageNumber, pageSize}`,
// and of a grouped one (`groupBy`, fields with `aggrFunc` and `alias`). Everything but the filter
// of a plain query goes through planQuery; conditions are typed by the same rules as the filter
// language, so both routes agree on every value.

import { AppError, quote } from '../errors.js';
import { isMatchOp, isNullOp, type FilterOp } from './ast.js';
import { FILTER_LIMITS } from './parser.js';
import type { OrgSchema } from '../schema/org-schema.js';
import type { FieldDef } from '../schema/types.js';
import { CRMUSER_OBJECT_TYPE } from '../schema/build-object.js';
import { AGGREGATE_FUNCTIONS, AGGREGATE_TYPES, DATE_ONLY_PERIODS, DATE_PERIODS, GROUP_LIMITS, type Aggregate, type AggregateFunction, type DatePeriod, type GroupedPlan, type GroupField, type GroupSort } from './group-plan.js';
import { PAGE_SIZE_RULE, planQuery, QUERY_PAGE, resolveObject, spanCondition, typeCondition, wholeNumberRule, type ConditionSite, type PlanNode, type QueryPlan, type ReadAccess } from './plan.js';
import { QueryFields } from './query-fields.js';
import { relativeDays, type DaySpan } from './relative-dates.js';

/** v3 operator → the filter language's; eq-in, not-in, between and userid expand to several. */
const SIMPLE_OPS: Readonly<Record<string, FilterOp>> = {
  eq: '=', ne: '!=', lt: '<', gt: '>', le: '<=', ge: '>=',
  'start-with': 'start-with', 'not-start-with': 'not-start-with', 'end-with': 'end-with', 'not-end-with': 'not-end-with',
  'is-null': 'is-null', 'is-not-null': 'is-not-null',
};
export const V3_OPERATORS = [...Object.keys(SIMPLE_OPS), 'eq-in', 'not-in', 'between', 'userid'] as const;

/** Values in one eq-in / not-in list: each counts as a condition, so a longer one could never pass. */
export const V3_LIST_MAX = FILTER_LIMITS.maxConditions;

export interface V3Context {
  /** The caller, for the `userid` operator (the caller's own records). */
  readonly userId: string;
  /** The request's instant (ms since the epoch), for relative dates such as `today`. */
  readonly now: number;
}

function bad(message: string): AppError {
  return new AppError('PARAM_INVALID', message);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `[{name}]` or `['name']` → the filter language's comma list; absent or empty → '*'. */
function fieldList(raw: unknown): string {
  if (raw === undefined || raw === null) return '*';
  if (!Array.isArray(raw)) throw bad("'fields' must be an array of {\"name\": \"<field>\"}.");
  const names = raw.map((f, i) => {
    const name = isObject(f) ? f.name : f;
    if (typeof name !== 'string' || name.trim() === '' || name.includes(',')) throw bad(`'fields[${i}]' must be {"name": "<field>"}; got ${quote(f)}.`);
    return name;
  });
  return names.length === 0 ? '*' : names.join(',');
}

/** A scalar condition value: numbers as digits, null as ''; booleans are typed by the field (booleanValue). */
function scalar(v: unknown, where: string): string | boolean {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  throw bad(`${where} must be a string, a number or a boolean; got ${quote(v)}.`);
}

/**
 * true / false as the service's yes/no fields hold them: it has no boolean type (yes/no is a
 * picklist or a number), so 1 and 0 where the field is a number or picklist; elsewhere a 400.
 */
function booleanValue(field: FieldDef, v: boolean, where: string): string {
  if (field.type === 'number' || field.type === 'picklist') return v ? '1' : '0';
  throw new AppError('FIELD_TYPE', `${where} is ${v}, but '${field.name}' is a ${field.type} field: true and false (read as 1 and 0) compare with number and picklist fields only. Send a ${field.type} value.`);
}

/** eq-in / not-in / between operands: a JSON array, or a comma-separated string. */
function list(v: unknown, where: string): Array<string | boolean> {
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',').map((s) => s.trim()) : undefined;
  if (!items || items.length === 0) throw bad(`${where} must be a non-empty array of values.`);
  if (items.length > V3_LIST_MAX) throw bad(`${where} has ${items.length} values; the most is ${V3_LIST_MAX} (each counts as one of the filter's ${FILTER_LIMITS.maxConditions} conditions). Split the query.`);
  return items.map((x, i) => scalar(x, `${where}[${i}]`));
}

/** A comparison with a span of days, by the whole-day rules of date-only values (docs/query.md). */
function daySpanCondition(field: FieldDef, op: FilterOp, span: DaySpan): PlanNode {
  const at = (day: string) => (field.type === 'datetime' ? `${day}T00:00:00` : day);
  if (isMatchOp(op) || isNullOp(op)) {
    throw bad(`'${op}' cannot take a relative date; use eq, ne, lt, le, gt, ge or between.`);
  }
  return spanCondition(field, op, at(span.from), at(span.to));
}

interface Planning {
  /** The fields of the plan's object the caller may name. */
  readonly named: QueryFields;
  readonly ctx: V3Context;
  count: number;
}

function planOne(p: Planning, raw: unknown, where: string): PlanNode {
  if (!isObject(raw)) throw bad(`${where} must be {"fieldName", "operator", "value"}; got ${quote(raw)}.`);
  const field = raw.fieldName ?? raw.fieldname;
  if (typeof field !== 'string' || field.trim() === '') throw bad(`${where}.fieldName must be a field name.`);
  const operator = typeof raw.operator === 'string' ? raw.operator.trim().toLowerCase() : raw.operator;
  const site: ConditionSite = { field: ` in ${where}.fieldName`, op: ` in ${where}.operator`, value: ` in ${where}.value` };
  const { named } = p;
  const name = field.trim().toLowerCase();
  const one = (op: FilterOp, raw: string | boolean | null, at = `${where}.value`): PlanNode => {
    if (++p.count > FILTER_LIMITS.maxConditions) {
      throw new AppError('QUERY_TOO_COMPLEX', `The filter has more than ${FILTER_LIMITS.maxConditions} conditions (each value of eq-in and not-in counts as one). Split the query.`);
    }
    const f = named.field(name, site.field);
    const value = typeof raw === 'boolean' ? booleanValue(f, raw, at) : raw;
    const span = value !== null && (f.type === 'date' || f.type === 'datetime') ? relativeDays(value, p.ctx.now) : undefined;
    // `now` is an instant on a datetime field (compared to the second), today on a date field.
    const instant = span?.at !== undefined && f.type === 'datetime' && !isMatchOp(op) && !isNullOp(op) ? span.at : undefined;
    if (instant !== undefined) return typeCondition(named, { field: name, op, value: instant }, site);
    return span ? daySpanCondition(f, op, span) : typeCondition(named, { field: name, op, value }, site);
  };
  if (typeof operator === 'string' && operator in SIMPLE_OPS) {
    const op = SIMPLE_OPS[operator]!;
    return one(op, isNullOp(op) ? null : scalar(raw.value, `${where}.value`));
  }
  switch (operator) {
    case 'eq-in':
    case 'not-in': {
      const parts = list(raw.value, `${where}.value`).map((v, i) => one(operator === 'eq-in' ? '=' : '!=', v, `${where}.value[${i}]`));
      return parts.length === 1 ? parts[0]! : { kind: operator === 'eq-in' ? 'or' : 'and', children: parts };
    }
    case 'between': {
      const bounds = list(raw.value, `${where}.value`);
      if (bounds.length !== 2) throw bad(`${where}.value of 'between' must be two values [from, to]; got ${bounds.length}.`);
      return { kind: 'and', children: [one('>=', bounds[0]!, `${where}.value[0]`), one('<=', bounds[1]!, `${where}.value[1]`)] };
    }
    case 'userid': {
      // The caller's id means something only to a lookup to users: against text it matched nothing
      // in silence, against a date it was refused naming a value the client never sent.
      const f = named.field(name, site.field);
      if (f.type !== 'lookup' || f.target !== CRMUSER_OBJECT_TYPE) {
        throw new AppError('FIELD_TYPE', `${where}.operator 'userid' matches the records whose lookup to users holds your own user, but '${f.name}' is ${f.type === 'lookup' ? 'a lookup to another object' : `a ${f.type} field`}. Name a lookup to users, such as ownerid or createdby.`);
      }
      return one('=', p.ctx.userId);
    }
    default: {
      const what = raw.operator === undefined ? 'is missing' : `${quote(raw.operator)} is not an operator`;
      throw bad(`${where}.operator ${what}. Use one of: ${V3_OPERATORS.join(', ')}.`);
    }
  }
}

/** `filter: [{type: 'AND'|'OR', conditions: [...]}, ...]`: groups hold together (AND), each joined by its type. */
function planFilter(p: Planning, raw: unknown): PlanNode | null {
  if (raw === undefined || raw === null) return null;
  const groups = Array.isArray(raw) ? raw : [raw];
  const nodes: PlanNode[] = [];
  groups.forEach((g, i) => {
    const where = `filter[${i}]`;
    if (!isObject(g)) throw bad(`${where} must be {"type": "AND" or "OR", "conditions": [...]}.`);
    const type = g.type === undefined || g.type === null ? 'and' : String(g.type).trim().toLowerCase();
    if (type !== 'and' && type !== 'or') throw bad(`${where}.type must be 'AND' or 'OR'; got ${quote(g.type)}.`);
    if (!Array.isArray(g.conditions)) throw bad(`${where}.conditions must be an array of conditions.`);
    const children = g.conditions.map((c, j) => planOne(p, c, `${where}.conditions[${j}]`));
    if (children.length === 1) nodes.push(children[0]!);
    else if (children.length > 1) nodes.push({ kind: type, children });
  });
  if (nodes.length === 0) return null;
  return nodes.length === 1 ? nodes[0]! : { kind: 'and', children: nodes };
}

/** pageSize / pageNumber: a whole number (or digit string) of at least 1, checked here so the message names the member as sent. */
export function pageParam(raw: unknown, name: string, expected: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) throw bad(`'${name}' must be ${wholeNumberRule(raw, expected)}; got ${quote(raw)}.`);
  return n;
}

/** The one `orderBy` entry, checked (a name, order asc or desc); undefined when none is given. */
function sortEntry(raw: unknown): { name: string; order: string } | undefined {
  if (raw === undefined || raw === null) return undefined;
  const entries = Array.isArray(raw) ? raw : [raw];
  if (entries.length > 1) throw new AppError('SORT_INVALID', "'orderBy' may name one field; ties are broken by the record's key.");
  if (entries.length === 0) return undefined;
  const entry = entries[0];
  if (!isObject(entry) || typeof entry.name !== 'string' || entry.name.trim() === '') {
    throw new AppError('SORT_INVALID', `'orderBy' must be [{"name": "<field>", "order": "asc" or "desc"}]; got ${quote(raw)}.`);
  }
  const order = entry.order ?? 'asc';
  if (typeof order !== 'string' || !/^\s*(asc|desc)\s*$/i.test(order)) {
    throw new AppError('SORT_INVALID', `orderBy[0].order must be 'asc' or 'desc' (any case); got ${quote(entry.order)}.`);
  }
  return { name: entry.name, order };
}

/**
 * `orderBy: [{name, order}]` as planQuery's sort_by / sort_type, checked here (name known and not
 * hidden, order asc or desc) so that a message names `orderBy[0]` rather than the filter language's members.
 */
function sortOf(named: QueryFields, raw: unknown): { sort_by?: string; sort_type?: string } {
  const entry = sortEntry(raw);
  if (!entry) return {};
  const field = named.field(entry.name.trim().toLowerCase(), ' in orderBy[0].name', entry.name);
  return { sort_by: field.name, sort_type: entry.order };
}

/** The order of a grouped query: a group field or an aggregate's alias. */
function groupSortOf(raw: unknown, groupBy: readonly FieldDef[], aggregates: readonly Aggregate[]): GroupSort | null {
  const entry = sortEntry(raw);
  if (!entry) return null;
  const desc = entry.order.trim().toLowerCase() === 'desc';
  const name = entry.name.trim();
  const aggregate = aggregates.find((a) => a.alias.toLowerCase() === name.toLowerCase());
  if (aggregate) return { kind: 'aggregate', aggregate, desc };
  const field = groupBy.find((f) => f.name === name.toLowerCase());
  if (field) return { kind: 'group', field, desc };
  throw new AppError('SORT_INVALID', `orderBy[0].name ${quote(entry.name)} is neither a groupBy field nor an alias of this grouped query; order groups by one of: ${[...groupBy.map((f) => f.name), ...aggregates.map((a) => a.alias)].join(', ') || '(none)'}.`);
}

/** Whether a body asks for groups: a non-empty `groupBy`, or a field with an `aggrFunc`. */
function isGrouped(raw: Record<string, unknown>): boolean {
  const groupBy = raw.groupBy ?? raw.groupby;
  if (groupBy !== undefined && groupBy !== null && !(Array.isArray(groupBy) && groupBy.length === 0)) return true;
  return Array.isArray(raw.fields) && raw.fields.some((f) => isObject(f) && (f.aggrFunc ?? f.aggrfunc ?? '') !== '');
}

/** An entry of `groupBy` or `fields`: `{name}` or a bare name. */
function entryName(entry: unknown, where: string, shape: string): string {
  const name = isObject(entry) ? entry.name : entry;
  if (typeof name !== 'string' || name.trim() === '') throw bad(`'${where}' must be ${shape}; got ${quote(entry)}.`);
  return name;
}

const ALIAS_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `groupBy[i].datePeriod`: absent for the value itself; else a period (any case) of a date or datetime field. */
function datePeriodOf(field: FieldDef, raw: unknown, where: string): DatePeriod | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const period = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  const valid: readonly DatePeriod[] = field.type === 'datetime' ? DATE_PERIODS : field.type === 'date' ? DATE_ONLY_PERIODS : [];
  if (valid.length === 0) throw bad(`${where} buckets date and datetime fields only, but '${field.name}' is a ${field.type} field. Remove datePeriod, or group a date field by one of: ${DATE_PERIODS.join(', ')}.`);
  if (!(valid as readonly string[]).includes(period)) {
    const hours = field.type === 'date' && period.startsWith('HOUR') ? ` '${field.name}' is a date field, which has no time of day.` : '';
    throw bad(`${where} must be one of ${valid.join(', ')}; got ${quote(raw)}.${hours}`);
  }
  return period as DatePeriod;
}

/** One aggregate of `fields[i]`: its function, its field (hidden → 403, unknown → 400, type checked) and its alias. */
function aggregateOf(named: QueryFields, entry: Record<string, unknown>, name: string, where: string): Aggregate {
  const rawFn = entry.aggrFunc ?? entry.aggrfunc;
  const fn = typeof rawFn === 'string' ? rawFn.trim().toLowerCase() : '';
  if (!(AGGREGATE_FUNCTIONS as readonly string[]).includes(fn)) {
    throw bad(`${where}.aggrFunc must be one of ${AGGREGATE_FUNCTIONS.map((f) => f.toUpperCase()).join(', ')}; got ${quote(rawFn)}.`);
  }
  const func = fn as AggregateFunction;
  let field: FieldDef | null = null;
  if (name.trim() === '*') {
    if (func !== 'count') throw bad(`${where}.name '*' (every record) takes COUNT only; name a field for ${func.toUpperCase()}.`);
  } else {
    field = named.field(name.trim().toLowerCase(), ` in ${where}.name`, name);
    const types = AGGREGATE_TYPES[func];
    if (types !== 'any' && !types.has(field.type)) {
      throw new AppError('FIELD_TYPE', `${func.toUpperCase()} takes ${[...types].join(', ')} fields, but '${field.name}' (${where}.name) is a ${field.type} field.${func === 'sum' ? '' : ' Text is ordered without regard to case, which MIN and MAX cannot follow.'}`);
    }
  }
  const rawAlias = entry.alias;
  if (rawAlias === undefined || rawAlias === null || rawAlias === '') return { fn: func, field, alias: field ? `${func}_${field.name}` : func };
  if (typeof rawAlias !== 'string' || !ALIAS_RE.test(rawAlias) || rawAlias.length > GROUP_LIMITS.alias) {
    throw bad(`${where}.alias must be a name of letters, digits and '_' (not starting with a digit), at most ${GROUP_LIMITS.alias} characters; got ${quote(rawAlias)}.`);
  }
  // A row member named __proto__ would set the row's prototype rather than hold the value: SQLite's
  // rows dropped it, PostgreSQL's kept it.
  if (rawAlias.toLowerCase() === '__proto__') throw bad(`${where}.alias '${rawAlias}' is reserved (JavaScript's name for an object's prototype); choose another alias.`);
  return { fn: func, field, alias: rawAlias };
}

/** A grouped v3 query: `groupBy: [{name}]`, `fields` of group fields and `{name, aggrFunc, alias}`. */
function planGrouped(schema: OrgSchema, raw: Record<string, unknown>, objectType: string | number, access: ReadAccess, ctx: V3Context): GroupedPlan {
  const obj = resolveObject(schema, objectType);
  const named = new QueryFields(schema, obj, access);
  const rawGroups = raw.groupBy ?? raw.groupby ?? [];
  const groupEntries = Array.isArray(rawGroups) ? rawGroups : [rawGroups];
  if (groupEntries.length > GROUP_LIMITS.groupBy) throw bad(`'groupBy' names ${groupEntries.length} fields; the most is ${GROUP_LIMITS.groupBy}.`);
  const groups: GroupField[] = [];
  groupEntries.forEach((g, i) => {
    const name = entryName(g, `groupBy[${i}]`, '{"name": "<field>"}');
    const f = named.field(name.trim().toLowerCase(), ` in groupBy[${i}].name`, name);
    const period = datePeriodOf(f, isObject(g) ? g.datePeriod ?? g.dateperiod : undefined, `groupBy[${i}].datePeriod`);
    const same = groups.find((x) => x.field === f);
    if (same && same.period !== period) throw bad(`groupBy[${i}] groups '${f.name}' again by another period; a field is one member of each row, so group it once.`);
    if (!same) groups.push({ field: f, period });
  });
  const groupBy = groups.map((x) => x.field);
  if (raw.fields !== undefined && raw.fields !== null && !Array.isArray(raw.fields)) {
    throw bad("'fields' must be an array of {\"name\": \"<field>\"} or {\"name\", \"aggrFunc\", \"alias\"}.");
  }
  const aggregates: Aggregate[] = [];
  const taken = new Set(groupBy.map((f) => f.name));
  ((raw.fields ?? []) as unknown[]).forEach((entry, i) => {
    const where = `fields[${i}]`;
    const name = entryName(entry, where, '{"name": "<field>"} or {"name", "aggrFunc", "alias"}');
    const fn = isObject(entry) ? entry.aggrFunc ?? entry.aggrfunc : undefined;
    if (fn === undefined || fn === null || fn === '') {
      const f = named.field(name.trim().toLowerCase(), ` in ${where}.name`, name);
      if (!groupBy.includes(f)) {
        throw bad(`${where} '${f.name}' is neither in groupBy nor aggregated: the rows of a grouped query hold group fields and aggregates only. Add it to groupBy, or give it an aggrFunc (SUM, COUNT, MIN, MAX) and an alias.`);
      }
      return;
    }
    const aggregate = aggregateOf(named, entry as Record<string, unknown>, name, where);
    const key = aggregate.alias.toLowerCase();
    if (taken.has(key) || key === '_id') throw bad(`${where}.alias '${aggregate.alias}' is taken (by a group field, another aggregate or _id); choose another alias.`);
    taken.add(key);
    aggregates.push(aggregate);
  });
  if (aggregates.length > GROUP_LIMITS.aggregates) throw bad(`'fields' holds ${aggregates.length} aggregates; the most is ${GROUP_LIMITS.aggregates}.`);
  const size = pageParam(raw.pageSize ?? raw.pagesize, 'pageSize', PAGE_SIZE_RULE) ?? QUERY_PAGE.default;
  return {
    obj,
    groupBy: groups,
    aggregates,
    filter: planFilter({ named, ctx, count: 0 }, raw.filter),
    sort: groupSortOf(raw.orderBy ?? raw.orderby, groupBy, aggregates),
    pageSize: Math.min(size, QUERY_PAGE.max),
    pageNumber: pageParam(raw.pageNumber ?? raw.pagenumber, 'pageNumber', 'a whole number of at least 1') ?? 1,
  };
}

/** A planned v3 query: rows of records, or groups. */
export type V3Plan =
  | { readonly kind: 'rows'; readonly plan: QueryPlan; readonly keyAsked: boolean }
  | { readonly kind: 'groups'; readonly plan: GroupedPlan };

/**
 * Checks and types a v3 query body. Rows: the object's key is always among the plan's fields (rows
 * carry `_id`); `keyAsked` says whether the client asked for it by name too. Groups: when the body
 * has a `groupBy` or an `aggrFunc` (docs/compat.md, v3 grouped query).
 */
export function planV3Query(schema: OrgSchema, raw: unknown, access: ReadAccess, ctx: V3Context): V3Plan {
  if (!isObject(raw)) throw new AppError('BODY_INVALID', 'The request body must be a JSON object such as {"objectType": 1, "fields": [{"name": "accountname"}], "pageSize": 50}.');
  const objectType = raw.objectType ?? raw.objecttype;
  if (objectType === undefined || objectType === null || objectType === '') {
    throw bad("'objectType' is required: the object's number (1) or system name ('account').");
  }
  if (typeof objectType !== 'number' && typeof objectType !== 'string') throw bad(`'objectType' must be an object's number or system name; got ${quote(objectType)}.`);
  if (isGrouped(raw)) return { kind: 'groups', plan: planGrouped(schema, raw, objectType, access, ctx) };
  const base = planQuery(schema, {
    objecttype: objectType,
    fields: fieldList(raw.fields),
    ...sortOf(new QueryFields(schema, resolveObject(schema, objectType), access), raw.orderBy ?? raw.orderby),
    page_size: pageParam(raw.pageSize ?? raw.pagesize, 'pageSize', PAGE_SIZE_RULE),
    page_number: pageParam(raw.pageNumber ?? raw.pagenumber, 'pageNumber', 'a whole number of at least 1'),
  }, access);
  const key = base.obj.fieldsByName.get(base.obj.keyField)!;
  const keyAsked = base.fields.includes(key);
  const plan: QueryPlan = { ...base, fields: keyAsked ? base.fields : [...base.fields, key] };
  const filter = planFilter({ named: new QueryFields(schema, plan.obj, access), ctx, count: 0 }, raw.filter);
  return { kind: 'rows', plan: { ...plan, filter }, keyAsked };
}
