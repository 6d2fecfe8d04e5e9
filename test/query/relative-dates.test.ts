// Relative date values of v3 conditions: each word names a span of whole UTC days at the request's
// instant (weeks from Monday), and v3 conditions compare with it by the whole-day rules.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { relativeDays } from '../../src/query/relative-dates.js';
import { testContext, type TestContext } from '../helpers.js';

// A Sunday late in the day: the week began on Monday 2026-02-23.
const NOW = Date.parse('2026-03-01T23:59:59.999Z');

describe('relative date values', () => {
  const table: Array<[string, string, string]> = [
    ['today', '2026-03-01', '2026-03-02'],
    ['Yesterday', '2026-02-28', '2026-03-01'],
    ['tomorrow', '2026-03-02', '2026-03-03'],
    ['this-week', '2026-02-23', '2026-03-02'],
    ['last-week', '2026-02-16', '2026-02-23'],
    ['next-week', '2026-03-02', '2026-03-09'],
    ['this-month', '2026-03-01', '2026-04-01'],
    ['last-month', '2026-02-01', '2026-03-01'],
    ['next-month', '2026-04-01', '2026-05-01'],
    ['this-year', '2026-01-01', '2027-01-01'],
    ['last-year', '2025-01-01', '2026-01-01'],
    ['next-year', '2027-01-01', '2028-01-01'],
    ['last-30-days', '2026-01-30', '2026-03-02'],
    ['next-7-days', '2026-03-01', '2026-03-09'],
    ['3-days-ago', '2026-02-26', '2026-02-27'],
    ['1-day-ago', '2026-02-28', '2026-03-01'],
    ['2-days-after', '2026-03-03', '2026-03-04'],
    ['1-Day-After', '2026-03-02', '2026-03-03'],
    ['last-2-weeks', '2026-02-09', '2026-02-23'],
    ['last-1-weeks', '2026-02-16', '2026-02-23'],
    ['next-2-weeks', '2026-03-02', '2026-03-16'],
    ['last-2-months', '2026-01-01', '2026-03-01'],
    ['last-12-months', '2025-03-01', '2026-03-01'],
    ['next-3-months', '2026-04-01', '2026-07-01'],
    ['next-1-month', '2026-04-01', '2026-05-01'],
    ['this-quarterly', '2026-01-01', '2026-04-01'],
    ['last-quarterly', '2025-10-01', '2026-01-01'],
    ['next-quarterly', '2026-04-01', '2026-07-01'],
    ['quarterly-1', '2026-01-01', '2026-04-01'],
    ['quarterly-2', '2026-04-01', '2026-07-01'],
    ['quarterly-4', '2026-10-01', '2027-01-01'],
  ];
  for (const [word, from, to] of table) {
    test(`'${word}' is ${from} up to ${to}`, () => {
      assert.deepEqual(relativeDays(word, NOW), { from, to });
    });
  }

  test('a Monday starts its own week, and January\'s last month is December', () => {
    assert.deepEqual(relativeDays('this-week', Date.parse('2026-03-02T00:00:00Z')), { from: '2026-03-02', to: '2026-03-09' });
    assert.deepEqual(relativeDays('last-month', Date.parse('2026-01-15T00:00:00Z')), { from: '2025-12-01', to: '2026-01-01' });
  });

  test("'now' is today, and the instant to the second for datetime fields", () => {
    assert.deepEqual(relativeDays('NOW', NOW), { from: '2026-03-01', to: '2026-03-02', at: '2026-03-01T23:59:59' });
  });

  test('quarters and month counts cross years; a quarter\'s first month starts its own quarter', () => {
    assert.deepEqual(relativeDays('last-quarterly', Date.parse('2026-01-01T00:00:00Z')), { from: '2025-10-01', to: '2026-01-01' });
    assert.deepEqual(relativeDays('next-quarterly', Date.parse('2026-12-31T23:00:00Z')), { from: '2027-01-01', to: '2027-04-01' });
    assert.deepEqual(relativeDays('this-quarterly', Date.parse('2026-07-01T00:00:00Z')), { from: '2026-07-01', to: '2026-10-01' });
    assert.deepEqual(relativeDays('next-2-months', Date.parse('2026-11-30T00:00:00Z')), { from: '2026-12-01', to: '2027-02-01' });
  });

  test('anything else is not a relative value', () => {
    for (const v of ['quarterly-0', 'quarterly-5', 'last-5215-weeks', 'next-1201-months', '2-days-before', 'last-quarter', 'now-1']) assert.equal(relativeDays(v, NOW), undefined, v);
    for (const v of ['2026-03-01', 'last-days', 'last-999999-days', '-3-days-ago', 'today ago']) assert.equal(relativeDays(v, NOW), undefined, v);
  });
});

describe('relative dates in v3 queries', () => {
  let ctx: TestContext;
  const ids: Record<string, string> = {};
  before(async () => {
    ctx = await testContext();
    // The test clock stands at 2026-03-01T12:00:00Z.
    for (const [name, at] of [['feb27', '2026-02-27T08:00:00'], ['feb28', '2026-02-28T23:59:59'], ['mar01', '2026-03-01T00:00:00'], ['mar02', '2026-03-02T00:00:00']]) {
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: name, pcfsystemfield85: at } });
      ids[name!] = JSON.parse(res.body).data.Record.accountid;
    }
  });
  after(() => ctx.close());

  const names = async (operator: string, value: unknown) => {
    const res = await ctx.request({ method: 'POST', url: '/api/v3/query', payload: {
      objectType: 1, fields: [{ name: 'accountname' }], orderBy: [{ name: 'accountname' }],
      filter: [{ type: 'AND', conditions: [{ fieldName: 'pcfsystemfield85', operator, value }] }],
    } });
    assert.equal(res.statusCode, 200, res.body);
    return JSON.parse(res.body).data.map((r: { accountname: string }) => r.accountname);
  };

  test('compare a datetime field with a span of days', async () => {
    assert.deepEqual(await names('eq', 'today'), ['mar01']);
    assert.deepEqual(await names('eq', 'yesterday'), ['feb28']);
    assert.deepEqual(await names('ne', 'today'), ['feb27', 'feb28', 'mar02']);
    assert.deepEqual(await names('lt', 'today'), ['feb27', 'feb28']);
    assert.deepEqual(await names('le', 'yesterday'), ['feb27', 'feb28']);
    assert.deepEqual(await names('gt', 'yesterday'), ['mar01', 'mar02']);
    assert.deepEqual(await names('ge', 'tomorrow'), ['mar02']);
    assert.deepEqual(await names('between', ['2-days-ago', 'today']), ['feb27', 'feb28', 'mar01']);
    assert.deepEqual(await names('eq', 'this-week'), ['feb27', 'feb28', 'mar01']);
  });

  test('refuse a word that is no date with 400', async () => {
    const res = await ctx.request({ method: 'POST', url: '/api/v3/query', payload: {
      objectType: 1, filter: [{ conditions: [{ fieldName: 'pcfsystemfield85', operator: 'eq', value: 'someday' }] }],
    } });
    assert.equal(res.statusCode, 400);
    assert.match(JSON.parse(res.body).message, /'pcfsystemfield85' must be a valid DateTime; got 'someday'/);
  });
});
