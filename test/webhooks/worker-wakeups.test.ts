// What makes a delivery due outside a write wakes this process's worker at once, as a write does
// (docs/webhooks.md § The worker), on every store: a failed delivery retried, and a disabled webhook
// enabled with deliveries retried while it was disabled. The sweep is set 10 minutes off, so a
// delivery that arrives was attempted because the worker was told.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

for (const store of HTTP_STORES) {
  describe(`the worker told of deliveries made due outside a write on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let receiver: Receiver;

    before(async () => {
      // One failure disables a webhook, and its pending delivery is failed with it.
      ctx = await store.context({ config: { webhooks: { allowPrivate: true, pollMs: 600_000, disableFailures: 1, disableHours: 0, maxAttempts: 1 } } });
      receiver = await startReceiver();
    });
    after(async () => {
      await ctx.close();
      await receiver.close();
    });

    const post = async (url: string) => {
      const res = await ctx.request({ method: 'POST', url });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data;
    };
    /** A webhook whose receiver refused its one delivery, so that it was disabled and the delivery failed; the delivery's id. */
    const refusedOnce = async (path: string): Promise<{ hook: string; delivery: string }> => {
      const made = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url: `${receiver.url}${path}` } });
      assert.equal(made.statusCode, 201, made.body);
      const hook = made.json().data.id as string;
      receiver.answer = (r) => (r.path.endsWith(path) ? 500 : 200);
      await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: path } });
      await ctx.app.webhooks.idle();
      const [d] = (await ctx.request({ method: 'GET', url: `/api/webhooks/${hook}/deliveries` })).json().data.deliveries;
      assert.equal(d.state, 'failed');
      assert.equal((await ctx.request({ method: 'GET', url: `/api/webhooks/${hook}` })).json().data.status, 'disabled');
      receiver.answer = () => 200;
      return { hook, delivery: d.id };
    };

    test('a failed delivery retried is attempted at once', async () => {
      const { hook, delivery } = await refusedOnce('/retried');
      await post(`/api/webhooks/${hook}/enable`);
      const seen = receiver.received.length;
      assert.equal((await post(`/api/webhooks/${hook}/deliveries/${delivery}/retry`)).state, 'pending');
      const [got] = (await receiver.waitFor(seen + 1)).slice(seen);
      assert.equal(got!.headers['webhook-id'], delivery);
    });

    test('a webhook enabled has its deliveries retried while it was disabled attempted at once', async () => {
      const { hook, delivery } = await refusedOnce('/enabled');
      await post(`/api/webhooks/${hook}/deliveries/${delivery}/retry`);
      const seen = receiver.received.length;
      await post(`/api/webhooks/${hook}/enable`);
      const [got] = (await receiver.waitFor(seen + 1)).slice(seen);
      assert.equal(got!.headers['webhook-id'], delivery);
    });
  });
}
