// The outbox across an organization's whole-state changes and a server's stop (docs/webhooks.md §
// The outbox), on every store: a restore brings back the snapshot's webhooks and keeps the pending
// deliveries of acknowledged writes (those of webhooks the snapshot lacks go); a reset of an
// organization not loaded from a fixture leaves it without webhooks or deliveries; a server that
// stops while an attempt is under way waits for it and records it.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

const KEY = 'test-admin-key-0123456789abcdef';

for (const store of HTTP_STORES) {
  describe(`the outbox across restores, resets and a stop on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let receiver: Receiver;
    before(async () => {
      ctx = await store.context({ config: { adminKey: KEY, webhooks: { allowPrivate: true, retryBaseMs: 60_000 } } });
      receiver = await startReceiver();
    });
    after(async () => {
      await ctx.close();
      await receiver.close();
    });

    const control = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      ctx.request({ method, url: `/_orchard${url}`, token: null, headers: { authorization: `Bearer ${KEY}` }, ...(payload ? { payload } : {}) });
    const make = async (path: string, headers: Record<string, string> = {}) =>
      (await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url: `${receiver.url}${path}`, headers } })).json().data.id as string;
    const log = async (id: string) => (await ctx.request({ method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json().data.deliveries as Array<Record<string, any>>;

    test('a restore brings back the snapshot\'s webhooks, their header fields whole, and keeps the deliveries owed to them; those of the others go', async () => {
      receiver.answer = () => 503;
      const kept = await make('/kept', { Authorization: 'Bearer sk_live_0123456789abcdef' });
      assert.equal((await control('POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'one-hook' })).statusCode, 201);
      const dropped = await make('/dropped');
      await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Owed' } });
      await ctx.app.webhooks.idle();
      assert.equal((await log(kept))[0]!.state, 'pending');
      assert.equal((await control('POST', `/organizations/${ctx.orgId}/snapshots/one-hook/restore`)).statusCode, 204);
      const hooks = (await ctx.request({ method: 'GET', url: '/api/webhooks' })).json().data as Array<{ id: string; headers: object }>;
      assert.deepEqual(hooks.map((h) => [h.id, h.headers]), [[kept, { Authorization: '****cdef' }]]);
      const [owed] = await log(kept);
      assert.deepEqual([owed!.state, owed!.attempts], ['pending', 1], 'the write was acknowledged before the restore: its delivery is still owed');
      assert.equal((await ctx.request({ method: 'GET', url: `/api/webhooks/${dropped}/deliveries` })).statusCode, 404);
      receiver.answer = () => 200;
      const start = receiver.received.length;
      ctx.clock.advance(60_000);
      assert.equal((await control('POST', '/webhooks/flush')).statusCode, 204);
      assert.deepEqual(receiver.received.slice(start).map((r) => [r.path, r.json.data.record.accountname, r.headers.authorization]), [['/hooks/kept', 'Owed', 'Bearer sk_live_0123456789abcdef']]);
      assert.equal((await log(kept))[0]!.state, 'delivered');
      // And a test event made after the restore.
      assert.equal((await ctx.request({ method: 'POST', url: `/api/webhooks/${kept}/test` })).statusCode, 202);
      assert.equal((await control('POST', '/webhooks/flush')).statusCode, 204);
      assert.deepEqual(receiver.received.slice(start + 1).map((r) => [r.json.type, r.headers.authorization]), [['webhook.test', 'Bearer sk_live_0123456789abcdef']]);
    });

    test('a reset of an organization not loaded from a fixture leaves it without webhooks or deliveries', async () => {
      receiver.answer = () => 503;
      await make('/before-reset');
      await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Gone' } });
      await ctx.app.webhooks.idle();
      assert.equal((await control('POST', `/organizations/${ctx.orgId}/reset`)).statusCode, 200);
      assert.deepEqual((await ctx.request({ method: 'GET', url: '/api/webhooks' })).json().data, []);
      receiver.answer = () => 200;
      const start = receiver.received.length;
      ctx.clock.advance(10 * 60_000);
      await ctx.app.webhooks.idle();
      assert.equal(receiver.received.length, start, 'nothing of the state before the reset is sent');
    });

    test('a server that stops while an attempt is under way waits for it and records it', async () => {
      const id = await make('/slow');
      let answer!: (status: number) => void;
      receiver.answer = () => new Promise<number>((resolve) => (answer = resolve));
      await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Last' } });
      await receiver.waitFor(receiver.received.length + 1);
      const closing = ctx.app.close();
      setTimeout(() => answer(200), 200);
      await closing;
      const records = await ctx.stores.records.org(ctx.orgId);
      const [d] = await records.webhooks.deliveries(id, { limit: 1, offset: 0 });
      assert.deepEqual([d!.state, d!.attempts, d!.lastStatus], ['delivered', 1, 200]);
    });
  });
}
