// Relative date values of v3 conditions (docs/compat.md: `today`, `last-week`, `last-30-days`, `3-days-ago`,
// `last-quarterly`, `now`…) resolved against the organization's instant to a span of whole UTC days.
// Weeks start on Monday (ISO 8601).

import { formatDateTime, utcMs } from '../schema/values.js';

/** A span of whole UTC days: `from` included, `to` excluded, both 'YYYY-MM-DD'. */
export interface DaySpan {
  readonly from: string;
  readonly to: string;
}

const DAY_MS = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The most days `last-N-days`, `next-N-days`, `N-days-ago` and `N-days-after` may reach. */
export const RELATIVE_DAYS_MAX = 36_500;
/** The most weeks and months `last-N-weeks`, `next-N-months`… may reach (a century, as for days). */
const RELATIVE_WEEKS_MAX = 5_214;
const RELATIVE_MONTHS_MAX = 1_200;

/** The words accepted, for error messages. */
export const RELATIVE_DATE_WORDS = 'now, today, yesterday, tomorrow, this-week, last-week, next-week, this-month, last-month, next-month, this-quarterly, last-quarterly, next-quarterly, quarterly-1 to quarterly-4, this-year, last-year, next-year, last-N-days, next-N-days, N-days-ago, N-days-after, last-N-weeks, next-N-weeks, last-N-months, next-N-months';

/**
 * The span `value` names at `now` (ms since the epoch), or undefined when it is not a relative value.
 * `last-N-days` is the N days before today and today; `next-N-days` today and the N days after.
 * `last-N-weeks` / `last-N-months` are the N whole weeks or months before the current one, and
 * `next-N-…` the N after it, so that `last-1-weeks` is `last-week`. Quarters start in January,
 * April, July and October; `quarterly-1`…`quarterly-4` are those of the current year. `now` is
 * today, with `at`, the instant to the second (`YYYY-MM-DDThh:mm:ss`), for datetime fields.
 */
export function relativeDays(value: string, now: number): (DaySpan & { readonly at?: string }) | undefined {
  const v = value.trim().toLowerCase();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const days = (a: number, b: number): DaySpan => ({ from: iso(today + a * DAY_MS), to: iso(today + b * DAY_MS) });
  const d = new Date(today);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth() + 1];
  // Months counted from the current one (0), as a span from the start of `a` to the start of `b`.
  const months = (a: number, b: number): DaySpan => ({ from: iso(utcMs(y, m + a, 1, 0, 0, 0)), to: iso(utcMs(y, m + b, 1, 0, 0, 0)) });
  const quarter = -((m - 1) % 3);
  const monday = -((d.getUTCDay() + 6) % 7);
  switch (v) {
    case 'now': return { ...days(0, 1), at: formatDateTime(new Date(now)) };
    case 'today': return days(0, 1);
    case 'yesterday': return days(-1, 0);
    case 'tomorrow': return days(1, 2);
    case 'this-week': return days(monday, monday + 7);
    case 'last-week': return days(monday - 7, monday);
    case 'next-week': return days(monday + 7, monday + 14);
    case 'this-month': return months(0, 1);
    case 'last-month': return months(-1, 0);
    case 'next-month': return months(1, 2);
    case 'this-quarterly': return months(quarter, quarter + 3);
    case 'last-quarterly': return months(quarter - 3, quarter);
    case 'next-quarterly': return months(quarter + 3, quarter + 6);
    case 'this-year': return months(1 - m, 13 - m);
    case 'last-year': return months(-11 - m, 1 - m);
    case 'next-year': return months(13 - m, 25 - m);
  }
  const q = /^quarterly-([1-4])$/.exec(v);
  if (q) return months(3 * Number(q[1]) - 2 - m, 3 * Number(q[1]) + 1 - m);
  const units = /^(last|next)-(\d{1,5})-(weeks?|months?)$/.exec(v);
  if (units) {
    const n = Number(units[2]);
    const last = units[1] === 'last';
    if (units[3]!.startsWith('week')) {
      if (n > RELATIVE_WEEKS_MAX) return undefined;
      return last ? days(monday - 7 * n, monday) : days(monday + 7, monday + 7 + 7 * n);
    }
    if (n > RELATIVE_MONTHS_MAX) return undefined;
    return last ? months(-n, 0) : months(1, n + 1);
  }
  const m2 = /^(?:(last|next)-(\d{1,5})-days|(\d{1,5})-days?-(ago|after))$/.exec(v);
  if (!m2) return undefined;
  const n = Number(m2[2] ?? m2[3]);
  if (n > RELATIVE_DAYS_MAX) return undefined;
  if (m2[1] === 'last') return days(-n, 1);
  if (m2[1] === 'next') return days(0, n + 1);
  return m2[4] === 'ago' ? days(-n, -n + 1) : days(n, n + 1);
}
