// The clock you can move (docs/control-api.md § Clock): frozen, set, advanced and back to real time,
// for the server or one organization; record times, the limits' minute and day (across midnight, on
// the SQLite counters and on Redis), the notices, v3 relative dates and Retry-After all follow it.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Clocks, parseDuration, parseInstant } from '../../src/toolkit/clocks.js';
import { testContext, type TestContext } from '../helpers.js';
import { ADMIN_KEY, control, controlReply } from './control-helpers.js';

describe('Clocks', () => {
  test('freeze, set, advance and real, for the server and for one organization', () => {
    let base = Date.parse('2026-03-01T12:00:00Z');
    const clocks = new Clocks(() => base);
    assert.equal(clocks.now('a'), base);
    assert.equal(clocks.movedNow('a'), undefined);
    clocks.freeze(null);
    base += 5_000;
    assert.equal(clocks.now(), Date.parse('2026-03-01T12:00:00Z'), 'frozen');
    clocks.advance(null, 60_000);
    assert.equal(clocks.now('a'), Date.parse('2026-03-01T12:01:00Z'), 'an organization follows the server');
    assert.equal(clocks.state('a').inherited, true);
    clocks.set('a', Date.parse('2026-03-05T00:00:00Z'), false);
    base += 1_000;
    assert.equal(clocks.now('a'), Date.parse('2026-03-05T00:00:01Z'), 'a clock set with frozen: false runs');
    assert.equal(clocks.movedNow('a'), clocks.now('a'));
    assert.equal(clocks.now('b'), Date.parse('2026-03-01T12:01:00Z'));
    assert.deepEqual(clocks.list().map((c) => [c.orgId, c.mode]), [[null, 'frozen'], ['a', 'moved']]);
    clocks.real(null);
    assert.equal(clocks.now('b'), base);
    assert.equal(clocks.movedNow('b'), undefined);
    clocks.real('a');
    assert.equal(clocks.now('a'), base);
    assert.equal(clocks.state('a').mode, 'real');
  });

  test('durations and instants', () => {
    assert.equal(parseDuration('25h'), 25 * 3_600_000);
    assert.equal(parseDuration('1d2h30m15s500ms'), 86_400_000 + 2 * 3_600_000 + 30 * 60_000 + 15_500);
    assert.equal(parseDuration('-90s'), -90_000);
    assert.equal(parseDuration('1 day'), undefined);
    assert.equal(parseInstant('2026-03-01T23:59:30'), Date.parse('2026-03-01T23:59:30Z'), 'no zone is UTC');
    assert.equal(parseInstant('2026-03-01T23:59:30+02:00'), Date.parse('2026-03-01T21:59:30Z'));
    assert.equal(parseInstant('2026-03-01'), Date.parse('2026-03-01T00:00:00Z'));
    assert.equal(parseInstant('yesterday'), undefined);
    assert.equal(parseInstant('2030-06-01T23:58:00.123456+00:00'), Date.parse('2030-06-01T23:58:00.123Z'), 'microseconds, as Python\'s isoformat writes them, cut to milliseconds');
    assert.equal(parseInstant('2030-06-01T23:58:00+0200'), Date.parse('2030-06-01T21:58:00Z'), 'an offset without its colon');
    assert.equal(parseInstant('2030-06-01T23:58:00-05'), Date.parse('2030-06-02T04:58:00Z'), 'an offset of hours');
    assert.equal(parseInstant('0001-01-01T00:00:00Z'), Date.parse('0001-01-01T00:00:00Z'), 'a year below 100 is that year');
    for (const bad of ['2030-02-30T00:00:00Z', '2029-02-29', '2030-13-01', '2030-06-01T24:00:00Z', '2030-06-01T23:60Z', '2030-06-01T12:00+24:00']) {
      assert.equal(parseInstant(bad), undefined, bad);
    }
    assert.equal(parseInstant('2028-02-29'), Date.parse('2028-02-29T00:00:00Z'), 'a leap day');
  });

  test('an organization that follows a frozen server clock stays frozen when its own is advanced or set; no clock leaves the years 0000-9999', () => {
    let base = Date.parse('2026-03-01T12:00:00Z');
    const clocks = new Clocks(() => base);
    clocks.set(null, Date.parse('2030-06-01T23:58:00Z'), true);
    clocks.advance('a', -3_600_000);
    base += 5_000;
    assert.deepEqual([clocks.state('a').mode, clocks.now('a')], ['frozen', Date.parse('2030-06-01T22:58:00Z')]);
    clocks.set('b', Date.parse('2031-01-01T00:00:00Z'));
    base += 5_000;
    assert.deepEqual([clocks.state('b').mode, clocks.now('b')], ['frozen', Date.parse('2031-01-01T00:00:00Z')]);
    clocks.real(null);
    clocks.advance('c', 60_000);
    assert.equal(clocks.state('c').mode, 'moved', 'following a running clock, it runs');

    clocks.set(null, Date.parse('9999-12-31T23:59:00Z'), true);
    assert.throws(() => clocks.advance(null, 99_999_999 * 86_400_000), { code: 'PARAM_INVALID', message: /^That would put the clock out of any date: a clock reads 0000-01-01 to 9999-12-31/ });
    assert.throws(() => clocks.advance(null, 120_000), /in the year 10000/);
    assert.throws(() => clocks.set('a', Date.parse('-000001-06-01T00:00:00Z')), /in the year -1/);
    assert.equal(clocks.now(), Date.parse('9999-12-31T23:59:00Z'), 'a refused move changes nothing');
    clocks.set('late', Date.parse('9999-12-31T23:59:59.500Z'), false);
    base += 5_000;
    assert.equal(clocks.now('late'), Date.parse('9999-12-31T23:59:59.999Z'), 'a running clock stops at the end of 9999 rather than run past it');
    assert.equal(clocks.now('a'), Date.parse('2030-06-01T22:58:00Z'));
  });
});

describe('the clock through the control API', () => {
  let ctx: TestContext;
  let other: { orgId: string; token: string };
  before(async () => {
    ctx = await testContext({ config: { adminKey: ADMIN_KEY } });
    const made = await control(ctx, 'POST', '/organizations', { name: 'Other', email: 'o@other.example', plan: 'enterprise', minuteLimit: 1_000_000 });
    other = { orgId: made.organization.id, token: made.token };
  });
  after(() => ctx.close());

  const create = async (token: string, name: string) => {
    const res = await ctx.request({ method: 'POST', url: '/api/record/account', token, payload: { accountname: name } });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.Record as { accountid: string; createdon: string; modifiedon: string };
  };

  test('createdon and modifiedon follow the server clock and an organization\'s own', async () => {
    const frozen = await control(ctx, 'POST', '/clock/freeze', { at: '2030-01-02T03:04:05Z' });
    assert.deepEqual(frozen, { orgId: null, mode: 'frozen', now: '2030-01-02T03:04:05.000Z', offsetMs: frozen.offsetMs, inherited: false });
    const a = await create(ctx.token, 'frozen');
    assert.equal(a.createdon, '2030-01-02T03:04:05');
    await control(ctx, 'POST', '/clock/advance', { by: '1d1h' });
    const updated = await ctx.request({ method: 'PUT', url: `/api/record/account/${a.accountid}`, payload: { accountname: 'later' } });
    assert.equal(updated.json().data.Record.modifiedon, '2030-01-03T04:04:05');

    const own = await control(ctx, 'POST', `/organizations/${other.orgId}/clock/set`, { at: '2020-06-01T00:00:00', frozen: true });
    assert.equal(own.now, '2020-06-01T00:00:00.000Z');
    assert.equal((await create(other.token, 'own')).createdon, '2020-06-01T00:00:00');
    assert.equal((await create(ctx.token, 'server')).createdon, '2030-01-03T04:04:05', 'the first organization still follows the server');
    const list = await control(ctx, 'GET', '/clocks');
    assert.deepEqual(list.items.map((c: { orgId: string | null; mode: string }) => [c.orgId, c.mode]), [[null, 'frozen'], [other.orgId, 'frozen']]);

    await control(ctx, 'DELETE', `/organizations/${other.orgId}/clock`);
    assert.equal((await create(other.token, 'back')).createdon, '2030-01-03T04:04:05', 'back to the server\'s clock');
    const real = await control(ctx, 'DELETE', '/clock');
    assert.equal(real.mode, 'real');
    assert.equal((await create(ctx.token, 'real')).createdon, new Date(ctx.clock.now()).toISOString().slice(0, 19));
  });

  test('a webhook is made at the organization\'s time through the control API as through /api/webhooks', async () => {
    await control(ctx, 'POST', `/organizations/${other.orgId}/clock/set`, { at: '2031-05-06T07:08:09Z', frozen: true });
    const definition = { event: 'created', object: 'account', url: 'https://8.8.8.8/hook' };
    const viaControl = await control(ctx, 'POST', `/organizations/${other.orgId}/webhooks`, definition);
    const viaApi = await ctx.request({ method: 'POST', url: '/api/webhooks', token: other.token, payload: definition });
    assert.equal(viaApi.statusCode, 201, viaApi.body);
    assert.deepEqual([viaControl.createdAt, viaApi.json().data.createdAt], ['2031-05-06T07:08:09.000Z', '2031-05-06T07:08:09.000Z']);
    await control(ctx, 'DELETE', `/organizations/${other.orgId}/clock`);
  });

  test('freeze needs no body; set and advance without one name what they lack', async () => {
    const frozen = await ctx.request({ method: 'POST', url: '/_orchard/clock/freeze', token: null, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    assert.equal(frozen.statusCode, 200, frozen.body);
    assert.equal(frozen.json().mode, 'frozen');
    const set = await ctx.request({ method: 'POST', url: '/_orchard/clock/set', token: null, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    assert.deepEqual([set.statusCode, set.json().error.message], [400, "This call needs a JSON body with 'at' (an ISO 8601 date-time; UTC when it has no zone), and may have 'frozen'; got no body."]);
    const advance = await ctx.request({ method: 'POST', url: '/_orchard/clock/advance', token: null, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    assert.deepEqual([advance.statusCode, advance.json().error.message], [400,
      "This call needs a JSON body with at least one of 'ms' (milliseconds; negative moves the clock back) or 'by' (a duration: whole numbers of ms, s, m, h or d, such as 90s, 1d2h or -1h); got no body."]);
    const empty = await controlReply(ctx, 'POST', '/clock/advance', {});
    assert.match(empty.json().error.message, /^This call needs a JSON body with at least one of 'ms' .*; got \{\}\.$/);
    await control(ctx, 'DELETE', '/clock');
  });

  test('bad input: 400 naming the member; an unknown organization: 404', async () => {
    const bad = await controlReply(ctx, 'POST', '/clock/set', { at: 'tomorrow' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.code, 'BODY_INVALID');
    assert.match(bad.json().error.message, /'at' must be an ISO 8601 date-time/);
    const badBy = await controlReply(ctx, 'POST', '/clock/advance', { by: '2 minutes' });
    assert.deepEqual([badBy.statusCode, badBy.json().error.message], [400, "The request body is invalid: give 'ms' (milliseconds) or 'by', a duration such as 90s, 25h, 1d2h or -1h; got '2 minutes'."]);
    const both = await controlReply(ctx, 'POST', '/clock/advance', { by: '2m', ms: 5 });
    assert.deepEqual([both.statusCode, both.json().error.message], [400, "The request body is invalid: give 'ms' or 'by', not both."]);
    const frozenToo = await controlReply(ctx, 'POST', '/clock/advance', { by: '2m', frozen: true });
    assert.match(frozenToo.json().error.message, /'frozen' is not a member this route takes; it takes ms, by/);
    const far = await controlReply(ctx, 'POST', '/clock/advance', { by: '99999999d' });
    assert.deepEqual([far.statusCode, far.json().error.code], [400, 'PARAM_INVALID']);
    assert.equal((await control(ctx, 'GET', '/clock')).mode, 'real', 'the refused move left the clock as it was');
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account?pagesize=1' })).statusCode, 200);
    const missing = await controlReply(ctx, 'POST', '/organizations/nope/clock/freeze', {});
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error.code, 'ORGANIZATION_NOT_FOUND');
  });

  test('v3 relative dates follow the organization\'s clock', async () => {
    await control(ctx, 'POST', `/organizations/${other.orgId}/clock/set`, { at: '2031-05-10T10:00:00Z', frozen: true });
    const made = await create(other.token, 'relative');
    const names = async (value: string) => {
      const res = await ctx.request({ method: 'POST', url: '/api/v3/query', token: other.token, payload: {
        objectType: 1, fields: [{ name: 'accountname' }],
        filter: [{ type: 'AND', conditions: [{ fieldName: 'createdon', operator: 'eq', value }] }],
      } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.map((r: { accountname: string }) => r.accountname);
    };
    assert.equal(made.createdon, '2031-05-10T10:00:00');
    assert.deepEqual(await names('today'), ['relative']);
    await control(ctx, 'POST', `/organizations/${other.orgId}/clock/advance`, { ms: 2 * 86_400_000 });
    assert.deepEqual(await names('today'), []);
    assert.deepEqual(await names('2-days-ago'), ['relative']);
    await control(ctx, 'DELETE', `/organizations/${other.orgId}/clock`);
  });
});

/** Days of a limits test: a cap of 10 requests a day, so 9 reach 90 % and 10 reach 100 %. */
const CAP = 10;

function acrossMidnight(name: string, redisUrl: string | undefined, skip: string | false = false) {
  describe(name, { skip }, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await testContext({ config: { adminKey: ADMIN_KEY, dailyCap: CAP, ...(redisUrl ? { redisUrl } : {}) }, minuteLimit: 1_000 });
    });
    after(() => ctx.close());

    const get = () => ctx.request({ method: 'GET', url: '/api/record/account?pagesize=1' });

    test('advancing past 00:00 UTC resets the day, Retry-After counts to it, and the notices fire again', async () => {
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/clock/set`, { at: '2032-02-29T23:58:00Z', frozen: true });
      for (let i = 1; i <= CAP; i++) assert.equal((await get()).statusCode, 200, `request ${i}`);
      const refused = await get();
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.headers['x-error-code'], 'LIMIT_DAY');
      assert.equal(refused.headers['retry-after'], '120', 'two minutes to 00:00 UTC on the moved clock');
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/clock/advance`, { by: '90s' });
      assert.equal((await get()).headers['retry-after'], '30');

      await control(ctx, 'POST', `/organizations/${ctx.orgId}/clock/advance`, { by: '31s' });
      const next = await get();
      assert.equal(next.statusCode, 200, next.body);
      assert.match(String(next.headers.ratelimit), new RegExp(`"day";r=${CAP - 1};t=86399`));
      for (let i = 2; i <= CAP; i++) assert.equal((await get()).statusCode, 200, `request ${i} of the new day`);
      assert.equal((await get()).statusCode, 429);

      // Read at once, as a test suite would: the route waits for the notices decided on.
      const { items } = await control(ctx, 'GET', `/organizations/${ctx.orgId}/outbox`);
      assert.deepEqual(items.map((m: { day: string; threshold: number }) => `${m.day} ${m.threshold}`),
        ['2032-03-01 100', '2032-03-01 90', '2032-02-29 100', '2032-02-29 90']);
      assert.equal(items[0].to, 'owner@example.com');
      assert.match(items[0].subject, /has reached its daily cap of 10/);
      // Sent (and dated) on the organization's clock.
      assert.equal(items[0].at, '2032-03-01T00:00:01.000Z');
      const files = fs.readdirSync(path.join(ctx.dir, 'outbox'));
      assert.equal(files.length, 4);
      for (const file of files) assert.match(fs.readFileSync(path.join(ctx.dir, 'outbox', file), 'utf8'), /^Date: .* 2032 /m);

      await control(ctx, 'DELETE', `/organizations/${ctx.orgId}/outbox`);
      assert.deepEqual((await control(ctx, 'GET', `/organizations/${ctx.orgId}/outbox`)).items, []);
    });

    test('the minute window and its Retry-After follow the moved clock', async () => {
      await control(ctx, 'PATCH', `/organizations/${ctx.orgId}`, { minuteLimit: 2, plan: 'enterprise' });
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/clock/set`, { at: '2033-01-01T00:00:00Z', frozen: true });
      assert.equal((await get()).statusCode, 200);
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/clock/advance`, { by: '20s' });
      assert.equal((await get()).statusCode, 200);
      const refused = await get();
      assert.equal(refused.headers['x-error-code'], 'LIMIT_MINUTE');
      assert.equal(refused.headers['retry-after'], '40');
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/clock/advance`, { by: '40s' });
      assert.equal((await get()).statusCode, 200, 'the first request left the window');
      assert.equal((await get()).headers['x-error-code'], 'LIMIT_MINUTE');
    });

    test('a clock put back to real time from years ahead leaves the minute to real time, not locked until then', async () => {
      await control(ctx, 'PATCH', `/organizations/${ctx.orgId}`, { minuteLimit: 2, plan: 'enterprise' });
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/clock/freeze`, { at: '2034-06-01T23:58:00Z' });
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/clock/advance`, { by: '2m' });
      assert.equal((await get()).statusCode, 200);
      assert.equal((await get()).statusCode, 200);
      assert.equal((await get()).headers['x-error-code'], 'LIMIT_MINUTE');
      await control(ctx, 'DELETE', `/organizations/${ctx.orgId}/clock`);
      assert.equal((await get()).statusCode, 200, 'what 2034 counted is forgotten');
      assert.equal((await get()).statusCode, 200);
      const refused = await get();
      assert.equal(refused.headers['x-error-code'], 'LIMIT_MINUTE');
      assert.ok(Number(refused.headers['retry-after']) <= 60, `Retry-After ${refused.headers['retry-after']}`);
    });
  });
}

acrossMidnight('across midnight on the embedded counters', undefined);
acrossMidnight('across midnight on Redis', process.env.REDIS_URL, process.env.REDIS_URL ? false : 'REDIS_URL is not set');
