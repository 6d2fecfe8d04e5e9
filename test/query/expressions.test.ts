// The filter language end to end (docs/api.md): the table of expression-cases.ts over HTTP, each
// expression giving the exact rows it must return (by label, in order) or the 400 Message it must give.
// Expected rows are written by hand or, for long lists, by a plain JS predicate over the fixture.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';
import { ALL, EXPRESSION_CASES as cases } from './expression-cases.js';
import { FIXTURE_ACCOUNTS, accountKey, codePointCompare, expectLabels, keyOf, queryLabels, runQuery, seedFixture, type Fixture } from './fixture.js';

let ctx: TestContext;
let fx: Fixture;

before(async () => {
  ctx = await testContext();
  fx = await seedFixture(ctx);
});
after(async () => {
  await ctx.close();
});

describe('filter expressions over the fixture', () => {
  test('the table covers every operator and at least 60 expressions', () => {
    assert.ok(cases.length >= 60, `only ${cases.length} cases`);
    const text = cases.map((c) => (typeof c.q === 'string' ? c.q : '')).join('\n').toLowerCase();
    for (const op of [' = ', ' != ', ' < ', ' > ', ' <= ', ' >= ', ' start-with ', ' not-start-with ', ' end-with ', ' not-end-with ', ' is-null', ' is-not-null']) {
      assert.ok(text.includes(op), `no case uses '${op.trim()}'`);
    }
  });

  for (const c of cases) {
    const shown = (typeof c.q === 'string' ? c.q : c.q.toString().replace(/^\(fx\) => /, '')).replace(/\0/g, '\\0');
    test(`${c.it}: ${shown}`, async () => {
      const q = typeof c.q === 'string' ? c.q : c.q(fx);
      const body = { query: q, ...(c.sort_by ? { sort_by: c.sort_by } : {}), ...(c.sort_type ? { sort_type: c.sort_type } : {}) };
      if (c.error) {
        const r = await runQuery(ctx, { fields: 'accountid', ...body });
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.match(r.res.headers['content-type'] as string, /^application\/json/);
        assert.deepEqual(Object.keys(r.body), ['Message']);
        assert.match(r.body.Message, c.error);
        return;
      }
      const expected = c.rows ?? expectLabels((a) => c.where!(a, fx));
      assert.deepEqual(await queryLabels(ctx, body), expected);
    });
  }
});

describe('filter bounds', () => {
  const cond = "accountname = 'Mu'";
  const value = (len: number): string => `accountname = '${'x'.repeat(len - "accountname = ''".length)}'`;

  test('accepts a filter of exactly 10,000 characters', async () => {
    assert.equal(value(10_000).length, 10_000);
    assert.deepEqual(await queryLabels(ctx, { query: value(10_000) }), []);
  });

  test('rejects a filter of 10,001 characters with 400', async () => {
    const r = await runQuery(ctx, { query: value(10_001) });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { Message: 'Query too complex: the filter is 10001 characters long, over the limit of 10000; send a shorter filter or split the query.' });
  });

  test('accepts parentheses nested 64 deep', async () => {
    assert.deepEqual(await queryLabels(ctx, { query: `${'('.repeat(64)}${cond}${')'.repeat(64)}` }), ['mu']);
  });

  test('rejects parentheses nested 65 deep with 400', async () => {
    const r = await runQuery(ctx, { query: `${'('.repeat(65)}${cond}${')'.repeat(65)}` });
    assert.equal(r.status, 400);
    assert.match(r.body.Message, /^Query too complex: the '\(' at position 65 nests parentheses more than 64 deep/);
  });

  test('accepts 200 conditions', async () => {
    assert.deepEqual(await queryLabels(ctx, { query: Array(200).fill(cond).join(' OR ') }), ['mu']);
  });

  test('rejects 201 conditions with 400', async () => {
    const r = await runQuery(ctx, { query: Array(201).fill(cond).join(' OR ') });
    assert.equal(r.status, 400);
    assert.match(r.body.Message, /^Query too complex: more than 200 conditions \(the next one starts at position \d+\)/);
  });
});

describe('the fixture itself', () => {
  test('holds 40 accounts in createdon order that differs from key order', async () => {
    const labels = await queryLabels(ctx, {});
    assert.equal(labels.length, 40);
    assert.deepEqual(labels, expectLabels(ALL));
    assert.notDeepEqual(labels, FIXTURE_ACCOUNTS.map((a) => a.label));
  });

  test('sorts the whole fixture by name case-insensitively, ties by key', async () => {
    const expected = [...FIXTURE_ACCOUNTS]
      .sort((a, b) => codePointCompare(a.accountname.toLowerCase(), b.accountname.toLowerCase()) || codePointCompare(a.accountid, b.accountid))
      .map((a) => a.label);
    assert.deepEqual(await queryLabels(ctx, { sort_by: 'accountname' }), expected);
    assert.equal(expected[0], 'juice');
    assert.equal(keyOf('acme'), accountKey(1));
  });
});

describe('case-insensitive text beyond A–Z', () => {
  // Regression: SQLite's NOCASE and LIKE fold ASCII letters only, so 'CAFÉ ROUGE' missed 'Café Rouge'.
  test('compares non-ASCII letters regardless of case', async () => {
    assert.deepEqual(await queryLabels(ctx, { query: "accountname = 'CAFÉ ROUGE'" }), ['cafe']);
  });

  test('matches a non-ASCII prefix regardless of case', async () => {
    assert.deepEqual(await queryLabels(ctx, { query: "accountname start-with 'CAFÉ'" }), ['cafe']);
  });
});
