// The table of filter expressions over the fixed fixture (fixture.ts): each with the exact rows it
// must return (by label, in order) or the 400 Message it must give. expressions.test.ts checks it over
// HTTP; differential.test.ts runs it on every store and compares the rows.

import { CONTACT_1, CONTACT_2, accountKey, type Fixture, type FixtureAccount } from './fixture.js';

export interface ExpressionCase {
  /** What the case shows, as the start of a sentence. */
  it: string;
  /** The filter; a function when it needs ids only known once the fixture is seeded. */
  q: string | ((fx: Fixture) => string);
  sort_by?: string;
  sort_type?: string;
  /** The exact rows, in order. */
  rows?: string[];
  /** Or: the rows for which this holds, in the default order (createdon asc, ties by key asc). */
  where?: (a: FixtureAccount, fx: Fixture) => boolean;
  /** Or: a 400 whose Message matches this. */
  error?: RegExp;
}

export const ALL = (): boolean => true;
const st = (n: number) => (a: FixtureAccount): boolean => a.statecode === n;
const UPPER_C1 = CONTACT_1.toUpperCase();

export const EXPRESSION_CASES: readonly ExpressionCase[] = [
  // = and != on text: case-insensitive, exact otherwise.
  { it: 'matches a text value exactly with =', q: "accountname = 'Acme'", rows: ['acme'] },
  { it: 'compares text with = regardless of case', q: "accountname = 'aCmE'", rows: ['acme'] },
  { it: 'compares a mixed-case value with = regardless of case', q: "accountname = 'acme LABS'", rows: ['acmeLabs'] },
  { it: 'treats % as a literal character in =', q: "accountname = 'Acme%Corp'", rows: ['acmePct'] },
  { it: 'treats _ as a literal character in =', q: "accountname = 'Acme_Corp'", rows: ['acmeUnd'] },
  { it: 'matches every other row with !=', q: "accountname != 'ACME'", where: (a) => a.label !== 'acme' },
  { it: 'lets != match rows whose field is empty', q: "billingcity != 'lisbon'", where: (a) => a.billingcity?.toLowerCase() !== 'lisbon' },
  { it: 'matches every case variant of a city with =', q: "billingcity = 'LISBON'", rows: ['acmeLabs', 'acme', 'acmeWest'] },
  // Ordering operators on text compare case-insensitively.
  { it: 'orders text case-insensitively for <', q: "accountname < 'b'", rows: ['acmeLabs', 'acme', 'acmeWest', 'acmeX', 'acmePct', 'acmeUnd', 'juice', 'andCo'] },
  { it: 'includes the value itself with <=', q: "accountname <= 'ACME'", rows: ['acme', 'juice'] },
  { it: 'orders text case-insensitively for >=', q: "accountname >= 'UPSILON'", rows: ['smile', 'zeta', 'xi', 'upsilon'] },
  { it: 'places an emoji after every letter for >', q: "accountname > 'zeta & sons'", rows: ['smile'] },
  // start-with and not-start-with.
  { it: 'matches a prefix with start-with regardless of case', q: "accountname start-with 'acme'", rows: ['acmeLabs', 'acme', 'acmeWest', 'acmeX', 'acmePct', 'acmeUnd'] },
  { it: 'treats _ in start-with as any one character', q: "accountname start-with 'Acme_'", rows: ['acmeLabs', 'acmeWest', 'acmeX', 'acmePct', 'acmeUnd'] },
  { it: 'treats % in start-with as any run of characters', q: "accountname start-with 'Acme%Corp'", rows: ['acmeX', 'acmePct', 'acmeUnd'] },
  { it: "reads start-with '%x' as contains", q: "accountname start-with '%CORP'", rows: ['acmeX', 'acmePct', 'acmeUnd'] },
  { it: 'finds a word at the end with a leading %', q: "accountname start-with '%ltd'", rows: ['obrien', 'under'] },
  { it: 'combines % and _ wildcards in one pattern', q: "accountname start-with '%_score'", rows: ['under'] },
  { it: 'matches a prefix that ends in a % wildcard', q: "accountname start-with '100%'", rows: ['juice'] },
  { it: "matches every non-empty value with start-with '%'", q: "description start-with '%'", rows: ['obrien', 'quoted', 'smile', 'acme', 'acmeWest', 'acmeX', 'juice', 'semi', 'gamma'] },
  { it: 'matches an emoji prefix', q: "accountname start-with '😀'", rows: ['smile'] },
  { it: 'excludes a prefix with not-start-with regardless of case', q: "accountname not-start-with 'A'", where: (a) => !a.accountname.toLowerCase().startsWith('a') },
  { it: 'lets not-start-with match rows whose field is empty', q: "description not-start-with 'w'", where: (a) => a.label !== 'acmeWest' },
  { it: 'applies start-with to a derived name field', q: "primarycontactname start-with 'carla'", rows: ['obrien', 'acme', 'delta'] },
  // end-with and not-end-with: the same rules at the other end.
  { it: 'matches a suffix with end-with regardless of case', q: "accountname end-with 'LTD'", rows: ['obrien', 'under'] },
  { it: 'folds non-ASCII letters in end-with', q: "accountname end-with 'FÉ ROUGE'", rows: ['cafe'] },
  { it: 'treats % in end-with as any run of characters', q: "accountname end-with 'acme%corp'", rows: ['acmeX', 'acmePct', 'acmeUnd'] },
  { it: 'treats _ in end-with as any one character', q: "accountname end-with 'e_Corp'", rows: ['acmeX', 'acmePct', 'acmeUnd'] },
  { it: "reads end-with '%x%' as contains", q: "description end-with '%real%'", rows: ['acmeX'] },
  { it: 'matches an emoji suffix', q: "description end-with '😀'", rows: ['smile'] },
  { it: 'excludes a suffix with not-end-with and keeps empty values', q: "description not-end-with 'S'", where: (a) => a.label !== 'acme' },
  { it: 'lets not-end-with match rows whose field is empty', q: "billingcity not-end-with 'on'", where: (a) => a.billingcity === null || !/on$/i.test(a.billingcity) },
  { it: 'applies end-with to a datetime as its stored text', q: "pcfsystemfield85 end-with '23:59:59'", rows: ['obrien', 'acmeLabs', 'omicron'] },
  { it: 'matches a lookup prefix in any case with start-with, as with =', q: "primarycontactid start-with 'C0000000-0000-4000-8000-000000000001'", rows: ['obrien', 'acme', 'delta'] },
  { it: 'matches a key prefix in any case with start-with', q: "accountid start-with 'A0000000-0000-4000-8000-00000000000'", where: (a) => Number(a.accountid.slice(-12)) < 10 },
  { it: "matches a datetime prefix written with a lowercase 't'", q: "pcfsystemfield85 start-with '2025-01-01t'", rows: ['quoted', 'acmeLabs', 'acme'] },
  { it: "excludes a datetime prefix written with a lowercase 't' with not-start-with", q: "pcfsystemfield85 not-start-with '2025-01-01t'", where: (a) => a.pcfsystemfield85 === null || !a.pcfsystemfield85.startsWith('2025-01-01T') },
  { it: 'applies end-with to a lookup in any case', q: "primarycontactid end-with 'C%8000-000000000001'", rows: ['obrien', 'acme', 'delta'] },
  { it: 'applies end-with to a derived name field', q: "ownername end-with 'SECOND'", where: (a) => a.owner === 'B' },
  { it: 'rejects end-with on a picklist', q: "statecode end-with '1'", error: /'end-with' compares text, but 'statecode' is a picklist field \(the operator at position 11 of the query\)/ },
  // is-null / is-not-null, with and without a dummy operand, and '' meaning empty.
  { it: 'finds empty values with is-null', q: 'accountnumber is-null', rows: ['acmePct', 'betaLower'] },
  { it: "accepts is-null with a dummy '' operand", q: "(accountnumber is-null '')", rows: ['acmePct', 'betaLower'] },
  { it: 'accepts is-null with a bare dummy operand', q: 'accountnumber IS-NULL x', rows: ['acmePct', 'betaLower'] },
  { it: 'finds set values with is-not-null', q: 'accountnumber is-not-null', where: (a) => a.accountnumber !== null },
  { it: 'accepts is-not-null with a dummy operand', q: 'emailaddress1 is-not-null 0', rows: ['obrien', 'acmeLabs', 'cafe', 'acme'] },
  { it: "reads = '' as is-null", q: "accountnumber = ''", rows: ['acmePct', 'betaLower'] },
  { it: "reads != '' as is-not-null", q: "accountnumber != ''", where: (a) => a.accountnumber !== null },
  { it: 'finds empty picklists with is-null', q: 'accounttypecode is-null', rows: ['acmeX', 'semi', 'gamma', 'orHold'] },
  // AND, OR, precedence, nesting, optional parentheses, keywords in any case.
  { it: 'requires both sides of AND', q: '(statecode = 1 AND accounttypecode = 2)', rows: ['omega', 'obrien', 'acmeLabs', 'epsilon', 'pi', 'beta', 'phi'] },
  { it: 'binds AND tighter than OR when OR comes first', q: "accountname = 'Mu' OR accountname = 'Nu' AND statecode = 2", rows: ['mu'] },
  { it: 'binds AND tighter than OR when AND comes first', q: "accountname = 'Nu' AND statecode = 2 OR accountname = 'Mu'", rows: ['mu'] },
  { it: 'lets parentheses override precedence', q: "(accountname = 'Mu' OR accountname = 'Nu') AND statecode = 1", rows: ['mu', 'nu'] },
  { it: 'joins an AND group and a condition with lower-case or', q: "statecode = 2 and accounttypecode = 1 or accountname = 'Pi'", rows: ['cafe', 'acmeWest', 'omicron', 'pi'] },
  { it: 'evaluates nested parentheses', q: "((accountname = 'Xi' OR (accountname = 'Rho' AND (statecode = 1))))", rows: ['xi', 'rho'] },
  { it: 'accepts keywords and field names in mixed case', q: "ACCOUNTNAME = 'xi' oR AccountName = 'RHO'", rows: ['xi', 'rho'] },
  { it: 'accepts conditions without spaces around operators and parentheses', q: "(accountname='Xi')or(accountname='Rho')", rows: ['xi', 'rho'] },
  { it: 'ORs three groups of ANDs', q: "accountname = 'Mu' and statecode = 1 or accountname = 'Nu' and statecode = 2 or accountname = 'Xi' and accounttypecode = 5", rows: ['mu', 'xi'] },
  { it: 'keeps a quoted keyword as a value', q: "accountname = 'and' or accountname = 'OR Holdings'", rows: ['andCo', 'orHold'] },
  // The three value styles and quote escapes.
  { it: 'accepts a bare value', q: 'accountname = Xi', rows: ['xi'] },
  { it: 'accepts a double-quoted value', q: 'accountname = "Xi"', rows: ['xi'] },
  { it: "reads '' inside single quotes as one quote", q: "accountname = 'O''Brien Ltd'", rows: ['obrien'] },
  { it: 'reads a single quote inside double quotes literally', q: `accountname = "O'Brien Ltd"`, rows: ['obrien'] },
  { it: 'reads "" inside double quotes as one double quote', q: 'accountname = "The ""Quoted"" Co"', rows: ['quoted'] },
  { it: 'reads a double quote inside single quotes literally', q: `accountname = 'The "Quoted" Co'`, rows: ['quoted'] },
  { it: 'matches a value with an emoji', q: "accountname = '😀 Smile Inc'", rows: ['smile'] },
  { it: 'matches a value with an accented letter', q: "accountname = 'Café Rouge'", rows: ['cafe'] },
  { it: 'matches a value with ; and -- as plain text', q: "accountname = 'Semi;colon -- Co'", rows: ['semi'] },
  { it: 'matches a value with a backslash as plain text', q: "accountname = 'Back\\slash Co'", rows: ['backslash'] },
  { it: 'rejects a NUL character in a value, which no stored value can hold', q: "accountname start-with 'O''Brien Ltd\u0000x'", error: /^'accountname' cannot hold a NUL character \(\\u0000\), but the value at position 24 of the query contains one\./ },
  { it: 'rejects a NUL character in an = value too', q: "accountname = '\u0000'", error: /^'accountname' cannot hold a NUL character/ },
  { it: 'matches an injection-shaped value as plain text', q: "description = '''; DROP TABLE account; --'", rows: ['semi'] },
  // Numbers and picklist codes.
  { it: 'compares a picklist with a bare number', q: 'statecode = 2', where: st(2) },
  { it: 'compares a picklist with a quoted number', q: "statecode = '2'", where: st(2) },
  { it: 'matches every row on the default status reason', q: '(statuscode = 1)', where: ALL },
  { it: 'lets != on a picklist match rows with no code', q: 'accounttypecode != 3', where: (a) => a.accounttypecode !== 3 },
  { it: 'compares picklist codes with >=', q: 'accounttypecode >= 4', where: (a) => a.accounttypecode !== null && a.accounttypecode >= 4 },
  { it: 'compares picklist codes with < and leaves out empty ones', q: 'accounttypecode < 2', where: (a) => a.accounttypecode === 1 },
  { it: 'rejects a word for a picklist', q: "statecode = 'x'", error: /^'statecode' must be a valid Picklist code; got 'x' at position 13 of the query\./ },
  { it: 'rejects a fraction for a picklist, naming its codes', q: 'statecode = 1.5', error: /^'statecode' must be a valid Picklist code; got '1\.5' at position 13 of the query\. Write one of its codes: 1 \(Active\), 2 \(Inactive\)\.$/ },
  { it: 'rejects start-with on a picklist', q: "statecode start-with '1'", error: /'start-with' compares text, but 'statecode' is a picklist field \(the operator at position 11 of the query\)/ },
  // Datetimes: a date-only value is the whole UTC day.
  { it: 'reads = with a date as the whole day', q: "pcfsystemfield85 = '2025-01-01'", rows: ['quoted', 'acmeLabs', 'acme'] },
  { it: "includes the whole day with <= a date (the public service's defect, fixed)", q: "pcfsystemfield85 <= '2025-01-01'", rows: ['obrien', 'quoted', 'acmeLabs', 'acme', 'beta'] },
  { it: 'excludes the whole day with < a date', q: "pcfsystemfield85 < '2025-01-01'", rows: ['obrien', 'beta'] },
  { it: 'excludes the whole day with > a date', q: "pcfsystemfield85 > '2025-01-01'", rows: ['smile', 'cafe', 'acmeWest', 'omicron'] },
  { it: 'starts at midnight with >= a date', q: "pcfsystemfield85 >= '2025-01-02'", rows: ['smile', 'cafe', 'acmeWest', 'omicron'] },
  { it: 'lets != a date match other days and empty values', q: "pcfsystemfield85 != '2025-01-01'", where: (a) => !['acme', 'acmeLabs', 'quoted'].includes(a.label) },
  { it: 'accepts a bare date', q: 'pcfsystemfield85 = 2025-01-01', rows: ['quoted', 'acmeLabs', 'acme'] },
  { it: 'compares a full datetime exactly', q: "pcfsystemfield85 = '2025-01-01T23:59:59'", rows: ['acmeLabs'] },
  { it: 'compares <= a full datetime to the second', q: "pcfsystemfield85 <= '2025-01-01T00:00:00'", rows: ['obrien', 'acme', 'beta'] },
  { it: 'reads a Z suffix as UTC', q: "pcfsystemfield85 > '2025-01-01T23:59:59Z'", rows: ['smile', 'cafe', 'acmeWest', 'omicron'] },
  { it: 'drops the fraction of a second of a datetime value, as writes do', q: "pcfsystemfield85 = '2025-01-01T12:30:00.999Z'", rows: ['quoted'] },
  { it: 'compares >= a datetime with a fraction to its second', q: "pcfsystemfield85 >= '2025-06-15T08:00:00.5'", rows: ['cafe', 'omicron'] },
  { it: 'converts a datetime with an offset to UTC', q: "pcfsystemfield85 = '2025-01-02T01:00:00+01:00'", rows: ['acmeWest'] },
  { it: 'reads = with the last representable day as that whole day', q: "pcfsystemfield85 = '9999-12-31'", rows: ['omicron'] },
  { it: 'includes every datetime with <= the last representable day', q: "pcfsystemfield85 <= '9999-12-31'", where: (a) => a.pcfsystemfield85 !== null },
  { it: 'includes nothing with > the last representable day', q: "pcfsystemfield85 > '9999-12-31'", rows: [] },
  { it: 'lets != the last representable day match other days and empty values', q: "pcfsystemfield85 != '9999-12-31'", where: (a) => a.label !== 'omicron' },
  { it: 'includes every datetime with >= the first representable day', q: "pcfsystemfield85 >= '0000-01-01'", where: (a) => a.pcfsystemfield85 !== null },
  { it: 'includes nothing with < the first representable day', q: "pcfsystemfield85 < '0000-01-01'", rows: [] },
  { it: 'reads a date against createdon as the whole day', q: "createdon = '2025-03-01'", rows: ['beta', 'betaLower', 'gamma', 'delta'] },
  { it: 'rejects a word for a datetime', q: "pcfsystemfield85 = 'yesterday'", error: /^'pcfsystemfield85' must be a valid DateTime; got 'yesterday' at position 20 of the query\./ },
  { it: 'rejects an impossible date', q: "createdon >= '2025-02-30'", error: /^'createdon' must be a valid DateTime; got '2025-02-30'/ },
  // Lookups: UUIDs in any case, quoted or bare; derived name fields.
  { it: 'matches a lookup by an upper-case UUID', q: `primarycontactid = '${UPPER_C1}'`, rows: ['obrien', 'acme', 'delta'] },
  { it: 'matches a lookup by a bare UUID', q: `primarycontactid = ${CONTACT_2}`, rows: ['acmeLabs', 'cafe'] },
  { it: 'lets != on a lookup match rows with no value', q: `primarycontactid != '${CONTACT_1}'`, where: (a) => a.primarycontactid !== CONTACT_1 },
  { it: 'matches the key by an upper-case UUID', q: `accountid = '${accountKey(7).toUpperCase()}'`, rows: ['obrien'] },
  { it: 'rejects a lookup value that is not a UUID', q: "primarycontactid = 'not-a-uuid'", error: /^'primarycontactid' must be a valid Lookup id \(a UUID\); got 'not-a-uuid'/ },
  { it: 'matches a derived contact name regardless of case', q: "primarycontactname = 'DMITRI DUPONT'", rows: ['acmeLabs', 'cafe'] },
  { it: 'finds rows with no derived name with is-null', q: 'primarycontactname is-null', where: (a) => a.primarycontactid === null },
  { it: 'matches the owner by derived name', q: "ownername = 'Owner'", where: (a) => a.owner === 'A' },
  { it: 'matches the other owner by derived name in another case', q: "ownername = 'zoe SECOND'", where: (a) => a.owner === 'B' },
  { it: 'lets != on a derived name leave out that owner', q: "ownername != 'Owner'", where: (a) => a.owner === 'B' },
  { it: 'matches the owner by an upper-case user id', q: (fx) => `ownerid = '${fx.userB.toUpperCase()}'`, where: (a) => a.owner === 'B' },
  { it: 'combines a lookup and a picklist', q: (fx) => `ownerid = ${fx.userB} and statecode = 2`, where: (a) => a.owner === 'B' && a.statecode === 2 },
  // Sorting within the filter's rows.
  { it: 'sorts text case-insensitively', q: "accountname start-with 'acme'", sort_by: 'accountname', rows: ['acme', 'acmeLabs', 'acmePct', 'acmeWest', 'acmeUnd', 'acmeX'] },
  { it: 'sorts text descending case-insensitively', q: "accountname start-with 'acme'", sort_by: 'accountname', sort_type: 'desc', rows: ['acmeX', 'acmeUnd', 'acmeWest', 'acmePct', 'acmeLabs', 'acme'] },
  { it: 'breaks ties of case-variant values by key', q: "billingcity = 'austin'", sort_by: 'billingcity', rows: ['beta', 'betaLower', 'gamma'] },
  { it: 'breaks ties by key in the sort direction when descending', q: "billingcity = 'austin'", sort_by: 'billingcity', sort_type: 'DESC', rows: ['gamma', 'betaLower', 'beta'] },
  { it: 'breaks createdon ties by key', q: "createdon = '2025-03-01' or accountname = 'Phi'", sort_by: 'createdon', sort_type: 'desc', rows: ['phi', 'delta', 'gamma', 'betaLower', 'beta'] },
  { it: 'sorts empty values first ascending', q: "accountnumber is-null or accountname = 'Acme'", sort_by: 'accountnumber', rows: ['acmePct', 'betaLower', 'acme'] },
  // Syntax errors: position and token.
  { it: 'names the near-miss field', q: "acountname = 'x'", error: /^Invalid field name: 'acountname' at position 1 of the query\. Did you mean 'accountname'\?$/ },
  { it: 'names the position of an unknown field after others', q: "statecode = 1 and acountnumber = 'x'", error: /^Invalid field name: 'acountnumber' at position 19 of the query\. Did you mean 'accountnumber'\?$/ },
  { it: 'points at an unterminated value', q: "accountname = 'x", error: /^Syntax error in query at position 15: unterminated single-quoted value/ },
  { it: 'points at an unknown operator', q: "accountname == 'x'", error: /^Syntax error in query at position 13 near '==': unknown operator '=='/ },
  { it: 'points at a SQL-style operator', q: "accountname like 'x%'", error: /^Syntax error in query at position 13 near 'like': unknown operator 'like'/ },
  { it: 'points at the end after a dangling AND', q: "accountname = 'x' AND", error: /^Syntax error in query at position 22: unexpected end of query: expected a condition/ },
  { it: 'points at the opening of an unclosed parenthesis', q: "(accountname = 'x'", error: /^Syntax error in query at position 19: unexpected end of query: expected '\)' to close '\(' opened at position 1\.$/ },
  { it: 'points at an unmatched closing parenthesis', q: "accountname = 'x')", error: /^Syntax error in query at position 18 near '\)': unmatched '\)'/ },
  { it: 'suggests AND for &&', q: "accountname = 'x' && statecode = 1", error: /^Syntax error in query at position 19 near '&&': .*write AND instead/ },
  { it: 'rejects empty parentheses', q: '()', error: /^Syntax error in query at position 2 near '\)': empty parentheses/ },
  { it: 'rejects a bare keyword as a value', q: 'accountname = and', error: /^Syntax error in query at position 15 near 'and': expected a value after '=', but 'and' is a keyword/ },
  { it: 'rejects a missing value', q: 'accountname =', error: /^Syntax error in query at position 14: unexpected end of query: expected a value after '='/ },
];
