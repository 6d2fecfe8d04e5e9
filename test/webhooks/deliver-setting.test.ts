// WEBHOOK_DELIVER=false (docs/webhooks.md § The outbox): a process that writes deliveries with its
// writes but attempts none; a process that delivers, on the same database, attempts them.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.js';
import type { TestContext } from '../helpers.js';
import { HTTP_STORES } from '../query/http-stores.js';
import { startReceiver, type Receiver } from './receiver.js';

const KEY = 'test-admin-key-0123456789abcdef';

for (const store of HTTP_STORES) {
  describe(`WEBHOOK_DELIVER=false on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let receiver: Receiver;
    before(async () => {
      ctx = await store.context({ config: { adminKey: KEY, webhooks: { allowPrivate: true, deliver: false, pollMs: 10 } } });
      receiver = await startReceiver();
    });
    after(async () => {
      await ctx.close();
      await receiver.close();
    });

    test('the writes make their deliveries, none is attempted here, and a process that delivers sends them', async () => {
      const made = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url: `${receiver.url}/elsewhere` } });
      assert.equal(made.statusCode, 201);
      const hookId = made.json().data.id as string;
      assert.equal((await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Written here' } })).statusCode, 201);
      // Many sweeps' worth of time: a process that delivers would have attempted it by now.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(receiver.received.length, 0);
      const log = async () => (await ctx.request({ method: 'GET', url: `/api/webhooks/${hookId}/deliveries` })).json().data.deliveries as Array<Record<string, unknown>>;
      assert.deepEqual((await log()).map((d) => [d.state, d.attempts]), [['pending', 0]]);

      const flush = await ctx.request({ method: 'POST', url: '/_orchard/webhooks/flush', token: null, headers: { authorization: `Bearer ${KEY}` } });
      assert.equal(flush.statusCode, 409);
      assert.equal(flush.json().error.code, 'WEBHOOKS_NOT_DELIVERED_HERE');
      assert.match(flush.json().error.message, /WEBHOOK_DELIVER=false/);

      // Another server on the same stores, delivering (the default).
      const delivering = await buildApp({ ...ctx.stores, config: { ...ctx.config, webhooks: { ...ctx.config.webhooks, deliver: true } }, clock: ctx.clock.now, logger: false });
      try {
        await delivering.ready();
        await delivering.webhooks.idle();
        const [got] = await receiver.waitFor(1);
        assert.equal(got!.json.data.record.accountname, 'Written here');
        assert.deepEqual((await log()).map((d) => [d.state, d.attempts]), [['delivered', 1]]);
      } finally {
        await delivering.close();
      }
    });
  });
}
