// The SQL of a grouped query (query/group-plan.ts) for any dialect: the records the filter chooses,
// grouped by the plan's fields, with SUM, COUNT, MIN and MAX per group, one page of groups in a total
// order. Joins, filters and the dialect hooks are record-sql.ts's, so a group sees what a row does.

import { sql, type Kysely, type OrderByModifiers, type RawBuilder, type SqlBool } from 'kysely';
import type { Aggregate, GroupedPlan } from '../query/group-plan.js';
import type { OrgSchema } from '../schema/org-schema.js';
import type { FieldDef } from '../schema/types.js';
import { datePeriodExpression } from './date-period-sql.js';
import { columnOf, fieldsOfFilter, filterExpression, fromWithJoins, isText, type PageOptions, type Select } from './record-sql.js';

/** An aggregate's SQL; over a related field whose target object is gone, what it gives over nulls. */
function aggregateExpression(schema: OrgSchema, plan: GroupedPlan, a: Aggregate, options: PageOptions): RawBuilder<unknown> {
  if (a.field === null) return sql`count(*)`;
  const col = columnOf(plan.obj, schema, a.field);
  if (col === undefined) return a.fn === 'count' ? sql`0` : sql`null`;
  const ref = sql.ref(col);
  switch (a.fn) {
    case 'sum': return sql`${options.sum(ref, a.field.precision)}`;
    case 'count': return sql`count(${ref})`;
    case 'min': return sql`min(${ref})`;
    case 'max': return sql`max(${ref})`;
  }
}

/**
 * One page of groups (one row more than the page, so IsLastPage is exact): the group fields under
 * their names, then each aggregate under its alias. Ordered by the plan's sort, then by every group
 * field ascending (text by its fold, then as stored, so case variants, which are separate groups,
 * keep one order on every store); empty values first ascending and last descending, as for rows.
 */
export function selectGroupPage(k: Kysely<any>, schema: OrgSchema, plan: GroupedPlan, options: PageOptions): Select {
  const { obj } = plan;
  const aggregated = plan.aggregates.flatMap((a) => (a.field ? [a.field] : []));
  let q = fromWithJoins(k, schema, obj, [...plan.groupBy.map((g) => g.field), ...aggregated, ...fieldsOfFilter(plan.filter)]);
  if (options.guard) q = q.where(sql<SqlBool>`${sql.raw(options.guard)}`);
  if (plan.filter) {
    const filter = plan.filter;
    q = q.where((eb) => filterExpression({ eb, obj, schema, noIndex: new Set(), fold: options.fold, like: options.like }, filter));
  }
  // A group's value: the column, or its date period (the same expression wherever it is used).
  const groups = plan.groupBy.map(({ field, period }) => {
    const col = columnOf(obj, schema, field);
    const expr = col === undefined ? undefined : period === null ? sql.ref(col) : datePeriodExpression(col, field.type === 'datetime', period);
    return { field, expr, text: period === null && isText(field) };
  });
  q = q.select([
    ...groups.map(({ field, expr }) => (expr === undefined ? sql<null>`null`.as(field.name) : expr.as(field.name))),
    ...plan.aggregates.map((a) => aggregateExpression(schema, plan, a, options).as(a.alias)),
  ]);
  const grouped = groups.flatMap(({ expr }) => (expr === undefined ? [] : [expr]));
  if (grouped.length > 0) q = q.groupBy(grouped);

  const direction = (desc: boolean): OrderByModifiers => (!options.nullsFirstAscending ? (desc ? 'desc' : 'asc')
    : desc ? (ob) => ob.desc().nullsLast() : (ob) => ob.asc().nullsFirst());
  const byGroup = (field: FieldDef, desc: boolean): void => {
    const group = groups.find((g) => g.field === field);
    if (group?.expr === undefined) return;
    if (group.text) q = q.orderBy(options.fold(group.expr), direction(desc));
    q = q.orderBy(group.expr, direction(desc));
  };
  const { sort } = plan;
  if (sort?.kind === 'aggregate') q = q.orderBy(aggregateExpression(schema, plan, sort.aggregate, options), direction(sort.desc));
  if (sort?.kind === 'group') byGroup(sort.field, sort.desc);
  for (const { field } of groups) if (sort?.kind !== 'group' || sort.field !== field) byGroup(field, false);
  return q.limit(plan.pageSize + 1).offset((plan.pageNumber - 1) * plan.pageSize);
}
