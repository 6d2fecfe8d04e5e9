// Every store gives the same answers — SQLite answering cheap queries on the calling thread, SQLite
// with every query on its reader threads, and PostgreSQL (when DATABASE_URL is set): one data set (the query fixture plus rows that stress
// case folding, non-ASCII text, wildcards, empty values, day edges, numbers and sort ties) is loaded
// into each store, and every query of the expression table, every sort, page by page, and random
// filters must return identical rows (every field, byte for byte) in identical order, and grouped
// queries identical groups and aggregates.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { planQuery, READ_ALL, type QueryInput } from '../../src/query/plan.js';
import { planV3Query } from '../../src/query/v3-plan.js';
import type { RecordRow } from '../../src/schema/types.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import { needsPostgres } from '../services.js';
import { POSTGRES_UNDER_TEST, SQLITE_READERS_UNDER_TEST, SQLITE_UNDER_TEST, type StorePlace } from '../store/stores-under-test.js';
import { EXPRESSION_CASES } from './expression-cases.js';
import type { Fixture } from './fixture.js';
import { ACCOUNT_QUERIES, OPPORTUNITY_QUERIES, ORG, seedStressData, STRESS_NAMES, USER_A } from './stress-data.js';
import { queryGenerators } from './query-generators.js';

if (needsPostgres) console.log(`differential test: SQLite on the calling thread against SQLite on its reader threads only; PostgreSQL skipped (${needsPostgres})`);
const COMPARED = [SQLITE_UNDER_TEST, SQLITE_READERS_UNDER_TEST, ...(needsPostgres ? [] : [POSTGRES_UNDER_TEST])];

describe('every store gives the same rows (SQLite on the calling thread, SQLite on its reader threads, PostgreSQL)', () => {
  const places: StorePlace[] = [];
  const stores: RecordStore[] = [];
  const orgs: OrgRecords[] = [];
  let fx: Fixture;

  before(async () => {
    for (const s of COMPARED) {
      const place = await s.place();
      const store = place.open();
      places.push(place);
      stores.push(store);
      fx = await seedStressData(store);
      orgs.push(await store.org(ORG));
    }
  });

  after(async () => {
    for (const [i, store] of stores.entries()) {
      await store.close();
      await places[i]!.remove();
    }
  });

  /** The page of one query on each store; asserts they are equal and returns the first store's. */
  async function same(input: QueryInput): Promise<{ rows: RecordRow[]; isLastPage: boolean }> {
    const [first, ...others] = await Promise.all(orgs.map(async (records) => records.query(planQuery(await records.schema(), input))));
    for (const [i, other] of others.entries()) assert.deepEqual(other, first, `${COMPARED[i + 1]!.name}: ${JSON.stringify(input)}`);
    return first!;
  }

  test('the data set holds every stress row on every store', async () => {
    const all = await same({ objecttype: 'account', fields: 'accountid', page_size: 500 });
    assert.equal(all.rows.length, 40 + STRESS_NAMES.length);
    assert.equal((await same({ objecttype: 'opportunity', fields: 'opportunityid', page_size: 500 })).rows.length, 30);
  });

  test('every query of the expression table returns the same rows, every field, in the same order on every store', async () => {
    let ran = 0;
    for (const c of EXPRESSION_CASES) {
      if (c.error) continue;
      const query = typeof c.q === 'string' ? c.q : c.q(fx);
      await same({ objecttype: 'account', query, ...(c.sort_by ? { sort_by: c.sort_by } : {}), ...(c.sort_type ? { sort_type: c.sort_type } : {}), page_size: 500 });
      ran++;
    }
    assert.ok(ran >= 60, `only ${ran} expressions ran`);
  });

  test('filters on case, non-ASCII text, wildcards, empty values, day edges and numbers return the same rows', async () => {
    const matched = new Set<number>();
    for (const [objecttype, queries] of [['account', ACCOUNT_QUERIES], ['opportunity', OPPORTUNITY_QUERIES]] as const) {
      for (const query of queries) {
        for (const sort_type of ['asc', 'desc']) {
          const { rows } = await same({ objecttype, query, sort_type, page_size: 500 });
          if (sort_type === 'asc') matched.add(rows.length);
        }
      }
    }
    assert.ok(matched.size > 5, 'the filters match different numbers of rows, not all none');
  });

  test('every sort field in both directions gives the same pages at every page size', async () => {
    for (const objecttype of ['account', 'opportunity']) {
      const obj = (await orgs[0]!.schema()).resolve(objecttype);
      for (const f of obj.fields) {
        for (const sort_type of ['asc', 'desc']) {
          for (const page_size of [500, 7, 3]) {
            const seen: unknown[] = [];
            for (let page_number = 1; ; page_number++) {
              const page = await same({ objecttype, fields: `${obj.keyField},${f.name}`, sort_by: f.name, sort_type, page_size, page_number });
              seen.push(...page.rows.map((r) => r[obj.keyField]));
              if (page.isLastPage) break;
            }
            assert.equal(new Set(seen).size, seen.length, `${objecttype}.${f.name} ${sort_type} by ${page_size}: pages overlap`);
          }
        }
      }
    }
  });

  test('related fields as fields and sorts give the same pages', async () => {
    const RELATED = [
      ['account', 'parentaccountid_accountname'], ['account', 'parentaccountid_pcfsystemfield85'], ['account', 'parentaccountid_accounttypecode'],
      ['account', 'ownerid_fullname'], ['opportunity', 'accountid_billingcity'], ['opportunity', 'accountid_statecode'],
    ] as const;
    for (const [objecttype, field] of RELATED) {
      for (const sort_type of ['asc', 'desc']) {
        const { rows } = await same({ objecttype, fields: `${field},${objecttype === 'account' ? 'accountname' : 'name'}`, sort_by: field, sort_type, page_size: 500 });
        assert.ok(rows.some((r) => r[field] !== null), `${objecttype}.${field}: some rows have a value`);
      }
    }
  });

  test('GET-list pages are the same, with the same count', async () => {
    for (const objecttype of ['account', 'opportunity', 'contact']) {
      for (const page of [{ limit: 50, offset: 0 }, { limit: 7, offset: 14 }, { limit: 3, offset: 60 }]) {
        const [first, ...others] = await Promise.all(orgs.map(async (records) => records.list((await records.schema()).resolve(objecttype), page)));
        for (const [i, other] of others.entries()) assert.deepEqual(other, first, `${COMPARED[i + 1]!.name}: ${objecttype} ${JSON.stringify(page)}`);
      }
    }
  });

  test('grouped queries give the same groups and aggregates on every store, SUM exact on the reader threads too', async () => {
    const SUM = { name: 'estimatedvalue', aggrFunc: 'SUM', alias: 'total' };
    const bodies = [
      { fields: [SUM, { name: '*', aggrFunc: 'COUNT', alias: 'n' }] },
      { groupBy: ['name'], fields: [{ name: 'name' }, SUM, { name: 'estimatedclosedate', aggrFunc: 'MIN', alias: 'first' }], orderBy: [{ name: 'total', order: 'desc' }], pageSize: 7, pageNumber: 2 },
      { groupBy: [{ name: 'estimatedclosedate', datePeriod: 'WEEK' }], fields: [{ name: 'estimatedclosedate' }, SUM, { name: 'closeprobability', aggrFunc: 'MAX', alias: 'top' }] },
      { groupBy: ['accountid_billingcity', 'statecode'], fields: [{ name: 'accountid_billingcity' }, { name: 'statecode' }, SUM], orderBy: [{ name: 'accountid_billingcity' }] },
    ];
    for (const body of bodies) {
      const [first, ...others] = await Promise.all(orgs.map(async (records) => {
        const planned = planV3Query(await records.schema(), { objectType: 'opportunity', ...body }, READ_ALL, { userId: USER_A, now: Date.parse('2025-06-01T00:00:00Z') });
        assert.equal(planned.kind, 'groups');
        return records.groups(planned.plan);
      }));
      for (const [i, other] of others.entries()) assert.deepEqual(other, first, `${COMPARED[i + 1]!.name}: ${JSON.stringify(body)}`);
      assert.ok(first!.rows.length > 0);
    }
    // Three times 1e15 + 12.5 - 3 + 0.1 + 12.5 - 0.01 + 99.99 + 7: exactly 3000000000000387.24, whose
    // nearest double is …387 (doubles are 0.5 apart there); adding doubles in key order gives …387.5.
    const [all] = (await Promise.all(orgs.map(async (records) => {
      const planned = planV3Query(await records.schema(), { objectType: 'opportunity', ...bodies[0] }, READ_ALL, { userId: USER_A, now: 0 });
      return planned.kind === 'groups' ? records.groups(planned.plan) : undefined;
    })));
    assert.equal(all!.rows[0]!.total, 3000000000000387);
  });

  test('random filters, sorts and pages return the same page on every store', async () => {
    const gen = queryGenerators(fx);
    const obj = (await orgs[0]!.schema()).resolve('account');
    await fc.assert(
      fc.asyncProperty(gen.expr, fc.constantFrom(...obj.fields.map((f) => f.name)), fc.boolean(), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 4 }),
        async (expr, sort_by, desc, page_size, page_number) => {
          await same({ objecttype: 'account', query: gen.render(expr), sort_by, sort_type: desc ? 'desc' : 'asc', page_size, page_number });
        }),
      { numRuns: 300 },
    );
  });
});
