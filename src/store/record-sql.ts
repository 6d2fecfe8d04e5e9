// Builds the SQL of record reads for any dialect from object definitions and query plans: one
// table per object, derived name fields as LEFT JOINs to the lookup's target, filters as bound
// parameters only. Used by every store; dialects differ in the Kysely instance passed in and in
// the few hooks of PageOptions (fold, LIKE, where empty values sort).

import {
  DummyDriver, Kysely, sql, type DatabaseIntrospector, type DialectAdapter, type Expression, type ExpressionBuilder, type OrderByModifiers,
  type QueryCompiler, type SelectQueryBuilder, type SqlBool,
} from 'kysely';
import { isPlanGroup, type PlanNode, type QueryPlan } from '../query/plan.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { TEXT_TYPES, type FieldDef, type ObjectDef } from '../schema/types.js';

/** A Kysely that only compiles (statements run on the store's own driver), for one dialect. */
export function compileOnly(dialect: { adapter: DialectAdapter; introspector: (db: Kysely<any>) => DatabaseIntrospector; compiler: () => QueryCompiler }): Kysely<any> {
  return new Kysely<any>({
    dialect: {
      createAdapter: () => dialect.adapter,
      createDriver: () => new DummyDriver(),
      createIntrospector: dialect.introspector,
      createQueryCompiler: dialect.compiler,
    },
  });
}

/** A statement ready to run: SQL text and its bound values in order. */
export interface CompiledSql {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/** Most query shapes kept per schema version; past it the cache starts again (a client sending ever new filters). */
const MAX_SHAPES = 1000;
/**
 * Shaped statements (an update's SET) a store may prepare, per schema version: integrations update
 * with a few sets of fields, each then planned once per connection (planning an UPDATE of a table
 * with many indexes costs more than running it: bench/README.md, Writes); the rest are planned each time.
 */
const NAMED_SHAPES = 64;

/**
 * Compiled SQL for one schema version: per (kind, object) for the fixed reads, and per query shape
 * for query pages, so the hot reads never rebuild it. Building and compiling a page with Kysely
 * costs about 100 µs; a query whose shape was seen costs a walk of its filter.
 */
export class SqlCache {
  private readonly compiled = new Map<string, string>();
  private readonly pages = new Map<string, string | null>();
  private readonly shapes = new Map<string, string>();
  private readonly named = new Set<string>();

  get(kind: string, obj: ObjectDef, build: () => string): string {
    return this.text(`${kind}:${obj.objectType}`, build);
  }

  /** A statement of no one object (the change log's), under a key of its own. */
  text(key: string, build: () => string): string {
    let text = this.compiled.get(key);
    if (text === undefined) {
      text = build();
      this.compiled.set(key, text);
    }
    return text;
  }

  /**
   * selectQueryPage(k, schema, plan, options) compiled, from the cache when a plan of the same shape
   * (same object, fields, sort, filter structure and options; any values) was compiled before. The
   * cache holds one store's statements: `options` must be the same object-free settings each time
   * apart from noIndex and guard, which are part of the key.
   */
  queryPage(k: Kysely<any>, schema: OrgSchema, plan: QueryPlan, options: PageOptions): CompiledSql {
    const shape = queryShape(schema, plan);
    const key = `${[...(options.noIndex ?? [])].sort().join(',')}|${options.guard ?? ''}|${shape.key}`;
    const text = this.pages.get(key);
    if (typeof text === 'string') return { sql: text, parameters: shape.parameters };
    const compiled = selectQueryPage(k, schema, plan, options).compile();
    if (text === undefined) {
      if (this.pages.size >= MAX_SHAPES) this.pages.clear();
      // The shape's values must be the statement's, in order; a shape where they are not (a bug,
      // tested against in record-sql.test.ts) is compiled every time rather than served wrong.
      this.pages.set(key, sameValues(compiled.parameters, shape.parameters) ? compiled.sql : null);
    }
    return compiled;
  }

  /**
   * A statement whose text depends on which fields a request names (an update's SET), under `key`:
   * kept for the next request of the same shape, up to MAX_SHAPES of them (then forgotten all at
   * once, as query pages are), so that a client naming ever new sets of fields cannot grow it.
   */
  shaped(key: string, build: () => string): { sql: string; fixed: boolean } {
    let text = this.shapes.get(key);
    if (text === undefined) {
      text = build();
      if (this.shapes.size >= MAX_SHAPES) this.shapes.clear();
      this.shapes.set(key, text);
    }
    // `fixed` (a store may prepare it once per connection) for the first NAMED_SHAPES shapes only: a
    // prepared statement stays on every connection that ran it, so their number must be bounded.
    let fixed = this.named.has(key);
    if (!fixed && this.named.size < NAMED_SHAPES) {
      this.named.add(key);
      fixed = true;
    }
    return { sql: text, fixed };
  }

  /** On a schema change. */
  clear(): void {
    this.compiled.clear();
    this.pages.clear();
    this.shapes.clear();
    this.named.clear();
  }
}

function sameValues(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((v, i) => Object.is(v, b[i]));
}

/**
 * A page read with one row more than `pageSize`: whether it is the last page, and the rows cut to the
 * page (in place). IsLastPage is then exact without counting.
 */
export function trimPage<R>(rows: R[], pageSize: number): { rows: R[]; isLastPage: boolean } {
  const isLastPage = rows.length <= pageSize;
  if (!isLastPage) rows.length = pageSize;
  return { rows, isLastPage };
}

/** Table alias of the record being read. */
export const ROW = 'r';

export type Select = SelectQueryBuilder<any, any, any>;

/**
 * The SQL column of a field: its own column, or through the lookup's join the target's primary
 * field (a derived name) or the field a related field reads (`primarycontactid_fullname`).
 */
export function columnOf(obj: ObjectDef, schema: OrgSchema, f: FieldDef): string | undefined {
  if (f.role !== 'derived') return `${ROW}.${f.name}`;
  const lookup = obj.fieldsByName.get(f.derivedFrom!)!;
  const target = schema.find(lookup.target!);
  return target ? `j_${f.name}.${f.targetField ?? target.primaryField}` : undefined;
}

/**
 * `FROM <table> AS r` with the joins the derived and related fields in `needed` require.
 * A derived field whose target object no longer exists reads null.
 */
export function fromWithJoins(k: Kysely<any>, schema: OrgSchema, obj: ObjectDef, needed: Iterable<FieldDef>): Select {
  return joinDerived(k.selectFrom(`${obj.systemName} as ${ROW}`), schema, obj, needed);
}

/** Adds to `q` (which reads the object as `r`) the joins of the derived and related fields in `needed`. */
function joinDerived(q: Select, schema: OrgSchema, obj: ObjectDef, needed: Iterable<FieldDef>): Select {
  const joined = new Set<string>();
  for (const f of needed) {
    if (f.role !== 'derived' || joined.has(f.name)) continue;
    joined.add(f.name);
    const lookup = obj.fieldsByName.get(f.derivedFrom!)!;
    const target = schema.find(lookup.target!);
    if (!target) continue;
    const alias = `j_${f.name}`;
    q = q.leftJoin(`${target.systemName} as ${alias}`, `${alias}.${target.keyField}`, `${ROW}.${lookup.name}`);
  }
  return q;
}

function selectFields(q: Select, obj: ObjectDef, schema: OrgSchema, fields: readonly FieldDef[]): Select {
  return q.select(fields.map((f) => {
    const col = columnOf(obj, schema, f);
    return col === undefined ? sql<null>`null`.as(f.name) : sql.ref(col).as(f.name);
  }));
}

/** SELECT of all (or some) fields of an object, derived names joined in. */
export function selectRecords(k: Kysely<any>, schema: OrgSchema, obj: ObjectDef, fields: readonly FieldDef[] = obj.fields): Select {
  return selectFields(fromWithJoins(k, schema, obj, fields), obj, schema, fields);
}


export function fieldsOfFilter(node: PlanNode | null, out: FieldDef[] = []): FieldDef[] {
  if (!node) return out;
  if (isPlanGroup(node)) for (const c of node.children) fieldsOfFilter(c, out);
  else out.push(node.field);
  return out;
}

/**
 * The dialect's case fold (SQLite: a registered JavaScript toLowerCase; PostgreSQL: lower()).
 * Text compares and sorts as fold(column) against fold(value), so case-insensitivity covers every
 * script, not only A–Z, and expression indexes on fold(column) serve it.
 */
export type Fold = (e: Expression<unknown>) => Expression<unknown>;

/**
 * The dialect's pattern match (start-with, end-with). What every store must give is SQLite's plain LIKE:
 * `%` and `_` are the only special characters (no escape character) and A–Z match either case.
 * `folded` says both sides went through the fold already.
 */
export type Like = (lhs: Expression<unknown>, pattern: Expression<unknown>, folded: boolean) => Expression<SqlBool>;

/** Text-like fields (derived names among them; a related field has the type of the field it reads) compare without regard to case. */
export function isText(f: FieldDef): boolean {
  return TEXT_TYPES.has(f.type);
}

/** The highest code point: a prefix followed by it bounds every string that starts with the prefix. */
const TOP = '\u{10FFFF}';

/** The prefix a LIKE pattern asks for when it is one (text, then a single `%` at the end); else undefined. */
function plainPrefix(pattern: string): string | undefined {
  const head = pattern.slice(0, -1);
  return pattern.endsWith('%') && !/[%_]/.test(head) ? head : undefined;
}

export interface FilterContext {
  readonly eb: ExpressionBuilder<any, any>;
  readonly obj: ObjectDef;
  readonly schema: OrgSchema;
  readonly noIndex: ReadonlySet<string>;
  readonly fold: Fold;
  readonly like: Like | undefined;
}

/** The WHERE expression of a plan; every value is a bound parameter. */
export function filterExpression(ctx: FilterContext, node: PlanNode): Expression<SqlBool> {
  const { eb, obj, schema, noIndex, fold, like } = ctx;
  if (isPlanGroup(node)) {
    const parts = node.children.map((c) => filterExpression(ctx, c));
    return node.kind === 'and' ? eb.and(parts) : eb.or(parts);
  }
  const col = columnOf(obj, schema, node.field);
  if (col === undefined) return node.kind === 'null' && !node.negate ? sql<SqlBool>`1 = 1` : sql<SqlBool>`1 = 0`;
  const text = isText(node.field);
  const column = text ? fold(sql.ref(col)) : sql.ref(col);
  // Unary + keeps the value but stops SQLite from using the column's index for this term.
  const lhs = noIndex.has(node.field.name) ? sql`+${column}` : column;
  const val = (v: string | number) => (text ? fold(sql.val(v)) : sql.val(v));
  const empty = eb(sql.ref(col), 'is', null);
  switch (node.kind) {
    case 'null':
      return node.negate ? eb(sql.ref(col), 'is not', null) : empty;
    case 'compare':
      // `!=` also matches empty values (docs/api.md).
      return node.op === '!=' ? eb.or([eb(lhs, '!=', val(node.value)), empty]) : eb(lhs, node.op, val(node.value));
    case 'range':
      return node.negate
        ? eb.or([eb(lhs, '<', val(node.from)), eb(lhs, '>=', val(node.to)), empty])
        : eb.and([eb(lhs, '>=', val(node.from)), eb(lhs, '<', val(node.to))]);
    case 'match': {
      // A plain prefix is a range on the (folded) index; any other pattern is a LIKE.
      const head = plainPrefix(node.pattern);
      const match = head === undefined
        ? (like ? like(lhs, val(node.pattern), text) : eb(lhs, 'like', val(node.pattern)))
        : eb.and([eb(lhs, '>=', val(head)), eb(lhs, '<', val(head + TOP))]);
      return node.negate ? eb.or([eb.not(match), empty]) : match;
    }
  }
}

/**
 * What makes two plans compile to the same SQL (`key`: object, fields, sort and the filter's
 * structure, not its values), and the values the SQL of `plan` binds, in the order filterExpression
 * and selectPage bind them: the filter's, then the limit and offset.
 */
function queryShape(schema: OrgSchema, plan: QueryPlan): { key: string; parameters: unknown[] } {
  const { obj } = plan;
  const parts = [String(obj.objectType), plan.fields.map((f) => f.name).join(','), plan.sort.field.name, plan.sort.desc ? 'desc' : 'asc'];
  const parameters: unknown[] = [];
  const walk = (node: PlanNode): void => {
    if (isPlanGroup(node)) {
      parts.push(node.kind, '(');
      for (const c of node.children) walk(c);
      parts.push(')');
      return;
    }
    parts.push(node.field.name, node.kind);
    // A derived name whose target is gone compiles to a constant: no values.
    if (columnOf(obj, schema, node.field) === undefined) {
      parts.push('gone', String(node.kind === 'null' && !node.negate));
      return;
    }
    switch (node.kind) {
      case 'null':
        parts.push(String(node.negate));
        break;
      case 'compare':
        parts.push(node.op);
        parameters.push(node.value);
        break;
      case 'range':
        parts.push(String(node.negate));
        parameters.push(node.from, node.to);
        break;
      case 'match': {
        const head = plainPrefix(node.pattern);
        parts.push(String(node.negate), head === undefined ? 'like' : 'span');
        if (head === undefined) parameters.push(node.pattern);
        else parameters.push(head, head + TOP);
        break;
      }
    }
  };
  if (plan.filter) walk(plan.filter);
  parameters.push(plan.pageSize + 1, (plan.pageNumber - 1) * plan.pageSize);
  return { key: parts.join('\u0000'), parameters };
}

/** Whether the plan's sort field has an index of (field, key), which reads its pages in order without sorting. */
export function sortsByIndex(plan: QueryPlan): boolean {
  const { field } = plan.sort;
  return field.role === 'key' || (field.indexed === true && field.role !== 'derived');
}

/**
 * Equalities on indexed columns that must hold for every row (top-level AND) when the sort is by
 * another indexed column: the cases where reading the sort index and filtering can beat the
 * filter's index plus a sort, depending on how many rows match.
 */
export function indexedEqualities(plan: QueryPlan): Array<{ field: FieldDef; value: string | number }> {
  const { filter, sort, obj } = plan;
  if (!filter || !sortsByIndex(plan)) return [];
  const conjuncts = isPlanGroup(filter) ? (filter.kind === 'and' ? filter.children : []) : [filter];
  const out: Array<{ field: FieldDef; value: string | number }> = [];
  for (const c of conjuncts) {
    if (isPlanGroup(c) || c.kind !== 'compare' || c.op !== '=') continue;
    if (c.field.indexed !== true || c.field.role === 'derived' || c.field.role === 'key' || c.field === sort.field) continue;
    if (c.field.name === obj.keyField) continue;
    out.push({ field: c.field, value: c.value });
  }
  return out;
}

/** The dialect's SUM of a number column, rounded to `precision` decimal places (undefined: none), by the rule of schema/decimal.ts. */
export type Sum = (column: Expression<unknown>, precision: number | undefined) => Expression<unknown>;

export interface PageOptions {
  /** The dialect's case fold for text. */
  readonly fold: Fold;
  /** The dialect's SUM (grouped queries): the same on every store, whatever the order of rows. */
  readonly sum: Sum;
  /** Fields whose index the statement must not use (see indexedEqualities); SQLite's unary + does it. */
  readonly noIndex?: ReadonlySet<string>;
  /**
   * An extra WHERE term in the dialect's own SQL, tested before the filter: SQLite's cancellation
   * guard, and the budget of the plan choice (read-protocol.ts).
   */
  readonly guard?: string;
  /** The dialect's pattern match when its LIKE differs from SQLite's (PostgreSQL's takes a backslash as an escape and minds case). */
  readonly like?: Like;
  /**
   * Says where empty values sort, for dialects whose default differs from SQLite's: empty values
   * come first in ascending order and last in descending order on every store. (PostgreSQL's
   * default is the opposite; its indexes are built NULLS FIRST to match.)
   */
  readonly nullsFirstAscending?: boolean;
}

export interface PageSpec extends PageOptions {
  readonly fields: readonly FieldDef[];
  readonly filter: PlanNode | null;
  readonly sort: { readonly field: FieldDef; readonly desc: boolean };
  readonly limit: number;
  readonly offset: number;
}

/**
 * One page of records: `fields` of the rows that pass `filter`, ordered by the sort field with
 * ties by key in the same direction (so one (field, key) index serves either direction).
 *
 * Built as a deferred join: an inner query finds the page's keys touching only the columns the
 * filter and sort need (often an index alone), and only those keys are joined back for their
 * fields and derived names. Skipping 100,000 rows for page 2,000 then costs an index walk, not
 * 100,000 rows × every lookup join.
 */
export function selectPage(k: Kysely<any>, schema: OrgSchema, obj: ObjectDef, spec: PageSpec): Select {
  const noIndex = spec.noIndex ?? new Set<string>();
  const dir = spec.sort.desc ? 'desc' : 'asc';
  const sortCol = columnOf(obj, schema, spec.sort.field);
  const sortExpr = sortCol === undefined ? undefined : isText(spec.sort.field) ? spec.fold(sql.ref(sortCol)) : sql.ref(sortCol);
  const key = `${ROW}.${obj.keyField}`;
  // The key is never null: it keeps the plain direction, which its primary-key index serves.
  const sortDir: OrderByModifiers = !spec.nullsFirstAscending ? dir
    : spec.sort.desc ? (ob) => ob.desc().nullsLast() : (ob) => ob.asc().nullsFirst();
  const ordered = (q: Select): Select =>
    (sortExpr !== undefined && spec.sort.field.name !== obj.keyField ? q.orderBy(sortExpr, sortDir) : q).orderBy(key, dir);

  let keys = fromWithJoins(k, schema, obj, [...fieldsOfFilter(spec.filter), spec.sort.field]).select(key);
  // The guard first. SQLite tests the terms the index read covers before those that need the table
  // row, each group in the order written; a guard on the rowid is covered by every index, so it sees
  // every row examined, not only those that match.
  if (spec.guard) keys = keys.where(sql<SqlBool>`${sql.raw(spec.guard)}`);
  if (spec.filter) {
    const filter = spec.filter;
    keys = keys.where((eb) => filterExpression({ eb, obj, schema, noIndex, fold: spec.fold, like: spec.like }, filter));
  }
  keys = ordered(keys).limit(spec.limit).offset(spec.offset);

  // CROSS JOIN: SQLite then keeps the written order (the page's keys drive, each finds its row by
  // key) instead of scanning the table in sort order; other planners take it as a plain join.
  const page = joinDerived(
    k.selectFrom(keys.as('p')).crossJoin(`${obj.systemName} as ${ROW}`).whereRef(key, '=', `p.${obj.keyField}`),
    schema, obj, [...spec.fields, spec.sort.field],
  );
  return ordered(selectFields(page, obj, schema, spec.fields));
}

/**
 * A page of an export: every field, in key order, after a key; parameters `[after, limit]` (after ''
 * for the first page: every key is greater). The primary key's index serves the order and the bound.
 */
export function selectScanPage(k: Kysely<any>, schema: OrgSchema, obj: ObjectDef): CompiledSql {
  const key = `${ROW}.${obj.keyField}`;
  return selectRecords(k, schema, obj).where(key, '>', '').orderBy(key).limit(0).compile();
}

/** The GET-list page: every field, newest first (createdon descending, ties by key descending). */
export function selectListPage(k: Kysely<any>, schema: OrgSchema, obj: ObjectDef, page: { limit: number; offset: number }, options: PageOptions): Select {
  const createdon = obj.fieldsByName.get('createdon')!;
  return selectPage(k, schema, obj, { ...options, fields: obj.fields, filter: null, sort: { field: createdon, desc: true }, ...page });
}

/**
 * The page of a query plan, fetching one row more than the page so IsLastPage is exact without
 * counting.
 */
function selectQueryPage(k: Kysely<any>, schema: OrgSchema, plan: QueryPlan, options: PageOptions): Select {
  return selectPage(k, schema, plan.obj, {
    ...options,
    fields: plan.fields,
    filter: plan.filter,
    sort: plan.sort,
    limit: plan.pageSize + 1,
    offset: (plan.pageNumber - 1) * plan.pageSize,
  });
}
