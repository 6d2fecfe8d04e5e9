// The worker's claims when it stops and when a lease runs out (docs/webhooks.md § The worker): a
// claimed attempt that has not begun when the worker closes is not begun, and its delivery is given
// back due at once, so that stopping waits for one time limit at most; an attempt whose lease would
// end before it could is not made, for another worker may have claimed its delivery since, and
// nothing is written over that claim; a claim that found nothing due, and a delivery due by its
// end (the organization's clock moved meanwhile), leaves it to the tick, not to the next sweep. A
// fake outbox records what the worker holds and finishes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { hanging, OK, outboxes, until, workerOn } from './fake-outbox.js';
import type { WebhookOutbox } from '../../src/webhooks/webhook-types.js';

const NOW = 1_000_000;
const { timeoutMs } = loadConfig({}).webhooks;
/** The lease of a claim with one slot (DeliveryWorker.leaseMs). */
const LEASE_MS = timeoutMs * (100 + 1) + 5_000;

test('closing begins no attempt still waiting for its slot: its delivery is given back due at once; the one under way is recorded', async () => {
  const o = outboxes();
  o.write('org-a', 'slow', 3);
  const r = hanging(OK);
  const worker = workerOn(o, 1, r.send, () => NOW);
  worker.nudge('org-a');
  await until(() => r.sent.length === 1, 'the first attempt under way');
  const closed = worker.close();
  r.release();
  await closed;
  assert.deepEqual(r.sent, ['slow-1']);
  assert.deepEqual(o.finished.map((res) => [res.id, res.ok]), [['slow-1', true]]);
  assert.deepEqual(o.held, ['slow-2', 'slow-3']);
  assert.deepEqual([...o.heldUntil.values()], [NOW, NOW], 'due at once, for the next start or another server');
});

test('an attempt whose lease ran out while it waited for its slot is not made, and its delivery is not held over another claim', async () => {
  const o = outboxes();
  o.write('org-a', 'slow', 3);
  const r = hanging(OK);
  let real = 5_000_000;
  const worker = workerOn(o, 1, r.send, () => NOW, () => real);
  worker.nudge('org-a');
  await until(() => r.sent.length === 1, 'the first attempt under way');
  // The slot was held past the lease (by other organizations' attempts, in a busy process).
  real += LEASE_MS - timeoutMs + 1;
  r.release();
  await worker.idle();
  assert.deepEqual(r.sent, ['slow-1'], 'the others were left to the claim that comes once their lease ended');
  assert.deepEqual(o.finished.map((res) => res.id), ['slow-1']);
  assert.deepEqual(o.held, []);
  await worker.close();
});

test('deliveries held beside a batch are not held anew once the batch outlasted its lease: another worker may hold them', async () => {
  const o = outboxes();
  o.failures.set('down', 2);
  o.write('org-a', 'down', 2);
  o.write('org-a', 'slow', 1);
  const r = hanging(OK);
  let real = 5_000_000;
  const worker = workerOn(o, 2, async (d) => (d.webhook.id === 'down' ? r.send({ ...d, webhook: { ...d.webhook, id: 'slow' } }) : r.send(d)), () => NOW, () => real);
  worker.nudge('org-a');
  // down-3's probe and slow-3 under way; down-2 held beside them.
  await until(() => r.sent.length === 2, 'the probe and the batch under way');
  real += 2 * LEASE_MS;
  r.release();
  await worker.idle();
  assert.deepEqual(r.sent.sort(), ['down-1', 'slow-3']);
  assert.deepEqual(o.held, []);
  await worker.close();
});

test('a deleted organization is forgotten at the next sweep: its due time and its failing webhooks are not kept for the process\'s life', async () => {
  const o = outboxes();
  o.organizations.push('org-a', 'org-b');
  o.write('org-a', 'kept', 1);
  o.write('org-b', 'down', 2);
  const worker = workerOn(o, 4, async (d) => (d.webhook.id === 'down' ? { ok: false, status: 503, error: 'HTTP 503', durationMs: 1, response: null } : OK));
  worker.nudge('org-a');
  worker.nudge('org-b');
  await worker.idle();
  assert.deepEqual([worker.heldOrganizations(), worker.failingWebhooks()], [2, 1], 'both organizations held; org-b\'s webhook failing');
  // org-b deleted: the control plane's list no longer has it.
  o.organizations.splice(o.organizations.indexOf('org-b'), 1);
  await worker.idle();
  assert.deepEqual([worker.heldOrganizations(), worker.failingWebhooks()], [1, 0]);
  // One nudged again (made again under its id) starts afresh.
  worker.nudge('org-b');
  await worker.idle();
  assert.equal(worker.heldOrganizations(), 2);
  await worker.close();
});

test('a claim that found nothing due while the organization\'s clock moved on leaves the delivery due since to the tick, not to the next sweep', async () => {
  let now = NOW;
  const o = outboxes();
  o.write('org-a', 'later', 1);
  const base = o.outbox;
  // Its delivery is due a second from now on the organization's clock.
  const [d] = await base('org-a').claim({ dueMs: NOW, realMs: 0, leaseMs: 0, limit: 1 });
  await base('org-a').postpone([d!], NOW + 1_000);
  const sent: string[] = [];
  // The clock is moved (the control API's) while the claim is under way: by its end, the delivery is due.
  o.outbox = (orgId) => ({
    ...base(orgId),
    claim: async (r: Parameters<WebhookOutbox['claim']>[0]) => {
      const got = await base(orgId).claim(r);
      now = NOW + 1_000;
      return got;
    },
    nextDue: async () => (sent.length === 0 ? NOW + 1_000 : null),
  }) as WebhookOutbox;
  const worker = workerOn(o, 1, async (delivery) => (sent.push(delivery.id), OK), () => now);
  worker.start();
  try {
    worker.nudge('org-a');
    await until(() => sent.length === 1, 'the delivery attempted by the tick');
  } finally {
    await worker.close();
  }
});
