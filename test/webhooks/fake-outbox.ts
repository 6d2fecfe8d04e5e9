// A fake outbox and a DeliveryWorker on it, for the worker's tests (worker-failing, worker-claims):
// organizations' pending deliveries in memory, due at once unless held, with each webhook's failures
// in a row; it records what the worker claims, holds, resumes and finishes.

import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import type { SendOutcome } from '../../src/webhooks/sender.js';
import type { AttemptResult, ClaimedDelivery, ClaimRequest, WebhookOutbox } from '../../src/webhooks/webhook-types.js';

export const OK: SendOutcome = { ok: true, status: 200, error: null, durationMs: 1, response: null };
export const TIMEOUT: SendOutcome = { ok: false, status: null, error: 'TIMEOUT: no complete reply', durationMs: 300, response: null };
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()`, failing after 5 s with `what`: a worker that waits for a hanging attempt never gets there. */
export async function until(done: () => boolean, what: string): Promise<void> {
  for (const start = Date.now(); !done(); await pause(2)) if (Date.now() - start > 5_000) assert.fail(`not within 5 s: ${what}`);
}

/** Organizations' outboxes in memory: pending deliveries, due at once unless held; each webhook's failures in a row. */
export function outboxes() {
  const pending = new Map<string, Array<ClaimedDelivery & { heldUntil?: number }>>();
  const failures = new Map<string, number>();
  const held: string[] = [];
  /** When each held delivery is due again, by id (the latest hold). */
  const heldUntil = new Map<string, number>();
  const finished: AttemptResult[] = [];
  const resumed: string[] = [];
  /** Webhooks deleted (get finds none) or disabled; the organizations a sweep looks at. */
  const deleted = new Set<string>();
  const disabled = new Set<string>();
  const organizations: string[] = [];
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
      for (const d of ds) {
        held.push(d.id);
        heldUntil.set(d.id, untilMs);
      }
      of(orgId).push(...ds.map((d) => ({ ...d, heldUntil: untilMs })));
    },
    resume: async (hookId: string, nowMs: number) => {
      resumed.push(hookId);
      for (const d of of(orgId)) if (d.webhook.id === hookId) d.heldUntil = nowMs;
      return 0;
    },
    get: async (id: string) => (deleted.has(id) ? null : { id, disabledAt: disabled.has(id) ? '2026-03-01T12:00:00.000Z' : null }),
    nextDue: async () => null,
    claimNotices: async () => [],
    prune: async () => 0,
  }) as unknown as WebhookOutbox;
  const write = (orgId: string, hookId: string, count: number, attempts = 0) => {
    for (let i = 0; i < count; i++) {
      n++;
      of(orgId).push({ row: n, id: `${hookId}-${n}`, webhook: { id: hookId, url: `https://hooks.example.com/${hookId}`, method: 'POST', headers: {}, secret: 'whsec_AAAA' }, webhookFailures: 0, event: 'created', payload: '{}', attempts, writtenMs: 0 });
    }
  };
  return { outbox, write, failures, held, heldUntil, finished, resumed, deleted, disabled, organizations };
}

/** A worker with `concurrency` slots, on the clock `now`; `send` answers each attempt. */
export function workerOn(o: ReturnType<typeof outboxes>, concurrency: number, send: (d: ClaimedDelivery) => Promise<SendOutcome>, now: () => number = () => 1_000_000, realNow: () => number = () => Date.now()) {
  const { allowPrivate: _, ...settings } = loadConfig({ WEBHOOK_CONCURRENCY: String(concurrency), WEBHOOK_GATHER_MS: '0' }).webhooks;
  return new DeliveryWorker({
    outbox: async (orgId) => o.outbox(orgId),
    organizations: async () => o.organizations,
    clock: now,
    realNow,
    sender: { send, close: () => {} },
    settings,
    notifyDisabled: async () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
}

/** A receiver that hangs until released, then gives `outcome`, for the webhook `slow`; any other answers at once. */
export function hanging(outcome: SendOutcome = TIMEOUT) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  const send = async (d: ClaimedDelivery) => {
    sent.push(d.id);
    if (d.webhook.id !== 'slow') return OK;
    await released;
    return outcome;
  };
  return { send, sent, release };
}
