// A webhook on one object needs a plan that includes it (docs/webhooks.md § Managing webhooks),
// however it is made: the API, the control API, the CLI's and fixtures files' AdminService; and a
// write of an object the plan lacks makes no event (§ Events), whatever the webhooks were made under.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTEXT_STORES, testContext, testContextOn, type TestContext } from '../helpers.js';

const KEY = 'test-admin-key-0123456789abcdef';
let ctx: TestContext;
before(async () => (ctx = await testContext({ plan: 'free', config: { adminKey: KEY, webhooks: { allowPrivate: true } } })));
after(async () => ctx.close());

const body = (object: string) => ({ event: 'created', object, url: 'https://hooks.example.com/plan' });

test('a free organization gets no webhook on an object its plan excludes, through the API, the control API or the CLI', async () => {
  const api = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: body('opportunity') });
  assert.deepEqual([api.statusCode, api.headers['x-error-code']], [402, 'PLAN_EXCLUDES']);
  const control = await ctx.request({ method: 'POST', url: `/_orchard/organizations/${ctx.orgId}/webhooks`, payload: body('invoice'), token: null, headers: { authorization: `Bearer ${KEY}` } });
  assert.equal(control.statusCode, 402, control.body);
  // What `orchard webhook create` and a fixtures file call.
  await assert.rejects(ctx.stores.admin.createWebhook({ orgId: ctx.orgId, definition: body('opportunity'), allowPrivate: true }), (err: { code?: string; message: string }) => {
    assert.equal(err.code, 'PLAN_EXCLUDES');
    assert.match(err.message, /^The free plan does not include the opportunity object; upgrade to standard or higher\.$/);
    return true;
  });
  assert.deepEqual((await ctx.stores.admin.listWebhooks(ctx.orgId, new Date())).length, 0);
  // An object the plan includes, and every object, are fine.
  assert.equal((await ctx.stores.admin.createWebhook({ orgId: ctx.orgId, definition: body('account'), allowPrivate: true })).webhook.object, 'account');
  assert.equal((await ctx.request({ method: 'POST', url: `/_orchard/organizations/${ctx.orgId}/webhooks`, payload: { event: 'created', url: 'https://hooks.example.com/all' }, token: null, headers: { authorization: `Bearer ${KEY}` } })).statusCode, 201);
});

for (const store of CONTEXT_STORES) describe(`on ${store.name}`, { skip: store.skip }, () => {
  test('after a downgrade, writes of objects the plan now lacks (orchard seed) make no event for a webhook on every object or on that object', async () => {
    const rich = await testContextOn(store, { plan: 'enterprise', config: { webhooks: { allowPrivate: true, deliver: false } } });
    try {
      const admin = rich.stores.admin;
      const every = (await admin.createWebhook({ orgId: rich.orgId, definition: { event: 'created', url: 'https://hooks.example.com/every' }, allowPrivate: true })).webhook;
      const one = (await admin.createWebhook({ orgId: rich.orgId, definition: body('opportunity'), allowPrivate: true })).webhook;
      const events = async (id: string) => (await admin.webhookDeliveries(rich.orgId, id, { limit: 100, offset: 0 })).map((d) => d.objectType).sort();
      await admin.seed({ orgId: rich.orgId, object: 'opportunity', count: 1 });
      assert.deepEqual([await events(every.id), await events(one.id)], [[4], [4]]);
      await admin.updateOrganization({ id: rich.orgId, plan: 'free' });
      await admin.seed({ orgId: rich.orgId, object: 'opportunity', count: 2 });
      await admin.seed({ orgId: rich.orgId, object: 'account', count: 2 });
      // The event made under the enterprise plan stays; the free plan's writes send accounts only.
      assert.deepEqual([await events(every.id), await events(one.id)], [[1, 1, 4], [4]]);
    } finally {
      await rich.close();
    }
  });
});
