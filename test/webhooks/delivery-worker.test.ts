// The delivery worker's transactions (docs/webhooks.md § Delivery), on a fake outbox that notes each
// call: the outcomes of a batch are recorded in the transaction that claims the next one, the last
// outcomes of a run alone, and a worker that stops records the attempts under way without claiming.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import type { SendOutcome } from '../../src/webhooks/sender.js';
import type { AttemptResult, ClaimedDelivery, ClaimRequest, DisablePolicy, Settled, WebhookOutbox } from '../../src/webhooks/webhook-types.js';

const ORG = 'org-1';
const HOOK = { id: 'hook-1', url: 'http://127.0.0.1:9/', method: 'POST' as const, headers: {}, secret: 'whsec_AAAA' };
const delivery = (n: number): ClaimedDelivery => ({ row: n, id: `d${n}`, webhook: HOOK, event: 'created', payload: '{}', attempts: 0, writtenMs: 0 });

/** One settle call as the fake outbox saw it: the ids whose outcomes it recorded, and whether it claimed. */
interface Call {
  readonly recorded: string[];
  readonly claimed: boolean;
}

/** A worker on a fake outbox whose claims give `batches` in turn, and a sender whose attempts wait for `release`. */
function fixture(batches: ClaimedDelivery[][]) {
  const calls: Call[] = [];
  const pending: Array<() => void> = [];
  let attempted = 0;
  const outbox = {
    async settle(results: readonly AttemptResult[], _policy: DisablePolicy, request: ClaimRequest | null): Promise<Settled> {
      calls.push({ recorded: results.map((r) => r.id), claimed: request !== null });
      return { disabled: [], claimed: request ? (batches.shift() ?? []) : [] };
    },
    claim: () => assert.fail('claims go through settle'),
    finish: () => assert.fail('outcomes go through settle'),
    nextDue: async () => null,
    claimNotices: async () => [],
    noticeSent: async () => {},
    prune: async () => 0,
  } as unknown as WebhookOutbox;
  const worker = new DeliveryWorker({
    outbox: async () => outbox,
    organizations: async () => [],
    clock: () => 0,
    realNow: () => 0,
    sender: {
      send: () => new Promise<SendOutcome>((resolve) => {
        attempted++;
        pending.push(() => resolve({ ok: true, status: 200, error: null, durationMs: 1, response: null }));
      }),
      close: () => {},
    },
    settings: { timeoutMs: 1_000, retryBaseMs: 60_000, retryCapMs: 600_000, maxAttempts: 5, disableFailures: 10, disableHours: 1, pollMs: 60_000, concurrency: 8, logDays: 7 },
    notifyDisabled: async () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  /** Resolves once `n` attempts are under way. */
  const attempting = async (n: number) => {
    while (attempted < n) await new Promise((resolve) => setImmediate(resolve));
  };
  const release = () => {
    for (const answer of pending.splice(0)) answer();
  };
  return { worker, calls, attempting, release };
}

describe('the delivery worker\'s transactions', () => {
  test('records the outcomes of a batch in the transaction that claims the next one', async () => {
    const { worker, calls, attempting, release } = fixture([[delivery(1), delivery(2)], [delivery(3)], []]);
    worker.nudge(ORG);
    await attempting(2);
    worker.nudge(ORG); // a write came while the batch was out
    release();
    await attempting(3);
    release();
    await worker.idle();
    assert.deepEqual(calls, [
      { recorded: [], claimed: true },
      { recorded: ['d1', 'd2'], claimed: true },
      { recorded: ['d3'], claimed: false },
    ]);
  });

  test('a lone delivery is claimed, then its outcome recorded without another claim', async () => {
    const { worker, calls, attempting, release } = fixture([[delivery(1)]]);
    worker.nudge(ORG);
    await attempting(1);
    release();
    await worker.idle();
    assert.deepEqual(calls, [{ recorded: [], claimed: true }, { recorded: ['d1'], claimed: false }]);
  });

  test('a worker that stops records the attempts under way and claims nothing more', async () => {
    const { worker, calls, attempting, release } = fixture([[delivery(1), delivery(2)], [delivery(3)]]);
    worker.nudge(ORG);
    await attempting(2);
    worker.nudge(ORG);
    const closed = worker.close();
    release();
    await closed;
    assert.deepEqual(calls, [{ recorded: [], claimed: true }, { recorded: ['d1', 'd2'], claimed: false }]);
  });
});
