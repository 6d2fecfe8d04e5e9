// A webhook's signing secret rotated through the API, on every store (docs/webhooks.md § Rotating
// the secret): the new secret is shown once; for the overlap (organization's clock) each delivery
// is signed with both, so a receiver verifying with either accepts it, and after it with the new
// one alone; a rotation during an overlap replaces the older secret, 0 ends it; a pending delivery
// is signed at its next attempt with the secrets of then; a bad body says what to fix; once the
// overlap ends the secret replaced is forgotten: before an export and a snapshot, at the next attempt.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import { ADMIN_KEY, control } from '../toolkit/control-helpers.js';
import { acceptedBy, startReceiver, type Receiver, type Received } from './receiver.js';

const HOUR = 3_600_000;

for (const store of HTTP_STORES) {
  describe(`a webhook's secret rotated through the API on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let receiver: Receiver;

    before(async () => {
      ctx = await store.context({ config: { adminKey: ADMIN_KEY, webhooks: { allowPrivate: true } } });
      receiver = await startReceiver();
    });
    after(async () => {
      await ctx.close();
      await receiver.close();
    });

    const make = async (path: string) => {
      const res = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url: `${receiver.url}${path}` } });
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data as { id: string; secret: string };
    };
    const rotate = (id: string, payload?: unknown) => ctx.request({ method: 'POST', url: `/api/webhooks/${id}/rotate-secret`, ...(payload === undefined ? {} : { payload: payload as object }) });
    const rotated = async (id: string, payload?: unknown) => {
      const res = await rotate(id, payload);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as { id: string; secret: string; previousSecretExpiresAt: string | null };
    };
    const shown = async (id: string) => (await ctx.request({ method: 'GET', url: `/api/webhooks/${id}` })).json().data as Record<string, unknown>;
    /** The delivery of one account written now to the webhook at `path`. */
    const deliver = async (path: string): Promise<Received> => {
      const start = receiver.received.length;
      await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Signed' } });
      await ctx.app.webhooks.idle();
      const got = receiver.received.slice(start).filter((r) => r.path === `/hooks${path}`);
      assert.equal(got.length, 1);
      return got[0]!;
    };

    test('the new secret is shown once; for the overlap each delivery verifies with the old and the new secret, after it with the new one only', async () => {
      const made = await make('/overlap');
      const start = ctx.clock.ms;
      const next = await rotated(made.id);
      assert.match(next.secret, /^whsec_/);
      assert.notEqual(next.secret, made.secret);
      // By default the old one signs for 24 hours (organization's clock).
      assert.equal(next.previousSecretExpiresAt, new Date(start + 24 * HOUR).toISOString());
      const seen = await shown(made.id);
      assert.equal(seen.previousSecretExpiresAt, next.previousSecretExpiresAt);
      assert.ok(!('secret' in seen), 'never shown again');
      assert.deepEqual({ ...next, secret: undefined }, { ...seen, secret: undefined });

      const during = await deliver('/overlap');
      assert.equal(during.headers['webhook-signature']!.split(' ').length, 2);
      assert.deepEqual(acceptedBy(during, [made.secret, next.secret]), [true, true]);

      ctx.clock.advance(24 * HOUR - 1);
      assert.deepEqual(acceptedBy(await deliver('/overlap'), [made.secret, next.secret]), [true, true]);
      ctx.clock.advance(1);
      const after = await deliver('/overlap');
      assert.deepEqual(acceptedBy(after, [made.secret, next.secret]), [false, true]);
      assert.equal(after.headers['webhook-signature']!.split(' ').length, 1);
      assert.equal((await shown(made.id)).previousSecretExpiresAt, null);
    });

    test('a rotation during an overlap replaces the older secret; expiresInHours 0 leaves only the new one at once', async () => {
      const made = await make('/again');
      const second = await rotated(made.id, { expiresInHours: 1 });
      const third = await rotated(made.id, { expiresInHours: 168 });
      assert.equal(third.previousSecretExpiresAt, new Date(ctx.clock.ms + 168 * HOUR).toISOString());
      assert.deepEqual(acceptedBy(await deliver('/again'), [made.secret, second.secret, third.secret]), [false, true, true]);
      const fourth = await rotated(made.id, { expiresInHours: 0 });
      assert.equal(fourth.previousSecretExpiresAt, null);
      assert.deepEqual(acceptedBy(await deliver('/again'), [second.secret, third.secret, fourth.secret]), [false, false, true]);
    });

    test('a delivery pending when the secret rotates is signed at its next attempt with the secrets of then', async () => {
      const made = await make('/pending');
      let up = false;
      receiver.answer = (r) => (r.path === '/hooks/pending' && !up ? 503 : 200);
      try {
        const first = await deliver('/pending');
        assert.deepEqual(acceptedBy(first, [made.secret]), [true]);
        const next = await rotated(made.id, { expiresInHours: 0 });
        up = true;
        const start = receiver.received.length;
        // Its retry comes due (WEBHOOK_RETRY_BASE_MS, 10 s).
        ctx.clock.advance(10_000);
        await ctx.app.webhooks.idle();
        const [retried] = receiver.received.slice(start).filter((r) => r.path === '/hooks/pending');
        assert.equal(retried!.headers['webhook-id'], first.headers['webhook-id'], 'the same delivery');
        assert.deepEqual(acceptedBy(retried!, [made.secret, next.secret]), [false, true]);
      } finally {
        receiver.answer = () => 200;
      }
    });

    test('a bad body is 400 WEBHOOK_INVALID saying what to fix, and changes nothing; no body takes the defaults', async () => {
      const made = await make('/refused');
      const cases: Array<[unknown, RegExp]> = [
        [{ expiresInHours: 169 }, /'expiresInHours' must be a whole number of hours from 0 to 168/],
        [{ expiresInHours: -1 }, /from 0 to 168.*got -1/],
        [{ expiresInHours: 1.5 }, /whole number/],
        [{ expiresInHours: '24' }, /whole number.*got "24"/],
        [{ secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, /'secret' is not a member of a secret's rotation; its members are expiresInHours/],
        [[1], /takes an object such as \{"expiresInHours": 24\}/],
      ];
      for (const [body, message] of cases) {
        const res = await rotate(made.id, body);
        assert.equal(res.statusCode, 400, JSON.stringify(body));
        assert.equal(res.headers['x-error-code'], 'WEBHOOK_INVALID', JSON.stringify(body));
        assert.match(res.json().Message, message);
      }
      assert.equal((await shown(made.id)).previousSecretExpiresAt, null);
      assert.deepEqual(acceptedBy(await deliver('/refused'), [made.secret]), [true]);
      // No body at all: a new secret, the old one signing for 24 hours.
      const res = await ctx.request({ method: 'POST', url: `/api/webhooks/${made.id}/rotate-secret` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.previousSecretExpiresAt, new Date(ctx.clock.ms + 24 * HOUR).toISOString());
      // The document shows the body's one member.
      const documented = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json().paths['/api/webhooks/{id}/rotate-secret'].post;
      assert.deepEqual(Object.keys(documented.requestBody.content['application/json'].schema.properties), ['expiresInHours']);
    });

    test('the secret replaced is forgotten once its overlap ends: before an export, before a snapshot, at the webhook\'s next attempt', async () => {
      const made = await make('/forgotten');
      const stored = async () => (await (await ctx.stores.records.org(ctx.orgId)).webhooks.get(made.id))!;
      const exported = async () => ((await control(ctx, 'GET', `/organizations/${ctx.orgId}/fixture`)).organizations[0].webhooks as Array<Record<string, unknown>>)
        .find((w) => w.id === made.id)!;

      const second = await rotated(made.id, { expiresInHours: 1 });
      assert.equal((await exported()).previousSecret, made.secret, 'kept while it signs');
      ctx.clock.advance(HOUR);
      const out = await exported();
      assert.ok(!('previousSecret' in out) && !('previousSecretExpiresAt' in out), JSON.stringify(out));
      assert.deepEqual([(await stored()).previousSecret, (await stored()).previousSecretExpiresAt], [null, null]);
      assert.equal((await shown(made.id)).previousSecretExpiresAt, null);

      await rotated(made.id, { expiresInHours: 1 });
      ctx.clock.advance(HOUR);
      assert.equal((await stored()).previousSecret, second.secret, 'still stored: nothing has looked since it expired');
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'after-overlap' });
      assert.equal((await stored()).previousSecret, null);
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/snapshots/after-overlap/restore`);
      assert.equal((await stored()).previousSecret, null, 'the snapshot holds none');

      const fourth = await rotated(made.id, { expiresInHours: 1 });
      ctx.clock.advance(HOUR);
      assert.notEqual((await stored()).previousSecret, null);
      assert.deepEqual(acceptedBy(await deliver('/forgotten'), [made.secret, second.secret, fourth.secret]), [false, false, true]);
      assert.deepEqual([(await stored()).previousSecret, (await stored()).previousSecretExpiresAt], [null, null]);
    });

    test('an unknown webhook is 404 (only the admin role rotates: webhooks-api.test.ts)', async () => {
      const made = await make('/guarded');
      for (const id of ['0f8fad5b-d9cb-469f-a165-70867728950e', 'not-a-uuid']) {
        const missing = await rotate(id, {});
        assert.equal(missing.statusCode, 404, id);
        assert.equal(missing.headers['x-error-code'], 'WEBHOOK_NOT_FOUND');
      }
      assert.equal((await shown(made.id)).previousSecretExpiresAt, null);
    });
  });
}
