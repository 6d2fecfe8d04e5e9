// The plan of a grouped v3 query (docs/compat.md, v3 grouped query): the fields records are grouped
// by, the aggregates (SUM, COUNT, MIN, MAX) computed per group under their aliases, the filter that
// chooses the records, the order of the groups and the page. Built by v3-plan.ts; run by a store.

import { AppError } from '../errors.js';
import type { FieldDef, FieldType, ObjectDef } from '../schema/types.js';
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

/**
 * `groupBy[].datePeriod` on date and datetime fields (the MCP client's list). The exact periods give
 * each group the start of its period, as the field's values are written (`YYYY-MM-DD` or
 * `YYYY-MM-DDThh:mm:ss`, UTC; weeks from Monday); the others give numbers: HOUR_PART 0–23,
 * DAY_PART 1–31, WEEK_PART the ISO 8601 week 1–53, MONTH_PART 1–12, QUARTER_PART 1–4, DAY_OF_WEEK
 * 1–7 from Sunday.
 */
export const DATE_PERIODS = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'HOUR_PART', 'DAY_PART', 'WEEK_PART', 'MONTH_PART', 'QUARTER_PART', 'DAY_OF_WEEK'] as const;
export type DatePeriod = (typeof DATE_PERIODS)[number];

/** The periods a date field (no time of day) takes: all but the hours. */
export const DATE_ONLY_PERIODS: readonly DatePeriod[] = DATE_PERIODS.filter((p) => !p.startsWith('HOUR'));

/** A field records are grouped by, by its value or by a period of it. */
export interface GroupField {
  readonly field: FieldDef;
  /** null: the value itself. */
  readonly period: DatePeriod | null;
}

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
  /** The fields records are grouped by, in the order asked, each at most once; none: one group of every record chosen. */
  readonly groupBy: readonly GroupField[];
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
