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

/** Compiled SQL per (kind, object) for one schema version, so the hot reads never rebuild it. */
export class SqlCache {
  private readonly compiled = new Map<string, string>();

  get(kind: string, obj: ObjectDef, build: () => string): string {
    const key = `${kind}:${obj.objectType}`;
    let text = this.compiled.get(key);
    if (text === undefined) {
      text = build();
      this.compiled.set(key, text);
    }
    return text;
  }

  /** On a schema change. */
  clear(): void {
    this.compiled.clear();
  }
}

/** Table alias of the record being read. */
export const ROW = 'r';

type Select = SelectQueryBuilder<any, any, any>;

/** The SQL column of a field: its own column, or the target's primary field through the lookup's join. */
function columnOf(obj: ObjectDef, schema: OrgSchema, f: FieldDef): string | undefined {
  if (f.role !== 'derived') return `${ROW}.${f.name}`;
  const lookup = obj.fieldsByName.get(f.derivedFrom!)!;
  const target = schema.find(lookup.target!);
  return target ? `j_${f.name}.${target.primaryField}` : undefined;
}

/**
 * `FROM <table> AS r` with the joins the derived fields in `needed` require.
 * A derived field whose target object no longer exists reads null.
 */
function fromWithJoins(k: Kysely<any>, schema: OrgSchema, obj: ObjectDef, needed: Iterable<FieldDef>): Select {
  return joinDerived(k.selectFrom(`${obj.systemName} as ${ROW}`), schema, obj, needed);
}

/** Adds to `q` (which reads the object as `r`) the joins of the derived fields in `needed`. */
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


function fieldsOfFilter(node: PlanNode | null, out: FieldDef[] = []): FieldDef[] {
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
 * The dialect's `start-with` pattern match. What every store must give is SQLite's plain LIKE:
 * `%` and `_` are the only special characters (no escape character) and A–Z match either case.
 * `folded` says both sides went through the fold already.
 */
export type Like = (lhs: Expression<unknown>, pattern: Expression<unknown>, folded: boolean) => Expression<SqlBool>;

/** Text-like fields and derived names compare without regard to case. */
function isText(f: FieldDef): boolean {
  return TEXT_TYPES.has(f.type) || f.role === 'derived';
}

/** The highest code point: a prefix followed by it bounds every string that starts with the prefix. */
const TOP = '\u{10FFFF}';

interface FilterContext {
  readonly eb: ExpressionBuilder<any, any>;
  readonly obj: ObjectDef;
  readonly schema: OrgSchema;
  readonly noIndex: ReadonlySet<string>;
  readonly fold: Fold;
  readonly like: Like | undefined;
}

/** The WHERE expression of a plan; every value is a bound parameter. */
function filterExpression(ctx: FilterContext, node: PlanNode): Expression<SqlBool> {
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
      // `!=` also matches empty values (DESIGN §3).
      return node.op === '!=' ? eb.or([eb(lhs, '!=', val(node.value)), empty]) : eb(lhs, node.op, val(node.value));
    case 'range':
      return node.negate
        ? eb.or([eb(lhs, '<', val(node.from)), eb(lhs, '>=', val(node.to)), empty])
        : eb.and([eb(lhs, '>=', val(node.from)), eb(lhs, '<', val(node.to))]);
    case 'prefix': {
      const head = node.pattern.slice(0, -1);
      // A plain prefix is a range on the (folded) index; with inner wildcards it is a LIKE.
      const match = /[%_]/.test(head)
        ? (like ? like(lhs, val(node.pattern), text) : eb(lhs, 'like', val(node.pattern)))
        : eb.and([eb(lhs, '>=', val(head)), eb(lhs, '<', val(head + TOP))]);
      return node.negate ? eb.or([eb.not(match), empty]) : match;
    }
  }
}

/**
 * Equalities on indexed columns that must hold for every row (top-level AND) when the sort is by
 * another indexed column: the cases where reading the sort index and filtering can beat the
 * filter's index plus a sort, depending on how many rows match.
 */
export function indexedEqualities(plan: QueryPlan): Array<{ field: FieldDef; value: string | number }> {
  const { filter, sort, obj } = plan;
  if (!filter) return [];
  const sortIndexed = sort.field.role === 'key' || (sort.field.indexed === true && sort.field.role !== 'derived');
  if (!sortIndexed) return [];
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

export interface PageOptions {
  /** The dialect's case fold for text. */
  readonly fold: Fold;
  /** Fields whose index the statement must not use (see indexedEqualities); SQLite's unary + does it. */
  readonly noIndex?: ReadonlySet<string>;
  /** An extra WHERE term in the dialect's own SQL, e.g. SQLite's cancellation guard. */
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
  if (spec.filter) {
    const filter = spec.filter;
    keys = keys.where((eb) => filterExpression({ eb, obj, schema, noIndex, fold: spec.fold, like: spec.like }, filter));
  }
  if (spec.guard) keys = keys.where(sql<SqlBool>`${sql.raw(spec.guard)}`);
  keys = ordered(keys).limit(spec.limit).offset(spec.offset);

  // CROSS JOIN: SQLite then keeps the written order (the page's keys drive, each finds its row by
  // key) instead of scanning the table in sort order; other planners take it as a plain join.
  const page = joinDerived(
    k.selectFrom(keys.as('p')).crossJoin(`${obj.systemName} as ${ROW}`).whereRef(key, '=', `p.${obj.keyField}`),
    schema, obj, [...spec.fields, spec.sort.field],
  );
  return ordered(selectFields(page, obj, schema, spec.fields));
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
export function selectQueryPage(k: Kysely<any>, schema: OrgSchema, plan: QueryPlan, options: PageOptions): Select {
  return selectPage(k, schema, plan.obj, {
    ...options,
    fields: plan.fields,
    filter: plan.filter,
    sort: plan.sort,
    limit: plan.pageSize + 1,
    offset: (plan.pageNumber - 1) * plan.pageSize,
  });
}
