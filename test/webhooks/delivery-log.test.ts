// The delivery log by state (docs/webhooks.md § The delivery log), on every store: ?state= keeps the
// deliveries in that state, newest first, and pages count those only (isLastPage right at a page's
// edge); an unknown state is 400 PARAM_INVALID naming the states; the control API's twin filters too.
// No worker runs here: the outcomes are recorded through the outbox as a worker records them.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import type { AttemptResult } from '../../src/webhooks/webhook-types.js';

const KEY = 'test-admin-key-0123456789abcdef';

for (const store of HTTP_STORES) {
  describe(`the delivery log by state on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    before(async () => {
      ctx = await store.context({ config: { adminKey: KEY, webhooks: { allowPrivate: true, deliver: false } } });
    });
    after(async () => ctx.close());

    const page = async (hook: string, query: string) => {
      const res = await ctx.request({ method: 'GET', url: `/api/webhooks/${hook}/deliveries?${query}` });
      assert.equal(res.statusCode, 200, res.body);
      const data = res.json().data as { deliveries: Array<{ recordId: string; state: string }>; isLastPage: boolean; pageSize: number; pageNumber: number };
      return { names: data.deliveries.map((d) => `${names.get(d.recordId)} ${d.state}`), isLastPage: data.isLastPage };
    };
    const names = new Map<string, string>();

    test('?state= lists the deliveries in that state, newest first, paged among themselves; an unknown state is 400 naming the states', async () => {
      const made = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url: 'http://127.0.0.1:9/log' } });
      const hook = made.json().data.id as string;
      // Outcomes by write, oldest first: D delivered, F failed, P pending (retried later).
      const plan = ['D1', 'F1', 'D2', 'P1', 'D3', 'F2', 'P2', 'D4', 'F3'];
      for (const name of plan) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: name } });
        names.set(res.json().data.Record.accountid, name);
      }
      const records = await ctx.stores.records.org(ctx.orgId);
      const claimed = await records.webhooks.claim({ dueMs: ctx.clock.now(), realMs: Date.now(), leaseMs: 60_000, limit: 100 });
      assert.equal(claimed.length, plan.length);
      const log = await records.webhooks.deliveries(hook, { limit: 100, offset: 0 });
      const nameOf = new Map(log.map((d) => [d.id, names.get(d.recordId!)!]));
      const at = ctx.clock.now();
      await records.webhooks.finish(claimed.map((c): AttemptResult => {
        const kind = nameOf.get(c.id)![0];
        return {
          row: c.row, id: c.id, webhookId: hook, ok: kind === 'D', status: kind === 'D' ? 200 : 500, error: kind === 'D' ? null : 'HTTP 500',
          durationMs: 1, response: null, atMs: at, retryAtMs: kind === 'P' ? at + 60_000 : null,
        };
      }), { failures: 1_000, hours: 1_000 });

      assert.deepEqual(await page(hook, 'state=delivered&pagesize=3'), { names: ['D4 delivered', 'D3 delivered', 'D2 delivered'], isLastPage: false });
      assert.deepEqual(await page(hook, 'state=delivered&pagesize=3&pagenumber=2'), { names: ['D1 delivered'], isLastPage: true });
      // A page that ends exactly at the last of the state's deliveries is the last page.
      assert.deepEqual(await page(hook, 'state=failed&pagesize=3'), { names: ['F3 failed', 'F2 failed', 'F1 failed'], isLastPage: true });
      assert.deepEqual(await page(hook, 'state=pending&pagesize=1&pagenumber=2'), { names: ['P1 pending'], isLastPage: true });
      assert.deepEqual(await page(hook, 'state=pending&pagesize=1'), { names: ['P2 pending'], isLastPage: false });
      assert.deepEqual(await page(hook, 'state=failed&pagenumber=2'), { names: [], isLastPage: true });
      // Without it, every state.
      assert.deepEqual((await page(hook, 'pagesize=9')).names, [...plan].reverse().map((n) => `${n} ${({ D: 'delivered', F: 'failed', P: 'pending' } as Record<string, string>)[n[0]!]}`));

      for (const bad of ['state=sent', 'state=', 'state=Failed']) {
        const res = await ctx.request({ method: 'GET', url: `/api/webhooks/${hook}/deliveries?${bad}` });
        assert.deepEqual([res.statusCode, res.headers['x-error-code']], [400, 'PARAM_INVALID'], bad);
        assert.match(res.json().Message, /'state' must be one of "pending", "delivered", "failed"/);
      }

      // The control API's twin.
      const control = async (query: string) => ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/webhooks/${hook}/deliveries?${query}`, token: null, headers: { authorization: `Bearer ${KEY}` } });
      assert.deepEqual((await control('state=failed&limit=2')).json().items.map((d: { recordId: string }) => names.get(d.recordId)), ['F3', 'F2']);
      const refused = await control('state=sent');
      assert.deepEqual([refused.statusCode, refused.json().error.code], [400, 'PARAM_INVALID']);
      assert.match(refused.json().error.message, /must be one of "pending", "delivered", "failed"/);
    });
  });
}
