// Every store gives the same answers — SQLite answering cheap queries on the calling thread, SQLite
// with every query on its reader threads, and PostgreSQL (when DATABASE_URL is set): one data set (the query fixture plus rows that stress
// case folding, non-ASCII text, wildcards, empty values, day edges, numbers and sort ties) is loaded
// into each store, and every query of the expression table, every sort, page by page, and random
// filters must return identical rows (every field, byte for byte) in identical order.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { planQuery, type QueryInput } from '../../src/query/plan.js';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import { needsPostgres } from '../services.js';
import { POSTGRES_UNDER_TEST, SQLITE_READERS_UNDER_TEST, SQLITE_UNDER_TEST, type StorePlace } from '../store/stores-under-test.js';
import { EXPRESSION_CASES } from './expression-cases.js';
import { USER_B_NAME, accountKey, seedFixtureRecords, type Fixture } from './fixture.js';
import { queryGenerators } from './query-generators.js';
import { TEST_AUTHOR } from '../helpers.js';

const ORG = 'd1ff0000-0000-4000-8000-000000000001';
const USER_A = 'd1ff0000-0000-4000-8000-0000000000aa';
const USER_B = 'd1ff0000-0000-4000-8000-0000000000bb';

/** Account names whose folds differ between naive case mappings, wildcard characters, and case-only ties. */
const STRESS_NAMES = [
  'İstanbul', 'istanbul', 'ISTANBUL', 'ıstanbul', 'ΟΔΟΣ', 'οδος', 'Οδός', 'ΣΑΣ', 'Straße', 'STRASSE', 'strasse', 'ÉCOLE', 'école',
  'Öl', 'öl', 'ÖL', 'ǅemal', 'ǆemal', 'a%b', 'A_B', 'a\\b', 'a\\%b', '%', '_', 'Z', 'z', '𐐀ssa', '𐐨ssa', 'ﬀ', '\u212Aelvin', 'kelvin',
];
/** Datetimes at the edges of days and of the representable range. */
const DAY_EDGES = ['2025-01-01T00:00:00', '2025-01-01T23:59:59', '2024-12-31T23:59:59', '2025-01-02T00:00:00', '0000-01-01T00:00:00', '9999-12-31T23:59:59', null];
const CITIES = ['Paris', 'PARIS', 'paris', 'Zürich', 'ZÜRICH', null];

/** Extra account rows (keys accountKey(41…)): ties on createdon and city, empty descriptions. */
function stressAccounts(obj: ObjectDef): RecordRow[] {
  return STRESS_NAMES.map((name, i) => {
    const row: RecordRow = {};
    for (const f of obj.fields) if (f.role !== 'derived') row[f.name] = null;
    const createdon = `2025-04-0${1 + (i % 3)}T00:00:00`;
    return {
      ...row, accountid: accountKey(41 + i), accountname: name, accountnumber: i % 4 === 0 ? null : `acc-${i % 5}`,
      billingcity: CITIES[i % CITIES.length]!, description: i % 3 === 0 ? null : `${name} %_ ${i}`,
      pcfsystemfield85: DAY_EDGES[i % DAY_EDGES.length]!, accounttypecode: i % 5 === 0 ? null : (i % 5), statecode: 1 + (i % 2), statuscode: 1,
      ownerid: i % 2 ? USER_A : USER_B, createdon, modifiedon: createdon, createdby: USER_A, modifiedby: USER_B,
      primarycontactid: null, parentaccountid: i % 4 === 1 ? accountKey(1 + (i % 40)) : null,
    };
  });
}

const VALUES = [12.5, -3, 0, 0.1, 1e15, 12.5, -0.01, null, 99.99, 7];
const DATES = ['2025-01-01', '2024-12-31', '0000-01-01', '9999-12-31', null, '2025-01-01'];

/** Opportunities: numbers (negative, fractions, ties, empty), dates, lookups with derived names. */
function stressOpportunities(obj: ObjectDef): RecordRow[] {
  return Array.from({ length: 30 }, (_, i) => {
    const row: RecordRow = {};
    for (const f of obj.fields) if (f.role !== 'derived') row[f.name] = null;
    const createdon = `2025-05-0${1 + (i % 2)}T12:00:00`;
    return {
      ...row, opportunityid: `0a000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`, name: STRESS_NAMES[(i * 7) % STRESS_NAMES.length]!,
      accountid: i % 3 === 0 ? null : accountKey(1 + ((i * 11) % 70)), estimatedvalue: VALUES[i % VALUES.length]!,
      closeprobability: i % 4 === 0 ? null : (i * 13) % 101, estimatedclosedate: DATES[i % DATES.length]!, statecode: 1 + (i % 2), statuscode: 1,
      ownerid: i % 2 ? USER_B : USER_A, createdon, modifiedon: createdon, createdby: USER_A, modifiedby: USER_A,
    };
  });
}

/** Filters on the stress rows, beside the expression table. */
const ACCOUNT_QUERIES = [
  "accountname = 'istanbul'", "accountname = 'İSTANBUL'", "accountname = 'i\u0307stanbul'", "accountname start-with 'İ'", "accountname start-with 'ı'",
  "accountname = 'οδος'", "accountname = 'ΟΔΟΣ'", "accountname start-with 'οδο'", "accountname = 'σας'", "accountname = 'straße'",
  "accountname = 'STRASSE'", "accountname start-with 'É'", "accountname start-with 'öL'", "accountname < 'é'", "accountname >= 'ω'",
  "accountname > 'z'", "accountname start-with 'a\\'", "accountname start-with 'a\\%'", "accountname start-with 'a_'", "accountname start-with '%\\%'",
  "accountname start-with '_'", "accountname start-with '%'", "accountname not-start-with '%b'", "accountname != 'z'", "accountname = '𐐨SSA'",
  "accountname start-with '𐐀'", "accountname = 'kelvin'", "accountname = 'ﬀ'", "accountname start-with 'ǅ'",
  "billingcity = 'paris'", "billingcity != 'ZÜRICH'", "billingcity < 'q'", "description != ''", "description = ''", "description start-with '%\\%_'",
  "pcfsystemfield85 = '2025-01-01'", "pcfsystemfield85 <= '2024-12-31'", "pcfsystemfield85 > '2025-01-01'", "pcfsystemfield85 != '2025-01-01'",
  "pcfsystemfield85 < '0000-01-02'", "pcfsystemfield85 >= '9999-12-31'", "pcfsystemfield85 start-with '2025-01-01t'",
  "pcfsystemfield85 start-with '2025-01-0_t'", "createdon start-with '2025_04'", "createdon not-start-with '2025-04-01T%'",
  "accountid start-with 'A0000000-0000-4000-8000-00000000004_'", "accountid start-with 'A0000000'", "accountid start-with 'a0000000-0000-4000-8000-00000000005'",
  'accounttypecode < 1e20', 'accounttypecode > -1e300', 'accounttypecode = -0', 'statecode != 99999999999', 'accounttypecode >= 3',
  "parentaccountname start-with 'acme'", 'parentaccountname is-null', "ownername = 'ZOE SECOND' and billingcity is-not-null",
  "accountname end-with 'STANBUL'", "accountname end-with 'Σ'", "accountname end-with 'ς'", "accountname end-with 'SSE'", "accountname end-with 'ße'",
  "accountname end-with '%'", "accountname end-with '_'", "accountname end-with '\\b'", "accountname end-with '%b'", "accountname end-with 'L'",
  "accountname not-end-with 'a'", "description end-with '%_ 1_'", "description not-end-with '0'", "billingcity end-with 'RICH'",
  "pcfsystemfield85 end-with '00:00'", "createdon not-end-with 'T00:00:00'", "accountid end-with '4_'", "parentaccountname end-with 'LABS'",
  "parentaccountid_accountname start-with 'ACME'", 'parentaccountid_statecode = 2', "parentaccountid_billingcity != 'lisbon'",
  "parentaccountid_pcfsystemfield85 <= '2025-01-01'", "parentaccountid_ownerid = 'd1ff0000-0000-4000-8000-0000000000aa'", "ownerid_fullname = 'zoe SECOND'",
];
const OPPORTUNITY_QUERIES = [
  'estimatedvalue = 12.5', 'estimatedvalue != 12.5', 'estimatedvalue < 0', 'estimatedvalue >= -0.01', 'estimatedvalue > 1e14', 'estimatedvalue is-null',
  'closeprobability <= 50', "closeprobability != ''", "estimatedclosedate = '2025-01-01'", "estimatedclosedate < '2025-01-01'",
  "estimatedclosedate >= '9999-12-31'", "estimatedclosedate start-with '2025'", "estimatedclosedate start-with '_0%'", "estimatedclosedate != '2024-12-31'",
  "accountname start-with 'a'", "accountname = 'acme'", 'accountname is-null', "name start-with 'İ' or name start-with 'ǅ'",
  "estimatedclosedate end-with '-31'", "estimatedclosedate not-end-with '01'", "accountname end-with 'corp'", "name end-with 'elvin'",
  "accountid_accountname = 'ΟΔΟΣ'", 'accountid_accounttypecode >= 3', "accountid_createdon = '2025-04-02'", 'accountid_description is-null',
];

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
      await store.upsertUser(ORG, { id: USER_A, fullname: 'Owner', email: 'owner@example.com' });
      await store.upsertUser(ORG, { id: USER_B, fullname: USER_B_NAME, email: 'zoe.second@example.com' });
      fx = await seedFixtureRecords(store, ORG, USER_A, USER_B);
      const records = await store.org(ORG);
      const schema = await records.schema();
      await store.bulkInsert(ORG, schema.resolve('account'), stressAccounts(schema.resolve('account')), TEST_AUTHOR);
      await store.bulkInsert(ORG, schema.resolve('opportunity'), stressOpportunities(schema.resolve('opportunity')), TEST_AUTHOR);
      orgs.push(records);
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
