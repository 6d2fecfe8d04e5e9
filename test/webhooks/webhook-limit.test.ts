// An organization's limit of webhooks holds under concurrent creates (docs/webhooks.md § A webhook):
// the count and the insert are one transaction under the organization's lock, on every store.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import { WEBHOOK_LIMITS } from '../../src/webhooks/webhook-definition.js';

for (const store of HTTP_STORES) {
  describe(`the limit of webhooks on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    before(async () => (ctx = await store.context({ config: { webhooks: { allowPrivate: true } } })));
    after(async () => ctx.close());

    test('ten concurrent creates beside 99 webhooks make one, not ten: the others are 400 WEBHOOK_INVALID', async () => {
      const records = await ctx.stores.records.org(ctx.orgId);
      for (let i = 0; i < WEBHOOK_LIMITS.perOrganization - 1; i++) {
        await records.webhooks.add({
          id: `c1a20000-0000-4000-8000-${String(i).padStart(12, '0')}`, event: 'created', objectType: null, url: `https://hooks.example.com/${i}`,
          method: 'POST', filter: null, headers: {}, secret: 'whsec_AAAA', createdAt: '2026-03-01T12:00:00.000Z',
        });
      }
      const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url: `https://hooks.example.com/c${i}` } })));
      assert.deepEqual(replies.map((r) => r.statusCode).sort(), [201, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
      for (const r of replies.filter((r) => r.statusCode === 400)) assert.equal(r.headers['x-error-code'], 'WEBHOOK_INVALID');
      assert.equal((await records.webhooks.list()).length, WEBHOOK_LIMITS.perOrganization);
    });
  });
}
