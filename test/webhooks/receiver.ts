// A webhook receiver for tests: an HTTP server on a free port of 127.0.0.1 that keeps every request
// it gets and answers with the status `answer` chooses (200 by default), or not at all; and which
// secrets a delivery it got verifies with.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The body parsed as JSON. */
  readonly json: { type: string; timestamp: string; data: Record<string, any> };
}

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** The status of the reply to a request (the default answers 200), once it settles; or 'hang' to answer none. */
  answer: (r: Received) => number | 'hang' | Promise<number>;
  /** The body of the reply to a request, when set (by default 'thanks', or 'no: <status>'). */
  replyBody?: ((r: Received) => string) | undefined;
  /** Resolves once `n` requests have come (rejects after `ms`). */
  waitFor(n: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      let json: Received['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { type: '', timestamp: '', data: {} };
      }
      const r: Received = { method: req.method!, path: req.url!, headers, body, json };
      received.push(r);
      const reply = (status: number) => res.writeHead(status, { 'content-type': 'text/plain' })
        .end(receiver.replyBody?.(r) ?? (status < 300 ? 'thanks' : `no: ${status}`));
      const status = receiver.answer(r);
      if (status instanceof Promise) void status.then(reply);
      else if (status !== 'hang') reply(status);
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer: () => 200,
    async waitFor(n, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (received.length < n) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} requests, not ${n}, within ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return receiver;
}

/** For each secret, whether a receiver verifying with it (the `standardwebhooks` package) accepts the delivery. */
export function acceptedBy(r: Received, secrets: readonly string[]): boolean[] {
  return secrets.map((secret) => {
    try {
      new Webhook(secret).verify(r.body, r.headers);
      return true;
    } catch {
      return false;
    }
  });
}
