// Webhooks are kept off private networks through the API too (docs/webhooks.md § Targets): without
// WEBHOOK_ALLOW_PRIVATE a loopback or private URL is refused when the webhook is made, and a
// delivery to a host that resolves to one (DNS changed since) is refused at the connection, with
// the same code in the delivery log, and nothing reaches the receiver.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

describe('webhook targets through the API (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let ctx: TestContext;
  let receiver: Receiver;
  before(async () => {
    ctx = await testContext();
    receiver = await startReceiver();
  });
  after(async () => {
    await ctx.close();
    await receiver.close();
  });

  test('a loopback, private or link-local URL is refused with WEBHOOK_TARGET_FORBIDDEN', async () => {
    for (const url of [receiver.url, 'http://localhost:9/h', 'http://[::1]/h', 'http://192.168.0.10/h', 'http://169.254.169.254/latest', 'http://[::ffff:10.0.0.1]/']) {
      const res = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url } });
      assert.equal(res.statusCode, 400, url);
      assert.equal(res.headers['x-error-code'], 'WEBHOOK_TARGET_FORBIDDEN', url);
      assert.match(res.json().Message, /public addresses only.*WEBHOOK_ALLOW_PRIVATE=true/);
    }
    assert.deepEqual((await ctx.request({ method: 'GET', url: '/api/webhooks' })).json().data, []);
  });

  test('a delivery whose host is, or now resolves to, a private address is refused at each attempt', async () => {
    // Made past the check, as a webhook whose name resolved elsewhere when it was made.
    const records = await ctx.stores.records.org(ctx.orgId);
    const port = new URL(receiver.url).port;
    for (const [id, url] of [['0e0e0000-0000-4000-8000-000000000001', `http://localhost:${port}/h`], ['0e0e0000-0000-4000-8000-000000000002', `http://127.0.0.1:${port}/h`]] as const) {
      await records.webhooks.add({ id, event: 'created', objectType: 1, url, method: 'POST', filter: null, headers: {}, secret: 'whsec_x', createdAt: '2026-03-01T12:00:00.000Z' });
    }
    await ctx.stores.control.markWebhooks(ctx.orgId);
    await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Rebound' } });
    await ctx.app.webhooks.idle();
    for (const id of ['0e0e0000-0000-4000-8000-000000000001', '0e0e0000-0000-4000-8000-000000000002']) {
      const [d] = (await ctx.request({ method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json().data.deliveries;
      assert.equal(d.state, 'pending');
      assert.equal(d.lastStatus, null);
      assert.match(d.lastError, /^WEBHOOK_TARGET_FORBIDDEN: .*(127\.0\.0\.1|::1)/);
    }
    assert.equal(receiver.received.length, 0);
  });
});
