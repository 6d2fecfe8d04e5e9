// Fault rules (docs/control-api.md § Faults): forced replies are the very replies the route family
// gives for real (compared with real ones), rules match by organization, method, family and object,
// fire for a count or with a seeded probability, add latency, and are listed, added and removed.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { unavailableError } from '../../src/store/postgres/pg-db.js';
import { parseFaultRules, FaultRules } from '../../src/toolkit/fault-rules.js';
import { loggerOptions } from '../../src/http/log-options.js';
import { familyOf } from '../../src/http/toolkit-hooks.js';
import { captureLog, logEntries, testContext, type TestContext } from '../helpers.js';
import { ADMIN_KEY, control, controlReply } from './control-helpers.js';

const HEADERS = ['content-type', 'x-error-code', 'retry-after', 'ratelimit-policy', 'ratelimit', 'connection'];

/**
 * What a client sees of an error reply, but the request id (which names the request in a 500's
 * message) and, with `counts` false, the quota left (each request of the comparison counts).
 */
function seen(res: LightMyRequestResponse, counts = true): object {
  const id = String(res.headers['x-request-id']);
  const headers = Object.fromEntries(HEADERS.map((h) => [h, res.headers[h]]));
  if (!counts) headers.ratelimit = String(headers.ratelimit).replace(/;r=\d+;/g, ';r=<left>;');
  return {
    status: res.statusCode,
    headers,
    body: JSON.parse(res.body.split(id).join('<request id>')),
  };
}

const routes = [
  { family: 'records', method: 'GET', url: '/api/record/account' },
  { family: 'query', method: 'POST', url: '/api/query', payload: { objecttype: 1, fields: 'accountname' } },
  { family: 'v3', method: 'POST', url: '/api/v3/query', payload: { objectType: 1, fields: [{ name: 'accountname' }] } },
  { family: 'metadata', method: 'GET', url: '/metadata/records/account' },
] as const;

type Route = (typeof routes)[number];
const send = (ctx: TestContext, token: string, r: Route) => ctx.request({ method: r.method, url: r.url, token, ...('payload' in r ? { payload: r.payload } : {}) });

describe('parseFaultRules', () => {
  test('refuses a bad rule naming the member', () => {
    assert.throws(() => parseFaultRules([{ status: 503 }, { status: 502 }]), /'faults\[1\]\.status' must be one of 408, 429, 500, 503/);
    assert.throws(() => parseFaultRules([{ latencyMs: 5, window: 'day' }], 'fixtures.faults'), /'fixtures\.faults\[0\]\.window' is for status 429 only/);
    assert.throws(() => parseFaultRules([{ object: 'account' }]), /'faults\[0\]' must have a status, a latencyMs or both/);
    assert.throws(() => parseFaultRules([{ status: 500, probability: 0 }]), /'faults\[0\]\.probability'/);
    assert.throws(() => parseFaultRules([{ status: 500, color: 'red' }]), /'faults\[0\]\.color' is not a member/);
    assert.throws(() => parseFaultRules({}), /'faults' must be a list/);
    assert.deepEqual(parseFaultRules([{ status: 429, window: 'day', methods: ['get'], object: 'Account' }]), [{ status: 429, window: 'day', methods: ['GET'], object: 'account' }]);
    assert.deepEqual(parseFaultRules([{ status: 503, retryAfter: 30 }]), [{ status: 503, retryAfter: 30 }]);
    assert.throws(() => parseFaultRules([{ status: 500, retryAfter: 30 }]), /'faults\[0\]\.retryAfter' is for status 429 or 503 only/);
  });

  test('a seed gives the same decisions again', async () => {
    const decisions = async (seed: number) => {
      const rules = new FaultRules();
      rules.add({ status: 503, probability: 0.5, seed });
      const out: boolean[] = [];
      for (let i = 0; i < 40; i++) out.push((await rules.decide({ orgId: 'o', method: 'GET', family: 'records' })) !== null);
      return out;
    };
    const a = await decisions(7);
    assert.deepEqual(await decisions(7), a);
    assert.notDeepEqual(await decisions(8), a);
    assert.ok(a.filter(Boolean).length > 5 && a.filter(Boolean).length < 35, 'about half fire');
  });
});

/** Two fresh organizations with the same settings: one to fail for real, one to be forced. */
async function twoOrgs(ctx: TestContext, minuteLimit: number) {
  const make = async (name: string) => {
    const r = await control(ctx, 'POST', '/organizations', { name, email: `${name}@x.example`, plan: 'enterprise', minuteLimit });
    return { orgId: r.organization.id as string, token: r.token as string };
  };
  return { real: await make('real'), forced: await make('forced') };
}

for (const window of ['minute', 'day'] as const) {
  describe(`a forced 429 of the ${window} is the real one`, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await testContext({ config: { adminKey: ADMIN_KEY, ...(window === 'day' ? { dailyCap: 2 } : {}) } });
      await control(ctx, 'POST', '/clock/freeze', { at: '2030-06-01T18:00:00Z' });
    });
    after(() => ctx.close());

    for (const route of routes) {
      test(`${route.family}: ${route.method} ${route.url}`, async () => {
        const { real, forced } = await twoOrgs(ctx, window === 'minute' ? 2 : 1_000);
        for (const org of [real, forced]) assert.equal((await send(ctx, org.token, route)).statusCode, 200);
        assert.equal((await send(ctx, real.token, route)).statusCode, 200);
        const refused = await send(ctx, real.token, route);
        assert.equal(refused.statusCode, 429);
        await control(ctx, 'POST', '/faults', { orgId: forced.orgId, status: 429, window, count: 1 });
        const forcedReply = await send(ctx, forced.token, route);
        assert.deepEqual(seen(forcedReply), seen(refused));
        assert.equal((await send(ctx, forced.token, route)).statusCode, 429, 'the rule fired once; the organization is now over its limit for real');
      });
    }
  });
}

describe('forced 500, 503 and 408 are the real ones', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: ADMIN_KEY, requestTimeoutMs: 100 } })));
  after(() => ctx.close());

  /** The reply of `route` while the store's records fail as `fail` makes them. */
  const withFailingStore = async (route: Route, fail: () => Promise<never>) => {
    const records = ctx.stores.records as { org: (id: string) => Promise<unknown> };
    const org = records.org;
    records.org = fail;
    try {
      return await send(ctx, ctx.token, route);
    } finally {
      records.org = org;
    }
  };

  const cases = [
    { status: 500, fail: async (): Promise<never> => { throw new Error('disk on fire'); } },
    { status: 503, fail: async (): Promise<never> => { throw unavailableError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })); } },
    { status: 408, fail: () => new Promise<never>(() => {}) },
  ] as const;

  for (const { status, fail } of cases) {
    for (const route of routes) {
      test(`${status} on ${route.family}`, async () => {
        const real = await withFailingStore(route, fail);
        assert.equal(real.statusCode, status, real.body);
        // A 503 passes by itself: it says when to retry (docs/errors.md § Retry-After).
        assert.equal(real.headers['retry-after'], status === 503 ? '5' : undefined);
        await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, status, count: 1 });
        const forced = await send(ctx, ctx.token, route);
        assert.deepEqual(seen(forced, false), seen(real, false));
        assert.equal((await send(ctx, ctx.token, route)).statusCode, 200, 'a count of 1 fires once');
      });
    }
  }
});

test('a rule of status 503 gives its own Retry-After, in every route family\'s reply', async () => {
  const ctx = await testContext({ config: { adminKey: ADMIN_KEY } });
  try {
    for (const route of routes) {
      await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, status: 503, retryAfter: 30, count: 1 });
      const forced = await send(ctx, ctx.token, route);
      assert.deepEqual([forced.statusCode, forced.headers['x-error-code'], forced.headers['retry-after']], [503, 'STORE_UNAVAILABLE', '30'], route.family);
      await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, status: 503, count: 1 });
      assert.equal((await send(ctx, ctx.token, route)).headers['retry-after'], '5', `${route.family}: without one, the real reply's`);
    }
  } finally {
    await ctx.close();
  }
});

describe('matching, latency and the rules through the control API', () => {
  let ctx: TestContext;
  let other: string;
  before(async () => {
    ctx = await testContext({ config: { adminKey: ADMIN_KEY } });
    other = (await control(ctx, 'POST', '/organizations', { name: 'Other', email: 'o@x.example', plan: 'enterprise', minuteLimit: 1_000_000 })).token;
  });
  after(() => ctx.close());

  const status = async (method: 'GET' | 'POST', url: string, payload?: object, token = ctx.token) =>
    (await ctx.request({ method, url, token, ...(payload ? { payload } : {}) })).statusCode;

  test('by organization, method, family and object (a query body\'s objecttype too)', async () => {
    const rule = await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, methods: ['post'], families: ['records', 'query'], object: 'contact', status: 503 });
    assert.equal(rule.id, 'fault-1');
    assert.deepEqual([rule.methods, rule.object, rule.remaining, rule.fired], [['POST'], 'contact', null, 0]);
    assert.equal(await status('POST', '/api/record/contact', { fullname: 'A B' }), 503);
    assert.equal(await status('POST', '/api/record/2', { fullname: 'A B' }), 503, 'the object by its number');
    assert.equal(await status('POST', '/api/query', { objecttype: 2, fields: 'firstname' }), 503);
    assert.equal(await status('POST', '/api/query', { objecttype: 'contact', fields: 'firstname' }), 503);
    assert.equal(await status('POST', '/api/query', { objecttype: 1, fields: 'accountname' }), 200, 'another object');
    assert.equal(await status('GET', '/api/record/contact'), 200, 'another method');
    assert.equal(await status('POST', '/api/v3/query', { objectType: 2, fields: [{ name: 'firstname' }] }), 200, 'another family');
    assert.equal(await status('POST', '/api/record/contact', { fullname: 'A B' }, other), 201, 'another organization');
    const [listed] = (await control(ctx, 'GET', `/faults?orgId=${ctx.orgId}`)).items;
    assert.deepEqual([listed.fired, listed.matched], [4, 4]);
    assert.equal((await controlReply(ctx, 'DELETE', `/faults/${rule.id}`)).statusCode, 204);
    const gone = await controlReply(ctx, 'DELETE', `/faults/${rule.id}`);
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().error.code, 'FAULT_RULE_NOT_FOUND');
    assert.match(gone.json().error.message, /List them with GET \/_orchard\/faults or orchard fault list\.$/);
    await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, families: ['v3'], status: 503 });
    for (const method of ['GET', 'DELETE'] as const) {
      const nobody = await controlReply(ctx, method, '/faults?orgId=nobody');
      assert.deepEqual([nobody.statusCode, nobody.json().error.code], [404, 'ORGANIZATION_NOT_FOUND'], `${method} with an organization that is not there`);
      const typo = await controlReply(ctx, method, `/faults?org=${ctx.orgId}`);
      assert.deepEqual([typo.statusCode, typo.json().error.code], [400, 'PARAM_INVALID'], `${method} with a parameter it does not take`);
    }
    assert.equal((await control(ctx, 'GET', '/faults')).items.length, 1, 'nothing was cleared');
    const unknown = await controlReply(ctx, 'POST', '/faults', { status: 503, object: 'acount' });
    assert.deepEqual([unknown.statusCode, unknown.json().error.message], [404, "No organization has an object 'acount'. Did you mean 'account'? Name a standard object by system name or number ('account' or 1), or a custom one as customobject1000 or 1000."]);
    const notTheirs = await controlReply(ctx, 'POST', '/faults', { orgId: ctx.orgId, status: 503, object: 'customobject1000' });
    assert.deepEqual([notTheirs.statusCode, notTheirs.json().error.code], [404, 'OBJECT_UNKNOWN'], 'an organization\'s rule names one of its objects');
    assert.equal((await controlReply(ctx, 'POST', '/faults', { status: 503, object: 'customobject1000', count: 1 })).statusCode, 201, 'a rule for every organization may name any custom object');
    for (const never of ['customobject01000', ' account', '01']) {
      assert.equal((await controlReply(ctx, 'POST', '/faults', { status: 503, object: never })).statusCode, 404, `'${never}' is not how a request names an object`);
    }
    const byNumber = await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, status: 503, object: '001', families: ['metadata'], count: 1 });
    assert.equal(byNumber.object, 'account', 'an organization\'s rule holds the system name of the object it names');
    assert.equal((await controlReply(ctx, 'DELETE', '/faults', { keep: true })).statusCode, 400, 'a body member it does not take');
    assert.equal((await control(ctx, 'DELETE', '/faults')).removed, 3);
  });

  test('every route of the API document is in a family: the organization\'s routes and the webhooks\' too', async () => {
    const paths = Object.keys((await ctx.request({ method: 'GET', url: '/openapi.json', token: null })).json().paths as object);
    assert.ok(paths.includes('/api/webhooks') && paths.includes('/api/me'), paths.join(' '));
    assert.deepEqual(paths.filter((p) => familyOf(p) === undefined), []);
    await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, families: ['webhooks'], status: 503, count: 1 });
    assert.deepEqual([await status('GET', '/api/webhooks'), await status('GET', '/api/webhooks')], [503, 200]);
    await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, families: ['organization'], status: 503, count: 4 });
    assert.deepEqual([await status('GET', '/api/me'), await status('GET', '/api/objects'), await status('GET', '/api/objects/account'), await status('GET', '/api/usage')], [503, 503, 503, 503]);
    // A rule that names no family: every route but reading the usage, which watching must not change.
    await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, status: 503, count: 1 });
    assert.deepEqual([await status('GET', '/api/usage'), await status('GET', '/api/webhooks'), await status('GET', '/api/me')], [200, 503, 200]);
    await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, object: 'contact', status: 503, count: 1 });
    assert.deepEqual([await status('GET', '/api/objects/account'), await status('GET', '/api/objects/contact')], [200, 503]);
    assert.deepEqual((await control(ctx, 'GET', '/faults')).items, []);
  });

  test('an object\'s rule matches the change feed\'s objecttype, as it does the record routes\' object', async () => {
    await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, families: ['records'], object: 'contact', status: 503 });
    assert.deepEqual([await status('GET', '/api/changes?objecttype=contact'), await status('GET', '/api/changes?objecttype=2'), await status('GET', '/api/changes?objecttype=CONTACT')], [503, 503, 503]);
    assert.deepEqual([await status('GET', '/api/changes?objecttype=account'), await status('GET', '/api/changes')], [200, 200], 'another object; none');
    assert.deepEqual(await control(ctx, 'DELETE', '/faults'), { removed: 1 });
  });

  test('a count fires for the next N matches, then the rule is gone', async () => {
    await control(ctx, 'POST', '/faults', { status: 500, count: 2, families: ['records'] });
    assert.deepEqual([await status('GET', '/api/record/account', undefined, other), await status('GET', '/api/record/account'), await status('GET', '/api/record/account')], [500, 500, 200]);
    assert.deepEqual((await control(ctx, 'GET', '/faults')).items, []);
  });

  test('a seeded probability repeats its decisions', async () => {
    const run = async () => {
      const rule = await control(ctx, 'POST', '/faults', { status: 503, probability: 0.5, seed: 42 });
      assert.equal(rule.seed, 42);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push(await status('GET', '/api/record/account'));
      await control(ctx, 'DELETE', '/faults');
      return out;
    };
    const first = await run();
    assert.deepEqual(await run(), first);
    assert.ok(first.includes(503) && first.includes(200));
  });

  test('latency delays the request, which then goes on', async () => {
    await control(ctx, 'POST', '/faults', { latencyMs: 150, count: 1 });
    const started = Date.now();
    assert.equal(await status('GET', '/api/record/account'), 200);
    assert.ok(Date.now() - started >= 150);
  });

  test('bad rules are 400 naming the member; an unknown organization is 404; clear removes all', async () => {
    const bad = await controlReply(ctx, 'POST', '/faults', { status: 429, retryAfter: -1 });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().error.message, /retryAfter/);
    const cross = await controlReply(ctx, 'POST', '/faults', { status: 500, window: 'day' });
    assert.equal(cross.statusCode, 400);
    assert.match(cross.json().error.message, /'body\.window' is for status 429 only/);
    const unknown = await controlReply(ctx, 'POST', '/faults', { status: 500, orgId: 'nope' });
    assert.equal(unknown.json().error.code, 'ORGANIZATION_NOT_FOUND');
    await control(ctx, 'POST', '/faults', { status: 500, orgId: ctx.orgId });
    await control(ctx, 'POST', '/faults', { status: 500 });
    assert.deepEqual(await control(ctx, 'DELETE', `/faults?orgId=${ctx.orgId}`), { removed: 1 });
    assert.deepEqual(await control(ctx, 'DELETE', '/faults'), { removed: 1 });
  });
});

test('a forced failure is logged as forced, naming its rule, never as a failure of the server; its reply is the real one\'s', async () => {
  const log = captureLog();
  const ctx = await testContext({ config: { adminKey: ADMIN_KEY }, logger: loggerOptions({ level: 'info', format: 'json', stream: log }) });
  try {
    for (const status of [500, 503, 408, 429]) {
      const rule = await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, status, count: 1 });
      const res = await ctx.request({ method: 'GET', url: '/api/record/account' });
      assert.equal(res.statusCode, status);
      const lines = logEntries(log.lines).filter((e) => e.reqId === res.headers['x-request-id']);
      assert.deepEqual(lines.filter((e) => e.msg === 'forced failure sent').map((e) => [e.level, e.fault, e.res.statusCode]), [[30, rule.id, status]]);
    }
    assert.deepEqual(logEntries(log.lines).filter((e) => e.level >= 40).map((e) => e.msg), [], 'no warning or error line, no stack');
  } finally {
    await ctx.close();
  }
});

test('deleting an organization forgets its clock, fault rules and journal: loaded again under its id, it starts without them', async () => {
  const ctx = await testContext({ config: { adminKey: ADMIN_KEY, journalSize: 5 } });
  try {
    const token = 'again-token-0001';
    const fixtures = { organizations: [{ id: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b', name: 'Again', plan: 'enterprise', users: [{ email: 'qa@again.example', tokens: [token] }] }] };
    const [{ id }] = (await control(ctx, 'POST', '/fixtures', fixtures)).organizations;
    await control(ctx, 'POST', `/organizations/${id}/clock/freeze`, { at: '2031-05-05T10:00:00Z' });
    await control(ctx, 'POST', '/faults', { orgId: id, status: 503, count: 2 });
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account', token })).statusCode, 503, 'the first of two');
    await control(ctx, 'DELETE', `/organizations/${id}`);
    assert.deepEqual((await control(ctx, 'GET', '/faults')).items, [], 'its rule went with it');
    assert.deepEqual((await control(ctx, 'GET', '/clocks')).items.map((c: { orgId: string | null }) => c.orgId), [null], 'its clock went with it');
    await control(ctx, 'POST', '/fixtures', fixtures);
    assert.deepEqual((await control(ctx, 'GET', `/organizations/${id}/journal`)).items, [], 'no entry of the one deleted');
    const made = await ctx.request({ method: 'POST', url: '/api/record/account', token, payload: { accountname: 'New' } });
    assert.equal(made.statusCode, 201, 'no rule of the one deleted fires');
    assert.equal(made.json().data.Record.createdon, '2026-03-01T12:00:00', 'made on the server\'s clock, not the one deleted\'s');
  } finally {
    await ctx.close();
  }
});
