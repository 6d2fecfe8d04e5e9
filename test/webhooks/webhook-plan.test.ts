// A webhook on one object needs a plan that includes it (docs/webhooks.md § Managing webhooks),
// however it is made: the API, the control API, the CLI's and fixtures files' AdminService.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';

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
