// Delivery, on every store (docs/webhooks.md § Delivery): a failed attempt is retried with
// exponential backoff on the organization's clock, capped, until it succeeds or the attempts run
// out; the delivery log shows each delivery's state, attempts, last status, error, reply and
// duration; a webhook that fails for long is disabled, its primary user told once, and enabled again.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

const MIN = 60_000;
const KEY = 'test-admin-key-0123456789abcdef';

for (const store of HTTP_STORES) {
  describe(`webhook deliveries on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let receiver: Receiver;

    before(async () => {
      ctx = await store.context({
        config: {
          adminKey: KEY,
          webhooks: { allowPrivate: true, retryBaseMs: MIN, retryCapMs: 4 * MIN, maxAttempts: 6, disableFailures: 4, disableHours: 1, timeoutMs: 300 },
        },
      });
      receiver = await startReceiver();
    });
    after(async () => {
      await ctx.close();
      await receiver.close();
    });

    const make = async (body: object) => (await ctx.request({ method: 'POST', url: '/api/webhooks', payload: body })).json().data as { id: string };
    const log = async (id: string) => (await ctx.request({ method: 'GET', url: `/api/webhooks/${id}/deliveries` })).json().data.deliveries as Array<Record<string, any>>;
    const account = (name: string) => ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: name } });
    const settle = () => ctx.app.webhooks.idle();
    /** Moves the organization's clock on and lets the worker attempt what came due. */
    const advance = async (ms: number) => {
      ctx.clock.advance(ms);
      await settle();
    };

    test('a failed attempt is retried after 1, 2, 4, 4 minutes (doubling, capped) until one succeeds; the log shows each step', async () => {
      const hook = await make({ event: 'created', object: 'account', url: `${receiver.url}/retry` });
      let failures = 4;
      receiver.answer = (r) => (r.path.endsWith('/retry') && failures-- > 0 ? 503 : 200);
      const start = receiver.received.length;
      await account('Retried');
      await settle();
      let [d] = await log(hook.id);
      assert.deepEqual({ state: d!.state, attempts: d!.attempts, lastStatus: d!.lastStatus, lastError: d!.lastError, response: d!.response }, {
        state: 'pending', attempts: 1, lastStatus: 503, lastError: 'HTTP 503', response: 'no: 503',
      });
      assert.equal(Date.parse(d!.nextAttemptAt) - Date.parse(d!.lastAttemptAt), MIN);
      assert.equal(typeof d!.durationMs, 'number');
      for (const wait of [MIN - 1_000, 1_000, 2 * MIN, 4 * MIN, 4 * MIN]) await advance(wait);
      [d] = await log(hook.id);
      assert.deepEqual({ state: d!.state, attempts: d!.attempts, lastStatus: d!.lastStatus, lastError: d!.lastError, nextAttemptAt: d!.nextAttemptAt, response: d!.response }, {
        state: 'delivered', attempts: 5, lastStatus: 200, lastError: null, nextAttemptAt: null, response: 'thanks',
      });
      const attempts = receiver.received.slice(start);
      assert.equal(attempts.length, 5, 'nothing was attempted before it was due');
      assert.equal(new Set(attempts.map((r) => r.headers['webhook-id'])).size, 1, 'every attempt carries the delivery\'s id');
      assert.equal(attempts[0]!.body, attempts[4]!.body, 'the body is the one made at the write');
      await ctx.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` });
    });

    test('a delivery whose attempts run out while its receiver has been down all along is retried at the cap until its webhook is disabled; a receiver that does not answer in time is a TIMEOUT', async () => {
      const hook = await make({ event: 'created', object: 'account', url: `${receiver.url}/slow` });
      receiver.answer = (r) => (r.path.endsWith('/slow') ? 'hang' : 200);
      await account('Never');
      await settle();
      for (const wait of [MIN, 2 * MIN, 4 * MIN, 4 * MIN, 4 * MIN]) await advance(wait);
      let [d] = await log(hook.id);
      // 6 attempts in about 15 minutes: the webhook, failing for less than an hour, is still active, so the event is not given up.
      assert.deepEqual([d!.state, d!.attempts, d!.lastStatus], ['pending', 6, null]);
      assert.equal(Date.parse(d!.nextAttemptAt) - Date.parse(d!.lastAttemptAt), 4 * MIN);
      assert.match(d!.lastError, /^TIMEOUT: no complete reply within 300 ms/);
      assert.ok(d!.durationMs >= 290 && d!.durationMs < 5_000, String(d!.durationMs));
      for (let i = 0; i < 12; i++) await advance(4 * MIN);
      [d] = await log(hook.id);
      assert.equal((await ctx.request({ method: 'GET', url: `/api/webhooks/${hook.id}` })).json().data.status, 'disabled');
      assert.deepEqual([d!.state, d!.nextAttemptAt, d!.lastError.replace(/:.*/, '')], ['failed', null, 'TIMEOUT'], 'ended by the disabling, with its own error');
      await ctx.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` });
      receiver.answer = () => 200;
    });

    test('a delivery whose attempts run out while its webhook succeeded since its first one is failed', async () => {
      const hook = await make({ event: 'created', object: 'account', url: `${receiver.url}/picky` });
      receiver.answer = (r) => (r.json.data.record?.accountname === 'Refused' ? 400 : 200);
      await account('Refused');
      await settle();
      for (let i = 0; i < 6; i++) {
        await account(`Taken ${i}`);
        await settle();
        await advance(4 * MIN);
      }
      const refused = (await log(hook.id)).find((d) => d.lastStatus === 400)!;
      assert.deepEqual([refused.state, refused.attempts, refused.nextAttemptAt], ['failed', 6, null]);
      assert.equal((await ctx.request({ method: 'GET', url: `/api/webhooks/${hook.id}` })).json().data.status, 'active');

      // Sent again: pending, due now, its attempts from 0, and attempted at once (the worker is told).
      receiver.answer = () => 200;
      const retryUrl = `/api/webhooks/${hook.id}/deliveries/${refused.id}/retry`;
      const retried = await ctx.request({ method: 'POST', url: retryUrl });
      assert.equal(retried.statusCode, 200, retried.body);
      assert.deepEqual([retried.json().data.id, retried.json().data.state, retried.json().data.attempts], [refused.id, 'pending', 0]);
      assert.equal(Date.parse(retried.json().data.nextAttemptAt), ctx.clock.now());
      const again = await ctx.request({ method: 'POST', url: retryUrl });
      assert.deepEqual([again.statusCode, again.headers['x-error-code']], [409, 'DELIVERY_NOT_FAILED']);
      const unknown = await ctx.request({ method: 'POST', url: `/api/webhooks/${hook.id}/deliveries/${hook.id}/retry` });
      assert.deepEqual([unknown.statusCode, unknown.headers['x-error-code']], [404, 'DELIVERY_NOT_FOUND']);
      assert.match(unknown.json().Message, new RegExp(`List them with GET /api/webhooks/${hook.id}/deliveries or orchard webhook deliveries --org <organization id> --id ${hook.id}\\.`));
      await settle();
      const delivered = (await log(hook.id)).find((d) => d.id === refused.id)!;
      assert.deepEqual([delivered.state, delivered.attempts, delivered.lastStatus], ['delivered', 1, 200]);
      // The control API's, on a delivered one.
      const control = await ctx.request({ method: 'POST', url: `/_orchard/organizations/${ctx.orgId}/webhooks/${hook.id}/deliveries/${refused.id}/retry`, token: null, headers: { authorization: `Bearer ${KEY}` } });
      assert.equal(control.statusCode, 409, control.body);
      await ctx.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` });
      receiver.answer = () => 200;
    });

    test('a webhook failing for an hour and 4 attempts is disabled: its pending deliveries end, writes make none, its primary user is told once; enable brings it back', async () => {
      const hook = await make({ event: 'created', object: 'account', url: `${receiver.url}/down` });
      receiver.answer = (r) => (r.path.endsWith('/down') ? 500 : 200);
      await account('D1');
      await settle();
      await advance(MIN);
      await account('D2');
      await settle();
      // Failing, its deliveries go one probe at a time: D2 waits for the next probe, not attempted.
      assert.deepEqual((await log(hook.id)).map((d) => [d.attempts, d.state]), [[0, 'pending'], [2, 'pending']]);
      // 2 failures within 1 minute, then one probe past the hour: 3, not yet. The next probe's failure disables it.
      await advance(61 * MIN);
      assert.equal((await ctx.request({ method: 'GET', url: `/api/webhooks/${hook.id}` })).json().data.status, 'active');
      await advance(4 * MIN);
      let shown = (await ctx.request({ method: 'GET', url: `/api/webhooks/${hook.id}` })).json().data;
      assert.equal(shown.status, 'disabled');
      assert.ok(shown.failures >= 4);
      assert.ok(Date.parse(shown.disabledAt) - Date.parse(shown.failingSince) >= 60 * MIN);
      const deliveries = await log(hook.id);
      assert.ok(deliveries.every((d) => d.state === 'failed'), JSON.stringify(deliveries.map((d) => [d.state, d.lastError])));
      // A probe is the delivery tried least (D2 after the first two): the one that disabled it keeps its attempt's error, D1, held, says why it ends.
      assert.deepEqual(deliveries.map((d) => [d.attempts, d.lastError.replace(/:.*/, '')]), [[2, 'HTTP 500'], [2, 'WEBHOOK_DISABLED']]);
      const before = receiver.received.length;
      await account('While disabled');
      await advance(10 * MIN);
      assert.equal(receiver.received.length, before, 'nothing is sent to a disabled webhook');
      assert.equal((await log(hook.id)).length, deliveries.length, 'a write makes no delivery for it');
      // Nor does a test event: it would never be attempted.
      const test = await ctx.request({ method: 'POST', url: `/api/webhooks/${hook.id}/test` });
      assert.deepEqual([test.statusCode, test.headers['x-error-code']], [409, 'WEBHOOK_DISABLED']);
      assert.match(test.json().Message, new RegExp(`disabled for failing since ${shown.disabledAt}.*Enable it \\(POST /api/webhooks/${hook.id}/enable`));
      const controlTest = await ctx.request({ method: 'POST', url: `/_orchard/organizations/${ctx.orgId}/webhooks/${hook.id}/test`, token: null, headers: { authorization: `Bearer ${KEY}` } });
      assert.deepEqual([controlTest.statusCode, controlTest.json().error.code], [409, 'WEBHOOK_DISABLED']);
      assert.equal((await log(hook.id)).length, deliveries.length);

      const outbox = (await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/outbox`, token: null, headers: { authorization: `Bearer ${KEY}` } })).json().items as Array<Record<string, any>>;
      const notices = outbox.filter((m) => m.kind === 'webhook-disabled' && m.webhookId === hook.id);
      assert.equal(notices.length, 1);
      assert.equal(notices[0]!.to, 'owner@example.com');
      assert.equal(notices[0]!.webhookId, hook.id);
      assert.match(notices[0]!.text, new RegExp(`${hook.id} \\(created events of account\\)[\\s\\S]*POST /api/webhooks/${hook.id}/enable[\\s\\S]*orchard webhook enable --org ${ctx.orgId} --id ${hook.id}`));
      const eml = fs.readdirSync(path.join(ctx.dir, 'outbox')).filter((f) => f.endsWith('.eml'));
      assert.equal(eml.filter((f) => fs.readFileSync(path.join(ctx.dir, 'outbox', f), 'utf8').includes(hook.id)).length, 1, 'one e-mail, kept in the outbox directory');
      await advance(10 * MIN);
      assert.equal((await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/outbox`, token: null, headers: { authorization: `Bearer ${KEY}` } }))
        .json().items.filter((m: { kind: string; webhookId: string }) => m.kind === 'webhook-disabled' && m.webhookId === hook.id).length, 1, 'told once');

      receiver.answer = () => 200;
      // Enabled through the control API (as orchard webhook enable does) and then through /api, where it stays active.
      const control = await ctx.request({ method: 'POST', url: `/_orchard/organizations/${ctx.orgId}/webhooks/${hook.id}/enable`, token: null, headers: { authorization: `Bearer ${KEY}` } });
      assert.equal(control.statusCode, 200, control.body);
      assert.deepEqual([control.json().status, control.json().failures, control.json().disabledAt], ['active', 0, null]);
      const enabled = await ctx.request({ method: 'POST', url: `/api/webhooks/${hook.id}/enable` });
      shown = enabled.json().data;
      assert.deepEqual([shown.status, shown.failures, shown.failingSince, shown.disabledAt], ['active', 0, null, null]);
      const start = receiver.received.length;
      await account('After');
      await settle();
      assert.deepEqual(receiver.received.slice(start).map((r) => r.json.data.record.accountname), ['After']);
      assert.equal((await ctx.request({ method: 'POST', url: `/api/webhooks/${hook.id}/test` })).statusCode, 202, 'enabled, it takes a test event');
      await settle();
      assert.deepEqual(receiver.received.slice(start + 1).map((r) => r.json.type), ['webhook.test']);
      await ctx.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` });
    });

    test('a reply\'s body is kept as it came, a NUL character (PostgreSQL\'s text holds none) as U+FFFD', async () => {
      const hook = await make({ event: 'created', object: 'account', url: receiver.url });
      receiver.replyBody = () => 'ok\u0000 "done" \\ {é,😀}';
      try {
        await account('Nul');
        await settle();
      } finally {
        receiver.replyBody = undefined;
      }
      const [d] = await log(hook.id);
      assert.deepEqual([d!.state, d!.attempts, d!.response], ['delivered', 1, 'ok\uFFFD "done" \\ {é,😀}']);
      await ctx.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` });
    });

    test('the delivery log pages newest first; the toolkit\'s outbox shows each attempt', async () => {
      const hook = await make({ event: 'created', object: 'account', url: receiver.url });
      for (const name of ['P1', 'P2', 'P3']) {
        await account(name);
        ctx.clock.advance(1_000);
      }
      await settle();
      const page = (await ctx.request({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries?pagesize=2` })).json().data;
      assert.equal(page.deliveries.length, 2);
      assert.equal(page.isLastPage, false);
      assert.ok(page.deliveries[0].createdAt > page.deliveries[1].createdAt);
      const last = (await ctx.request({ method: 'GET', url: `/api/webhooks/${hook.id}/deliveries?pagesize=2&pagenumber=2` })).json().data;
      assert.deepEqual([last.deliveries.length, last.isLastPage], [1, true]);
      const outbox = (await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/outbox`, token: null, headers: { authorization: `Bearer ${KEY}` } })).json().items as Array<Record<string, any>>;
      const sent = outbox.filter((m) => m.kind === 'webhook-delivery' && m.webhookId === hook.id);
      assert.equal(sent.length, 3);
      assert.deepEqual([sent[0]!.to, sent[0]!.subject, sent[0]!.ok, sent[0]!.status, sent[0]!.attempt], [receiver.url, 'account.created', true, 200, 1]);
      assert.equal(JSON.parse(sent[0]!.text).data.record.accountname, 'P3');
      await ctx.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` });
    });
  });
}
