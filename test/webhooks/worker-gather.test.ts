// Batches under a stream of writes (docs/webhooks.md § The worker): writes committed while a batch is
// out make the worker wait WEBHOOK_GATHER_MS after it before its next claim, so the deliveries that
// come in that time go in one batch; with 0 it claims again at once. A commit told while the worker
// reads the next due time is claimed by the same run. A fake outbox hands out the deliveries
// "written" and records each batch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import type { SendOutcome } from '../../src/webhooks/sender.js';
import type { AttemptResult, ClaimedDelivery, ClaimRequest, WebhookOutbox } from '../../src/webhooks/webhook-types.js';

const ORG = 'org-1';
const OK: SendOutcome = { ok: true, status: 200, error: null, durationMs: 1, response: null };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker on a fake outbox; `send` answers each attempt. */
function workerOn(gatherMs: number, send: (d: ClaimedDelivery) => Promise<SendOutcome>, nextDue: () => Promise<number | null> = async () => null) {
  const { allowPrivate: _, ...settings } = loadConfig({ WEBHOOK_GATHER_MS: String(gatherMs) }).webhooks;
  const written: ClaimedDelivery[] = [];
  const batches: number[] = [];
  const outbox = {
    claim: async (r: ClaimRequest) => written.splice(0, r.limit),
    finish: async (results: readonly AttemptResult[]) => {
      batches.push(results.length);
      return [];
    },
    nextDue,
    claimNotices: async () => [],
  } as unknown as WebhookOutbox;
  const worker = new DeliveryWorker({
    outbox: async () => outbox,
    organizations: async () => [],
    clock: () => Date.now(),
    realNow: () => Date.now(),
    sender: { send, close: () => {} },
    settings,
    notifyDisabled: async () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  worker.start();
  let n = 0;
  const write = () => {
    n++;
    written.push({ row: n, id: `d${n}`, webhook: { id: 'h1', url: 'https://hooks.example.com/h1', method: 'POST', headers: {}, secret: 'whsec_AAAA' }, webhookFailures: 0, event: 'created', payload: '{}', attempts: 0, writtenMs: 0 });
    worker.nudge(ORG);
  };
  return { worker, write, batches };
}

/** Four writes: one, one more while its batch is out, then two more 25 and 50 ms after that batch ended. The sizes of the batches. */
async function batchesOfAStream(gatherMs: number): Promise<number[]> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  const { worker, write, batches } = workerOn(gatherMs, async (d) => {
    sent.push(d.id);
    if (d.id === 'd1') await released;
    return OK;
  });
  write();
  while (sent.length === 0) await pause(1);
  write();
  release();
  for (let i = 0; i < 2; i++) {
    await pause(25);
    write();
  }
  await worker.idle();
  await worker.close();
  assert.equal(sent.length, 4, 'every delivery attempted');
  return batches;
}

test('under a stream of writes, those that come within WEBHOOK_GATHER_MS of a batch\'s end go in one batch', async () => {
  assert.deepEqual(await batchesOfAStream(300), [1, 3]);
  const without = await batchesOfAStream(0);
  assert.ok(without.length >= 3, `with 0, batches of ${without.join(', ')}`);
});

test('a commit told while the worker reads the next due time is claimed by the same run', async () => {
  let told = false;
  const sent: string[] = [];
  const o = workerOn(0, async (d) => {
    sent.push(d.id);
    return OK;
  }, async () => {
    if (!told) {
      told = true;
      o.write();
    }
    return null;
  });
  o.write();
  await o.worker.idle();
  assert.deepEqual(sent, ['d1', 'd2']);
  await o.worker.close();
});

