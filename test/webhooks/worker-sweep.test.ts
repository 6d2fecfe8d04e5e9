// The worker's sweep beside the runs that commits start (docs/webhooks.md § The worker), with a
// fake outbox whose reads the test holds back: a sweep forgets organizations its list no longer
// has, but the list may have been read before an organization's first webhook was made; and a
// sweep's read of an organization's next due time may be older than a run that ended meanwhile.
// Either way the retry the run scheduled keeps its due time, and the tick attempts it then, with
// the sweep 10 minutes off.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { DeliveryWorker } from '../../src/webhooks/delivery-worker.js';
import { OK, outboxes, TIMEOUT, until } from './fake-outbox.js';

/** A held-back answer. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A worker on a fake outbox whose first attempt fails (TIMEOUT) and later ones succeed; its sweep's
 * list and the first read of the next due time are `list` and `firstNextDue`, the later reads `nextDue`.
 */
function sweptWorker(list: Promise<string[]>, firstNextDue?: Promise<number | null>) {
  const o = outboxes();
  const at = { now: 1_000_000, nextDue: null as number | null, nextDueRead: 0 };
  const sent: string[] = [];
  const { allowPrivate: _, ...settings } = loadConfig({ WEBHOOK_POLL_MS: '600000', WEBHOOK_GATHER_MS: '0' }).webhooks;
  const worker = new DeliveryWorker({
    outbox: async (orgId) => ({ ...o.outbox(orgId), nextDue: async () => (at.nextDueRead++ === 0 && firstNextDue ? firstNextDue : at.nextDue) }),
    organizations: () => list,
    clock: () => at.now,
    realNow: Date.now,
    sender: { send: async (d) => (sent.push(d.id), sent.length === 1 ? TIMEOUT : OK), close: () => {} },
    settings,
    notifyDisabled: async () => {},
    log: { info: () => {}, warn: () => {}, error: () => {} },
  });
  /** A write's delivery, attempted at once (nudged); it fails, its retry due in a minute. */
  const failedWrite = async (reads: number) => {
    o.write('org-a', 'first', 1);
    at.nextDue = at.now + 60_000;
    worker.nudge('org-a');
    await until(() => o.finished.length === 1 && at.nextDueRead === reads, 'the first attempt recorded, its next due time read');
    await new Promise((resolve) => setImmediate(resolve)); // the run's end, a few promise turns on
  };
  /** The retry comes due: the tick attempts it. */
  const retried = async () => {
    o.write('org-a', 'first', 1, 1);
    at.now += 60_000;
    await until(() => sent.length === 2, 'the retry attempted by the tick');
  };
  return { worker, at, failedWrite, retried };
}

test('an organization drained while a sweep read its list, which did not have it yet, keeps its retry', async () => {
  const list = deferred<string[]>();
  const { worker, failedWrite, retried } = sweptWorker(list.promise);
  worker.start();
  try {
    await failedWrite(1);
    list.resolve([]); // read before its first webhook was made
    await worker.idle();
    assert.equal(worker.heldOrganizations(), 1, 'its due time is kept');
    await retried();
  } finally {
    await worker.close();
  }
});

test('a sweep\'s read of the next due time, begun before a run that scheduled a retry, does not replace the run\'s', async () => {
  const firstNextDue = deferred<number | null>();
  const { worker, at, failedWrite, retried } = sweptWorker(Promise.resolve(['org-a']), firstNextDue.promise);
  worker.start();
  try {
    await until(() => at.nextDueRead === 1, 'the sweep reading the next due time');
    await failedWrite(2);
    firstNextDue.resolve(null); // read before the write committed: nothing pending then
    await worker.idle();
    await retried();
  } finally {
    await worker.close();
  }
});
