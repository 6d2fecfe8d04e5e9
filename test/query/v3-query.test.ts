// POST /api/v3/query as the official MCP client sees it (docs/compat.md the official MCP
// client requires): every operator on every kind of field, checked against the fixture's JS
// reference or hand-written rows; groups; fields, _id, order and paging; the exact reply; the same
// rows as the filter language gives; and errors as {status, error, message}.

import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext, TEST_AUTHOR } from '../helpers.js';
import { assertV3Error, postV3, type V3Reply } from '../http/v3-reply.js';
import {
  CONTACT_1, CONTACT_2, FIXTURE_ACCOUNTS, expectLabels, keyOf, labelOf, refMatches, runQuery, seedFixture,
  type Fixture, type FixtureAccount, type RefField, type RefOp,
} from './fixture.js';

const v3 = (ctx: TestContext, payload: unknown, token?: string | null): Promise<V3Reply> => postV3(ctx, '/api/v3/query', payload, token);

/** The one group of a body with these conditions. */
const where = (...conditions: object[]) => [{ type: 'AND', conditions }];
const cond = (fieldName: string, operator: string, value?: unknown) => (value === undefined ? { fieldName, operator } : { fieldName, operator, value });

/** An expected row set: a predicate over fixture accounts built from the fixture's reference. */
type Expect = (fx: Fixture) => (a: FixtureAccount) => boolean;
const ref = (field: RefField, op: RefOp, value = ''): Expect => (fx) => (a) => refMatches(fx, a, { field, op, value });
const anyOf = (...e: Expect[]): Expect => (fx) => (a) => e.some((x) => x(fx)(a));
const allOf = (...e: Expect[]): Expect => (fx) => (a) => e.every((x) => x(fx)(a));

/** One operator case over the accounts: the v3 condition, and the same rows as the reference defines them. */
type AccountCase = [name: string, condition: object, expected: Expect];

const TEXT_CASES: AccountCase[] = [
  ['eq ignores case', cond('billingcity', 'eq', 'LISBON'), ref('billingcity', '=', 'lisbon')],
  ['eq ignores case beyond ASCII', cond('accountname', 'eq', 'CAFÉ ROUGE'), ref('accountname', '=', 'café rouge')],
  ['eq on a non-ASCII city', cond('billingcity', 'eq', 'MALMÖ'), ref('billingcity', '=', 'Malmö')],
  ['ne also matches empty values', cond('billingcity', 'ne', 'lisbon'), ref('billingcity', '!=', 'lisbon')],
  ['lt', cond('accountname', 'lt', 'B'), ref('accountname', '<', 'b')],
  ['gt, past U+FFFF', cond('accountname', 'gt', 'x'), ref('accountname', '>', 'x')],
  ['le includes the value itself', cond('accountname', 'le', 'BETA'), ref('accountname', '<=', 'beta')],
  ['ge includes the value itself', cond('accountname', 'ge', 'zeta & sons'), ref('accountname', '>=', 'zeta & sons')],
  ['start-with ignores case', cond('accountname', 'start-with', 'acme'), ref('accountname', 'start-with', 'acme')],
  ['start-with with a leading % means contains', cond('accountname', 'start-with', '%corp'), ref('accountname', 'start-with', '%corp')],
  ['start-with beyond ASCII', cond('billingcity', 'start-with', 'KRAKÓ'), ref('billingcity', 'start-with', 'krakó')],
  ['not-start-with also matches empty values', cond('billingcity', 'not-start-with', 'l'), ref('billingcity', 'not-start-with', 'l')],
  ['end-with ignores case', cond('accountname', 'end-with', 'LTD'), ref('accountname', 'end-with', 'ltd')],
  ['end-with with wildcards', cond('accountname', 'end-with', 'e_c%'), ref('accountname', 'end-with', 'e_c%')],
  ['end-with beyond ASCII', cond('billingcity', 'end-with', 'KÓW'), ref('billingcity', 'end-with', 'ków')],
  ['not-end-with also matches empty values', cond('billingcity', 'not-end-with', 'n'), ref('billingcity', 'not-end-with', 'n')],
  ['is-null', cond('emailaddress1', 'is-null'), ref('emailaddress1', 'is-null')],
  ['is-not-null', cond('emailaddress1', 'is-not-null'), ref('emailaddress1', 'is-not-null')],
  ['eq-in with an array', cond('billingcity', 'eq-in', ['lisbon', 'PORTO']), anyOf(ref('billingcity', '=', 'lisbon'), ref('billingcity', '=', 'porto'))],
  ['eq-in with a comma string', cond('billingcity', 'eq-in', 'Graz, OSAKA'), anyOf(ref('billingcity', '=', 'graz'), ref('billingcity', '=', 'osaka'))],
  ['not-in with an array also matches empty values', cond('billingcity', 'not-in', ['lisbon', 'porto']),
    allOf(ref('billingcity', '!=', 'lisbon'), ref('billingcity', '!=', 'porto'))],
  ['not-in with a comma string', cond('billingcity', 'not-in', 'Austin,Denver'), allOf(ref('billingcity', '!=', 'austin'), ref('billingcity', '!=', 'denver'))],
  ['between is inclusive at both ends', cond('accountname', 'between', ['beta', 'Delta Partners']),
    allOf(ref('accountname', '>=', 'beta'), ref('accountname', '<=', 'delta partners'))],
];

const PICKLIST_CASES: AccountCase[] = [
  ['eq', cond('statecode', 'eq', 2), ref('statecode', '=', '2')],
  ['eq with a digit string', cond('statecode', 'eq', '2'), ref('statecode', '=', '2')],
  ['ne also matches empty values', cond('accounttypecode', 'ne', 1), ref('accounttypecode', '!=', '1')],
  ['lt', cond('accounttypecode', 'lt', 3), ref('accounttypecode', '<', '3')],
  ['gt', cond('accounttypecode', 'gt', 3), ref('accounttypecode', '>', '3')],
  ['le', cond('accounttypecode', 'le', 2), ref('accounttypecode', '<=', '2')],
  ['ge', cond('accounttypecode', 'ge', 4), ref('accounttypecode', '>=', '4')],
  ['between [2, 4] inclusive', cond('accounttypecode', 'between', [2, 4]), allOf(ref('accounttypecode', '>=', '2'), ref('accounttypecode', '<=', '4'))],
  ['between as a comma string', cond('accounttypecode', 'between', '2, 4'), allOf(ref('accounttypecode', '>=', '2'), ref('accounttypecode', '<=', '4'))],
  ['eq-in', cond('accounttypecode', 'eq-in', [1, 5]), anyOf(ref('accounttypecode', '=', '1'), ref('accounttypecode', '=', '5'))],
  ['eq-in as a comma string', cond('accounttypecode', 'eq-in', '1,5'), anyOf(ref('accounttypecode', '=', '1'), ref('accounttypecode', '=', '5'))],
  ['not-in also matches empty values', cond('accounttypecode', 'not-in', [1, 2]), allOf(ref('accounttypecode', '!=', '1'), ref('accounttypecode', '!=', '2'))],
  ['is-null', cond('accounttypecode', 'is-null'), ref('accounttypecode', 'is-null')],
  ['is-not-null', cond('accounttypecode', 'is-not-null'), ref('accounttypecode', 'is-not-null')],
];

/** pcfsystemfield85 is a datetime: a date alone is the whole UTC day (docs/api.md). */
const DATETIME_CASES: AccountCase[] = [
  ['eq a date is the whole day', cond('pcfsystemfield85', 'eq', '2025-01-01'), ref('pcfsystemfield85', '=', '2025-01-01')],
  ['ne a date is outside the day or empty', cond('pcfsystemfield85', 'ne', '2025-01-01'), ref('pcfsystemfield85', '!=', '2025-01-01')],
  ['lt a date is before the day', cond('pcfsystemfield85', 'lt', '2025-01-01'), ref('pcfsystemfield85', '<', '2025-01-01')],
  ['le a date includes that day', cond('pcfsystemfield85', 'le', '2025-01-01'), ref('pcfsystemfield85', '<=', '2025-01-01')],
  ['gt a date starts the next day', cond('pcfsystemfield85', 'gt', '2025-01-01'), ref('pcfsystemfield85', '>', '2025-01-01')],
  ['ge a date includes that day', cond('pcfsystemfield85', 'ge', '2025-01-02'), ref('pcfsystemfield85', '>=', '2025-01-02')],
  ['le the last day of 9999', cond('pcfsystemfield85', 'le', '9999-12-31'), ref('pcfsystemfield85', '<=', '9999-12-31')],
  ['eq a datetime is that instant', cond('pcfsystemfield85', 'eq', '2025-01-01T12:30:00'), ref('pcfsystemfield85', '=', '2025-01-01T12:30:00')],
  ['between two dates includes both whole days', cond('pcfsystemfield85', 'between', ['2025-01-01', '2025-01-02']),
    allOf(ref('pcfsystemfield85', '>=', '2025-01-01'), ref('pcfsystemfield85', '<=', '2025-01-02'))],
  ['between two datetimes includes both instants', cond('pcfsystemfield85', 'between', ['2025-01-01T12:30:00', '2025-01-02T00:00:00']),
    allOf(ref('pcfsystemfield85', '>=', '2025-01-01T12:30:00'), ref('pcfsystemfield85', '<=', '2025-01-02T00:00:00'))],
  ['eq-in of dates is each whole day', cond('pcfsystemfield85', 'eq-in', ['2024-12-31', '2025-06-15']),
    anyOf(ref('pcfsystemfield85', '=', '2024-12-31'), ref('pcfsystemfield85', '=', '2025-06-15'))],
  ['not-in of dates also matches empty values', cond('pcfsystemfield85', 'not-in', '2025-01-01,2025-01-02'),
    allOf(ref('pcfsystemfield85', '!=', '2025-01-01'), ref('pcfsystemfield85', '!=', '2025-01-02'))],
  ['is-null', cond('pcfsystemfield85', 'is-null'), ref('pcfsystemfield85', 'is-null')],
  ['between dates on createdon', cond('createdon', 'between', ['2025-01-03', '2025-01-06']),
    allOf(ref('createdon', '>=', '2025-01-03'), ref('createdon', '<=', '2025-01-06'))],
];

const LOOKUP_CASES: AccountCase[] = [
  ['eq takes a UUID in any case', cond('primarycontactid', 'eq', CONTACT_1.toUpperCase()), ref('primarycontactid', '=', CONTACT_1)],
  ['ne also matches empty values', cond('primarycontactid', 'ne', CONTACT_1), ref('primarycontactid', '!=', CONTACT_1)],
  ['eq-in', cond('primarycontactid', 'eq-in', [CONTACT_1, CONTACT_2]), anyOf(ref('primarycontactid', '=', CONTACT_1), ref('primarycontactid', '=', CONTACT_2))],
  ['not-in as a comma string', cond('primarycontactid', 'not-in', `${CONTACT_2}`), ref('primarycontactid', '!=', CONTACT_2)],
  ['is-not-null', cond('primarycontactid', 'is-not-null'), ref('primarycontactid', 'is-not-null')],
  ['eq-in of keys', cond('accountid', 'eq-in', [keyOf('gamma'), keyOf('delta').toUpperCase()]), anyOf(ref('accountid', '=', keyOf('gamma')), ref('accountid', '=', keyOf('delta')))],
];

const DERIVED_CASES: AccountCase[] = [
  ['ownername eq ignores case', cond('ownername', 'eq', 'ZOE SECOND'), ref('ownername', '=', 'zoe second')],
  ['ownername ne', cond('ownername', 'ne', 'owner'), ref('ownername', '!=', 'owner')],
  ['ownername start-with', cond('ownername', 'start-with', 'zo'), ref('ownername', 'start-with', 'zo')],
  ['ownername not-end-with', cond('ownername', 'not-end-with', 'COND'), ref('ownername', 'not-end-with', 'cond')],
  ['primarycontactname eq-in', cond('primarycontactname', 'eq-in', ['carla contact', 'DMITRI DUPONT']),
    anyOf(ref('primarycontactname', '=', 'carla contact'), ref('primarycontactname', '=', 'dmitri dupont'))],
  ['primarycontactname not-in also matches accounts without a contact', cond('primarycontactname', 'not-in', ['carla contact']),
    ref('primarycontactname', '!=', 'carla contact')],
  ['primarycontactname is-null', cond('primarycontactname', 'is-null'), ref('primarycontactname', 'is-null')],
  ['primarycontactname between', cond('primarycontactname', 'between', ['c', 'd']),
    allOf(ref('primarycontactname', '>=', 'c'), ref('primarycontactname', '<=', 'd'))],
];

/** Opportunities for number and date fields, keyed so that key order is the label order. */
const opportunityKey = (n: number): string => `0f000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const OPPORTUNITIES: ReadonlyArray<[label: string, name: string, value: number | null, close: string | null, account: string | null]> = [
  ['big', 'Big Deal', 1000.5, '2025-01-01', 'acme'],
  ['small', 'small deal', 10, '2024-12-31', 'acme'],
  ['arger', 'Ärger GmbH', -5, '2025-01-02', 'obrien'],
  ['zero', 'Zero', 0, null, null],
  ['huge', 'Huge', 1_000_000, '2025-06-30', 'cafe'],
  ['empty', 'Empty', null, '2025-01-01', null],
  ['ten', 'Ten', 10, '2025-01-15', 'acme'],
];
const opportunityLabel = (id: unknown): string => OPPORTUNITIES[Number(String(id).slice(-12)) - 1]?.[0] ?? `?${String(id)}`;

/** [name, condition, expected labels in key order]: written out by hand from OPPORTUNITIES. */
const OPPORTUNITY_CASES: ReadonlyArray<[string, object, string[]]> = [
  ['number eq', cond('estimatedvalue', 'eq', 10), ['small', 'ten']],
  ['number eq with a digit string written with decimals', cond('estimatedvalue', 'eq', '10.00'), ['small', 'ten']],
  ['number ne also matches empty values', cond('estimatedvalue', 'ne', 10), ['big', 'arger', 'zero', 'huge', 'empty']],
  ['number lt', cond('estimatedvalue', 'lt', 0), ['arger']],
  ['number gt', cond('estimatedvalue', 'gt', 10), ['big', 'huge']],
  ['number le', cond('estimatedvalue', 'le', 0), ['arger', 'zero']],
  ['number ge', cond('estimatedvalue', 'ge', 1000.5), ['big', 'huge']],
  ['number between [0, 10] inclusive', cond('estimatedvalue', 'between', [0, 10]), ['small', 'zero', 'ten']],
  ['number between as a comma string', cond('estimatedvalue', 'between', '-5,0'), ['arger', 'zero']],
  ['number eq-in', cond('estimatedvalue', 'eq-in', [0, 1000.5]), ['big', 'zero']],
  ['number eq-in as a comma string', cond('estimatedvalue', 'eq-in', '10, -5'), ['small', 'arger', 'ten']],
  ['number not-in also matches empty values', cond('estimatedvalue', 'not-in', [10, 0]), ['big', 'arger', 'huge', 'empty']],
  ['number is-null', cond('estimatedvalue', 'is-null'), ['empty']],
  ['number is-not-null', cond('estimatedvalue', 'is-not-null'), ['big', 'small', 'arger', 'zero', 'huge', 'ten']],
  ['date eq', cond('estimatedclosedate', 'eq', '2025-01-01'), ['big', 'empty']],
  ['date ne also matches empty values', cond('estimatedclosedate', 'ne', '2025-01-01'), ['small', 'arger', 'zero', 'huge', 'ten']],
  ['date lt', cond('estimatedclosedate', 'lt', '2025-01-01'), ['small']],
  ['date le includes the day', cond('estimatedclosedate', 'le', '2025-01-01'), ['big', 'small', 'empty']],
  ['date gt', cond('estimatedclosedate', 'gt', '2025-01-01'), ['arger', 'huge', 'ten']],
  ['date ge', cond('estimatedclosedate', 'ge', '2025-01-02'), ['arger', 'huge', 'ten']],
  ['date between includes both days', cond('estimatedclosedate', 'between', ['2025-01-01', '2025-01-15']), ['big', 'arger', 'empty', 'ten']],
  ['date eq-in', cond('estimatedclosedate', 'eq-in', ['2024-12-31', '2025-06-30']), ['small', 'huge']],
  ['date not-in also matches empty values', cond('estimatedclosedate', 'not-in', ['2025-01-01', '2025-01-15']), ['small', 'arger', 'zero', 'huge']],
  ['date is-null', cond('estimatedclosedate', 'is-null'), ['zero']],
  ['text eq beyond ASCII ignores case', cond('name', 'eq', 'ärger gmbh'), ['arger']],
  ['text start-with beyond ASCII ignores case', cond('name', 'start-with', 'ÄR'), ['arger']],
  ['date end-with on its stored text', cond('estimatedclosedate', 'end-with', '-31'), ['small']],
  ['lookup eq', cond('accountid', 'eq', keyOf('acme')), ['big', 'small', 'ten']],
  ['lookup ne also matches empty values', cond('accountid', 'ne', keyOf('acme')), ['arger', 'zero', 'huge', 'empty']],
  ['lookup is-null', cond('accountid', 'is-null'), ['zero', 'empty']],
  ['derived name of a lookup', cond('accountname', 'eq', "o'brien ltd"), ['arger']],
];

/** Every value a v3 row may hold (docs/compat.md: no booleans, objects or arrays). */
function assertScalars(rows: Array<Record<string, unknown>>): void {
  for (const row of rows) {
    for (const [name, value] of Object.entries(row)) {
      assert.ok(value === null || typeof value === 'string' || typeof value === 'number', `${name} is ${JSON.stringify(value)}`);
    }
  }
}

describe('POST /api/v3/query', () => {
  let ctx: TestContext;
  let fx: Fixture;
  /** The fixture's second user's token: the owner of the 'B' accounts. */
  let tokenB: string;

  before(async () => {
    ctx = await testContext();
    fx = await seedFixture(ctx);
    tokenB = await ctx.stores.admin.createToken(fx.userB);
    for (const [i, [, name, estimatedvalue, estimatedclosedate, account]] of OPPORTUNITIES.entries()) {
      const res = await ctx.request({ method: 'POST', url: '/api/record/opportunity', payload: {
        opportunityid: opportunityKey(i + 1), name, estimatedvalue, estimatedclosedate, accountid: account === null ? null : keyOf(account),
      } });
      assert.equal(res.statusCode, 201, res.body);
    }
  });
  after(() => ctx.close());

  /** Labels of the account rows a v3 body selects, in order; fails loudly on anything but 200. */
  async function accountLabels(body: Record<string, unknown>, token?: string): Promise<string[]> {
    const r = await v3(ctx, { objectType: 1, fields: [{ name: 'accountname' }], pageSize: 500, ...body }, token);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data.map((row: { _id: string }) => labelOf(row._id));
  }

  describe('operators over the fixture accounts, against the reference', () => {
    for (const [kind, cases] of [['text', TEXT_CASES], ['picklist', PICKLIST_CASES], ['datetime', DATETIME_CASES],
      ['lookup', LOOKUP_CASES], ['derived name', DERIVED_CASES]] as const) {
      for (const [name, condition, expected] of cases) {
        test(`${kind}: ${name}`, async () => {
          const want = expectLabels(expected(fx));
          assert.ok(want.length > 0 && want.length < FIXTURE_ACCOUNTS.length, `the case must tell rows apart: ${want.length} rows`);
          assert.deepEqual(await accountLabels({ filter: where(condition) }), want);
        });
      }
    }
  });

  describe('operators over opportunities: number, date, text, lookup and derived fields', () => {
    for (const [name, condition, expected] of OPPORTUNITY_CASES) {
      test(name, async () => {
        const r = await v3(ctx, { objectType: 'opportunity', fields: [{ name: 'name' }], filter: where(condition), orderBy: [{ name: 'opportunityid' }] });
        assert.equal(r.status, 200, JSON.stringify(r.body));
        assert.deepEqual(r.body.data.map((row: { _id: string }) => opportunityLabel(row._id)), expected);
      });
    }
  });

  test("userid selects the caller's own records, whoever calls", async () => {
    const mine = where(cond('ownerid', 'userid'));
    assert.deepEqual(await accountLabels({ filter: mine }), expectLabels((a) => a.owner === 'A'));
    assert.deepEqual(await accountLabels({ filter: mine }, tokenB), expectLabels((a) => a.owner === 'B'));
    assert.deepEqual(await accountLabels({ filter: where(cond('ownerid', 'userid', 'ignored')) }), expectLabels((a) => a.owner === 'A'));
  });

  test('userid is refused with 400 FIELD_TYPE on a field that is not a lookup to users, rather than matching nothing', async () => {
    for (const [field, what] of [['accountname', 'a text field'], ['createdon', 'a datetime field'], ['primarycontactid', 'a lookup to another object']] as const) {
      const r = await v3(ctx, { objectType: 1, filter: where(cond(field, 'userid')) });
      assertV3Error(r, 400, 'Bad Request', new RegExp(`^filter\\[0\\]\\.conditions\\[0\\]\\.operator 'userid' matches the records whose lookup to users holds your own user, but '${field}' is ${what}\\. Name a lookup to users, such as ownerid or createdby\\.$`));
      assert.equal(r.res.headers['x-error-code'], 'FIELD_TYPE');
    }
  });

  test('is-null takes no value, a dummy value or null alike; is-not-null too', async () => {
    const want = expectLabels((a) => a.billingcity === null);
    for (const value of [undefined, 'x', null, '', 0]) {
      assert.deepEqual(await accountLabels({ filter: where(cond('billingcity', 'is-null', value)) }), want, `value ${JSON.stringify(value)}`);
      assert.deepEqual(await accountLabels({ filter: where(cond('billingcity', 'IS-NOT-NULL', value)) }), expectLabels((a) => a.billingcity !== null));
    }
  });

  describe('filter groups', () => {
    const lisbonOrPorto = { type: 'OR', conditions: [cond('billingcity', 'eq', 'lisbon'), cond('billingcity', 'eq', 'porto')] };

    test('an OR group matches any of its conditions', async () => {
      assert.deepEqual(await accountLabels({ filter: [lisbonOrPorto] }), expectLabels((a) => ['lisbon', 'porto'].includes(a.billingcity?.toLowerCase() ?? '')));
    });

    test('an AND group matches all of its conditions, and a group without a type is AND', async () => {
      const want = expectLabels((a) => a.statecode === 1 && a.accountname.toLowerCase().startsWith('acme'));
      const conditions = [cond('statecode', 'eq', 1), cond('accountname', 'start-with', 'acme')];
      assert.deepEqual(await accountLabels({ filter: [{ type: 'AND', conditions }] }), want);
      assert.deepEqual(await accountLabels({ filter: [{ type: 'and', conditions }] }), want);
      assert.deepEqual(await accountLabels({ filter: [{ conditions }] }), want);
    });

    test('several groups hold together: (A or B) and (C) and (D or E)', async () => {
      const filter = [
        { ...lisbonOrPorto, type: 'or' },
        { type: 'AND', conditions: [cond('statecode', 'eq', 1)] },
        { type: 'OR', conditions: [cond('accounttypecode', 'eq', 1), cond('ownername', 'eq', 'zoe second')] },
      ];
      const want = expectLabels((a) => ['lisbon', 'porto'].includes(a.billingcity?.toLowerCase() ?? '') && a.statecode === 1
        && (a.accounttypecode === 1 || a.owner === 'B'));
      assert.deepEqual(want, ['acme', 'acmeUnd']);
      assert.deepEqual(await accountLabels({ filter }), want);
    });

    test('an empty filter, an empty group and a null filter select every record', async () => {
      const all = expectLabels(() => true);
      for (const filter of [[], [{ type: 'AND', conditions: [] }], null]) assert.deepEqual(await accountLabels({ filter }), all);
    });
  });

  describe('fields, _id and order', () => {
    test('keeps the order of fields and adds _id to every row, without the key unless it is asked for', async () => {
      const r = await v3(ctx, { objectType: 1, fields: [{ name: 'OwnerName' }, { name: 'statecode' }, { name: 'accountname' }], pageSize: 500 });
      assert.equal(r.status, 200);
      assert.equal(r.body.data.length, FIXTURE_ACCOUNTS.length);
      for (const row of r.body.data) assert.deepEqual(Object.keys(row), ['ownername', 'statecode', 'accountname', '_id']);
      const acme = r.body.data.find((row: { _id: string }) => row._id === keyOf('acme'));
      assert.deepEqual(acme, { ownername: 'Owner', statecode: 1, accountname: 'Acme', _id: keyOf('acme') });
    });

    test('keeps the key where it is asked for, with _id as well', async () => {
      const r = await v3(ctx, { objectType: 1, fields: [{ name: 'accountname' }, { name: 'accountid' }], filter: where(cond('accountname', 'eq', 'gamma')) });
      assert.deepEqual(r.body.data, [{ accountname: 'Gamma', accountid: keyOf('gamma'), _id: keyOf('gamma') }]);
    });

    test('returns every field plus _id when fields is absent or empty, every value a string, number or null', async () => {
      for (const fields of [undefined, []]) {
        const r = await v3(ctx, { objectType: 1, fields, pageSize: 500 });
        assert.equal(r.status, 200);
        const keys = Object.keys(r.body.data[0]);
        assert.equal(keys.at(-1), '_id');
        assert.ok(keys.includes('accountid') && keys.includes('ownername') && keys.includes('pcfsystemfield85'));
        for (const row of r.body.data) assert.equal(row._id, row.accountid);
        assertScalars(r.body.data);
      }
      assertScalars((await v3(ctx, { objectType: 'opportunity' })).body.data);
    });

    test('orders ascending and descending, ties broken by the key in the same direction', async () => {
      const byCity = (desc: boolean) => [...FIXTURE_ACCOUNTS].sort((a, b) => {
        // Empty first ascending, last descending; text without regard to case.
        const x = a.billingcity?.toLowerCase() ?? null;
        const y = b.billingcity?.toLowerCase() ?? null;
        const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
        return (c || (a.accountid < b.accountid ? -1 : 1)) * (desc ? -1 : 1);
      }).map((a) => a.label);
      assert.deepEqual(await accountLabels({ orderBy: [{ name: 'billingcity', order: 'asc' }] }), byCity(false));
      assert.deepEqual(await accountLabels({ orderBy: [{ name: 'BillingCity', order: 'DESC' }] }), byCity(true));
      assert.deepEqual(await accountLabels({ orderBy: [{ name: 'billingcity' }] }), byCity(false));
      const lisbon = (await accountLabels({ orderBy: [{ name: 'billingcity', order: 'desc' }], filter: where(cond('billingcity', 'eq', 'lisbon')) }));
      assert.deepEqual(lisbon, ['acmeWest', 'acmeLabs', 'acme']);
    });

    test('orders numbers with ties by key and empty values first ascending', async () => {
      const order = async (o: string) => (await v3(ctx, { objectType: 4, orderBy: [{ name: 'estimatedvalue', order: o }] })).body.data.map((row: { _id: string }) => opportunityLabel(row._id));
      assert.deepEqual(await order('asc'), ['empty', 'arger', 'zero', 'small', 'ten', 'big', 'huge']);
      assert.deepEqual(await order('desc'), ['huge', 'big', 'ten', 'small', 'zero', 'arger', 'empty']);
    });
  });

  test('replies exactly {data, isLastPage, pageNumber, pageSize, message: ""} with no error member', async () => {
    const r = await v3(ctx, { objectType: 1, fields: [{ name: 'accountname' }], filter: where(cond('billingcity', 'eq', 'lisbon')), orderBy: [{ name: 'accountname' }] });
    assert.equal(r.status, 200);
    assert.match(r.res.headers['content-type'] as string, /^application\/json/);
    assert.ok(r.res.headers['x-request-id']);
    assert.deepEqual(r.body, {
      data: [
        { accountname: 'Acme', _id: keyOf('acme') },
        { accountname: 'ACME Labs', _id: keyOf('acmeLabs') },
        { accountname: 'acme-west', _id: keyOf('acmeWest') },
      ],
      isLastPage: true, pageNumber: 1, pageSize: 50, message: '',
    });
  });

  test('serves /api//v3/query like /api/v3/query', async () => {
    const res = await ctx.request({ method: 'POST', url: '/api//v3/query', payload: { objectType: 1, fields: [{ name: 'accountname' }], pageSize: 1 } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(Object.keys(res.json()), ['data', 'isLastPage', 'pageNumber', 'pageSize', 'message']);
  });

  describe('the same rows as the filter language', () => {
    const CROSS: ReadonlyArray<[name: string, v3: Record<string, unknown>, query: Record<string, unknown>]> = [
      ['groups', { filter: [{ type: 'OR', conditions: [cond('billingcity', 'eq', 'lisbon'), cond('billingcity', 'eq', 'austin')] }, { type: 'AND', conditions: [cond('statecode', 'eq', 1)] }] },
        { query: "(billingcity = 'lisbon' OR billingcity = 'austin') AND statecode = 1" }],
      ['not-in', { filter: where(cond('billingcity', 'not-in', ['lisbon', 'porto'])) }, { query: "billingcity != 'lisbon' and billingcity != 'porto'" }],
      ['eq-in', { filter: where(cond('accounttypecode', 'eq-in', '2,3')) }, { query: 'accounttypecode = 2 or accounttypecode = 3' }],
      ['between on a datetime', { filter: where(cond('pcfsystemfield85', 'between', ['2024-12-31', '2025-01-01'])) },
        { query: "pcfsystemfield85 >= '2024-12-31' AND pcfsystemfield85 <= '2025-01-01'" }],
      ['ne and not-start-with', { filter: [{ type: 'OR', conditions: [cond('description', 'ne', 'gamma ray'), cond('emailaddress1', 'not-start-with', '%acme')] }] },
        { query: "description != 'gamma ray' OR emailaddress1 not-start-with '%acme'" }],
      ['end-with and not-end-with', { filter: [{ type: 'OR', conditions: [cond('accountname', 'end-with', '%corp'), cond('billingcity', 'not-end-with', 'N')] }] },
        { query: "accountname end-with '%corp' OR billingcity not-end-with 'N'" }],
      ['is-null with a value', { filter: where(cond('primarycontactid', 'is-null', 'x'), cond('ownername', 'start-with', 'OWN')) },
        { query: "primarycontactid is-null x AND ownername start-with 'OWN'" }],
      ['lt, gt, le and ge', { filter: where(cond('accountname', 'gt', 'd'), cond('accountname', 'le', 'p'), cond('createdon', 'ge', '2025-02-15'), cond('createdon', 'lt', '2025-02-25')) },
        { query: "accountname > 'd' and accountname <= 'p' and createdon >= '2025-02-15' and createdon < '2025-02-25'" }],
      ['order and paging', { orderBy: [{ name: 'ownername', order: 'desc' }], pageSize: 7, pageNumber: 2 },
        { sort_by: 'ownername', sort_type: 'desc', page_size: 7, page_number: 2 }],
      ['the last page', { orderBy: [{ name: 'statecode' }], pageSize: 7, pageNumber: 6 }, { sort_by: 'statecode', page_size: 7, page_number: 6 }],
    ];
    const FIELDS = ['accountname', 'billingcity', 'statecode', 'pcfsystemfield85', 'ownername'];

    for (const [name, body, query] of CROSS) {
      test(name, async () => {
        const a = await v3(ctx, { objectType: 'account', fields: FIELDS.map((f) => ({ name: f })), ...body });
        const b = await runQuery(ctx, { objecttype: 1, fields: ['accountid', ...FIELDS].join(','), ...query });
        assert.equal(a.status, 200, JSON.stringify(a.body));
        assert.equal(b.status, 200, JSON.stringify(b.body));
        assert.ok(b.body.data.Data.length > 0, 'the case must select rows');
        assert.deepEqual(a.body.data, b.body.data.Data.map(({ accountid, ...rest }: Record<string, unknown>) => ({ ...rest, _id: accountid })));
        assert.equal(a.body.isLastPage, b.body.data.IsLastPage);
      });
    }
  });

  describe('errors as {status, error, message}', () => {
    const bad = (payload: unknown, message: RegExp) => async () => assertV3Error(await v3(ctx, payload), 400, 'Bad Request', message);
    const list = (n: number) => Array.from({ length: n }, (_, i) => `city ${i}`);

    test('an unknown field in fields', bad({ objectType: 1, fields: [{ name: 'acountname' }] }, /^Invalid field name: 'acountname' in 'fields'\. Did you mean 'accountname'\?/));
    test('an unknown field in a condition', bad({ objectType: 1, filter: where(cond('nope', 'eq', 1)) }, /^Invalid field name: 'nope' in filter\[0\]\.conditions\[0\]\.fieldName\./));
    test('an unknown field in orderBy', bad({ objectType: 1, orderBy: [{ name: 'nope' }] }, /^Invalid field name: 'nope' in orderBy\[0\]\.name\./));
    test('an unknown operator', bad({ objectType: 1, filter: where(cond('accountname', 'like', 'a')) },
      /^filter\[0\]\.conditions\[0\]\.operator "like" is not an operator\. Use one of: eq, ne, lt, gt, le, ge, start-with, not-start-with, end-with, not-end-with, is-null, is-not-null, eq-in, not-in, between, userid\.$/));
    test('a condition without an operator', bad({ objectType: 1, filter: where({ fieldName: 'accountname', value: 'a' }) }, /operator/));
    test('a value that is not a number for a number field', bad({ objectType: 4, filter: where(cond('estimatedvalue', 'gt', 'ten')) },
      /^'estimatedvalue' must be a valid Number; got 'ten' in filter\[0\]\.conditions\[0\]\.value\./));
    test('a value that is not a date', bad({ objectType: 1, filter: where(cond('pcfsystemfield85', 'le', '2025-13-01')) }, /^'pcfsystemfield85' must be a valid DateTime/));
    test('a value that is not a UUID for a lookup', bad({ objectType: 1, filter: where(cond('primarycontactid', 'eq', 'carla')) }, /^'primarycontactid' must be a valid Lookup id/));
    test('a value in a list that is not a picklist code', bad({ objectType: 1, filter: where(cond('statecode', 'eq-in', [1, 'x'])) }, /^'statecode' must be a valid Picklist code; got 'x'/));
    test('an object or an array as a single value', async () => {
      for (const value of [{ a: 1 }, ['a']]) {
        assertV3Error(await v3(ctx, { objectType: 1, filter: where(cond('accountname', 'eq', value)) }), 400, 'Bad Request',
          /^filter\[0\]\.conditions\[0\]\.value must be a string, a number or a boolean; got /);
      }
    });
    test('start-with on a number', bad({ objectType: 4, filter: where(cond('estimatedvalue', 'start-with', '1')) }, /'start-with' compares text, but 'estimatedvalue' is a number field/));
    test('end-with on a number', bad({ objectType: 4, filter: where(cond('estimatedvalue', 'not-end-with', '1')) }, /'not-end-with' compares text, but 'estimatedvalue' is a number field/));
    test('end-with with a relative date', bad({ objectType: 1, filter: where(cond('createdon', 'end-with', 'today')) }, /'end-with' cannot take a relative date/));
    test('between with other than two values', bad({ objectType: 1, filter: where(cond('statecode', 'between', [1, 2, 3])) }, /'between' must be two values \[from, to\]; got 3/));
    test('an empty eq-in list', bad({ objectType: 1, filter: where(cond('statecode', 'eq-in', [])) }, /must be a non-empty array of values/));
    test('a list too long', bad({ objectType: 1, filter: where(cond('billingcity', 'eq-in', list(201))) }, /has 201 values; the most is 200 \(each counts as one of the filter's 200 conditions\)/));
    test('too many conditions, counting each value of a list', async () => {
      assertV3Error(await v3(ctx, { objectType: 1, filter: [{ type: 'AND', conditions: [cond('billingcity', 'not-in', list(150)), cond('accountname', 'not-in', list(51))] }] }), 400, 'Bad Request', /more than 200 conditions/);
      const many = Array.from({ length: 201 }, (_, i) => cond('billingcity', 'ne', `c${i}`));
      assertV3Error(await v3(ctx, { objectType: 1, filter: [{ type: 'OR', conditions: many }] }), 400, 'Bad Request', /more than 200 conditions/);
      assert.equal((await v3(ctx, { objectType: 1, filter: where(cond('billingcity', 'not-in', list(200))) })).status, 200);
    });
    test('two orderBy entries', bad({ objectType: 1, orderBy: [{ name: 'accountname' }, { name: 'createdon' }] }, /^'orderBy' may name one field/));
    test('an order that is neither asc nor desc', bad({ objectType: 1, orderBy: [{ name: 'accountname', order: 'down' }] }, /^orderBy\[0\]\.order must be 'asc' or 'desc'/));
    test('a group type that is neither AND nor OR', bad({ objectType: 1, filter: [{ type: 'XOR', conditions: [] }] }, /^filter\[0\]\.type must be 'AND' or 'OR'/));
    test('conditions that are not an array', bad({ objectType: 1, filter: [{ type: 'AND', conditions: 'x' }] }, /^filter\[0\]\.conditions must be an array/));
    test('fields that are not an array of {name}', async () => {
      assertV3Error(await v3(ctx, { objectType: 1, fields: 'accountname' }), 400, 'Bad Request', /^'fields' must be an array/);
      assertV3Error(await v3(ctx, { objectType: 1, fields: [{ label: 'x' }] }), 400, 'Bad Request', /^'fields\[0\]' must be \{"name": "<field>"\}/);
    });
    test('a pageSize or pageNumber that is not a whole number from 1, named as sent', async () => {
      for (const pageSize of [0, -1, 1.5, 'ten']) {
        assertV3Error(await v3(ctx, { objectType: 1, pageSize }), 400, 'Bad Request', /^'pageSize' must be a whole number from 1 to 500/);
      }
      for (const pageNumber of [0, 'x']) {
        assertV3Error(await v3(ctx, { objectType: 1, pageNumber }), 400, 'Bad Request', /^'pageNumber' must be a whole number of at least 1/);
      }
    });
    test('no objectType, named as sent', bad({ fields: [{ name: 'accountname' }] }, /^'objectType' is required/));
    test('a body that is not an object', async () => {
      assertV3Error(await v3(ctx, [{ objectType: 1 }]), 400, 'Bad Request', /body/);
      const res = await ctx.request({ method: 'POST', url: '/api/v3/query', headers: { 'content-type': 'application/json' }, payload: '{"objectType": 1' });
      assertV3Error({ status: res.statusCode, body: res.json(), res }, 400, 'Bad Request', /not valid JSON/);
    });
    test('no token is 401 in the v3 shape', async () => {
      assertV3Error(await v3(ctx, { objectType: 1 }, null), 401, 'Unauthorized', /^No API token/);
      assertV3Error(await v3(ctx, { objectType: 1 }, '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f'), 401, 'Unauthorized', /token/);
    });
    test('an unknown object is 404 in the v3 shape', async () => {
      assertV3Error(await v3(ctx, { objectType: 999 }), 404, 'Not Found', /^Invalid Object Name: '999'/);
      assertV3Error(await v3(ctx, { objectType: 'nosuchobject' }), 404, 'Not Found', /^Invalid Object Name: 'nosuchobject'/);
    });
    test('a hidden field is 403 in the v3 shape', async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'nophone', grant: 'account:read', hide: 'account:telephone1' });
      const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'nophone@example.com', role: 'nophone' });
      const cases: Array<[object, string]> = [
        [{ fields: [{ name: 'telephone1' }] }, "in 'fields'"],
        [{ filter: where(cond('telephone1', 'is-null')) }, 'in filter[0].conditions[0].fieldName'],
        [{ orderBy: [{ name: 'Telephone1' }] }, 'in orderBy[0].name'],
      ];
      for (const [body, site] of cases) {
        const r = await v3(ctx, { objectType: 1, ...body }, token);
        assertV3Error(r, 403, 'Forbidden', /^Field 'telephone1' of account is hidden for role 'nophone', but it was asked for /);
        assert.ok(r.body.message.includes(site), r.body.message);
      }
    });
  });
});

describe('POST /api/v3/query paging over more than 500 records', () => {
  let ctx: TestContext;
  const COUNT = 1000;
  before(async () => {
    ctx = await testContext();
    const records = await ctx.stores.records.org(ctx.orgId);
    const lead = (await records.schema()).resolve('lead');
    // Ten records per createdon, so ties cross page boundaries.
    await ctx.stores.records.bulkInsert(ctx.orgId, lead, Array.from({ length: COUNT }, (_, i) => {
      const stamp = `2025-01-01T00:${String(Math.floor(i / 10 / 60)).padStart(2, '0')}:${String(Math.floor(i / 10) % 60).padStart(2, '0')}`;
      return { leadid: randomUUID(), fullname: `Lead ${i}`, statecode: 1, statuscode: 1, ownerid: ctx.userId, createdby: ctx.userId, modifiedby: ctx.userId, createdon: stamp, modifiedon: stamp };
    }), TEST_AUTHOR);
  });
  after(() => ctx.close());

  test('pages with pageSize 500 until isLastPage, every record once, in createdon then key order', async () => {
    const seen: Array<{ createdon: string; _id: string }> = [];
    const pages: Array<[number, boolean]> = [];
    for (let pageNumber = 1; pageNumber < 10; pageNumber++) {
      const r = await v3(ctx, { objectType: 'lead', fields: [{ name: 'createdon' }], pageSize: 500, pageNumber });
      assert.equal(r.status, 200);
      assert.equal(r.body.pageNumber, pageNumber);
      assert.equal(r.body.pageSize, 500);
      pages.push([r.body.data.length, r.body.isLastPage]);
      seen.push(...r.body.data);
      if (r.body.isLastPage) break;
    }
    assert.deepEqual(pages, [[500, false], [500, true]], 'exactly two full pages, the second known to be the last');
    assert.equal(new Set(seen.map((row) => row._id)).size, COUNT);
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      assert.ok(a.createdon < b.createdon || (a.createdon === b.createdon && a._id < b._id), `row ${i} is out of order`);
    }
  });

  test('answers a page past the end with no rows and isLastPage, and serves a pageSize over 500 as 500', async () => {
    const past = await v3(ctx, { objectType: 'lead', fields: [{ name: 'fullname' }], pageSize: 500, pageNumber: 3 });
    assert.deepEqual(past.body, { data: [], isLastPage: true, pageNumber: 3, pageSize: 500, message: '' });
    const big = await v3(ctx, { objectType: 'lead', fields: [{ name: 'fullname' }], pageSize: 1000 });
    assert.equal(big.body.data.length, 500);
    assert.equal(big.body.pageSize, 500);
    assert.equal(big.body.isLastPage, false);
  });
});
