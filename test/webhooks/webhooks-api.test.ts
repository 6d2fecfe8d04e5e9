// Webhooks through the API (docs/webhooks.md), on every store: the admin role makes, lists, reads and
// deletes them (the secret shown once); a create, update and delete of a record reaches the receiver
// signed, with its record as the write left it and the fields it changed; the filter is the record's
// at the write; webhooks of every object, v3 batches and imports fire like single writes.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

// No sweep within a test: what is attempted without settle() was attempted because the commit told the worker.
const ALLOW_PRIVATE = { webhooks: { allowPrivate: true, pollMs: 600_000 } };

for (const store of HTTP_STORES) {
  describe(`webhooks through the API on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let receiver: Receiver;
    let readerToken: string;

    before(async () => {
      ctx = await store.context({ config: ALLOW_PRIVATE });
      receiver = await startReceiver();
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'reader', grant: 'account:read' });
      readerToken = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'reader@example.com', role: 'reader' })).token;
    });
    after(async () => {
      await ctx.close();
      await receiver.close();
    });

    const hooks = () => ctx.request({ method: 'GET', url: '/api/webhooks' });
    let madeAt: unknown;
    const make = async (body: object) => {
      const res = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: body });
      assert.equal(res.statusCode, 201, res.body);
      madeAt = res.headers.location;
      return res.json().data as { id: string; secret: string };
    };
    const remove = async (id: string) => assert.equal((await ctx.request({ method: 'DELETE', url: `/api/webhooks/${id}` })).statusCode, 200);
    /** Every delivery the writes made so far attempted. */
    const settle = () => ctx.app.webhooks.idle();

    test('an admin makes a webhook: 201 with its secret once; list and get never show the secret, and show header values masked', async () => {
      const made = await make({
        event: 'created', object: 'Account', url: receiver.url, method: 'put', filter: "  statecode = 1 ",
        headers: ['X-Api-Key: k-1', 'Authorization: Bearer sk_live_0123456789abcdef', 'X-Fifteen: 123456789012345', 'X-Sixteen: 1234567890123456'],
      });
      assert.match(made.secret, /^whsec_/);
      assert.equal(madeAt, `http://orchard.test/api/webhooks/${made.id}`, 'Location names the webhook made');
      // The mark alone up to 15 characters; from 16, the mark and the last four.
      const masked = { 'X-Api-Key': '****', Authorization: '****cdef', 'X-Fifteen': '****', 'X-Sixteen': '****3456' };
      assert.deepEqual({ ...made, id: undefined, secret: undefined, createdAt: undefined }, {
        id: undefined, secret: undefined, createdAt: undefined, event: 'created', object: 'account', objectType: 1, url: receiver.url, method: 'PUT',
        filter: 'statecode = 1', headers: masked, status: 'active', disabledAt: null, failures: 0, failingSince: null, previousSecretExpiresAt: null,
      });
      const listed = (await hooks()).json().data as Array<Record<string, unknown>>;
      assert.deepEqual(listed.map((h) => h.id), [made.id]);
      assert.ok(!('secret' in listed[0]!));
      assert.deepEqual(listed[0]!.headers, masked);
      const one = await ctx.request({ method: 'GET', url: `/api/webhooks/${made.id}` });
      assert.equal(one.json().data.id, made.id);
      assert.ok(!('secret' in one.json().data));
      assert.deepEqual(one.json().data.headers, masked);
      assert.deepEqual((await ctx.request({ method: 'POST', url: `/api/webhooks/${made.id}/enable` })).json().data.headers, masked);
      await remove(made.id);
      assert.deepEqual((await hooks()).json().data, []);
      const gone = await ctx.request({ method: 'GET', url: `/api/webhooks/${made.id}` });
      assert.equal(gone.statusCode, 404);
      assert.equal(gone.headers['x-error-code'], 'WEBHOOK_NOT_FOUND');
    });

    test('only the admin role manages webhooks', async () => {
      for (const [method, url] of [['GET', '/api/webhooks'], ['POST', '/api/webhooks'], ['POST', '/api/webhooks/0f8fad5b-d9cb-469f-a165-70867728950e/rotate-secret']] as const) {
        const res = await ctx.request({ method, url, token: readerToken, ...(method === 'POST' ? { payload: { event: 'created', url: receiver.url } } : {}) });
        assert.equal(res.statusCode, 403, `${method} ${url}`);
        assert.equal(res.headers['x-error-code'], 'PERMISSION_DENIED');
      }
    });

    test('a bad definition is refused with a code and a message that says what to fix', async () => {
      const cases: Array<[object, string, RegExp]> = [
        [{ event: 'changed', url: receiver.url }, 'WEBHOOK_INVALID', /'event' must be one of created, updated, deleted/],
        [{ event: 'created' }, 'WEBHOOK_INVALID', /'url' is required/],
        [{ event: 'created', url: 'ftp://x.example/' }, 'WEBHOOK_INVALID', /http or https/],
        [{ event: 'created', url: 'https://u:p@x.example/' }, 'WEBHOOK_INVALID', /credentials/],
        [{ event: 'created', url: receiver.url, method: 'GET' }, 'WEBHOOK_INVALID', /'method' must be one of POST, PUT, PATCH/],
        [{ event: 'created', url: receiver.url, headers: { 'Content-Type': 'text/plain' } }, 'WEBHOOK_INVALID', /set by the server/],
        // Standard Webhooks' fields, those it sets now and any it adds: a receiver's library reads them as the sender's.
        [{ event: 'created', url: receiver.url, headers: { 'webhook-version': '2' } }, 'WEBHOOK_INVALID', /'webhook-version' is named as Standard Webhooks' own \(webhook-…\), which only the server sets; give it another name \(such as 'X-webhook-version'\)/],
        [{ event: 'created', url: receiver.url, headers: ['Webhook-Signature: v1,forged'] }, 'WEBHOOK_INVALID', /'Webhook-Signature' is named as Standard Webhooks' own/],
        [{ event: 'created', url: receiver.url, headers: { 'Bad Name': 'x' } }, 'WEBHOOK_INVALID', /not a header field name/],
        // Values HTTP/1.1 cannot carry: every attempt would fail (ERR_INVALID_CHAR) until the webhook was disabled.
        [{ event: 'created', url: receiver.url, headers: { 'X-Team': 'ĉu' } }, 'WEBHOOK_INVALID', /U\+0109 \(ĉ\), which HTTP\/1\.1 cannot send/],
        [{ event: 'created', url: receiver.url, headers: ['X-Bell: a\u0007b'] }, 'WEBHOOK_INVALID', /has U\+0007, which HTTP\/1\.1 cannot send/],
        [{ event: 'created', url: receiver.url, filter: 'statecode = 1' }, 'WEBHOOK_INVALID', /needs an 'object'/],
        [{ event: 'created', object: 'account', url: receiver.url, filter: "ownername = 'x'" }, 'WEBHOOK_INVALID', /Filter on 'ownerid'/],
        [{ event: 'created', object: 'account', url: receiver.url, filter: 'statecode = ' }, 'QUERY_SYNTAX', /./],
        [{ event: 'created', object: 'account', url: receiver.url, filter: "nosuch = 'x'" }, 'FIELD_UNKNOWN', /nosuch/],
        [{ event: 'created', object: 'nosuch', url: receiver.url }, 'OBJECT_UNKNOWN', /nosuch/],
        [{ event: 'created', object: 'crmuser', url: receiver.url }, 'WEBHOOK_INVALID', /never fire/],
        [{ event: 'created', url: receiver.url, secret: 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, 'WEBHOOK_INVALID', /not a member/],
      ];
      for (const [body, code, message] of cases) {
        const res = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: body });
        assert.equal(res.headers['x-error-code'], code, `${JSON.stringify(body)}: ${res.body}`);
        assert.match(res.json().Message, message);
      }
      assert.deepEqual((await hooks()).json().data, []);
      // The OpenAPI document says so: the body's members are those listed.
      const documented = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json().paths['/api/webhooks'].post.requestBody.content['application/json'].schema;
      assert.deepEqual([documented.additionalProperties, Object.keys(documented.properties)], [false, ['event', 'object', 'url', 'method', 'filter', 'headers']]);
    });

    test('a create, an update and a delete reach the receiver signed, each with the record as the write left it and the fields it changed', async () => {
      const secrets = new Map<string, string>();
      for (const event of ['created', 'updated', 'deleted']) {
        const h = await make({ event, object: 'account', url: receiver.url, headers: { 'X-Api-Key': 'k-1', Authorization: 'Bearer sk_live_0123456789abcdef' } });
        secrets.set(h.id, h.secret);
      }
      const start = receiver.received.length;
      const created = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Acme', telephone1: '555' } });
      const id = created.json().data.Record.accountid as string;
      await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { telephone1: '556' } });
      await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}` });
      await settle();
      // Deliveries are attempted side by side, so they may arrive in any order: data.sequence orders them.
      const got = receiver.received.slice(start).sort((a, b) => a.json.data.sequence - b.json.data.sequence);
      assert.deepEqual(got.map((r) => r.json.type), ['account.created', 'account.updated', 'account.deleted']);
      for (const r of got) {
        assert.equal(r.method, 'POST');
        // Shown masked, sent whole.
        assert.equal(r.headers['x-api-key'], 'k-1');
        assert.equal(r.headers.authorization, 'Bearer sk_live_0123456789abcdef');
        assert.equal(r.headers['content-type'], 'application/json');
        assert.deepEqual(new Webhook(secrets.get(r.json.data.webhookId)!).verify(r.body, r.headers), r.json);
        assert.equal(r.json.data.id, id);
        assert.equal(r.json.data.object, 'account');
        assert.equal(r.json.data.userId, ctx.userId);
        assert.ok(!('ownername' in r.json.data.record), 'stored fields only');
      }
      const [c, u, d] = got.map((r) => r.json.data);
      assert.equal(c!.record.telephone1, '555');
      assert.deepEqual(c!.changes.accountname, { old: null, new: 'Acme' });
      assert.equal(u!.record.telephone1, '556');
      assert.deepEqual(Object.keys(u!.changes), ['telephone1'], 'the clock stood still: modifiedon did not change');
      assert.deepEqual(u!.changes.telephone1, { old: '555', new: '556' });
      assert.equal(d!.record.telephone1, '556', 'a delete sends the record as it was');
      assert.ok(c!.sequence < u!.sequence && u!.sequence < d!.sequence, 'change-log numbers in write order');
      assert.notEqual(got[0]!.headers['webhook-id'], got[1]!.headers['webhook-id']);
      for (const hid of secrets.keys()) await remove(hid);
    });

    test('the filter is the record\'s at the write: an update that leaves it matching fires, one that does not is silent', async () => {
      const h = await make({ event: 'updated', object: 'account', url: receiver.url, filter: "billingcity = 'lisbon' and statecode = 1" });
      const id = (await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Filtered', billingcity: 'Porto' } })).json().data.Record.accountid;
      const start = receiver.received.length;
      await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { billingcity: 'LISBON' } });
      await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { billingcity: 'Madrid' } });
      await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { billingcity: 'Lisbon', accountname: 'Back' } });
      await settle();
      const got = receiver.received.slice(start).sort((a, b) => a.json.data.sequence - b.json.data.sequence);
      assert.deepEqual(got.map((r) => [r.json.data.record.billingcity, r.json.data.record.accountname]), [['LISBON', 'Filtered'], ['Lisbon', 'Back']]);
      await remove(h.id);
    });

    test('a test event is one delivery through the outbox: 202 with it, signed, retried and logged like any other, of no record and no write', async () => {
      const h = await make({ event: 'updated', object: 'account', url: `${receiver.url}/test`, headers: { Authorization: 'Bearer sk_live_0123456789abcdef' } });
      const cursor = (await ctx.request({ method: 'GET', url: '/api/changes?since=now' })).json().data.Cursor as string;
      const start = receiver.received.length;
      let refuse = true;
      receiver.answer = (r) => (r.path.endsWith('/test') && refuse ? 503 : 200);
      const sent = await ctx.request({ method: 'POST', url: `/api/webhooks/${h.id}/test` });
      assert.equal(sent.statusCode, 202, sent.body);
      const made = sent.json().data;
      assert.deepEqual({ ...made, id: undefined, createdAt: undefined, nextAttemptAt: undefined }, {
        id: undefined, webhookId: h.id, event: 'test', objectType: null, recordId: null, sequence: null, state: 'pending', attempts: 0,
        createdAt: undefined, lastAttemptAt: null, nextAttemptAt: undefined, lastStatus: null, lastError: null, durationMs: null, response: null,
      });
      assert.equal(made.createdAt, new Date(ctx.clock.now()).toISOString(), 'made on the organization\'s clock');
      assert.equal(made.nextAttemptAt, made.createdAt, 'due at once');
      await receiver.waitFor(start + 1, 5_000);
      await settle();
      // Refused: retried as any delivery is.
      let [d] = (await ctx.request({ method: 'GET', url: `/api/webhooks/${h.id}/deliveries` })).json().data.deliveries;
      assert.deepEqual([d.id, d.state, d.attempts, d.lastStatus], [made.id, 'pending', 1, 503]);
      refuse = false;
      ctx.clock.advance(10_000);
      await settle();
      [d] = (await ctx.request({ method: 'GET', url: `/api/webhooks/${h.id}/deliveries` })).json().data.deliveries;
      assert.deepEqual([d.id, d.state, d.attempts, d.lastStatus, d.event, d.recordId], [made.id, 'delivered', 2, 200, 'test', null]);

      const got = receiver.received.slice(start);
      assert.equal(got.length, 2);
      assert.equal(got[0]!.body, got[1]!.body, 'the body made when it was asked for');
      const r = got[1]!;
      assert.equal(r.headers['webhook-id'], made.id);
      assert.equal(r.headers.authorization, 'Bearer sk_live_0123456789abcdef');
      assert.deepEqual(new Webhook(h.secret).verify(r.body, r.headers), r.json);
      assert.deepEqual(r.json, {
        type: 'webhook.test', timestamp: made.createdAt,
        data: { webhookId: h.id, event: 'test', object: 'account', objectType: 1, id: null, sequence: null, userId: ctx.userId, record: null, changes: null },
      });
      // Not a write: nothing in the change log.
      assert.deepEqual((await ctx.request({ method: 'GET', url: `/api/changes?since=${cursor}` })).json().data.Entries, []);
      receiver.answer = () => 200;

      const reader = await ctx.request({ method: 'POST', url: `/api/webhooks/${h.id}/test`, token: readerToken });
      assert.deepEqual([reader.statusCode, reader.headers['x-error-code']], [403, 'PERMISSION_DENIED']);
      await remove(h.id);
      const gone = await ctx.request({ method: 'POST', url: `/api/webhooks/${h.id}/test` });
      assert.deepEqual([gone.statusCode, gone.headers['x-error-code']], [404, 'WEBHOOK_NOT_FOUND']);
    });

    test('a webhook of every object hears each object; v3 batches and imports fire like single writes', async () => {
      const h = await make({ event: 'created', url: receiver.url });
      const start = receiver.received.length;
      await ctx.request({ method: 'POST', url: '/api/record/contact', payload: { firstname: 'Ada', lastname: 'Lovelace' } });
      const batch = await ctx.request({ method: 'POST', url: '/api/v3/record/account/batch/create', payload: { data: [{ accountname: 'B1' }, { accountname: 'B2' }, { nosuchfield: 1 }] } });
      assert.equal(batch.statusCode, 200, batch.body);
      const imported = await ctx.request({
        method: 'POST', url: '/api/record/account/import?format=ndjson', headers: { 'content-type': 'application/x-ndjson' },
        payload: '{"accountname":"I1"}\n{"accountname":"I2"}\n',
      });
      assert.ok(imported.statusCode < 300, imported.body);
      await settle();
      const got = receiver.received.slice(start).map((r) => `${r.json.type} ${r.json.data.record.accountname ?? r.json.data.record.fullname}`);
      assert.deepEqual(got.sort(), ['account.created B1', 'account.created B2', 'account.created I1', 'account.created I2', 'contact.created Ada Lovelace']);
      await remove(h.id);
    });
  });
}
