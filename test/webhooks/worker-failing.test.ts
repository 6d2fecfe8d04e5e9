// A failing webhook's deliveries go one probe at a time (docs/webhooks.md § Retries): a receiver
// that is down or hangs holds one of the process's slots, not all of them, and delays neither its
// organization's other webhooks nor other organizations; the rest of its deliveries are held, not
// attempted, until a probe succeeds, which brings them back at once. A fake outbox records what
// the worker claims, holds, resumes and finishes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import type { SendOutcome } from '../../src/webhooks/sender.js';
import type { AttemptResult, ClaimedDelivery, ClaimRequest, WebhookOutbox } from '../../src/webhooks/webhook-types.js';

const OK: SendOutcome = { ok: true, status: 200, error: null, durationMs: 1, response: null };
const TIMEOUT: SendOutcome = { ok: false, status: null, error: 'TIMEOUT: no complete reply', durationMs: 300, response: null };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()`, failing after 5 s with `what`: a worker that waits for a hanging attempt never gets there. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (const start = Date.now(); !done(); await pause(2)) if (Date.now() - start > 5_000) assert.fail(`not within 5 s: ${what}`);
}

/** Organizations' outboxes in memory: pending deliveries, due at once unless held; each webhook's failures in a row. */
function outboxes() {
  const pending = new Map<string, Array<ClaimedDelivery & { heldUntil?: number }>>();
  const failures = new Map<string, number>();
  const held: string[] = [];
  const finished: AttemptResult[] = [];
  const resumed: string[] = [];
  let n = 0;
  const of = (orgId: string) => pending.get(orgId) ?? pending.set(orgId, []).get(orgId)!;
  const outbox = (orgId: string) => ({
    claim: async (r: ClaimRequest) => {
      const due = of(orgId).filter((d) => (d.heldUntil ?? 0) <= r.dueMs).slice(0, r.limit);
      pending.set(orgId, of(orgId).filter((d) => !due.includes(d)));
      return due.map((d) => ({ ...d, webhookFailures: failures.get(d.webhook.id) ?? 0 }));
    },
    finish: async (results: readonly AttemptResult[]) => {
      for (const res of results) {
        finished.push(res);
        failures.set(res.webhookId, res.ok ? 0 : (failures.get(res.webhookId) ?? 0) + 1);
      }
      return [];
    },
    postpone: async (ds: readonly ClaimedDelivery[], untilMs: number) => {
      for (const d of ds) held.push(d.id);
      of(orgId).push(...ds.map((d) => ({ ...d, heldUntil: untilMs })));
    },
    resume: async (hookId: string, nowMs: number) => {
      resumed.push(hookId);
      for (const d of of(orgId)) if (d.webhook.id === hookId) d.heldUntil = nowMs;
      return 0;
    },
    nextDue: async () => null,
    claimNotices: async () => [],
  }) as unknown as WebhookOutbox;
  const write = (orgId: string, hookId: string, count: number, attempts = 0) => {
    for (let i = 0; i < count; i++) {
      n++;
      of(orgId).push({ row: n, id: `${hookId}-${n}`, webhook: { id: hookId, url: `https://hooks.example.com/${hookId}`, method: 'POST', headers: {}, secret: 'whsec_AAAA' }, webhookFailures: 0, event: 'created', payload: '{}', attempts, writtenMs: 0 });
    }
  };
  return { outbox, write, failures, held, finished, resumed };
}

/** A worker with `concurrency` slots, on the clock `now`; `send` answers each attempt. */
function workerOn(o: ReturnType<typeof outboxes>, concurrency: number, send: (d: ClaimedDelivery) => Promise<SendOutcome>, now: () => number = () => 1_000_000) {
  const { allowPrivate: _, ...settings } = loadConfig({ WEBHOOK_CONCURRENCY: String(concurrency), WEBHOOK_GATHER_MS: '0' }).webhooks;
  return new DeliveryWorker({
    outbox: async (orgId) => o.outbox(orgId),
    organizations: async () => [],
    clock: now,
    realNow: () => Date.now(),
    sender: { send, close: () => {} },
    settings,
    notifyDisabled: async () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
}

/** A receiver that hangs until released, for the webhook `slow`; any other answers at once. */
function hanging() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  const send = async (d: ClaimedDelivery) => {
    sent.push(d.id);
    if (d.webhook.id !== 'slow') return OK;
    await released;
    return TIMEOUT;
  };
  return { send, sent, release };
}

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
