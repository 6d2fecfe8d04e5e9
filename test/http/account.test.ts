// The organization's routes (docs/api.md § The organization's routes): who a token is, the objects
// it may use with their counts and fields, and the usage of the limits — read without being counted
// or journaled, with the daily counts of 30 days and the notices sent.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';
import { assertErrorReply, errorCodeOf } from './error-reply.js';

describe('GET /api/me and the objects', () => {
  let ctx: TestContext;
  let sales: string;

  before(async () => {
    ctx = await testContext({ plan: 'standard', minuteLimit: 500 });
    await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'sales', grant: 'account:read,update;contact:create', hide: 'account:telephone1,account:primarycontactid', readonly: 'account:emailaddress1' });
    sales = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'sales@example.com', role: 'sales', fullname: 'Sam Sales' })).token;
    for (const accountname of ['Acme', 'Globex']) await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname } });
  });
  after(() => ctx.close());

  test('GET /api/me names the organization, its quotas and the token\'s user and role', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/me', token: sales });
    assert.equal(res.statusCode, 200);
    const { organization, user } = res.json().data;
    assert.deepEqual(organization, { id: ctx.orgId, name: 'Test Org', plan: 'standard', minuteLimit: 500, dailyCap: 10_000 });
    assert.deepEqual({ ...user, id: undefined }, { id: undefined, email: 'sales@example.com', fullname: 'Sam Sales', role: 'sales' });
    assert.ok(res.headers['ratelimit'], 'an ordinary request: counted');
  });

  test('GET /api/objects lists every object the plan includes with the role\'s permissions and, where it may read, the record count', async () => {
    const objects = (await ctx.request({ method: 'GET', url: '/api/objects', token: sales })).json().data as Array<Record<string, unknown>>;
    const bySystemName = new Map(objects.map((o) => [o.systemName, o]));
    assert.deepEqual(bySystemName.get('account'), {
      objectType: 1, systemName: 'account', name: 'Account', collectionName: 'Accounts', primaryKey: 'accountid', primaryField: 'accountname',
      readOnly: false, permissions: ['read', 'update'], records: 2,
    });
    assert.deepEqual([bySystemName.get('contact')!.permissions, bySystemName.get('contact')!.records], [['create'], null], 'no read: no count');
    assert.deepEqual(bySystemName.get('lead')!.permissions, []);
    const admin = (await ctx.request({ method: 'GET', url: '/api/objects' })).json().data as Array<Record<string, unknown>>;
    const crmuser = admin.find((o) => o.systemName === 'crmuser')!;
    assert.deepEqual([crmuser.readOnly, crmuser.permissions, crmuser.records], [true, ['read'], 2], 'the users mirror: read only, two users');
    assert.deepEqual(admin.map((o) => o.objectType), objects.map((o) => o.objectType), 'the same objects, in the same order');
  });

  test('GET /api/objects leaves out what the plan does not include', async () => {
    const free = await testContext({ plan: 'free' });
    try {
      await free.request({ method: 'POST', url: '/api/v2/record/58', payload: { name: 'Projects' } });
      const names = ((await free.request({ method: 'GET', url: '/api/objects' })).json().data as Array<{ systemName: string }>).map((o) => o.systemName);
      assert.deepEqual(names.sort(), ['account', 'contact', 'lead', 'note', 'task'], 'no custom object, no opportunity');
    } finally {
      await free.close();
    }
  });

  test('GET /api/objects/{ot} describes the fields as the role sees them: types, codes, targets, what it may write', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/objects/1', token: sales });
    assert.equal(res.statusCode, 200);
    const data = res.json().data;
    assert.equal(data.records, 2);
    const fields = new Map((data.fields as Array<Record<string, unknown>>).map((f) => [f.name, f]));
    assert.deepEqual(fields.get('accountname'), { name: 'accountname', label: 'Account Name', type: 'text', required: true, readOnly: false, maxLength: 200 });
    assert.deepEqual(fields.get('accounttypecode')!.options, [
      { value: 1, label: 'Customer' }, { value: 2, label: 'Partner' }, { value: 3, label: 'Prospect' }, { value: 4, label: 'Vendor' }, { value: 5, label: 'Other' },
    ]);
    assert.deepEqual(fields.get('parentaccountid')!.target, { objectType: 1, systemName: 'account', primaryKey: 'accountid', primaryField: 'accountname' });
    assert.deepEqual(fields.get('ownerid')!.target, { objectType: 9, systemName: 'crmuser', primaryKey: 'crmuserid', primaryField: 'fullname' });
    assert.deepEqual([fields.get('ownername')!.readOnly, fields.get('ownername')!.derivedFrom], [true, 'ownerid']);
    assert.deepEqual([fields.get('accountid')!.readOnly, fields.get('createdon')!.readOnly, fields.get('pcfsystemfield85')!.type], [true, true, 'datetime']);
    assert.equal(fields.get('emailaddress1')!.readOnly, true, 'read-only for the role');
    for (const hidden of ['telephone1', 'primarycontactid', 'primarycontactname']) assert.ok(!fields.has(hidden), `${hidden} is hidden`);
    const adminFields = (await ctx.request({ method: 'GET', url: '/api/objects/account' })).json().data.fields as Array<{ name: string; readOnly: boolean }>;
    assert.equal(adminFields.find((f) => f.name === 'emailaddress1')!.readOnly, false);
    assert.ok(adminFields.some((f) => f.name === 'telephone1'));
  });

  test('GET /api/objects/{ot} answers an unknown object 404 and an object the plan lacks 402', async () => {
    const unknown = await ctx.request({ method: 'GET', url: '/api/objects/nothing' });
    assertErrorReply(unknown, 404);
    assert.equal(errorCodeOf(unknown), 'OBJECT_UNKNOWN');
    const free = await testContext({ plan: 'free' });
    try {
      const excluded = await free.request({ method: 'GET', url: '/api/objects/opportunity' });
      assertErrorReply(excluded, 402);
      assert.equal(errorCodeOf(excluded), 'PLAN_EXCLUDES');
    } finally {
      await free.close();
    }
  });
});

describe('GET /api/usage', () => {
  let ctx: TestContext;
  const usage = async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/usage' });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };

  before(async () => {
    ctx = await testContext({ minuteLimit: 50, config: { dailyCap: 20, journalSize: 100 } });
  });
  after(() => ctx.close());

  test('shows the windows against their quotas, and reading them counts nothing and is not journaled', async () => {
    const first = await usage();
    assert.deepEqual(first.minute, { quota: 50, used: 0, remaining: 50, resetSeconds: 60 });
    assert.deepEqual(first.day, { quota: 20, used: 0, remaining: 20, resetSeconds: 12 * 3600, day: '2026-03-01' });
    for (let i = 0; i < 3; i++) await ctx.request({ method: 'GET', url: '/api/record/account' });
    ctx.clock.advance(5_000);
    const second = await usage();
    assert.deepEqual(second.minute, { quota: 50, used: 3, remaining: 47, resetSeconds: 55 });
    assert.deepEqual([second.day.used, second.day.remaining], [3, 17]);
    assert.deepEqual((await usage()).minute, second.minute, 'the reads between counted nothing');
    const res = await ctx.request({ method: 'GET', url: '/api/usage' });
    assert.equal(res.headers['ratelimit'], undefined, 'no RateLimit fields: the read is outside the limits');
    const journal = ctx.app.toolkit.journal.query(ctx.orgId);
    assert.deepEqual(journal.map((e) => e.path), ['/api/record/account', '/api/record/account', '/api/record/account'], 'only the counted requests are journaled');
  });

  test('keeps the counts of the last 30 days and lists the notices sent', async () => {
    // 18 of 20 today crosses 90 %: a notice.
    for (let i = 0; i < 15; i++) await ctx.request({ method: 'GET', url: '/api/record/account' });
    await ctx.app.limits!.notices.idle();
    const today = await usage();
    assert.equal(today.days.length, 30);
    assert.deepEqual(today.days.at(-1), { day: '2026-03-01', count: 18 });
    assert.deepEqual(today.days[0], { day: '2026-01-31', count: 0 });
    assert.equal(today.notices.length, 1);
    assert.deepEqual({ ...today.notices[0], claimedAt: undefined, sentAt: typeof today.notices[0].sentAt }, {
      day: '2026-03-01', threshold: 90, used: 18, cap: 20, claimedAt: undefined, sentAt: 'string',
    });
    ctx.clock.advance(86_400_000);
    await ctx.request({ method: 'GET', url: '/api/record/account' });
    const tomorrow = await usage();
    assert.deepEqual(tomorrow.days.slice(-2), [{ day: '2026-03-01', count: 18 }, { day: '2026-03-02', count: 1 }]);
    assert.deepEqual([tomorrow.day.day, tomorrow.day.used], ['2026-03-02', 1]);
    assert.equal(tomorrow.notices.length, 1, 'yesterday\'s notice is still among the 30 days');
  });

  test('refuses a bad token 401 and counts it against the address', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/usage', token: '00000000-0000-4000-8000-000000000000' });
    assertErrorReply(res, 401);
    assert.equal(errorCodeOf(res), 'TOKEN_INVALID');
    assert.match(String(res.headers['ratelimit']), /^"address";/);
  });

  test('says nothing is counted when the limits are off', async () => {
    const off = await testContext({ config: { rateLimits: false } });
    try {
      const res = await off.request({ method: 'GET', url: '/api/usage' });
      assert.deepEqual(res.json().data, { counted: false, minute: null, day: null, days: [], notices: [] });
    } finally {
      await off.close();
    }
  });
});
