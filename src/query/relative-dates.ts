// Relative date values of v3 conditions (docs/compat.md: `today`, `last-week`, `last-30-days`, `3-days-ago`…)
// resolved against the request's instant to a span of whole UTC days. Weeks start on Monday (ISO 8601).

/** A span of whole UTC days: `from` included, `to` excluded, both 'YYYY-MM-DD'. */
export interface DaySpan {
  readonly from: string;
  readonly to: string;
}

const DAY_MS = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The most days `last-N-days`, `next-N-days` and `N-days-ago` may reach. */
export const RELATIVE_DAYS_MAX = 36_500;

/** The words accepted, for error messages. */
export const RELATIVE_DATE_WORDS = 'today, yesterday, tomorrow, this-week, last-week, next-week, this-month, last-month, next-month, this-year, last-year, next-year, last-N-days, next-N-days, N-days-ago';

/**
 * The span `value` names at `now` (ms since the epoch), or undefined when it is not a relative value.
 * `last-N-days` is the N days before today and today; `next-N-days` today and the N days after.
 */
export function relativeDays(value: string, now: number): DaySpan | undefined {
  const v = value.trim().toLowerCase();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const days = (a: number, b: number): DaySpan => ({ from: iso(today + a * DAY_MS), to: iso(today + b * DAY_MS) });
  const d = new Date(today);
  const month = (k: number): DaySpan => ({
    from: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, 1)),
    to: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k + 1, 1)),
  });
  const year = (k: number): DaySpan => ({ from: `${d.getUTCFullYear() + k}-01-01`, to: `${d.getUTCFullYear() + k + 1}-01-01` });
  const monday = -((d.getUTCDay() + 6) % 7);
  switch (v) {
    case 'today': return days(0, 1);
    case 'yesterday': return days(-1, 0);
    case 'tomorrow': return days(1, 2);
    case 'this-week': return days(monday, monday + 7);
    case 'last-week': return days(monday - 7, monday);
    case 'next-week': return days(monday + 7, monday + 14);
    case 'this-month': return month(0);
    case 'last-month': return month(-1);
    case 'next-month': return month(1);
    case 'this-year': return year(0);
    case 'last-year': return year(-1);
    case 'next-year': return year(1);
  }
  const m = /^(?:(last|next)-(\d{1,5})-days|(\d{1,5})-days?-ago)$/.exec(v);
  if (!m) return undefined;
  const n = Number(m[2] ?? m[3]);
  if (n > RELATIVE_DAYS_MAX) return undefined;
  if (m[1] === 'last') return days(-n, 1);
  if (m[1] === 'next') return days(0, n + 1);
  return days(-n, -n + 1);
}
