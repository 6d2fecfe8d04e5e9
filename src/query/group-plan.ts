// The plan of a grouped v3 query (docs/compat.md, v3 grouped query): the fields records are grouped
// by, the aggregates (SUM, COUNT, MIN, MAX) computed per group under their aliases, the filter that
// chooses the records, the order of the groups and the page. Built by v3-plan.ts; run by a store.

import { AppError } from '../errors.js';
import type { FieldDef, FieldType, ObjectDef, RecordRow } from '../schema/types.js';
import { roundTo } from '../schema/values.js';
import type { PlanNode } from './plan.js';

export const AGGREGATE_FUNCTIONS = ['sum', 'count', 'min', 'max'] as const;
export type AggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number];

/**
 * The field types each function takes. SUM adds numbers; MIN and MAX order numbers, picklist codes
 * and dates, the types whose stored order is their meaning (text is ordered without regard to case,
 * which no SQL min() does); COUNT counts the records where any field has a value.
 */
export const AGGREGATE_TYPES: Readonly<Record<AggregateFunction, ReadonlySet<FieldType> | 'any'>> = {
  sum: new Set(['number']),
  min: new Set(['number', 'picklist', 'date', 'datetime']),
  max: new Set(['number', 'picklist', 'date', 'datetime']),
  count: 'any',
};

/** Bounds of one grouped query: group fields and aggregates. */
export const GROUP_LIMITS = { groupBy: 10, aggregates: 50, alias: 63 } as const;

export interface Aggregate {
  readonly fn: AggregateFunction;
  /** The field aggregated; null for COUNT of `*` (every record of the group). */
  readonly field: FieldDef | null;
  /** The member of each row that holds the value. */
  readonly alias: string;
}

/** What groups are ordered by: a group field or an aggregate, in a direction. */
export type GroupSort =
  | { readonly kind: 'group'; readonly field: FieldDef; readonly desc: boolean }
  | { readonly kind: 'aggregate'; readonly aggregate: Aggregate; readonly desc: boolean };

export interface GroupedPlan {
  readonly obj: ObjectDef;
  /** The fields records are grouped by, in the order asked; none: one group of every record chosen. */
  readonly groupBy: readonly FieldDef[];
  readonly aggregates: readonly Aggregate[];
  readonly filter: PlanNode | null;
  /**
   * Groups come in this order, then by each group field ascending (text without regard to case,
   * then as stored), so the order is total; null: by the group fields alone.
   */
  readonly sort: GroupSort | null;
  readonly pageSize: number;
  readonly pageNumber: number;
}

export function aggregateError(message: string): AppError {
  return new AppError('PARAM_INVALID', message);
}

/**
 * The rows as the client gets them: each SUM rounded to its field's precision, as every stored value
 * is (stores add doubles in different orders, so the last bits of a sum differ between them).
 * Changes `rows` in place.
 */
export function withRoundedSums(plan: GroupedPlan, rows: RecordRow[]): RecordRow[] {
  const sums = plan.aggregates.filter((a) => a.fn === 'sum' && a.field?.precision !== undefined);
  if (sums.length === 0) return rows;
  for (const row of rows) {
    for (const a of sums) {
      const v = row[a.alias];
      if (typeof v === 'number' && Number.isFinite(v)) row[a.alias] = roundTo(v, a.field!.precision!);
    }
  }
  return rows;
}
