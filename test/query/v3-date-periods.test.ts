// Grouped v3 queries by a date period (`groupBy: [{name, datePeriod}]`, docs/compat.md): each group
// is the start of its period in the field's own form (UTC, weeks from Monday) or a number (ISO week,
// Sunday = 1); checked by hand at the edges of weeks, months and years, and against a JavaScript
// reference over many datetimes; ordered and paged as other groups; the same on every store.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DATE_PERIODS, type DatePeriod } from '../../src/query/group-plan.js';
import type { TestContext } from '../helpers.js';
import { assertV3Error, postV3 } from '../http/v3-reply.js';
import { HTTP_STORES } from './http-stores.js';

const DAY_MS = 86_400_000;

/** What each period gives for a stored datetime (years 1000–9999), computed with Date. */
function reference(value: string, period: DatePeriod): string | number {
  const t = Date.parse(`${value}Z`);
  const date = new Date(t);
  const day = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const fromMonday = (date.getUTCDay() + 6) % 7;
  const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)}T00:00:00`;
  switch (period) {
    case 'HOUR': return `${value.slice(0, 13)}:00:00`;
    case 'DAY': return iso(day);
    case 'WEEK': return iso(day - fromMonday * DAY_MS);
    case 'MONTH': return `${value.slice(0, 8)}01T00:00:00`;
    case 'QUARTER': return iso(Date.UTC(date.getUTCFullYear(), Math.floor(date.getUTCMonth() / 3) * 3, 1));
    case 'YEAR': return `${value.slice(0, 5)}01-01T00:00:00`;
    case 'HOUR_PART': return date.getUTCHours();
    case 'DAY_PART': return date.getUTCDate();
    case 'WEEK_PART': {
      const thursday = new Date(day + (3 - fromMonday) * DAY_MS);
      return Math.floor((thursday.getTime() - Date.UTC(thursday.getUTCFullYear(), 0, 1)) / DAY_MS / 7) + 1;
    }
    case 'MONTH_PART': return date.getUTCMonth() + 1;
    case 'QUARTER_PART': return Math.floor(date.getUTCMonth() / 3) + 1;
    case 'DAY_OF_WEEK': return date.getUTCDay() + 1;
  }
}

/** Edges: a Sunday before a Monday at the new year, weeks across a month and a year, leap February, ISO weeks 53 and 1. */
const EDGES = [
  '2024-12-29T23:30:00', '2024-12-30T00:00:00', '2025-01-01T10:15:00', '2025-03-02T05:00:00',
  '2024-03-03T05:00:00', '2021-01-03T12:00:00', '2025-12-31T08:00:00',
];

/** Datetimes spread over two centuries (a fixed linear congruential sequence, so every run is alike). */
function spread(n: number): string[] {
  let x = 12345;
  const out: string[] = [];
  const start = Date.UTC(1900, 0, 1);
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(new Date(start + (x / 2147483648) * 200 * 365.25 * DAY_MS).toISOString().slice(0, 19));
  }
  return out;
}

for (const store of HTTP_STORES) {
  describe(`v3 groups by a date period on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    const values = [...EDGES, ...spread(300)];
    const grouped = async (payload: object) => {
      const r = await postV3(ctx, '/api/v3/query', { objectType: 'account', fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'n' }], pageSize: 500, ...payload });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };

    before(async () => {
      ctx = await store.context();
      const data = [...values.map((pcfsystemfield85) => ({ accountname: 'a', pcfsystemfield85 })), { accountname: 'none' }];
      const res = await ctx.request({ method: 'POST', url: '/api/v3/record/account/batch/create', payload: { data } });
      assert.equal(JSON.parse(res.body).successCount, data.length, res.body);
      for (const [accountname, pcfsystemfield85] of [['d1', '2025-01-01T00:00:00'], ['d2', '2025-01-05T23:00:00']]) {
        await ctx.request({ method: 'POST', url: '/api/record/opportunity', payload: { name: accountname, estimatedclosedate: pcfsystemfield85!.slice(0, 10) } });
      }
    });
    after(() => ctx.close());

    test('buckets the edges of weeks, months and years as written by hand', async () => {
      const edges = { filter: [{ type: 'OR', conditions: [{ fieldName: 'pcfsystemfield85', operator: 'eq-in', value: EDGES }] }] };
      const of = async (datePeriod: string) => (await grouped({ ...edges, groupBy: [{ name: 'pcfsystemfield85', datePeriod }] })).data
        .map((row: { pcfsystemfield85: unknown; n: number }) => [row.pcfsystemfield85, row.n]);
      assert.deepEqual(await of('WEEK'), [['2020-12-28T00:00:00', 1], ['2024-02-26T00:00:00', 1], ['2024-12-23T00:00:00', 1],
        ['2024-12-30T00:00:00', 2], ['2025-02-24T00:00:00', 1], ['2025-12-29T00:00:00', 1]]);
      assert.deepEqual(await of('week_part'), [[1, 3], [9, 2], [52, 1], [53, 1]]);
      assert.deepEqual(await of('DAY_OF_WEEK'), [[1, 4], [2, 1], [4, 2]]);
      assert.deepEqual(await of('QUARTER'), [['2021-01-01T00:00:00', 1], ['2024-01-01T00:00:00', 1], ['2024-10-01T00:00:00', 2],
        ['2025-01-01T00:00:00', 2], ['2025-10-01T00:00:00', 1]]);
      assert.deepEqual(await of('HOUR'), EDGES.map((v) => [`${v.slice(0, 13)}:00:00`, 1]).sort());
      assert.deepEqual(await of('HOUR_PART'), [[0, 1], [5, 2], [8, 1], [10, 1], [12, 1], [23, 1]]);
    });

    for (const period of DATE_PERIODS) {
      test(`groups by ${period} as the JavaScript reference does`, async () => {
        const expected = new Map<string | number, number>();
        for (const v of values) expected.set(reference(v, period), (expected.get(reference(v, period)) ?? 0) + 1);
        const rows: Array<{ pcfsystemfield85: string | number | null; n: number }> = [];
        for (let pageNumber = 1; ; pageNumber++) {
          const body = await grouped({ groupBy: [{ name: 'pcfsystemfield85', datePeriod: period }], pageNumber });
          rows.push(...body.data);
          if (body.isLastPage) break;
        }
        assert.deepEqual(rows[0], { pcfsystemfield85: null, n: 1 });
        const sorted = [...expected].sort(([a], [b]) => (a < b ? -1 : 1)).map(([v, n]) => ({ pcfsystemfield85: v, n }));
        assert.deepEqual(rows.slice(1), sorted);
      });
    }

    test('orders by the period descending and by a count, and pages the groups', async () => {
      const body = await grouped({ groupBy: [{ name: 'pcfsystemfield85', datePeriod: 'YEAR' }], orderBy: [{ name: 'pcfsystemfield85', order: 'desc' }], pageSize: 2, pageNumber: 2 });
      const years = [...new Set(values.map((v) => `${v.slice(0, 4)}-01-01T00:00:00`))].sort().reverse();
      assert.deepEqual(body.data.map((r: { pcfsystemfield85: string }) => r.pcfsystemfield85), years.slice(2, 4));
      assert.equal(body.isLastPage, false);
      const byCount = await grouped({ groupBy: [{ name: 'pcfsystemfield85', datePeriod: 'month_part' }], orderBy: [{ name: 'n', order: 'desc' }] });
      const counts = byCount.data.map((r: { n: number }) => r.n);
      assert.deepEqual(counts, [...counts].sort((a: number, b: number) => b - a));
    });

    test('gives a date field its periods as dates', async () => {
      const r = await postV3(ctx, '/api/v3/query', { objectType: 'opportunity', groupBy: [{ name: 'estimatedclosedate', datePeriod: 'WEEK' }], fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'n' }] });
      assert.deepEqual(r.body.data, [{ estimatedclosedate: '2024-12-30', n: 2 }]);
      const m = await postV3(ctx, '/api/v3/query', { objectType: 'opportunity', groupBy: [{ name: 'estimatedclosedate', datePeriod: 'MONTH' }], fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'n' }] });
      assert.deepEqual(m.body.data, [{ estimatedclosedate: '2025-01-01', n: 2 }]);
    });

    test('refuses a period on another field, an unknown period, hours of a date field, and one field by two periods', async () => {
      const bad = async (objectType: string, groupBy: object[], message: RegExp | string) => assertV3Error(
        await postV3(ctx, '/api/v3/query', { objectType, groupBy, fields: [{ name: '*', aggrFunc: 'COUNT', alias: 'n' }] }), 400, 'Bad Request', message);
      await bad('account', [{ name: 'accountname', datePeriod: 'MONTH' }],
        /^groupBy\[0\]\.datePeriod buckets date and datetime fields only, but 'accountname' is a text field\. .*HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, HOUR_PART, DAY_PART, WEEK_PART, MONTH_PART, QUARTER_PART, DAY_OF_WEEK\.$/);
      await bad('account', [{ name: 'createdon', datePeriod: 'FORTNIGHT' }],
        "groupBy[0].datePeriod must be one of HOUR, DAY, WEEK, MONTH, QUARTER, YEAR, HOUR_PART, DAY_PART, WEEK_PART, MONTH_PART, QUARTER_PART, DAY_OF_WEEK; got \"FORTNIGHT\".");
      await bad('opportunity', [{ name: 'estimatedclosedate', datePeriod: 'HOUR' }], /must be one of DAY, WEEK, MONTH, QUARTER, YEAR, DAY_PART.*'estimatedclosedate' is a date field, which has no time of day\.$/);
      await bad('account', [{ name: 'createdon', datePeriod: 'YEAR' }, { name: 'createdon', datePeriod: 'MONTH' }], /^groupBy\[1\] groups 'createdon' again by another period/);
    });
  });
}
