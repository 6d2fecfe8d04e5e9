// A fixed set of accounts (plus two contacts and a second user) with hand-chosen edge values for
// the query tests, a helper that runs POST /api/query, and a plain JS reference of the filter
// language (docs/api.md) written without looking at the SQL, to compute expected rows independently.

import type { LightMyRequestResponse } from 'fastify';
import type { RecordStore } from '../../src/store/types.js';
import type { RecordRow } from '../../src/schema/types.js';
import { TEST_AUTHOR, type TestContext } from '../helpers.js';

/** Fixed keys: the expected rows of every test are named by these. `nn` is 1–99. */
export const accountKey = (nn: number): string => `a0000000-0000-4000-8000-${String(nn).padStart(12, '0')}`;
export const CONTACT_1 = 'c0000000-0000-4000-8000-000000000001';
export const CONTACT_2 = 'c0000000-0000-4000-8000-000000000002';
const CONTACT_NAMES: Record<string, string> = { [CONTACT_1]: 'Carla Contact', [CONTACT_2]: 'dmitri dupont' };

/** Owner A is the context's own user ("Owner", from owner@example.com); owner B is created by seedFixture. */
export const USER_B_NAME = 'Zoe Second';

export interface FixtureAccount {
  /** A short name for the row, used in expectations instead of the key. */
  label: string;
  accountid: string;
  accountname: string;
  accountnumber: string | null;
  billingcity: string | null;
  emailaddress1: string | null;
  description: string | null;
  statecode: number;
  accounttypecode: number | null;
  pcfsystemfield85: string | null;
  createdon: string;
  owner: 'A' | 'B';
  primarycontactid: string | null;
}

type Row = [
  label: string, name: string, number: string | null, city: string | null, email: string | null, description: string | null,
  statecode: number, type: number | null, pcf85: string | null, createdon: string, owner: 'A' | 'B', contact: string | null,
];

const C1 = CONTACT_1;
const C2 = CONTACT_2;
const T = '2025-03-01T09:00:00'; // a createdon shared by several rows: ties break by key

// Row n (1-based) has key accountKey(n). Createdon order deliberately differs from key order.
const ROWS: Row[] = [
  ['acme', 'Acme', 'ACC-001', 'Lisbon', 'info@acme.test', 'Anvils and rockets', 1, 1, '2025-01-01T00:00:00', '2025-01-10T08:00:00', 'A', C1],
  ['acmeLabs', 'ACME Labs', 'ACC-002', 'LISBON', 'labs@acme.test', null, 1, 2, '2025-01-01T23:59:59', '2025-01-05T08:00:00', 'A', C2],
  ['acmeWest', 'acme-west', 'acc-003', 'lisbon', null, 'West coast branch', 2, 1, '2025-01-02T00:00:00', '2025-01-20T08:00:00', 'B', null],
  ['acmePct', 'Acme%Corp', null, null, null, null, 1, 3, null, '2025-02-01T00:00:00', 'A', null],
  ['acmeUnd', 'Acme_Corp', 'ACC-005', 'Porto', null, null, 1, 3, null, '2025-02-01T00:00:01', 'B', null],
  ['acmeX', 'AcmeXCorp', 'ACC-006', 'Porto', null, 'Not a real %Corp', 2, null, null, '2025-01-31T23:59:59', 'A', null],
  ['obrien', "O'Brien Ltd", 'ACC-007', 'Dublin', 'sean@obrien.test', "Sean's shop", 1, 2, '2024-12-31T23:59:59', '2025-01-03T10:00:00', 'B', C1],
  ['quoted', 'The "Quoted" Co', 'ACC-008', 'Leeds', null, 'Says "hi"', 1, 4, '2025-01-01T12:30:00', '2025-01-04T10:00:00', 'A', null],
  ['smile', '😀 Smile Inc', 'ACC-009', null, null, '😀😀', 1, 5, '2025-01-02T00:00:01', '2025-01-06T10:00:00', 'B', null],
  ['cafe', 'Café Rouge', 'ACC-010', 'Lyon', 'bonjour@cafe.test', null, 2, 1, '2025-06-15T08:00:00', '2025-01-07T10:00:00', 'A', C2],
  ['beta', 'Beta Industries', 'ACC-011', 'Austin', null, null, 1, 2, '2024-06-30T10:00:00', T, 'A', null],
  ['betaLower', 'beta', null, 'austin', null, null, 2, 2, null, T, 'B', null],
  ['gamma', 'Gamma', 'ACC-013', 'AUSTIN', null, 'gamma ray', 1, null, null, T, 'A', null],
  ['delta', 'Delta Partners', 'ACC-014', null, null, null, 1, 4, null, T, 'B', C1],
  ['zeta', 'Zeta & Sons', 'ACC-015', 'Osaka', null, null, 1, 1, null, '2025-02-10T00:00:00', 'A', null],
  ['juice', '100% Juice', 'ACC-016', 'Graz', null, '100% natural', 1, 5, null, '2025-02-11T00:00:00', 'A', null],
  ['under', 'Under_score Ltd', 'ACC-017', 'Graz', null, null, 2, 3, null, '2025-02-12T00:00:00', 'B', null],
  ['semi', 'Semi;colon -- Co', 'ACC-018', null, null, "'; DROP TABLE account; --", 1, null, null, '2025-02-13T00:00:00', 'A', null],
  ['backslash', 'Back\\slash Co', 'ACC-019', null, null, null, 1, 1, null, '2025-02-14T00:00:00', 'A', null],
  ['omega', 'Omega', 'ACC-020', 'Denver', null, null, 1, 2, null, '2024-11-01T00:00:00', 'B', null],
  ['epsilon', 'Epsilon', 'ACC-021', 'Denver', null, null, 1, 2, null, '2025-02-15T00:00:00', 'A', null],
  ['eta', 'Eta', 'ACC-022', null, null, null, 2, 3, null, '2025-02-16T00:00:00', 'A', null],
  ['theta', 'Theta', 'ACC-023', 'Malmö', null, null, 1, 4, null, '2025-02-17T00:00:00', 'B', null],
  ['iota', 'Iota', 'ACC-024', null, null, null, 1, 5, null, '2025-02-18T00:00:00', 'A', null],
  ['kappa', 'Kappa', 'ACC-025', 'Kraków', null, null, 1, 1, null, '2025-02-19T00:00:00', 'A', null],
  ['lambda', 'Lambda', 'ACC-026', null, null, null, 2, 2, null, '2025-02-20T00:00:00', 'B', null],
  ['mu', 'Mu', 'ACC-027', null, null, null, 1, 3, null, '2025-02-21T00:00:00', 'A', null],
  ['nu', 'Nu', 'ACC-028', null, null, null, 1, 4, null, '2025-02-22T00:00:00', 'A', null],
  ['xi', 'Xi', 'ACC-029', null, null, null, 1, 5, null, '2025-02-23T00:00:00', 'B', null],
  ['omicron', 'Omicron', 'ACC-030', null, null, null, 2, 1, '9999-12-31T23:59:59', '2025-02-24T00:00:00', 'A', null],
  ['pi', 'Pi', 'ACC-031', null, null, null, 1, 2, null, '2025-02-25T00:00:00', 'A', null],
  ['rho', 'Rho', 'ACC-032', null, null, null, 1, 3, null, '2025-02-26T00:00:00', 'B', null],
  ['sigma', 'Sigma', 'ACC-033', null, null, null, 1, 4, null, '2025-02-27T00:00:00', 'A', null],
  ['tau', 'Tau', 'ACC-034', null, null, null, 2, 5, null, '2025-02-28T00:00:00', 'A', null],
  ['upsilon', 'Upsilon', 'ACC-035', null, null, null, 1, 1, null, '2025-03-02T00:00:00', 'B', null],
  ['phi', 'Phi', 'ACC-036', null, null, null, 1, 2, null, '2025-03-03T00:00:00', 'A', null],
  ['chi', 'Chi', 'ACC-037', null, null, null, 1, 3, null, '2025-03-04T00:00:00', 'A', null],
  ['psi', 'Psi', 'ACC-038', null, null, null, 2, 4, null, '2025-03-05T00:00:00', 'B', null],
  ['andCo', 'and', 'ACC-039', null, null, null, 1, 5, null, '2025-03-06T00:00:00', 'A', null],
  ['orHold', 'OR Holdings', 'ACC-040', null, null, null, 1, null, null, '2025-03-07T00:00:00', 'A', null],
];

/** The fixture accounts, in key order (row n has key accountKey(n)). */
export const FIXTURE_ACCOUNTS: readonly FixtureAccount[] = ROWS.map((r, i) => ({
  label: r[0],
  accountid: accountKey(i + 1),
  accountname: r[1],
  accountnumber: r[2],
  billingcity: r[3],
  emailaddress1: r[4],
  description: r[5],
  statecode: r[6],
  accounttypecode: r[7],
  pcfsystemfield85: r[8],
  createdon: r[9],
  owner: r[10],
  primarycontactid: r[11],
}));

const byLabel = new Map(FIXTURE_ACCOUNTS.map((a) => [a.label, a]));
const byKey = new Map(FIXTURE_ACCOUNTS.map((a) => [a.accountid, a]));
if (byLabel.size !== FIXTURE_ACCOUNTS.length) throw new Error('fixture labels must be unique');

export function keyOf(label: string): string {
  const a = byLabel.get(label);
  if (!a) throw new Error(`no fixture account labelled '${label}'`);
  return a.accountid;
}

export function labelOf(key: unknown): string {
  return byKey.get(String(key))?.label ?? `?${String(key)}`;
}

/** The fixture as seeded into one context: the two owners' ids and names. */
export interface Fixture {
  readonly userA: string;
  readonly userB: string;
  ownerId(a: FixtureAccount): string;
  ownerName(a: FixtureAccount): string;
  contactName(a: FixtureAccount): string | null;
}

/**
 * Seeds the context's organization: a second user, two contacts and the accounts, inserted in
 * reverse key order so that no test can pass by relying on insertion order.
 */
export async function seedFixture(ctx: TestContext): Promise<Fixture> {
  const { user: userB } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'zoe.second@example.com', fullname: USER_B_NAME });
  return seedFixtureRecords(ctx.stores.records, ctx.orgId, ctx.userId, userB.id);
}

/**
 * Seeds the contacts and accounts into `orgId` of a record store whose users A and B exist
 * (named 'Owner' and USER_B_NAME), the way seedFixture does.
 */
export async function seedFixtureRecords(store: RecordStore, orgId: string, userA: string, userBId: string): Promise<Fixture> {
  const records = await store.org(orgId);
  const schema = await records.schema();
  const account = schema.resolve('account');
  const contact = schema.resolve('contact');
  const stamp = (row: RecordRow, obj: typeof account, createdon: string, owner: string): RecordRow => {
    const full: RecordRow = {};
    for (const f of obj.fields) if (f.role !== 'derived') full[f.name] = null;
    return { ...full, statuscode: 1, createdon, modifiedon: createdon, createdby: userA, modifiedby: userA, ownerid: owner, ...row };
  };
  await store.bulkInsert(orgId, contact, [
    stamp({ contactid: CONTACT_1, fullname: CONTACT_NAMES[CONTACT_1]!, statecode: 1 }, contact, '2025-01-01T00:00:00', userA),
    stamp({ contactid: CONTACT_2, fullname: CONTACT_NAMES[CONTACT_2]!, statecode: 1 }, contact, '2025-01-01T00:00:00', userA),
  ], TEST_AUTHOR);
  const owner = (a: FixtureAccount): string => (a.owner === 'A' ? userA : userBId);
  const rows = [...FIXTURE_ACCOUNTS].reverse().map((a) => stamp({
    accountid: a.accountid,
    accountname: a.accountname,
    accountnumber: a.accountnumber,
    billingcity: a.billingcity,
    emailaddress1: a.emailaddress1,
    description: a.description,
    statecode: a.statecode,
    accounttypecode: a.accounttypecode,
    pcfsystemfield85: a.pcfsystemfield85,
    primarycontactid: a.primarycontactid,
  }, account, a.createdon, owner(a)));
  await store.bulkInsert(orgId, account, rows, TEST_AUTHOR);
  return {
    userA,
    userB: userBId,
    ownerId: owner,
    ownerName: (a) => (a.owner === 'A' ? 'Owner' : USER_B_NAME),
    contactName: (a) => (a.primarycontactid === null ? null : CONTACT_NAMES[a.primarycontactid]!),
  };
}

export interface QueryReply {
  status: number;
  body: any;
  res: LightMyRequestResponse;
}

/** POST /api/query with `body` (objecttype defaults to 1); the reply parsed. */
export async function runQuery(ctx: TestContext, body: Record<string, unknown>, url = '/api/query'): Promise<QueryReply> {
  const res = await ctx.request({ method: 'POST', url, payload: { objecttype: 1, ...body } });
  let parsed: any;
  try {
    parsed = res.json();
  } catch {
    parsed = res.body;
  }
  return { status: res.statusCode, body: parsed, res };
}

/** Labels of the rows a successful query returned, in order; fails loudly on anything but 200. */
export async function queryLabels(ctx: TestContext, body: Record<string, unknown>): Promise<string[]> {
  const r = await runQuery(ctx, { fields: 'accountid', ...body });
  if (r.status !== 200) throw new Error(`expected 200 for ${JSON.stringify(body)}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return (r.body.data.Data as Array<{ accountid: string }>).map((row) => labelOf(row.accountid));
}

// ---------------------------------------------------------------------------------------------
// The reference: docs/api.md read literally and evaluated over the fixture in plain JS.
// ---------------------------------------------------------------------------------------------

export type RefOp = '=' | '!=' | '<' | '>' | '<=' | '>=' | 'start-with' | 'not-start-with' | 'end-with' | 'not-end-with' | 'is-null' | 'is-not-null';

export interface RefCondition {
  field: RefField;
  op: RefOp;
  value: string;
}

export type RefExpr = RefCondition | { kind: 'and' | 'or'; children: RefExpr[] };

/** The account fields the reference knows, with their value kinds. */
export const REF_FIELDS = {
  accountname: 'text', accountnumber: 'text', billingcity: 'text', emailaddress1: 'text', description: 'text',
  statecode: 'number', accounttypecode: 'number', pcfsystemfield85: 'datetime', createdon: 'datetime',
  accountid: 'lookup', primarycontactid: 'lookup', ownerid: 'lookup', ownername: 'text', primarycontactname: 'text',
} as const;
export type RefField = keyof typeof REF_FIELDS;

/** The value of a field of a fixture account, as a client would read it. */
export function refValue(fx: Fixture, a: FixtureAccount, field: RefField): string | number | null {
  switch (field) {
    case 'ownerid': return fx.ownerId(a);
    case 'ownername': return fx.ownerName(a);
    case 'primarycontactname': return fx.contactName(a);
    default: return a[field];
  }
}

/** Order of UTF-8 bytes, i.e. of code points (JS `<` compares UTF-16 units, which differs past U+FFFF). */
export function codePointCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const fold = (s: string): string => s.toLowerCase();

/** A pattern as a regular expression: % is any run of characters and _ any one character. */
const patternSource = (pattern: string): string =>
  [...pattern].map((ch) => (ch === '%' ? '[\\s\\S]*' : ch === '_' ? '[\\s\\S]' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');

/** `start-with` as docs/api.md says: a prefix, where % is any run of characters and _ any one character; case-insensitive. */
export function startsWithPattern(value: string, pattern: string): boolean {
  return new RegExp(`^${patternSource(pattern)}`, 'iu').test(value);
}

/** `end-with`: a suffix, with the wildcards of start-with; case-insensitive. */
export function endsWithPattern(value: string, pattern: string): boolean {
  return new RegExp(`${patternSource(pattern)}$`, 'iu').test(value);
}

function compare(op: '<' | '>' | '<=' | '>=' | '=', c: number): boolean {
  switch (op) {
    case '=': return c === 0;
    case '<': return c < 0;
    case '>': return c > 0;
    case '<=': return c <= 0;
    case '>=': return c >= 0;
  }
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether one account satisfies one condition. Values are the text a client writes (no quotes). */
export function refMatches(fx: Fixture, a: FixtureAccount, cond: RefCondition): boolean {
  const v = refValue(fx, a, cond.field);
  const kind = REF_FIELDS[cond.field];
  const x = cond.value;
  switch (cond.op) {
    case 'is-null': return v === null;
    case 'is-not-null': return v !== null;
    case 'start-with': return v !== null && startsWithPattern(String(v), x);
    case 'not-start-with': return v === null || !startsWithPattern(String(v), x);
    case 'end-with': return v !== null && endsWithPattern(String(v), x);
    case 'not-end-with': return v === null || !endsWithPattern(String(v), x);
    default: break;
  }
  // `= ''` means empty, `!= ''` means not empty.
  if (x === '' && (cond.op === '=' || cond.op === '!=')) return cond.op === '=' ? v === null : v !== null;
  if (cond.op === '!=') return v === null || !refMatches(fx, a, { ...cond, op: '=' });
  if (v === null) return false;
  const op = cond.op;
  switch (kind) {
    case 'text': return compare(op, codePointCompare(fold(String(v)), fold(x)));
    case 'number': return compare(op, Math.sign(Number(v) - Number(x)));
    case 'lookup': return compare(op, codePointCompare(String(v), x.toLowerCase()));
    case 'datetime': {
      // A date-only value is the whole day: compare the day part.
      if (DATE_ONLY.test(x)) return compare(op, codePointCompare(String(v).slice(0, 10), x));
      return compare(op, codePointCompare(String(v), x.replace(' ', 'T')));
    }
  }
}

export function refEval(fx: Fixture, a: FixtureAccount, e: RefExpr): boolean {
  if ('field' in e) return refMatches(fx, a, e);
  return e.kind === 'and' ? e.children.every((c) => refEval(fx, a, c)) : e.children.some((c) => refEval(fx, a, c));
}

/** The default query order: createdon ascending, ties by key ascending. */
export function defaultOrder(a: FixtureAccount, b: FixtureAccount): number {
  return a.createdon < b.createdon ? -1 : a.createdon > b.createdon ? 1 : a.accountid < b.accountid ? -1 : a.accountid > b.accountid ? 1 : 0;
}

/** Labels of the fixture accounts for which `keep` holds, in the default order. */
export function expectLabels(keep: (a: FixtureAccount) => boolean): string[] {
  return FIXTURE_ACCOUNTS.filter(keep).sort(defaultOrder).map((a) => a.label);
}
