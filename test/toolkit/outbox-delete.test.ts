// An organization deleted while one of its webhook deliveries, or one of its requests, is under way
// (docs/control-api.md: deleting it forgets its outbox and journal, so one loaded again under its id
// starts without them): the attempt or request ends after the delete, and what it leaves belongs to
// the organization that is gone, not to the one loaded since under the same id. On SQLite, and on
// PostgreSQL when DATABASE_URL is set.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrchard } from 'orchard/testing';
import { startReceiver } from '../webhooks/receiver.js';
import { DATABASE_URL, REDIS_URL, uniqueName } from '../services.js';

const TOKEN = 'outbox-delete-token-0001';
const ORG_ID = '5d0c6f4e-8a1b-4c2d-9e3f-0a1b2c3d4e5f';

const stores: Array<[string, object]> = [['SQLite', {}]];
if (DATABASE_URL) stores.push(['PostgreSQL', { databaseUrl: DATABASE_URL, databaseSchema: uniqueName('obdel'), redisUrl: REDIS_URL }]);

for (const [store, config] of stores) {
  describe(`the outbox of an organization deleted during an attempt (${store})`, () => {
    test('the attempt under way at the delete is not shown in the outbox of the organization loaded again under its id', async () => {
      const receiver = await startReceiver();
      const fixture = (url: string) => ({ organizations: [{
        id: ORG_ID, name: 'Deleted mid-attempt', plan: 'enterprise', users: [{ email: 'qa@deleted.example', tokens: [TOKEN] }],
        webhooks: [{ event: 'created', object: 'account', url }],
      }] });
      const orchard = await startOrchard({ config: { ...config, webhooks: { allowPrivate: true } } as object, fixtures: fixture(receiver.url) });
      try {
        let release!: (status: number) => void;
        receiver.answer = () => new Promise<number>((resolve) => { release = resolve; });
        const created = await fetch(`${orchard.url}/api/record/account`, {
          method: 'POST', headers: { tokenid: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ accountname: 'Of the old one' }),
        });
        assert.equal(created.status, 201);
        await receiver.waitFor(1);
        // The attempt is under way (the receiver holds its reply): the organization goes, and comes back.
        await orchard.control.call('DELETE', `organizations/${ORG_ID}`);
        await orchard.control.call('POST', 'fixtures', fixture(receiver.url));
        assert.deepEqual(await orchard.control.call('GET', `organizations/${ORG_ID}/outbox`), { items: [] });
        receiver.answer = () => 200;
        release(200);
        await orchard.control.flushWebhooks();
        assert.deepEqual(await orchard.control.call('GET', `organizations/${ORG_ID}/outbox`), { items: [] }, 'the old organization\'s attempt, ended after its delete, is not the new one\'s');
        // The new organization's own attempts are shown as ever.
        const again = await fetch(`${orchard.url}/api/record/account`, {
          method: 'POST', headers: { tokenid: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ accountname: 'Of the new one' }),
        });
        assert.equal(again.status, 201);
        await receiver.waitFor(2);
        await orchard.control.flushWebhooks();
        const { items } = await orchard.control.call('GET', `organizations/${ORG_ID}/outbox`) as { items: Array<{ kind: string; text: string; ok: boolean }> };
        assert.deepEqual(items.map((m) => [m.kind, JSON.parse(m.text).data.record.accountname, m.ok]), [['webhook-delivery', 'Of the new one', true]]);
      } finally {
        await orchard.close();
        await receiver.close();
      }
    });

    test('a request under way at the delete is not in the journal of the organization loaded again under its id', async () => {
      const fixture = { organizations: [{ id: ORG_ID, name: 'Deleted mid-request', plan: 'enterprise', users: [{ email: 'qa@deleted.example', tokens: [TOKEN] }] }] };
      const orchard = await startOrchard({ config: { ...config, journalSize: 10 } as object, fixtures: fixture });
      try {
        // The request waits on a fault rule's latency, its token already taken, while the organization goes and comes back.
        await orchard.control.addFaultRule({ orgId: ORG_ID, methods: ['GET'], latencyMs: 1_000 });
        const slow = fetch(`${orchard.url}/api/record/account`, { headers: { tokenid: TOKEN } });
        const deadline = Date.now() + 5_000;
        while ((await orchard.control.listFaultRules())[0]?.matched !== 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
        await orchard.control.call('DELETE', `organizations/${ORG_ID}`);
        await orchard.control.call('POST', 'fixtures', fixture);
        await (await slow).arrayBuffer();
        assert.deepEqual((await orchard.control.listJournal(ORG_ID)).map((e) => e.path), [], 'the old organization\'s request is not the new one\'s');
        assert.equal((await fetch(`${orchard.url}/api/record/account?pagesize=1`, { headers: { tokenid: TOKEN } })).status, 200);
        assert.deepEqual((await orchard.control.listJournal(ORG_ID)).map((e) => e.path), ['/api/record/account?pagesize=1'.split('?')[0]]);
      } finally {
        await orchard.close();
      }
    });
  });
}
