// A failing webhook's deliveries go one probe at a time (docs/webhooks.md § Retries): a receiver
// that is down or hangs holds one of the process's slots, not all of them, and delays neither its
// organization's other webhooks nor other organizations; the rest of its deliveries are held, not
// attempted, until a probe succeeds, which brings them back at once. A fake outbox records what
// the worker claims, holds, resumes and finishes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hanging, OK, outboxes, pause, TIMEOUT, until, workerOn } from './fake-outbox.js';

test('a failing webhook that hangs holds one slot: another organization\'s deliveries and its own organization\'s other webhook go while its probe hangs', async () => {
  const o = outboxes();
  o.failures.set('slow', 3);
  o.write('org-a', 'slow', 6);
  o.write('org-a', 'fast', 3);
  o.write('org-b', 'other', 3);
  const r = hanging();
  const worker = workerOn(o, 2, r.send);
  worker.nudge('org-a');
  worker.nudge('org-b');
  await until(() => o.finished.length >= 6, 'the other deliveries recorded while the probe hangs');
  // Both organizations' deliveries were attempted and recorded while the probe still hangs.
  assert.deepEqual(r.sent.filter((id) => id.startsWith('slow')), ['slow-1'], 'one probe, the rest held');
  assert.deepEqual(o.finished.map((res) => res.webhookId).sort(), ['fast', 'fast', 'fast', 'other', 'other', 'other']);
  assert.deepEqual(o.held, ['slow-2', 'slow-3', 'slow-4', 'slow-5', 'slow-6']);
  r.release();
  await worker.idle();
  assert.deepEqual(o.finished.filter((res) => res.webhookId === 'slow').map((res) => [res.id, res.ok]), [['slow-1', false]]);
  assert.deepEqual(o.resumed, [], 'a failed probe resumes nothing');
  await worker.close();
});

test('a probe that succeeds brings the held deliveries back at once; the probe is the delivery tried least', async () => {
  const o = outboxes();
  o.failures.set('down', 5);
  o.write('org-a', 'down', 1, 4);
  o.write('org-a', 'down', 3);
  const sent: string[] = [];
  const worker = workerOn(o, 4, async (d) => {
    sent.push(d.id);
    return OK;
  });
  worker.nudge('org-a');
  await until(() => sent.length >= 4, 'the held deliveries sent after the probe');
  await worker.idle();
  // down-2 (no attempt yet) is the probe, not down-1 (tried 4 times, perhaps refused for itself).
  assert.equal(sent[0], 'down-2');
  assert.deepEqual(o.resumed, ['down']);
  assert.deepEqual(sent.slice(1).sort(), ['down-1', 'down-3', 'down-4']);
  assert.equal(o.failures.get('down'), 0);
  await worker.close();
});

test('a webhook found failing in a batch has its attempts that still wait for a slot held, not attempted', async () => {
  const o = outboxes();
  o.write('org-a', 'slow', 5);
  const r = hanging();
  const worker = workerOn(o, 2, r.send);
  worker.nudge('org-a');
  await until(() => r.sent.length >= 2, 'two attempts under way');
  await pause(20);
  r.release();
  await worker.idle();
  // Two attempts took the two slots and timed out; the three behind them were held.
  assert.deepEqual(r.sent, ['slow-1', 'slow-2']);
  assert.deepEqual(o.held, ['slow-3', 'slow-4', 'slow-5']);
  await worker.close();
});

test('a failing webhook\'s next probe is not left where the organization\'s clock stood before it was moved back', async () => {
  const o = outboxes();
  o.failures.set('down', 1);
  o.write('org-a', 'down', 1);
  let now = 1_000_000 + 25 * 3_600_000;
  const sent: string[] = [];
  const worker = workerOn(o, 2, async (d) => {
    sent.push(d.id);
    return TIMEOUT;
  }, () => now);
  worker.nudge('org-a');
  await until(() => o.finished.length === 1, 'the first probe recorded');
  await worker.idle();
  // A suite advanced the clock a day to see the webhook fail, and sets it back to real time.
  now -= 25 * 3_600_000;
  o.write('org-a', 'down', 1);
  worker.nudge('org-a');
  await until(() => o.finished.length === 2, 'the next write\'s delivery probed');
  await worker.idle();
  assert.deepEqual(sent, ['down-1', 'down-2']);
  assert.deepEqual(o.held, []);
  await worker.close();
});

test('a failing webhook deleted or disabled (in any process) is forgotten at the next sweep: it does not keep every batch on the failing path', async () => {
  const o = outboxes();
  // Listed, as every organization that has webhooks is (one not listed is forgotten: worker-claims.test.ts).
  o.organizations.push('org-a');
  o.write('org-a', 'gone', 1);
  o.write('org-a', 'off', 1);
  o.write('org-a', 'kept', 1);
  const worker = workerOn(o, 3, async (d) => (d.webhook.id === 'kept' ? OK : TIMEOUT));
  worker.nudge('org-a');
  await until(() => o.finished.length === 3, 'the attempts recorded');
  await worker.idle();
  assert.equal(worker.failingWebhooks(), 2, 'their failures marked them failing');
  // Deleted, its deliveries with it, or disabled: no claim brings them up again.
  o.deleted.add('gone');
  o.disabled.add('off');
  await worker.idle();
  assert.equal(worker.failingWebhooks(), 0);
  await worker.close();
});

test('a failing webhook that still exists stays failing across sweeps', async () => {
  const o = outboxes();
  o.organizations.push('org-a');
  o.write('org-a', 'down', 1);
  const worker = workerOn(o, 2, async () => TIMEOUT);
  worker.nudge('org-a');
  await until(() => o.finished.length === 1, 'the attempt recorded');
  await worker.idle();
  await worker.idle();
  assert.equal(worker.failingWebhooks(), 1);
  await worker.close();
});

test('a failing webhook whose count of failures the store shows back at 0 (enabled again, or answered another process) is not held by this one\'s memory of it', async () => {
  const o = outboxes();
  o.organizations.push('org-a');
  o.write('org-a', 'down', 1);
  let answer = TIMEOUT;
  const sent: string[] = [];
  const worker = workerOn(o, 2, async (d) => {
    sent.push(d.id);
    return answer;
  });
  worker.nudge('org-a');
  await until(() => o.finished.length === 1, 'the failed attempt recorded');
  await worker.idle();
  // The next write's delivery is its probe, and fails too: the one after waits for the backoff.
  o.write('org-a', 'down', 1);
  worker.nudge('org-a');
  await until(() => o.finished.length === 2, 'the failed probe recorded');
  await worker.idle();
  assert.equal(worker.failingWebhooks(), 1);
  // Its owner disabled it, mended the receiver and enabled it before any sweep: enabling sets its count to 0.
  answer = OK;
  o.failures.set('down', 0);
  o.write('org-a', 'down', 1);
  worker.nudge('org-a');
  await until(() => sent.length === 3, 'the next write\'s delivery sent at once, not held for the next probe');
  await worker.idle();
  assert.deepEqual(o.held, []);
  assert.equal(worker.failingWebhooks(), 0);
  await worker.close();
});
