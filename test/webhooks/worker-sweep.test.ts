// The worker's sweep and an organization's first webhook (docs/webhooks.md § The worker): a sweep
// forgets organizations its list no longer has, but the list may have been read before the first
// webhook of an organization was made; one whose deliveries the worker attempted meanwhile keeps its
// next due time (a retry's), and the tick attempts it then, not the next sweep. A fake outbox.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { OK, outboxes, TIMEOUT, until } from './fake-outbox.js';

test('an organization drained while a sweep read its list, which did not have it yet, keeps its retry: the tick attempts it, the sweep 10 minutes off', async () => {
  const o = outboxes();
  let now = 1_000_000;
  let listed!: (orgs: string[]) => void;
  const list = new Promise<string[]>((resolve) => (listed = resolve));
  const { allowPrivate: _, ...settings } = loadConfig({ WEBHOOK_POLL_MS: '600000', WEBHOOK_GATHER_MS: '0' }).webhooks;
  const sent: string[] = [];
  let nextDue: number | null = null;
  let nextDueRead = 0;
  const worker = new DeliveryWorker({
    outbox: async (orgId) => ({ ...o.outbox(orgId), nextDue: async () => (nextDueRead++, nextDue) }),
    // The first sweep's list is read before the organization's first webhook is made.
    organizations: () => list,
    clock: () => now,
    realNow: Date.now,
    sender: { send: async (d) => (sent.push(d.id), sent.length === 1 ? TIMEOUT : OK), close: () => {} },
    settings,
    notifyDisabled: async () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  worker.start();
  try {
    // Its first webhook made, a write's delivery, attempted at once; it fails, and its retry is due in a minute.
    o.write('org-a', 'first', 1);
    nextDue = now + 60_000;
    worker.nudge('org-a');
    await until(() => o.finished.length === 1 && nextDueRead === 1, 'the first attempt recorded, its next due time read');
    await new Promise((resolve) => setImmediate(resolve)); // the run's end, a few promise turns on
    listed([]);
    await worker.idle(); // the sweep under way, whose list is now read
    assert.equal(worker.heldOrganizations(), 1, 'its due time is kept');
    // The retry comes due.
    o.write('org-a', 'first', 1, 1);
    now += 60_000;
    await until(() => sent.length === 2, 'the retry attempted by the tick');
  } finally {
    await worker.close();
  }
});
