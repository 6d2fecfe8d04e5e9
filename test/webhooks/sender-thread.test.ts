// The deliveries' HTTP attempts run on a thread of their own (docs/webhooks.md § Delivery): an attempt
// goes out while the main thread is busy, a lost thread fails the attempts it held (they are retried
// like any failure) and a new one takes the next, and an idle thread keeps no process alive.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { WebhookSender, type SendWork } from '../../src/webhooks/sender.js';
import { ThreadedSender } from '../../src/webhooks/sender-thread.js';
import { newSecret } from '../../src/webhooks/signing.js';
import { startReceiver, type Receiver } from './receiver.js';

const OPTIONS = { timeoutMs: 10_000, allowPrivate: true, userAgent: 'Orchard/test (webhooks)' };
const SENDER_THREAD = fileURLToPath(new URL('../../src/webhooks/sender-thread.js', import.meta.url));

const work = (url: string, id = 'msg_1'): SendWork => ({
  id,
  webhook: { id: 'c1a20000-0000-4000-8000-0000000000aa', url, method: 'POST', headers: {}, secret: newSecret() },
  payload: JSON.stringify({ type: 'account.created', timestamp: '2026-03-01T12:00:00.000Z', data: {} }),
});

/**
 * A receiver in a process of its own (this one's main thread is kept busy by the test): it creates
 * `marker` when a request arrives, and answers 200.
 */
async function receiverProcess(marker: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    import http from 'node:http';
    import fs from 'node:fs';
    const server = http.createServer((req, res) => { req.resume(); req.on('end', () => { fs.writeFileSync(${JSON.stringify(marker)}, 'x'); res.end('ok'); }); });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));
  `], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (b: Buffer) => resolve(b.toString().trim()));
    child.once('exit', (code) => reject(new Error(`receiver exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/hook`, child };
}

/** Blocks this thread until `file` exists or `ms` pass; whether it came. */
function blockUntil(file: string, ms: number): boolean {
  const end = Date.now() + ms;
  while (Date.now() < end) if (fs.existsSync(file)) return true;
  return fs.existsSync(file);
}

async function waitUntil(done: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > end) throw new Error('not within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('the sender thread', () => {
  let dir: string;
  let receiver: Receiver;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-sender-'));
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('an attempt reaches its receiver while the main thread is busy; in the main thread it could not', async () => {
    const { url, child } = await receiverProcess(path.join(dir, 'threaded'));
    try {
      const sender = new ThreadedSender(OPTIONS);
      const outcome = sender.send(work(url), 1_700_000_000);
      await turn(); // the attempt is handed over at the end of the turn that asked for it
      assert.equal(blockUntil(path.join(dir, 'threaded'), 20_000), true, 'received while this thread was blocked');
      const got = await outcome;
      assert.equal(got.ok, true);
      assert.equal(got.status, 200);
      assert.equal(got.response, 'ok');
      sender.close();

      // The same with the sender on this thread: nothing is sent until the thread is free.
      const local = new WebhookSender(OPTIONS);
      const second = local.send(work(url.replace('/hook', '/local')), 1_700_000_000);
      await turn();
      assert.equal(blockUntil(path.join(dir, 'local'), 500), false, 'the main thread sends nothing while blocked');
      assert.equal((await second).ok, true);
      local.close();
    } finally {
      child.kill();
    }
  });

  test('signed like the main thread signs, and every outcome comes back to its attempt', async () => {
    const sender = new ThreadedSender(OPTIONS);
    receiver.answer = (r) => (r.path.endsWith('/fail') ? 500 : 204);
    try {
      const sent = [work(`${receiver.url}/ok`, 'msg_a'), work(`${receiver.url}/fail`, 'msg_b'), work('http://127.0.0.1:1/closed', 'msg_c')];
      const outcomes = await Promise.all(sent.map((d) => sender.send(d, 1_700_000_000)));
      assert.deepEqual(outcomes.map((o) => [o.ok, o.status]), [[true, 204], [false, 500], [false, null]]);
      assert.match(outcomes[1]!.error!, /HTTP 500/);
      assert.match(outcomes[2]!.error!, /ECONNREFUSED/);
      const ok = receiver.received.find((r) => r.path.endsWith('/ok'))!;
      assert.equal(ok.headers['webhook-id'], 'msg_a');
      assert.equal(ok.headers['webhook-timestamp'], '1700000000');
      assert.match(ok.headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]+=*$/);
      assert.equal(ok.headers['user-agent'], OPTIONS.userAgent);
    } finally {
      receiver.answer = () => 200;
      sender.close();
    }
  });

  test('a turn\'s attempts go over in one message, and outcomes that end together come back together', async () => {
    const sender = new ThreadedSender(OPTIONS);
    try {
      assert.equal((await sender.send(work(`${receiver.url}/first`), 1_700_000_000)).ok, true);
      const worker = (sender as unknown as { worker: Worker }).worker;
      const posted: number[] = [];
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (msg: { jobs: unknown[] }) => {
        posted.push(msg.jobs.length);
        post(msg);
      };
      const replies: number[] = [];
      worker.on('message', (msg: { results: unknown[] }) => replies.push(msg.results.length));
      // Every request is answered once all have come, so the replies reach the thread together.
      const N = 16; // the sockets the sender keeps to a host: more would wait for these to be answered
      let release!: () => void;
      const all = new Promise<void>((resolve) => (release = resolve));
      receiver.answer = async () => {
        if (receiver.received.filter((r) => r.path.includes('/together-')).length === N) release();
        await all;
        return 200;
      };
      // As the delivery worker asks for a batch's attempts: each after a microtask (its wait for a slot).
      const outcomes: Array<Promise<{ ok: boolean }>> = [];
      for (let i = 0; i < N; i++) {
        await Promise.resolve();
        outcomes.push(sender.send(work(`${receiver.url}/together-${i}`, `msg_t${i}`), 1_700_000_000));
      }
      assert.deepEqual((await Promise.all(outcomes)).map((o) => o.ok), Array(N).fill(true));
      assert.deepEqual(posted, [N], 'one message for the turn\'s attempts');
      assert.equal(replies.reduce((a, b) => a + b, 0), N);
      // Each message wakes the main thread; read one socket at a time, the outcomes would come one a message.
      assert.ok(replies.length <= N / 2, `${replies.length} messages for ${N} outcomes: ${replies.join(' ')}`);
    } finally {
      receiver.answer = () => 200;
      sender.close();
    }
  });

  test('a lost thread fails the attempts it held, and a new thread makes the next', async () => {
    const sender = new ThreadedSender(OPTIONS);
    receiver.answer = (r) => (r.path.endsWith('/hang') ? 'hang' : 200);
    try {
      const held = sender.send(work(`${receiver.url}/hang`), 1_700_000_000);
      await waitUntil(() => receiver.received.some((r) => r.path.endsWith('/hang')));
      await (sender as unknown as { worker: Worker }).worker.terminate();
      const lost = await held;
      assert.equal(lost.ok, false);
      assert.match(lost.error!, /^SENDER_LOST: /);
      const next = await sender.send(work(`${receiver.url}/after`), 1_700_000_000);
      assert.equal(next.ok, true);
    } finally {
      receiver.answer = () => 200;
      sender.close();
    }
  });

  test('closing fails the attempts under way rather than leave them unanswered', async () => {
    const sender = new ThreadedSender(OPTIONS);
    receiver.answer = () => 'hang';
    try {
      const held = sender.send(work(`${receiver.url}/hang-close`), 1_700_000_000);
      await turn();
      sender.close();
      const outcome = await held;
      assert.equal(outcome.ok, false);
      assert.match(outcome.error!, /^SENDER_LOST: /);
    } finally {
      receiver.answer = () => 200;
    }
  });

  test('an idle sender thread does not keep the process alive', async () => {
    // A file rather than --eval: a worker thread inherits the process's flags, and --input-type is refused there.
    const script = path.join(dir, 'idle.mjs');
    fs.writeFileSync(script, `
      import http from 'node:http';
      import { ThreadedSender } from ${JSON.stringify(SENDER_THREAD)};
      const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end()); });
      server.listen(0, '127.0.0.1', async () => {
        const sender = new ThreadedSender(${JSON.stringify(OPTIONS)});
        const d = { id: 'msg_1', webhook: { id: 'w', url: 'http://127.0.0.1:' + server.address().port + '/', method: 'POST', headers: {}, secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') }, payload: '{}' };
        const outcome = await sender.send(d, 1);
        server.close();
        server.closeAllConnections();
        console.log(JSON.stringify(outcome));
      });
    `);
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    const exited = await new Promise<number | null | 'still running'>((resolve) => {
      const timer = setTimeout(() => resolve('still running'), 15_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    if (exited === 'still running') child.kill();
    assert.equal(JSON.parse(out).ok, true, out);
    assert.equal(exited, 0, 'the process ended by itself once its attempt was answered');
  });
});
