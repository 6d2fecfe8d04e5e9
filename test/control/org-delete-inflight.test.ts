// A request admitted for an organization (its token resolved), still under way when the organization
// is deleted and a fixture loads it again under the same id and token: it fails TOKEN_INVALID and
// leaves nothing in the organization loaded since — no record, no change-log entry, no webhook
// delivery, no journal entry (docs/control-api.md, DELETE of an organization). A plain delete, with
// nothing in flight, is as it was. On SQLite, and on PostgreSQL + Redis when DATABASE_URL is set.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrchard } from 'orchard/testing';
import { startReceiver } from '../webhooks/receiver.js';
import { DATABASE_URL, REDIS_URL, uniqueName } from '../services.js';

const TOKEN = 'org-delete-inflight-token-01';
const ORG_ID = '7e1d2c3b-4a59-4f6e-8d7c-6b5a49382716';

const stores: Array<[string, object]> = [['SQLite', {}]];
if (DATABASE_URL) stores.push(['PostgreSQL', { databaseUrl: DATABASE_URL, databaseSchema: uniqueName('odinf'), redisUrl: REDIS_URL }]);

const fixture = (url: string) => ({ organizations: [{
  id: ORG_ID, name: 'Deleted mid-request', plan: 'enterprise', users: [{ email: 'qa@inflight.example', tokens: [TOKEN] }],
  webhooks: [{ event: 'created', object: 'account', url }],
}] });

const call = (url: string, path: string, init: RequestInit = {}) => fetch(`${url}${path}`, {
  ...init, headers: { tokenid: TOKEN, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
});

for (const [store, config] of stores) {
  describe(`a request under way when its organization is deleted and loaded again (${store})`, () => {
    test('the slow create fails TOKEN_INVALID and writes, logs and queues nothing in the organization loaded since', async () => {
      const receiver = await startReceiver();
      const orchard = await startOrchard({ config: { ...config, journalSize: 10, webhooks: { allowPrivate: true } } as object, fixtures: fixture(receiver.url) });
      try {
        await orchard.control.addFaultRule({ orgId: ORG_ID, methods: ['POST'], latencyMs: 800 });
        const slow = call(orchard.url, '/api/record/account', { method: 'POST', body: JSON.stringify({ accountname: 'Of the old one' }) });
        await new Promise((resolve) => setTimeout(resolve, 200));
        await orchard.control.call('DELETE', `organizations/${ORG_ID}`);
        await orchard.control.call('POST', 'fixtures', fixture(receiver.url));
        const res = await slow;
        const body = await res.json() as { Message?: string };
        assert.equal(res.status, 401, JSON.stringify(body));
        assert.equal(res.headers.get('x-error-code'), 'TOKEN_INVALID');
        assert.match(JSON.stringify(body), /deleted while the request was under way/);
        // Nothing of it in the organization loaded since.
        const changes = await (await call(orchard.url, '/api/changes')).json() as { data: { Entries: unknown[] } };
        assert.deepEqual(changes.data.Entries, [], 'no change-log entry of the old organization\'s create');
        const records = await (await call(orchard.url, '/api/record/account')).json() as { data: { Records: unknown[] } };
        assert.deepEqual(records.data.Records, []);
        await orchard.control.flushWebhooks();
        assert.equal(receiver.received.length, 0, 'no delivery queued for the new organization\'s webhook');
        assert.deepEqual(await orchard.control.call('GET', `organizations/${ORG_ID}/outbox`), { items: [] });
        assert.deepEqual((await orchard.control.listJournal(ORG_ID)).filter((e) => e.method === 'POST').map((e) => e.path), []);
        // The new organization's own requests go on as ever (the delete took the fault rule with it).
        const created = await call(orchard.url, '/api/record/account', { method: 'POST', body: JSON.stringify({ accountname: 'Of the new one' }) });
        assert.equal(created.status, 201);
        await receiver.waitFor(1);
        assert.equal(JSON.parse(receiver.received[0]!.body).data.record.accountname, 'Of the new one');
      } finally {
        await orchard.close();
        await receiver.close();
      }
    });

    test('a slow webhook create fails TOKEN_INVALID and makes no webhook in the organization loaded since', async () => {
      const receiver = await startReceiver();
      const orchard = await startOrchard({ config: { ...config, webhooks: { allowPrivate: true } } as object, fixtures: fixture(receiver.url) });
      try {
        await orchard.control.addFaultRule({ orgId: ORG_ID, methods: ['POST'], latencyMs: 800 });
        const slow = call(orchard.url, '/api/webhooks', { method: 'POST', body: JSON.stringify({ event: 'deleted', object: 'account', url: `${receiver.url}/old` }) });
        await new Promise((resolve) => setTimeout(resolve, 200));
        await orchard.control.call('DELETE', `organizations/${ORG_ID}`);
        await orchard.control.call('POST', 'fixtures', fixture(receiver.url));
        const res = await slow;
        assert.equal(res.status, 401, await res.text());
        assert.equal(res.headers.get('x-error-code'), 'TOKEN_INVALID');
        const hooks = await (await call(orchard.url, '/api/webhooks')).json() as { data: Array<{ event: string }> };
        assert.deepEqual(hooks.data.map((h) => h.event), ['created'], 'only the fixture\'s webhook');
      } finally {
        await orchard.close();
        await receiver.close();
      }
    });

    test('a delete with no request in flight: the token is refused, the fixture loads again and serves', async () => {
      const receiver = await startReceiver();
      const orchard = await startOrchard({ config: { ...config, webhooks: { allowPrivate: true } } as object, fixtures: fixture(receiver.url) });
      try {
        assert.equal((await call(orchard.url, '/api/record/account', { method: 'POST', body: JSON.stringify({ accountname: 'Before' }) })).status, 201);
        assert.deepEqual(await orchard.control.call('DELETE', `organizations/${ORG_ID}`), { id: ORG_ID, name: 'Deleted mid-request', deleted: true });
        const refused = await call(orchard.url, '/api/record/account');
        assert.equal(refused.status, 401);
        assert.equal(refused.headers.get('x-error-code'), 'TOKEN_INVALID');
        await orchard.control.call('POST', 'fixtures', fixture(receiver.url));
        const records = await (await call(orchard.url, '/api/record/account')).json() as { data: { Records: unknown[] } };
        assert.deepEqual(records.data.Records, [], 'the organization loaded again starts empty');
        assert.equal((await call(orchard.url, '/api/record/account', { method: 'POST', body: JSON.stringify({ accountname: 'After' }) })).status, 201);
      } finally {
        await orchard.close();
        await receiver.close();
      }
    });
  });
}
