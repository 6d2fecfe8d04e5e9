// The SQL of a date period of a grouped query (query/group-plan.ts, DATE_PERIODS) for any dialect.
// Dates and datetimes are stored as fixed-width UTC text, so every period is string slicing and
// integer arithmetic that SQLite and PostgreSQL compute alike (no date types, no time zone, no
// DateStyle), with constants written into the SQL: the same expression in SELECT, GROUP BY and ORDER BY.

import { sql, type RawBuilder } from 'kysely';
import type { DatePeriod } from '../query/group-plan.js';

type Expr = RawBuilder<unknown>;

const int = (e: Expr): Expr => sql`CAST(${e} AS integer)`;
/** A whole number from 0 to 99 (9999) as two (four) digits. */
const pad2 = (e: Expr): Expr => sql`substr(CAST(100 + ${e} AS text), 2)`;
const pad4 = (e: Expr): Expr => sql`substr(CAST(10000 + ${e} AS text), 2)`;
const leap = (y: Expr): Expr => sql`(CASE WHEN (${y} % 4 = 0 AND ${y} % 100 <> 0) OR ${y} % 400 = 0 THEN 1 ELSE 0 END)`;

/**
 * The group value of `period` for the stored text `col` of a date (`YYYY-MM-DD`) or datetime
 * (`YYYY-MM-DDThh:mm:ss`) field; null stays null. Exact periods give the period's start in the
 * field's own form, weeks from Monday; the others whole numbers.
 */
export function datePeriodExpression(col: string, datetime: boolean, period: DatePeriod): Expr {
  const c = sql.ref(col);
  const midnight = datetime ? sql.raw(`'T00:00:00'`) : sql.raw(`''`);
  const y = int(sql`substr(${c}, 1, 4)`);
  const m = int(sql`substr(${c}, 6, 2)`);
  const d = int(sql`substr(${c}, 9, 2)`);
  // Day of the week, Sunday 0 (Sakamoto's method), on the year + 400 so that no division sees a
  // negative number (400 years are whole weeks).
  const ys = sql`(${y} + 400 - CASE WHEN ${m} < 3 THEN 1 ELSE 0 END)`;
  const offset = sql`CASE ${m} WHEN 1 THEN 0 WHEN 2 THEN 3 WHEN 3 THEN 2 WHEN 4 THEN 5 WHEN 5 THEN 0 WHEN 6 THEN 3 WHEN 7 THEN 5 WHEN 8 THEN 1 WHEN 9 THEN 4 WHEN 10 THEN 6 WHEN 11 THEN 2 ELSE 4 END`;
  const sunday0 = sql`((${ys} + ${ys} / 4 - ${ys} / 100 + ${ys} / 400 + ${offset} + ${d}) % 7)`;
  const monday0 = sql`((${sunday0} + 6) % 7)`;
  switch (period) {
    case 'HOUR': return sql`substr(${c}, 1, 13) || ':00:00'`;
    case 'DAY': return sql`substr(${c}, 1, 10) || ${midnight}`;
    case 'MONTH': return sql`substr(${c}, 1, 8) || '01' || ${midnight}`;
    case 'YEAR': return sql`substr(${c}, 1, 5) || '01-01' || ${midnight}`;
    case 'QUARTER': return sql`substr(${c}, 1, 5) || CASE (${m} - 1) / 3 WHEN 0 THEN '01' WHEN 1 THEN '04' WHEN 2 THEN '07' ELSE '10' END || '-01' || ${midnight}`;
    case 'WEEK': {
      // The Monday on or before the day: the same month, else the end of the one before. The days of
      // year 0 before its first Monday (0000-01-03) would fall in year -1, which no value can name.
      const prevLength = sql`CASE ${m} WHEN 3 THEN 28 + ${leap(y)} WHEN 5 THEN 30 WHEN 7 THEN 30 WHEN 10 THEN 30 WHEN 12 THEN 30 ELSE 31 END`;
      return sql`CASE WHEN ${c} IS NULL THEN NULL
        WHEN ${d} > ${monday0} THEN substr(${c}, 1, 8) || ${pad2(sql`${d} - ${monday0}`)}
        WHEN ${m} = 1 AND ${y} = 0 THEN '0000-01-01'
        WHEN ${m} = 1 THEN ${pad4(sql`${y} - 1`)} || '-12-' || ${pad2(sql`31 + ${d} - ${monday0}`)}
        ELSE substr(${c}, 1, 5) || ${pad2(sql`${m} - 1`)} || '-' || ${pad2(sql`${prevLength} + ${d} - ${monday0}`)} END || ${midnight}`;
    }
    case 'HOUR_PART': return int(sql`substr(${c}, 12, 2)`);
    case 'DAY_PART': return d;
    case 'MONTH_PART': return m;
    case 'QUARTER_PART': return sql`((${m} - 1) / 3 + 1)`;
    case 'DAY_OF_WEEK': return sql`(${sunday0} + 1)`;
    case 'WEEK_PART': {
      // ISO 8601: the week of the year that holds the week's Thursday.
      const before = sql`CASE ${m} WHEN 1 THEN 0 WHEN 2 THEN 31 WHEN 3 THEN 59 WHEN 4 THEN 90 WHEN 5 THEN 120 WHEN 6 THEN 151 WHEN 7 THEN 181 WHEN 8 THEN 212 WHEN 9 THEN 243 WHEN 10 THEN 273 WHEN 11 THEN 304 ELSE 334 END`;
      const thursday = sql`(${before} + ${d} + CASE WHEN ${m} > 2 THEN ${leap(y)} ELSE 0 END + 3 - ${monday0})`;
      return sql`CASE WHEN ${thursday} < 1 THEN (${thursday} + 364 + ${leap(sql`(${y} - 1)`)}) / 7 + 1
        WHEN ${thursday} > 365 + ${leap(y)} THEN 1
        ELSE (${thursday} - 1) / 7 + 1 END`;
    }
  }
}
