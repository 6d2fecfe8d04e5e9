// The HTTP/1.1 client of webhook attempts (src/webhooks/http1-client.ts, docs/webhooks.md § Delivery):
// each way a reply may be framed, interim replies, kept-alive connections and their bound, a receiver's
// idle close, replies cut at the bound, bad replies, the time limit, and TLS with its checks on.

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { Http1Client, type Http1Request } from '../../src/webhooks/http1-client.js';
import { WebhookSender } from '../../src/webhooks/sender.js';

const CERT = fileURLToPath(new URL('../../../test/webhooks/fixtures/receiver-cert.pem', import.meta.url));
const KEY = fileURLToPath(new URL('../../../test/webhooks/fixtures/receiver-key.pem', import.meta.url));

interface SeenRequest {
  readonly head: string;
  readonly body: string;
  /** The connection's number, from 1, and the request's on it, from 1. */
  readonly connection: number;
  readonly nth: number;
}

/**
 * A receiver that reads requests as the client sends them (a head, then Content-Length bytes) and
 * answers each with what `reply` writes on the socket, byte for byte.
 */
async function scriptedReceiver(reply: (socket: net.Socket, r: SeenRequest) => unknown, secure = false) {
  const seen: SeenRequest[] = [];
  let connections = 0;
  const onSocket = (socket: net.Socket) => {
    const connection = ++connections;
    let nth = 0;
    let buf = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (data: Buffer) => {
      buf = Buffer.concat([buf, data]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.toString('latin1', 0, end);
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const r = { head, body: buf.toString('utf8', end + 4, end + 4 + length), connection, nth: ++nth };
        buf = buf.subarray(end + 4 + length);
        seen.push(r);
        void reply(socket, r);
      }
    });
  };
  const server = secure ? tls.createServer({ cert: fs.readFileSync(CERT), key: fs.readFileSync(KEY) }, onSocket) : net.createServer(onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port, seen,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the webhook attempts\' HTTP/1.1 client', () => {
  const client = new Http1Client();
  const closers: Array<() => Promise<void>> = [];
  after(async () => {
    client.close();
    for (const close of closers) await close();
  });
  async function receiver(reply: Parameters<typeof scriptedReceiver>[0]) {
    const r = await scriptedReceiver(reply);
    closers.push(r.close);
    return r;
  }
  const ask = (port: number, extra: Partial<Http1Request> = {}) => client.request({
    url: new URL(`http://127.0.0.1:${port}/hooks/in?team=a`), method: 'POST', headers: [['x-team', 'a'], ['user-agent', 'Orchard/test']],
    body: Buffer.from('{"type":"account.created","name":"Café"}'), maxBodyBytes: 64 * 1024, timeoutMs: 5_000, ...extra,
  });

  test('sends the request as given, reads a reply of a stated length, and keeps the connection for the next', async () => {
    const r = await receiver((socket, req) => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nok #${req.nth}`));
    for (let i = 1; i <= 3; i++) {
      const reply = await ask(r.port);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.toString(), `ok #${i}`);
    }
    assert.equal(r.connections(), 1);
    const [first] = r.seen;
    assert.equal(first!.head, [
      'POST /hooks/in?team=a HTTP/1.1', `host: 127.0.0.1:${r.port}`, 'connection: keep-alive', `content-length: ${Buffer.byteLength('{"type":"account.created","name":"Café"}')}`,
      'x-team: a', 'user-agent: Orchard/test',
    ].join('\r\n'));
    assert.equal(first!.body, '{"type":"account.created","name":"Café"}');
  });

  test('reads chunked replies (with extensions and trailers) and replies that come a few bytes at a time', async () => {
    const reply = 'HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n5;note=x\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n';
    const r = await receiver(async (socket, req) => {
      if (req.nth === 1) return void socket.write(reply);
      for (let i = 0; i < reply.length; i += 3) {
        socket.write(reply.slice(i, i + 3));
        await pause(1);
      }
    });
    for (let i = 0; i < 2; i++) {
      const got = await ask(r.port);
      assert.equal(got.status, 202);
      assert.equal(got.body.toString(), 'hello, world');
    }
    assert.equal(r.connections(), 1, 'a chunked reply leaves its connection for the next request');
  });

  test('passes over interim replies (100, 103) to the final one', async () => {
    const r = await receiver((socket) => socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok'));
    const got = await ask(r.port);
    assert.equal(got.status, 201);
    assert.equal(got.body.toString(), 'ok');
  });

  test('a reply without a length is read to the connection\'s end; one that says close is not reused', async () => {
    const r = await receiver((socket, req) => {
      if (req.connection === 1) socket.end('HTTP/1.0 200 OK\r\n\r\nuntil the end');
      else socket.write('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 4\r\n\r\nbusy');
    });
    const first = await ask(r.port);
    assert.deepEqual([first.status, first.body.toString()], [200, 'until the end']);
    const second = await ask(r.port);
    assert.deepEqual([second.status, second.body.toString()], [503, 'busy']);
    await ask(r.port);
    assert.equal(r.connections(), 3);
  });

  test('a kept connection the receiver closes as the next request goes out is retried once, on a new one', async () => {
    const r = await receiver((socket, req) => {
      // The second request on a connection finds it closed, as a receiver's idle timeout would.
      if (req.nth === 2) socket.destroy();
      else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    });
    assert.equal((await ask(r.port)).status, 200);
    assert.equal((await ask(r.port)).status, 200);
    assert.equal(r.connections(), 2);
    assert.equal(r.seen.length, 3, 'the request went twice: once on the closed connection, once on the new');
  });

  test('closing the client fails the requests under way and sends nothing more, not even the retry of a kept connection', async () => {
    const r = await receiver((socket, req) => {
      if (req.nth === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    });
    const own = new Http1Client();
    const request = { url: new URL(`http://127.0.0.1:${r.port}/`), method: 'POST', headers: [], body: Buffer.from('{}'), maxBodyBytes: 1024, timeoutMs: 5_000 };
    assert.equal((await own.request(request)).status, 200);
    const hanging = own.request(request);
    while (r.seen.length < 2) await pause(5);
    own.close();
    await assert.rejects(hanging, (err: Error & { code?: string }) => err.code === 'ECANCELED');
    await pause(50);
    assert.equal(r.seen.length, 2);
  });

  test('a connection that fails before it ever served is not retried', async () => {
    const r = await receiver((socket) => socket.destroy());
    await assert.rejects(ask(r.port), /closed/);
    assert.equal(r.seen.length, 1);
  });

  test('a body past the bound ends the read with what came before it, and the connection is dropped', async () => {
    const r = await receiver((socket) => socket.write(`HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5000\r\n\r\n${'x'.repeat(5000)}`));
    const got = await ask(r.port, { maxBodyBytes: 1000 });
    assert.equal(got.status, 500);
    assert.ok(got.body.length <= 1000);
    await ask(r.port, { maxBodyBytes: 1000 });
    assert.equal(r.connections(), 2);
  });

  test('interim replies count against the head\'s bound, and trailers and chunk lines against the body\'s: a receiver that sends them without end is read no further', async () => {
    // Never a final reply, never the trailers' end, never the last chunk: only the bounds end these reads.
    const interim = await receiver((socket) => socket.write('HTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\n'.repeat(3_000)));
    await assert.rejects(ask(interim.port, { timeoutMs: 4_000 }), (err: Error & { code?: string }) => err.code === 'HPE_INVALID_REPLY' && /interim/.test(err.message));
    const trailers = await receiver((socket) => socket.write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n${'X-Trailer: 0123456789abcdef\r\n'.repeat(3_000)}`));
    const got = await ask(trailers.port, { maxBodyBytes: 1000, timeoutMs: 4_000 });
    assert.deepEqual([got.status, got.body.toString()], [200, 'ok']);
    const lines = await receiver((socket) => socket.write(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${`1;ext=${'x'.repeat(500)}\r\na\r\n`.repeat(200)}`));
    const cut = await ask(lines.port, { maxBodyBytes: 1000, timeoutMs: 4_000 });
    assert.equal(cut.status, 200);
    assert.ok(cut.body.length < 10, `the chunks' lines counted: ${cut.body.length} bytes kept`);
  });

  test('a reply cut short after its head fails with the status it had, on a lost connection and on the time limit', async () => {
    const lost = await receiver((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part'));
    await assert.rejects(ask(lost.port), (err: Error & { code?: string; status?: number | null }) => err.code === 'ECONNRESET' && err.status === 200);
    const stalled = await receiver((socket) => socket.write('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 100\r\n\r\npart'));
    await assert.rejects(ask(stalled.port, { timeoutMs: 150 }), (err: Error & { code?: string; status?: number | null }) => err.code === 'TIMEOUT' && err.status === 503);
    const silent = await receiver(() => {});
    await assert.rejects(ask(silent.port, { timeoutMs: 150 }), (err: Error & { code?: string; status?: number | null }) => err.code === 'TIMEOUT' && err.status === null);
    // The sender's outcome keeps the status for the delivery log.
    const sender = new WebhookSender({ timeoutMs: 5_000, allowPrivate: true, userAgent: 'Orchard/test' });
    try {
      const outcome = await sender.send({ id: 'msg_cut', payload: '{}', webhook: { id: 'w', url: `http://127.0.0.1:${lost.port}/`, method: 'POST', headers: {}, secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') } }, 1_700_000_000);
      assert.equal(outcome.ok, false);
      assert.equal(outcome.status, 200);
      assert.match(outcome.error!, /^ECONNRESET: /);
    } finally {
      sender.close();
    }
  });

  test('a redirect is not followed: the 3xx fails the attempt, and where it points is never asked', async () => {
    // Followed, a redirect from a public receiver to a private address would pass the target check.
    const inside = await receiver((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
    const sender = new WebhookSender({ timeoutMs: 5_000, allowPrivate: true, userAgent: 'Orchard/test' });
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        const outside = await receiver((socket) => socket.write(`HTTP/1.1 ${status} Moved\r\nLocation: http://127.0.0.1:${inside.port}/admin\r\nContent-Length: 0\r\n\r\n`));
        const outcome = await sender.send({ id: `msg_${status}`, payload: '{}', webhook: { id: 'w', url: `http://127.0.0.1:${outside.port}/`, method: 'POST', headers: {}, secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') } }, 1_700_000_000);
        assert.deepEqual([outcome.ok, outcome.status, outcome.error], [false, status, `HTTP ${status}`]);
        assert.equal(outside.seen.length, 1);
      }
    } finally {
      sender.close();
    }
    assert.equal(inside.connections(), 0);
  });

  test('more requests at once than connections allowed wait for one: at most 16 to an origin', async () => {
    const r = await receiver(async (socket) => {
      await pause(20);
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
    });
    const replies = await Promise.all(Array.from({ length: 40 }, () => ask(r.port)));
    assert.ok(replies.every((x) => x.status === 200));
    assert.equal(r.connections(), 16);
  });

  test('bad replies fail with HPE_INVALID_REPLY; the time limit with TIMEOUT; an unsendable field value before connecting', async () => {
    const bad = await receiver((socket) => socket.write('ICY 200 OK\r\n\r\n'));
    await assert.rejects(ask(bad.port), (err: Error & { code?: string }) => err.code === 'HPE_INVALID_REPLY' && /status line/.test(err.message));
    const badLength = await receiver((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok'));
    await assert.rejects(ask(badLength.port), (err: Error & { code?: string }) => err.code === 'HPE_INVALID_REPLY' && /Content-Length/.test(err.message));
    const silent = await receiver(() => {});
    await assert.rejects(ask(silent.port, { timeoutMs: 150 }), (err: Error & { code?: string }) => err.code === 'TIMEOUT' && /150 ms/.test(err.message));
    const before = silent.connections();
    await assert.rejects(ask(silent.port, { headers: [['x-name', 'ĉu']] }),
      (err: Error & { code?: string }) => err.code === 'ERR_INVALID_CHAR' && /'x-name' has U\+0109 \(ĉ\), which HTTP\/1\.1 cannot send/.test(err.message));
    // A webhook stored before such values were refused: its log says what is wrong and what to do.
    const sender = new WebhookSender({ timeoutMs: 5_000, allowPrivate: true, userAgent: 'Orchard/test' });
    try {
      const outcome = await sender.send({ id: 'msg_bad', payload: '{}', webhook: {
        id: 'w', url: `http://127.0.0.1:${silent.port}/`, method: 'POST', headers: { 'X-Bell': 'a\u0007b' }, secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64'),
      } }, 1_700_000_000);
      assert.deepEqual([outcome.ok, outcome.status], [false, null]);
      assert.match(outcome.error!, /^ERR_INVALID_CHAR: the value of the header field 'X-Bell' has U\+0007, which HTTP\/1\.1 cannot send: delete the webhook and make it again; use characters up to U\+00FF/);
    } finally {
      sender.close();
    }
    assert.equal(silent.connections(), before);
  });

  test('HTTPS: the receiver\'s certificate and its name are checked, and a trusted one serves', async () => {
    const r = await scriptedReceiver((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecure'), true);
    closers.push(r.close);
    const sender = new WebhookSender({ timeoutMs: 5_000, allowPrivate: true, userAgent: 'Orchard/test' });
    const delivery = { id: 'msg_tls', webhook: { id: 'w', url: `https://localhost:${r.port}/hooks`, method: 'POST' as const, headers: {}, secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') }, payload: '{}' };
    const refused = await sender.send(delivery, 1_700_000_000);
    sender.close();
    assert.equal(refused.ok, false);
    assert.match(refused.error ?? '', /SELF_SIGNED/);
    // Trusted through NODE_EXTRA_CA_CERTS, read when a process starts: a process of its own.
    // Run apart, not in step: this process's receiver must answer it.
    const child = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', `
      import { WebhookSender } from ${JSON.stringify(new URL('../../src/webhooks/sender.js', import.meta.url).href)};
      import { Http1Client } from ${JSON.stringify(new URL('../../src/webhooks/http1-client.js', import.meta.url).href)};
      const sender = new WebhookSender({ timeoutMs: 5000, allowPrivate: true, userAgent: 'Orchard/test' });
      console.log(JSON.stringify(await sender.send(${JSON.stringify(delivery)}, 1700000000)));
      sender.close();
      // A trusted certificate of another name: 'elsewhere.test' is looked up as 127.0.0.1, the certificate names localhost.
      const client = new Http1Client();
      const lookup = (host, options, done) => options.all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4);
      const url = new URL('https://elsewhere.test:${r.port}/hooks');
      console.log(await client.request({ url, method: 'POST', headers: [], body: Buffer.from('{}'), maxBodyBytes: 1024, timeoutMs: 5000, lookup }).then(() => 'served', (err) => err.code));
      client.close();
    `], { env: { ...process.env, NODE_EXTRA_CA_CERTS: CERT }, encoding: 'utf8' });
    const [sent, otherName] = child.stdout.trim().split('\n');
    const outcome = JSON.parse(sent!) as { ok: boolean; status: number; response: string };
    assert.deepEqual([outcome.ok, outcome.status, outcome.response], [true, 200, 'secure']);
    assert.equal(otherName, 'ERR_TLS_CERT_ALTNAME_INVALID');
  });
});
