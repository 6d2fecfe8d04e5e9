// The data set of the stores' differential tests: the query fixture's organization and users, rows
// that stress case folding, non-ASCII text, wildcards, empty values, day edges, numbers and sort
// ties, and filters on them (test/query/differential.test.ts, test/webhooks/filter-match.test.ts).

import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import type { RecordStore } from '../../src/store/types.js';
import { TEST_AUTHOR } from '../helpers.js';
import { USER_B_NAME, accountKey, seedFixtureRecords, type Fixture } from './fixture.js';

export const ORG = 'd1ff0000-0000-4000-8000-000000000001';
export const USER_A = 'd1ff0000-0000-4000-8000-0000000000aa';
export const USER_B = 'd1ff0000-0000-4000-8000-0000000000bb';

/** Account names whose folds differ between naive case mappings, wildcard characters, and case-only ties. */
export const STRESS_NAMES = [
  'İstanbul', 'istanbul', 'ISTANBUL', 'ıstanbul', 'ΟΔΟΣ', 'οδος', 'Οδός', 'ΣΑΣ', 'Straße', 'STRASSE', 'strasse', 'ÉCOLE', 'école',
  'Öl', 'öl', 'ÖL', 'ǅemal', 'ǆemal', 'a%b', 'A_B', 'a\\b', 'a\\%b', '%', '_', 'Z', 'z', '𐐀ssa', '𐐨ssa', 'ﬀ', '\u212Aelvin', 'kelvin',
];
/** Datetimes at the edges of days and of the representable range. */
const DAY_EDGES = ['2025-01-01T00:00:00', '2025-01-01T23:59:59', '2024-12-31T23:59:59', '2025-01-02T00:00:00', '0000-01-01T00:00:00', '9999-12-31T23:59:59', null];
const CITIES = ['Paris', 'PARIS', 'paris', 'Zürich', 'ZÜRICH', null];

/** Extra account rows (keys accountKey(41…)): ties on createdon and city, empty descriptions. */
export function stressAccounts(obj: ObjectDef): RecordRow[] {
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
export function stressOpportunities(obj: ObjectDef): RecordRow[] {
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
export const ACCOUNT_QUERIES = [
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
export const OPPORTUNITY_QUERIES = [
  'estimatedvalue = 12.5', 'estimatedvalue != 12.5', 'estimatedvalue < 0', 'estimatedvalue >= -0.01', 'estimatedvalue > 1e14', 'estimatedvalue is-null',
  'closeprobability <= 50', "closeprobability != ''", "estimatedclosedate = '2025-01-01'", "estimatedclosedate < '2025-01-01'",
  "estimatedclosedate >= '9999-12-31'", "estimatedclosedate start-with '2025'", "estimatedclosedate start-with '_0%'", "estimatedclosedate != '2024-12-31'",
  "accountname start-with 'a'", "accountname = 'acme'", 'accountname is-null', "name start-with 'İ' or name start-with 'ǅ'",
  "estimatedclosedate end-with '-31'", "estimatedclosedate not-end-with '01'", "accountname end-with 'corp'", "name end-with 'elvin'",
  "accountid_accountname = 'ΟΔΟΣ'", 'accountid_accounttypecode >= 3', "accountid_createdon = '2025-04-02'", 'accountid_description is-null',
];

/** Loads the data set into a store: the fixture's users and records, then the stress rows. */
export async function seedStressData(store: RecordStore): Promise<Fixture> {
  await store.upsertUser(ORG, { id: USER_A, fullname: 'Owner', email: 'owner@example.com' });
  await store.upsertUser(ORG, { id: USER_B, fullname: USER_B_NAME, email: 'zoe.second@example.com' });
  const fx = await seedFixtureRecords(store, ORG, USER_A, USER_B);
  const schema = await (await store.org(ORG)).schema();
  await store.bulkInsert(ORG, schema.resolve('account'), stressAccounts(schema.resolve('account')), TEST_AUTHOR);
  await store.bulkInsert(ORG, schema.resolve('opportunity'), stressOpportunities(schema.resolve('opportunity')), TEST_AUTHOR);
  return fx;
}
