// A webhook's filter, evaluated in JavaScript on the record a write leaves, must match exactly the
// records the stores' SQL finds for the same filter: every filter of the expression table and of
// the differential test, and random ones, over the stress data set, on SQLite and PostgreSQL (when
// DATABASE_URL is set). Filters naming derived or related fields are refused for webhooks.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AppError } from '../../src/errors.js';
import { planQuery } from '../../src/query/plan.js';
import type { OrgSchema } from '../../src/schema/org-schema.js';
import type { RecordRow } from '../../src/schema/types.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import { compareCodePoints, likeMatch, matchesFilter, planWebhookFilter } from '../../src/webhooks/filter-match.js';
import { needsPostgres } from '../services.js';
import { POSTGRES_UNDER_TEST, SQLITE_UNDER_TEST, type StorePlace } from '../store/stores-under-test.js';
import { EXPRESSION_CASES } from '../query/expression-cases.js';
import type { Fixture } from '../query/fixture.js';
import { queryGenerators } from '../query/query-generators.js';
import { ACCOUNT_QUERIES, OPPORTUNITY_QUERIES, ORG, seedStressData } from '../query/stress-data.js';

const STORES = [SQLITE_UNDER_TEST, ...(needsPostgres ? [] : [POSTGRES_UNDER_TEST])];

describe('a webhook filter matches the records the query language finds', () => {
  test('LIKE: % any run, _ one code point, A–Z in either case, nothing else special', () => {
    assert.equal(likeMatch('Acme Corp', 'acme%'), true);
    assert.equal(likeMatch('Acme Corp', '%CORP'), true);
    assert.equal(likeMatch('a😀b', 'a_b'), true);
    assert.equal(likeMatch('ab', 'a_b'), false);
    assert.equal(likeMatch('ÉCOLE', 'école'), false, 'only A–Z fold in LIKE itself');
    assert.equal(likeMatch('a\\b', 'a\\b'), true, 'no escape character');
    assert.equal(likeMatch('abcabd', '%ab_'), true);
    assert.equal(likeMatch('', '%'), true);
  });

  test('LIKE gives the textbook backtracking match\'s answer on every value and pattern of up to 5 code points', () => {
    // The match it replaced (value × pattern steps at worst), kept as the reference.
    const reference = (value: string, pattern: string): boolean => {
      const v = Array.from(value.toLowerCase());
      const p = Array.from(pattern.toLowerCase());
      let i = 0, j = 0, star = -1, mark = 0;
      while (i < v.length) {
        if (j < p.length && (p[j] === '_' || (p[j] !== '%' && p[j] === v[i]))) { i++; j++; }
        else if (j < p.length && p[j] === '%') { star = j++; mark = i; }
        else if (star >= 0) { j = star + 1; i = ++mark; }
        else return false;
      }
      while (j < p.length && p[j] === '%') j++;
      return j === p.length;
    };
    const words = (alphabet: string[], max: number): string[] => {
      const out = [''];
      for (let n = 1, last = ['']; n <= max; n++) out.push(...(last = last.flatMap((w) => alphabet.map((c) => w + c))));
      return out;
    };
    const values = words(['a', 'B', '😀'], 5);
    const patterns = words(['a', 'b', '_', '%'], 5);
    let checked = 0;
    for (const p of patterns) {
      for (const v of values) {
        assert.equal(likeMatch(v, p), reference(v, p), `${JSON.stringify(v)} LIKE ${JSON.stringify(p)}`);
        checked++;
      }
    }
    assert.equal(checked, 1_365 * 364);
  });

  // Not a timing: backtracking takes value × pattern steps here, some 10^10 (over two minutes for
  // these five; 200,000 code points took 22 s), where this takes about a second. A match holds the
  // thread, so the test yields between them and the limit turns such a hang into a failure.
  test('LIKE reads a long value about once per segment: a long pattern on a long value answers', { timeout: 30_000 }, async () => {
    const value = 'a'.repeat(1_000_000);
    const cases: Array<[string, string, boolean]> = [
      [value, `%${'a'.repeat(5_000)}b%`, false],
      [value, `%${'a_'.repeat(2_500)}b%`, false],
      [`${value}b`, `%${'a_'.repeat(2_500)}b`, true],
      [`${value}b${value}`, `%${'a'.repeat(5_000)}b%${'_a'.repeat(2_500)}`, true],
      [value, 'a%'.repeat(5_000), true],
    ];
    for (const [v, p, expected] of cases) {
      assert.equal(likeMatch(v, p), expected, `pattern of ${p.length} on a value of ${v.length}`);
      await new Promise(setImmediate);
    }
  });

  test('text compares by code point, as UTF-8 bytes do, not by UTF-16 unit', () => {
    assert.ok(compareCodePoints('\u{10000}', '\uffff') > 0);
    assert.ok('\u{10000}' < '\uffff', 'JavaScript\'s own order differs');
    assert.ok(compareCodePoints('a', 'ab') < 0);
    assert.equal(compareCodePoints('x', 'x'), 0);
  });

  test('a derived name or a related field is refused with WEBHOOK_INVALID naming the field to use', async () => {
    const place = await SQLITE_UNDER_TEST.place();
    const store = place.open();
    try {
      const schema = await (await store.org(ORG)).schema();
      const account = schema.resolve('account');
      assert.throws(() => planWebhookFilter(schema, account, "ownername = 'Ada'"), (err: AppError) => err.code === 'WEBHOOK_INVALID' && /Filter on 'ownerid'/.test(err.message));
      assert.throws(() => planWebhookFilter(schema, account, "parentaccountid_accountname = 'x'"), (err: AppError) => err.code === 'WEBHOOK_INVALID');
      assert.throws(() => planWebhookFilter(schema, account, "nosuchfield = 'x'"), (err: AppError) => err.code === 'FIELD_UNKNOWN');
      assert.throws(() => planWebhookFilter(schema, account, 'statecode = ('), (err: AppError) => err.code === 'QUERY_SYNTAX');
      assert.equal(planWebhookFilter(schema, account, '  '), null);
    } finally {
      await store.close();
      await place.remove();
    }
  });

  for (const s of STORES) {
    describe(`on ${s.name}`, { skip: s.skip }, () => {
      let place: StorePlace;
      let store: RecordStore;
      let records: OrgRecords;
      let schema: OrgSchema;
      let fx: Fixture;
      const all = new Map<string, RecordRow[]>();

      before(async () => {
        place = await s.place();
        store = place.open();
        fx = await seedStressData(store);
        records = await store.org(ORG);
        schema = await records.schema();
        for (const ot of ['account', 'opportunity']) all.set(ot, await records.scan(schema.resolve(ot), null, 1000));
      });
      after(async () => {
        await store.close();
        await place.remove();
      });

      /** Compares one filter; false when webhooks refuse it (a derived or related field). */
      async function same(objecttype: string, query: string): Promise<boolean> {
        const obj = schema.resolve(objecttype);
        let filter;
        try {
          filter = planWebhookFilter(schema, obj, query);
        } catch (err) {
          if (err instanceof AppError && err.code === 'WEBHOOK_INVALID') return false;
          throw err;
        }
        const { rows } = await records.query(planQuery(schema, { objecttype, query, fields: obj.keyField, sort_by: obj.keyField, page_size: 500 }));
        const expected = rows.map((r) => r[obj.keyField]);
        const got = all.get(objecttype)!.filter((r) => matchesFilter(filter, r)).map((r) => r[obj.keyField]).sort((a, b) => compareCodePoints(String(a), String(b)));
        assert.deepEqual(got, expected, `${objecttype}: ${query}`);
        return true;
      }

      test('every filter of the expression table and of the differential test', async () => {
        let compared = 0;
        for (const c of EXPRESSION_CASES) {
          if (c.error) continue;
          if (await same('account', typeof c.q === 'string' ? c.q : c.q(fx))) compared++;
        }
        for (const q of ACCOUNT_QUERIES) if (await same('account', q)) compared++;
        for (const q of OPPORTUNITY_QUERIES) if (await same('opportunity', q)) compared++;
        assert.ok(compared >= 120, `only ${compared} filters compared`);
      });

      test('random filters', async () => {
        const gen = queryGenerators(fx);
        let compared = 0;
        await fc.assert(fc.asyncProperty(gen.expr, async (e) => {
          if (await same('account', gen.render(e))) compared++;
        }), { numRuns: 300 });
        assert.ok(compared >= 100, `only ${compared} random filters used stored fields only`);
      });
    });
  }
});
