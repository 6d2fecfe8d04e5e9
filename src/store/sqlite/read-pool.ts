// A pool of reader threads for the reads that can be slow (queries, deep list pages): the
// main thread keeps serving while they run, and a cancelled read stops because its thread is
// terminated (better-sqlite3 cannot interrupt a running statement) and replaced.

import { Worker } from 'node:worker_threads';
import { timeoutError } from '../../errors.js';
import { READY, type CloseFile, type ReadJob, type ReadResult } from './read-protocol.js';

type Statements = ReadJob['statements'];

interface Pending {
  job: ReadJob;
  /** Work no request waits for (the planner's statistics): after every query queued, one at a time. */
  background: boolean;
  resolve: (results: unknown[]) => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

interface Slot {
  worker: Worker;
  /** False until the thread has loaded; jobs go to ready threads only. */
  ready: boolean;
  running: Pending | undefined;
}

export class ReadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(readonly size: number) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const worker = new Worker(new URL('./read-worker.js', import.meta.url));
    const slot: Slot = { worker, ready: false, running: undefined };
    worker.on('message', (msg: ReadResult | typeof READY) => {
      if (msg === READY) {
        slot.ready = true;
        worker.unref();
        this.dispatch();
      } else {
        this.finish(slot, msg);
      }
    });
    worker.on('error', (err) => this.crashed(slot, err));
    // Referenced while it loads or works (a queued read waits for it), unreferenced when idle.
    return slot;
  }

  /** Threads running a read at this moment. */
  get busy(): number {
    let n = 0;
    for (const s of this.slots) if (s.running) n++;
    return n;
  }

  /**
   * Runs the statements in one snapshot of `file` on a reader thread. An aborted signal cancels with
   * REQUEST_TIMEOUT. A `background` read waits for every other read queued, and runs only while no
   * other background read does, so that with two threads or more one is always left to queries.
   */
  run(file: string, statements: Statements, signal?: AbortSignal, options: { background?: boolean } = {}): Promise<unknown[]> {
    if (this.closed) return Promise.reject(new Error('read pool closed'));
    if (signal?.aborted) return Promise.reject(timeoutError());
    return new Promise((resolve, reject) => {
      const pending: Pending = { job: { id: this.nextId++, file, statements }, background: options.background === true, resolve, reject, signal, onAbort: undefined };
      if (signal) {
        pending.onAbort = () => this.abort(pending);
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Has every thread close its connection to `file`, after the jobs it was given before. */
  forget(file: string): void {
    for (const slot of this.slots) slot.worker.postMessage({ close: file } satisfies CloseFile);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.running || !slot.ready) continue;
      const next = this.next();
      if (!next) return;
      slot.running = next;
      // A thread with work keeps the process alive until it answers; an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage(next.job);
    }
  }

  /** The next read to start: the first queued that is not background, else a background one if none runs. */
  private next(): Pending | undefined {
    let i = this.queue.findIndex((p) => !p.background);
    if (i < 0 && !this.slots.some((s) => s.running?.background)) i = this.queue.findIndex((p) => p.background);
    return i < 0 ? undefined : this.queue.splice(i, 1)[0];
  }

  private settle(p: Pending): void {
    if (p.signal && p.onAbort) p.signal.removeEventListener('abort', p.onAbort);
  }

  private finish(slot: Slot, msg: ReadResult): void {
    const p = slot.running;
    if (!p || p.job.id !== msg.id) return;
    slot.running = undefined;
    slot.worker.unref();
    this.settle(p);
    if (msg.ok) p.resolve(msg.results);
    else p.reject(Object.assign(new Error(msg.message), msg.code ? { code: msg.code } : {}));
    this.dispatch();
  }

  private abort(p: Pending): void {
    const queued = this.queue.indexOf(p);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      p.reject(timeoutError());
      return;
    }
    const i = this.slots.findIndex((s) => s.running === p);
    if (i < 0) return;
    // Stop the statement by ending its thread; a fresh one takes the slot.
    const slot = this.slots[i]!;
    slot.running = undefined;
    void slot.worker.terminate();
    this.slots[i] = this.spawn();
    p.reject(timeoutError());
    this.dispatch();
  }

  private crashed(slot: Slot, err: unknown): void {
    const i = this.slots.indexOf(slot);
    const p = slot.running;
    slot.running = undefined;
    if (p) {
      this.settle(p);
      p.reject(err);
    }
    if (i >= 0 && !this.closed) this.slots[i] = this.spawn();
    this.dispatch();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('read pool closed'));
    // Referenced so the process waits for the threads to end rather than exit mid-close.
    await Promise.all(this.slots.map(async (s) => {
      s.worker.ref();
      // On Node 20, terminate() of a thread still loading its modules can leave a promise that never
      // settles and no handle, so the process exits mid-close (seen as tests cancelled at random):
      // such a thread is let finish loading (or fail) first.
      if (!s.ready) await new Promise((settle) => ['message', 'error', 'exit'].forEach((e) => s.worker.once(e, settle)));
      return s.worker.terminate();
    }));
  }
}
