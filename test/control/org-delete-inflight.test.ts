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

/** Runs `work` against a server of `config` serving the fixture, its webhook pointing to a receiver. */
async function withOrchard(config: object, extra: object, work: (orchard: Awaited<ReturnType<typeof startOrchard>>, receiver: Awaited<ReturnType<typeof startReceiver>>) => Promise<void>): Promise<void> {
  const receiver = await startReceiver();
  const orchard = await startOrchard({ config: { ...config, ...extra, webhooks: { allowPrivate: true } } as object, fixtures: fixture(receiver.url) });
  try {
    await work(orchard, receiver);
  } finally {
    await orchard.close();
    await receiver.close();
  }
}

for (const [store, config] of stores) {
  describe(`a request under way when its organization is deleted and loaded again (${store})`, () => {
    test('the slow create fails TOKEN_INVALID and writes, logs and queues nothing in the organization loaded since', () => withOrchard(config, { journalSize: 10 }, async (orchard, receiver) => {
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
    }));

    test('a slow webhook create fails TOKEN_INVALID and makes no webhook in the organization loaded since', () => withOrchard(config, {}, async (orchard, receiver) => {
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
    }));

    test('a delete waits for an import under way to its last line; the organization loaded since gets none of it', () => withOrchard(config, {}, async (orchard, receiver) => {
      let feed!: ReadableStreamDefaultController<Uint8Array>;
      const lines = (names: string[]) => new TextEncoder().encode(names.map((accountname) => `${JSON.stringify({ accountname })}\n`).join(''));
      const importing = call(orchard.url, '/api/record/account/import?format=ndjson', {
        method: 'POST', headers: { 'content-type': 'application/x-ndjson' },
        body: new ReadableStream<Uint8Array>({ start: (c) => { feed = c; } }), duplex: 'half',
      } as RequestInit);
      feed.enqueue(lines(['old 1', 'old 2']));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const deleting = orchard.control.call('DELETE', `organizations/${ORG_ID}`);
      const first = await Promise.race([deleting.then(() => 'deleted'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 500))]);
      // Without the wait the delete is done by now: the fixture loads before the import's last lines.
      let loaded = false;
      if (first === 'deleted') { await orchard.control.call('POST', 'fixtures', fixture(receiver.url)); loaded = true; }
      feed.enqueue(lines(['old 3']));
      feed.close();
      const res = await importing;
      const body = await res.json() as { data?: { created?: number } };
      await deleting;
      if (!loaded) await orchard.control.call('POST', 'fixtures', fixture(receiver.url));
      assert.equal(first, 'waiting', 'the delete waits for the import under way');
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.data?.created, 3, 'the import ends in the organization it began in');
      const records = await (await call(orchard.url, '/api/record/account')).json() as { data: { Records: unknown[] } };
      assert.deepEqual(records.data.Records, [], 'none of it in the organization loaded since');
    }));

    test('a delete with no request in flight: the token is refused, the fixture loads again and serves', () => withOrchard(config, {}, async (orchard, receiver) => {
      assert.equal((await call(orchard.url, '/api/record/account', { method: 'POST', body: JSON.stringify({ accountname: 'Before' }) })).status, 201);
      assert.deepEqual(await orchard.control.call('DELETE', `organizations/${ORG_ID}`), { id: ORG_ID, name: 'Deleted mid-request', deleted: true });
      const refused = await call(orchard.url, '/api/record/account');
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('x-error-code'), 'TOKEN_INVALID');
      await orchard.control.call('POST', 'fixtures', fixture(receiver.url));
      const records = await (await call(orchard.url, '/api/record/account')).json() as { data: { Records: unknown[] } };
      assert.deepEqual(records.data.Records, [], 'the organization loaded again starts empty');
      assert.equal((await call(orchard.url, '/api/record/account', { method: 'POST', body: JSON.stringify({ accountname: 'After' }) })).status, 201);
    }));
  });
}
