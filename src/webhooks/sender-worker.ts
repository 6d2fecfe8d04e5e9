// The sender thread: makes the HTTP attempts of deliveries (sender.ts) off the main thread, so the
// requests, their signatures and the replies' parsing do not take the thread that serves the API.

import { parentPort, workerData } from 'node:worker_threads';
import { WebhookSender, type SenderOptions, type SendOutcome } from './sender.js';
import type { SendJobs, SendResults } from './sender-protocol.js';

const sender = new WebhookSender(workerData as SenderOptions);
let ended: Array<SendResults['results'][number]> = [];

// Outcomes that end in the same turn of the event loop go back in one message, not one each: replies
// are read one socket at a time, and every message wakes the main thread.
function report(key: number, outcome: SendOutcome): void {
  if (ended.length === 0) setImmediate(() => {
    const results = ended;
    ended = [];
    parentPort!.postMessage({ results } satisfies SendResults);
  });
  ended.push({ key, outcome });
}

parentPort!.on('message', (msg: SendJobs) => {
  for (const job of msg.jobs) void sender.send(job.delivery, job.nowSeconds).then((outcome) => report(job.key, outcome));
});
