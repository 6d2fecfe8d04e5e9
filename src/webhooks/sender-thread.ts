// Deliveries' HTTP attempts made on a thread of their own (sender-worker.ts): the delivery worker
// keeps its claims and outcomes on the main thread (they are store transactions) and hands only the
// attempts over. Same contract as WebhookSender: one attempt a call, never throws.

import { Worker } from 'node:worker_threads';
import type { SenderOptions, SendOutcome, SendWork } from './sender.js';
import type { SendJobs, SendResults } from './sender-protocol.js';

const lostOutcome = (why: string): SendOutcome => ({ ok: false, status: null, error: `SENDER_LOST: ${why}`, durationMs: 0, response: null });

export class ThreadedSender {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, (outcome: SendOutcome) => void>();
  private queued: Array<SendJobs['jobs'][number]> = [];
  private nextKey = 1;
  private closed = false;

  constructor(private readonly options: SenderOptions) {}

  send(d: SendWork, nowSeconds: number): Promise<SendOutcome> {
    if (this.closed) return Promise.resolve(lostOutcome('the sender was closed'));
    const key = this.nextKey++;
    // Attempts asked for in the same turn of the event loop go over in one message: a batch's
    // attempts start one microtask apart (each waits for its slot), so a microtask would send them
    // one or two at a time, and every message wakes the thread.
    if (this.queued.length === 0) setImmediate(() => this.flush());
    this.queued.push({ key, delivery: { id: d.id, webhook: d.webhook, payload: d.payload }, nowSeconds });
    return new Promise((resolve) => this.pending.set(key, resolve));
  }

  private flush(): void {
    // Those a lost thread or a close already failed are not sent.
    const jobs = this.queued.filter((job) => this.pending.has(job.key));
    this.queued = [];
    if (jobs.length === 0) return;
    const worker = this.thread();
    worker.ref();
    worker.postMessage({ jobs } satisfies SendJobs);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./sender-worker.js', import.meta.url), { workerData: this.options });
    worker.on('message', (msg: SendResults) => {
      for (const { key, outcome } of msg.results) {
        const resolve = this.pending.get(key);
        this.pending.delete(key);
        resolve?.(outcome);
      }
      // Working, it keeps the process alive until its attempts are answered; idle, it does not.
      if (this.pending.size === 0) worker.unref();
    });
    worker.on('error', (err) => this.lost(worker, err.message));
    worker.on('exit', (code) => this.lost(worker, `the sender thread ended (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  /** The attempts a thread held fail (the delivery worker retries them like any failure); the next send starts a new thread. */
  private lost(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.failAll(why);
  }

  private failAll(why: string): void {
    for (const resolve of this.pending.values()) resolve(lostOutcome(why));
    this.pending.clear();
  }

  close(): void {
    this.closed = true;
    this.failAll('the sender was closed');
    void this.worker?.terminate();
    this.worker = null;
  }
}
