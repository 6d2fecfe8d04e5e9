// Messages between the main thread and the sender thread (sender-thread.ts, sender-worker.ts).

import type { SendOutcome, SendWork } from './sender.js';

/** Attempts to make, gathered from one turn of the main thread's event loop. */
export interface SendJobs {
  readonly jobs: ReadonlyArray<{ readonly key: number; readonly delivery: SendWork; readonly nowSeconds: number }>;
}

/** Outcomes of attempts that ended in one turn of the thread's event loop. */
export interface SendResults {
  readonly results: ReadonlyArray<{ readonly key: number; readonly outcome: SendOutcome }>;
}
