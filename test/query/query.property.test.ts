// Property tests of POST /api/query over the fixture: hostile values stay bound parameters and never
// reach the SQL text, any query text gets 200 or 400 (never 500), hostile nesting is a clean 400,
// and random filters return exactly the rows of the plain JS reference (fixture.ts).

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { planQuery } from '../../src/query/plan.js';
import type { OrgSchema } from '../../src/schema/org-schema.js';
import {
  PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler,
  type DatabaseIntrospector, type DialectAdapter, type Kysely, type QueryCompiler,
} from 'kysely';
import { compileOnly, SqlCache, type CompiledSql, type PageOptions } from '../../src/store/record-sql.js';
import { POSTGRES_PAGE, postgresSql } from '../../src/store/postgres/postgres-sql.js';
import { SQLITE_PAGE, sqliteSql } from '../../src/store/sqlite/sqlite-sql.js';
import { testContext, type TestContext } from '../helpers.js';
import {
  CONTACT_1, CONTACT_2, FIXTURE_ACCOUNTS, REF_FIELDS, codePointCompare, defaultOrder, queryLabels, refEval, runQuery, seedFixture,
  type Fixture, type FixtureAccount, type RefCondition,
} from './fixture.js';
import { COMPARE, NULLS, PREFIX, queryGenerators, quote, type GenExpr } from './query-generators.js';

let ctx: TestContext;
let fx: Fixture;
let schema: OrgSchema;

before(async () => {
  ctx = await testContext();
  fx = await seedFixture(ctx);
  schema = await (await ctx.stores.records.org(ctx.orgId)).schema();
});
after(async () => ctx.close());

/** A query page's statement compiled anew: through a cache that has seen nothing. */
const fresh = (k: Parameters<SqlCache['queryPage']>[0], plan: Parameters<SqlCache['queryPage']>[2], options: Parameters<SqlCache['queryPage']>[3]): CompiledSql =>
  new SqlCache().queryPage(k, schema, plan, options);

/** Pieces of hostile values, plus fixture names so some values match rows. */
const HOSTILE = ["'", "''", '"', ';', '--', '/*', '*/', '\0', '😀', '\\', '%', '_', ' ', '\t', '\n', '(', ')', 'é', 'OR 1=1', "' OR '1'='1", 'DROP TABLE account', '?', '$1', ':x', '@p', 'Acme', "O'Brien Ltd", 'Semi;colon -- Co', 'Back\\slash Co'];
const hostileArb = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...HOSTILE) }, { weight: 1, arbitrary: fc.string({ maxLength: 3 }) }, { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 2 }) }), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((v) => v !== '');

/** Runs a query and insists on 200, or on 400 with exactly a Message: never 500 or anything else. */
async function okOrBadRequest(query: string): Promise<number> {
  const r = await runQuery(ctx, { fields: 'accountid', query });
  if (r.status === 400) {
    assert.deepEqual(Object.keys(r.body), ['Message'], JSON.stringify(r.body));
    assert.equal(typeof r.body.Message, 'string');
  } else {
    assert.equal(r.status, 200, `${JSON.stringify(query)} → ${r.status} ${JSON.stringify(r.body)}`);
  }
  return r.status;
}

describe('hostile values', () => {
  for (const op of ['=', 'start-with'] as const) {
    test(`keeps a hostile value of accountname ${op} '…' out of the SQL text and binds it as a parameter`, async () => {
      const compile = (value: string) => fresh(sqliteSql, planQuery(schema, { objecttype: 1, fields: 'accountid', query: `accountname ${op} ${quote(value)}` }), SQLITE_PAGE);
      const skeleton = compile('x').sql;
      const wildSkeleton = compile('%x').sql;
      await fc.assert(
        fc.asyncProperty(hostileArb, async (value) => {
          if (value.includes('\0')) {
            // No stored value can hold U+0000, and SQLite's LIKE would cut a pattern at it: refused.
            assert.throws(() => compile(value), { code: 'FIELD_TYPE' });
            const r = await runQuery(ctx, { fields: 'accountid', query: `accountname ${op} ${quote(value)}` });
            assert.equal(r.status, 400);
            assert.match(r.body.Message, /^'accountname' cannot hold a NUL character/);
            return;
          }
          const { sql, parameters } = compile(value);
          // The text of the statement does not depend on the value, but for one thing: a prefix
          // with wildcards in it is a LIKE, a plain one a range on the folded index.
          const wild = op === 'start-with' && /[%_]/.test(value);
          assert.equal(sql, wild ? wildSkeleton : skeleton);
          const bound = op === '=' || !wild ? value : `${value}%`;
          assert.ok(parameters.includes(bound), JSON.stringify(parameters));

          // Over HTTP the value matches what the reference says, and the reply is never a 500.
          const r = await runQuery(ctx, { fields: 'accountid', query: `accountname ${op} ${quote(value)}` });
          assert.equal(r.status, 200, JSON.stringify(r.body));
          const cond: RefCondition = { field: 'accountname', op, value };
          const expected = FIXTURE_ACCOUNTS.filter((a) => refEval(fx, a, cond)).sort(defaultOrder).map((a) => a.accountid);
          assert.deepEqual(r.body.data.Data.map((row: { accountid: string }) => row.accountid), expected);
        }),
        { numRuns: 120 },
      );
    });
  }

  test('keeps hostile values in double quotes and in every field type out of the SQL text', () => {
    const fields = ['accountname', 'description', 'statecode', 'pcfsystemfield85', 'primarycontactid', 'ownername'];
    fc.assert(
      fc.property(hostileArb, fc.constantFrom(...fields), fc.constantFrom('=', '!=', '<', '>=', 'start-with', 'not-start-with'), (value, field, op) => {
        const query = `${field} ${op} "${value.replace(/"/g, '""')}"`;
        let plan;
        try {
          plan = planQuery(schema, { objecttype: 1, query });
        } catch (err) {
          // Typed fields refuse most hostile text; that is a 400, checked over HTTP elsewhere.
          assert.equal((err as { code?: string }).code, 'FIELD_TYPE', String(err));
          return;
        }
        const { sql } = fresh(sqliteSql, plan, SQLITE_PAGE);
        if (value.length >= 3 && !/^[\s\w.,=()*?"-]+$/.test(value)) assert.ok(!sql.includes(value), `${value} in ${sql}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('any query text', () => {
  const VALID = [
    "accountname = 'Acme'",
    "(statecode = 1 AND accounttypecode = 2) OR accountname start-with '%corp'",
    "pcfsystemfield85 <= '2025-01-01' and description is-null ''",
    `primarycontactid = '${CONTACT_1}' or ownername != "Owner"`,
    "((accountnumber not-start-with 'ACC') or (createdon > 2025-02-01T00:00:00))",
    'statuscode = 1',
  ];
  const PIECES = ["'", "''", '"', ';', '--', '\0', '😀', ' ', '(', ')', 'and', 'OR', '=', '!=', '<>', '<=', 'is-null', 'start-with', '%', '_', '\\', 'statecode', 'accountname', '1', '2025-01-01', '9999-12-31', 'x'];
  const mutationArb = fc.array(
    fc.record({ kind: fc.constantFrom('insert', 'delete', 'replace', 'duplicate'), at: fc.nat(), len: fc.nat({ max: 12 }), piece: fc.constantFrom(...PIECES) }),
    { minLength: 1, maxLength: 5 },
  );
  const mutate = (text: string, mutations: Array<{ kind: string; at: number; len: number; piece: string }>): string => {
    let out = text;
    for (const { kind, at, len, piece } of mutations) {
      const i = at % (out.length + 1);
      if (kind === 'insert') out = out.slice(0, i) + piece + out.slice(i);
      else if (kind === 'delete') out = out.slice(0, i) + out.slice(i + len);
      else if (kind === 'replace') out = out.slice(0, i) + piece + out.slice(i + 1);
      else out = out.slice(0, i) + out.slice(i, i + len) + out.slice(i);
    }
    return out;
  };

  test('arbitrary text as query gives 200 or 400 with a Message', async () => {
    const syntaxy = fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 25 });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 30 }), syntaxy), async (text) => {
        await okOrBadRequest(text);
      }),
      { numRuns: 300 },
    );
  });

  test('mutated valid expressions give 200 or 400 with a Message', async () => {
    for (const text of VALID) assert.equal(await okOrBadRequest(text), 200, text);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...VALID), mutationArb, async (text, mutations) => {
        await okOrBadRequest(mutate(text, mutations));
      }),
      { numRuns: 300 },
    );
  });

  test('values typed by field give 200 or 400 for any text, including edge numbers and dates', async () => {
    const values = fc.oneof(
      fc.constantFrom('1e400', '-0', '1e308', '9007199254740993', '0x10', '1_000', 'NaN', 'Infinity', '0000-01-01', '9999-12-31', '9999-12-31T23:59:59+00:00',
        '0000-01-01T00:00:00+01:00', '2025-02-29', '2024-02-29', '2025-01-01T24:00:00', '2025-01-01 10:00', CONTACT_2.toUpperCase(), `{${CONTACT_1}}`),
      fc.string({ maxLength: 12 }),
    );
    const fields = fc.constantFrom('statecode', 'accounttypecode', 'pcfsystemfield85', 'createdon', 'primarycontactid', 'ownerid', 'accountid', 'accountname', 'ownername');
    const ops = fc.constantFrom('=', '!=', '<', '>', '<=', '>=', 'start-with', 'not-start-with', 'end-with', 'not-end-with', 'is-null', 'is-not-null');
    await fc.assert(
      fc.asyncProperty(fields, ops, values, async (field, op, value) => {
        await okOrBadRequest(`${field} ${op} ${quote(value)}`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('hostile nesting', () => {
  test('answers 100,000 nested parentheses with a 400 QUERY_TOO_COMPLEX message', async () => {
    const r = await runQuery(ctx, { query: `${'('.repeat(100_000)}accountname = 'x'${')'.repeat(100_000)}` });
    assert.equal(r.status, 400);
    assert.deepEqual(r.body, { Message: 'Query too complex: the filter is 200017 characters long, over the limit of 10000; send a shorter filter or split the query.' });
  });

  test('answers nesting within the length limit but past the depth limit with a 400 QUERY_TOO_COMPLEX message', async () => {
    const r = await runQuery(ctx, { query: `${'('.repeat(4_990)}accountname = 'x'${')'.repeat(4_990)}` });
    assert.equal(r.status, 400);
    assert.match(r.body.Message, /^Query too complex: the '\(' at position 65 nests parentheses more than 64 deep/);
  });
});

// ---------------------------------------------------------------------------------------------
// Model check: random filters against the reference.
// ---------------------------------------------------------------------------------------------

const SORTS = ['createdon', 'accountname', 'statecode', 'accountid', 'pcfsystemfield85'] as const;

function sortValue(a: FixtureAccount, field: (typeof SORTS)[number]): string | number | null {
  return field === 'accountname' ? a.accountname.toLowerCase() : a[field];
}

/** The reference order: the sort field (empty values first), ties by key, all in the sort direction. */
function refOrder(field: (typeof SORTS)[number], desc: boolean) {
  return (a: FixtureAccount, b: FixtureAccount): number => {
    const [x, y] = [sortValue(a, field), sortValue(b, field)];
    let c = x === y ? 0 : x === null ? -1 : y === null ? 1 : typeof x === 'number' ? x - (y as number) : codePointCompare(x, y as string);
    if (c === 0) c = codePointCompare(a.accountid, b.accountid);
    return desc ? -c : c;
  };
}

describe('model check against the reference', () => {
  test('random filters, keyword cases, quoting and sorts return exactly the reference rows in order', async () => {
    const gen = queryGenerators(fx);
    await fc.assert(
      fc.asyncProperty(gen.expr, fc.constantFrom(...SORTS), fc.boolean(), async (expr, sortBy, desc) => {
        const query = gen.render(expr);
        const ref = gen.toRef(expr);
        const expected = FIXTURE_ACCOUNTS.filter((a) => refEval(fx, a, ref)).sort(refOrder(sortBy, desc)).map((a) => a.label);
        const got = await queryLabels(ctx, { query, sort_by: sortBy, sort_type: desc ? 'desc' : 'asc' });
        assert.deepEqual(got, expected, query);
      }),
      { numRuns: 400 },
    );
  });

  test('the generator reaches every operator and field kind', () => {
    const ops = new Set<string>();
    const kinds = new Set<string>();
    const walk = (e: GenExpr): void => {
      if ('field' in e) {
        ops.add(e.op);
        kinds.add(REF_FIELDS[e.field]);
      } else e.children.forEach(walk);
    };
    for (const e of fc.sample(queryGenerators(fx).expr, { numRuns: 500, seed: 42 })) walk(e);
    assert.deepEqual([...ops].sort(), [...COMPARE, ...NULLS, ...PREFIX].sort());
    assert.deepEqual([...kinds].sort(), ['datetime', 'lookup', 'number', 'text']);
  });
});

// ---------------------------------------------------------------------------------------------
// Compiled SQL by query shape (SqlCache.queryPage): the values a shape binds are the statement's.
// ---------------------------------------------------------------------------------------------

describe('compiled SQL by query shape', () => {
  const DIALECTS: Array<{ name: string; k: Kysely<any>; options: PageOptions[]; Adapter: new () => DialectAdapter; Introspector: new (db: Kysely<any>) => DatabaseIntrospector; Compiler: new () => QueryCompiler }> = [
    {
      name: 'sqlite', k: sqliteSql, Adapter: SqliteAdapter, Introspector: SqliteIntrospector, Compiler: SqliteQueryCompiler,
      options: [SQLITE_PAGE, { ...SQLITE_PAGE, noIndex: new Set(['statecode', 'accounttypecode']), guard: 'orchard_budget("r"."rowid")' }],
    },
    { name: 'postgres', k: postgresSql, Adapter: PostgresAdapter, Introspector: PostgresIntrospector, Compiler: PostgresQueryCompiler, options: [POSTGRES_PAGE] },
  ];
  const FIELD_LISTS = ['*', 'accountid', 'accountname,ownername,statecode', 'primarycontactname,createdon,accountid'];
  const planArb = () => {
    const gen = queryGenerators(fx);
    return fc.record({
      expr: fc.option(gen.expr, { nil: undefined }),
      sort: fc.constantFrom(...SORTS),
      desc: fc.boolean(),
      fields: fc.constantFrom(...FIELD_LISTS),
      size: fc.integer({ min: 1, max: 500 }),
      page: fc.integer({ min: 1, max: 5000 }),
    }).map(({ expr, sort, desc, fields, size, page }) => planQuery(schema, {
      objecttype: 1, fields, ...(expr ? { query: gen.render(expr) } : {}), sort_by: sort, sort_type: desc ? 'desc' : 'asc', page_size: size, page_number: page,
    }));
  };

  test('a cache that compiled plans of the same shapes answers every plan as a fresh compile, in every dialect', () => {
    const plans = fc.sample(planArb(), { numRuns: 3000, seed: 7 });
    for (const { name, k, options, ...dialect } of DIALECTS) {
      for (const o of options) {
        const cache = new SqlCache();
        // The dialect again, with its compiles counted: the plans the cache did not compile, it served.
        let compiled = 0;
        const counted = compileOnly({
          adapter: new dialect.Adapter(),
          introspector: (db) => new dialect.Introspector(db),
          compiler: () => new (class extends dialect.Compiler {
            override compileQuery(...args: Parameters<QueryCompiler['compileQuery']>) {
              compiled++;
              return super.compileQuery(...args);
            }
          })(),
        });
        for (const plan of plans) {
          const want = fresh(k, plan, o);
          const got = cache.queryPage(counted, schema, plan, o);
          assert.deepEqual({ sql: got.sql, parameters: got.parameters }, { sql: want.sql, parameters: want.parameters }, name);
        }
        // Enough plans were served from the cache, with their own values, for the check to mean something.
        assert.ok(plans.length - compiled >= 300, `${name}: only ${plans.length - compiled} plans served from the cache`);
      }
    }
  });

  test('a plan whose shape was compiled gets the cached SQL with its own values', () => {
    const cache = new SqlCache();
    const first = planQuery(schema, { objecttype: 1, query: "accountname start-with 'Ac' and statecode = 1 or createdon = '2025-01-01'", page_size: 10 });
    const second = planQuery(schema, { objecttype: 1, query: "accountname start-with 'Zo%e' and statecode = 2 or createdon = '2025-02-03'", page_size: 20, page_number: 3 });
    // 'Zo%e' has an inner wildcard: a LIKE, another shape than the range of the plain prefix 'Zoe'.
    const third = planQuery(schema, { objecttype: 1, query: "accountname start-with 'Zoe' and statecode = 2 or createdon = '2025-02-03'" });
    for (const plan of [first, second, third, first]) {
      const cached = cache.queryPage(sqliteSql, schema, plan, SQLITE_PAGE);
      const want = fresh(sqliteSql, plan, SQLITE_PAGE);
      assert.deepEqual({ sql: cached.sql, parameters: cached.parameters }, { sql: want.sql, parameters: want.parameters });
    }
  });
});
