// What only a real socket shows: requests Node's parser refuses before any route answer in the API's
// shape; a client that sends its body or header fields too slowly is answered 408 and cut within
// the time limit plus a margin; a reply that closes the connection is not lost to a reset;
// pipelined requests are served in turn; idle keep-alive connections are held.

import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { LINGER_MS } from '../../src/http/lingering-close.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { startOrchard } from '../../src/testing.js';
import { tempDir } from '../helpers.js';

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte written to the server's end of the connection (its FIN). */
  endedAfter: number;
  /** Milliseconds from the first byte written to the socket's close. */
  closedAfter: number;
}

/** Writes `first`, then `drip` every 200 ms until the server closes the connection. */
function rawRequest(port: number, first: string, drip?: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let endedAfter = NaN;
    const timer = drip ? setInterval(() => socket.writable && socket.write(drip), 200) : undefined;
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (text += d));
    socket.on('error', () => {});
    socket.on('end', () => (endedAfter = Date.now() - started));
    socket.on('close', () => {
      clearInterval(timer);
      const [head = '', body = ''] = text.split(/\r\n\r\n(.*)/s);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      if (!statusLine) reject(new Error(`no reply: ${JSON.stringify(text)}`));
      else resolve({ status: Number(statusLine.split(' ')[1]), headers, body, endedAfter, closedAfter: Date.now() - started });
    });
    socket.write(first);
  });
}

/**
 * Writes `first` and 64 KB, then, once a reply comes, goes on sending 1 MB over 400 ms before it ends
 * its side, as a client that writes its whole body before it reads would. Closed at once, the
 * server's socket would answer those bytes with a reset, and a reset can reach a client before it
 * read the reply. Half-open, the client's socket writes on after the server's end comes.
 */
function sendingOnAfterTheReply(port: number, first: string): Promise<{ reply: string; replies: number; error?: Error; endedBeforeClient: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let reply = '';
    let error: Error | undefined;
    let clientEnded = false;
    let endedBeforeClient = false;
    socket.setEncoding('latin1');
    socket.on('error', (err) => (error = err));
    socket.on('end', () => (endedBeforeClient = !clientEnded));
    socket.on('close', () => resolve({ reply, replies: reply.match(/^HTTP\/1\.1 /gm)?.length ?? 0, error, endedBeforeClient }));
    socket.on('data', async (d: string) => {
      const firstData = reply === '';
      reply += d;
      if (!firstData) return;
      const chunk = Buffer.alloc(64 * 1024, 'a');
      for (let i = 0; i < 16 && !socket.destroyed; i++) {
        await new Promise((r) => setTimeout(r, 25));
        socket.write(chunk);
      }
      clientEnded = true;
      socket.end();
    });
    socket.write(first);
    socket.write(Buffer.alloc(64 * 1024, 'a'));
  });
}

function assertShape(r: RawReply, status: number, code: string, v3: boolean, message: RegExp): void {
  assert.equal(r.status, status, r.body);
  assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
  assert.equal(r.headers['x-error-code'], code);
  assert.match(r.headers['x-request-id'] ?? '', /^[0-9a-f-]{36}$/);
  const body = JSON.parse(r.body) as Record<string, unknown>;
  if (v3) {
    assert.deepEqual(Object.keys(body), ['status', 'error', 'message']);
    assert.equal(body.status, status);
    assert.match(body.message as string, message);
  } else {
    assert.deepEqual(Object.keys(body), ['Message']);
    assert.match(body.Message as string, message);
  }
}

describe('requests over a real socket', () => {
  const LIMIT_MS = 600;
  let server: RunningServer;
  let port: number;
  let token: string;
  let dir: string;
  before(async () => {
    dir = tempDir();
    server = await startServer(loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent', requestTimeoutMs: LIMIT_MS, addressMinuteLimit: 1_000_000 }), () => {});
    port = Number(new URL(server.url).port);
    token = (await server.stores.admin.createOrganization({ name: 'Raw', plan: 'enterprise', email: 'raw@example.com' })).token;
  });
  after(() => server.close());

  test('answers what the HTTP parser refuses in the API shape of the path, JSON, with its code, and closes', async () => {
    const cases: Array<[string, string, number, string, RegExp]> = [
      ['header fields over 16 KB', `GET /api/record/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE', /header fields are over 16 KB/],
      ['an unknown method', 'FOO /api/record/account HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST_MALFORMED', /the method is not one HTTP defines/],
      ['a bad chunk size', 'POST /api/record/account HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400, 'REQUEST_MALFORMED', /chunk size/],
      ['Content-Length with Transfer-Encoding', 'POST /api/record/account HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 'REQUEST_MALFORMED', /Transfer-Encoding/],
      ['a control character in a header', 'GET /api/record/account HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n', 400, 'REQUEST_MALFORMED', /header field/],
      ['raw spaces in the path', 'GET /api/record/acc ount HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'REQUEST_MALFORMED', /^The request is not valid HTTP\/1\.1/],
      ['no Host', 'GET /api/record/account HTTP/1.1\r\n\r\n', 400, 'REQUEST_MALFORMED', /no Host header field/],
    ];
    for (const [what, raw, status, code, message] of cases) {
      assertShape(await rawRequest(port, raw), status, code, false, message);
      // The same on a v3 path, in the v3 shape.
      const v3 = raw.replace('/api/record/account', '/api/v3/query').replace('/api/record/acc ount', '/api/v3/qu ery');
      assertShape(await rawRequest(port, v3), status, code, true, message);
      void what;
    }
  });

  test('answers a HEAD the parser refuses with the header fields and no body', async () => {
    const r = await rawRequest(port, `HEAD /api/record/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`);
    assert.equal(r.status, 431);
    assert.equal(r.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(r.body, '');
  });

  test('cuts a client that sends its body a byte at a time: 408 at the time limit, the server\'s end of the connection with it, and the socket once the linger is over', async () => {
    for (const [path, v3] of [['/api/record/account', false], ['/api/v3/query', true]] as const) {
      const r = await rawRequest(port, `POST ${path} HTTP/1.1\r\nHost: x\r\ntokenid: ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`, ' ');
      assertShape(r, 408, 'REQUEST_TIMEOUT', v3, /did not finish within the time limit/);
      assert.equal(r.headers.connection, 'close');
      assert.ok(r.endedAfter < LIMIT_MS + 1_000, `ended after ${r.endedAfter} ms`);
      // It never stops sending: the server drops what comes for LINGER_MS, then lets it go.
      assert.ok(r.closedAfter < LIMIT_MS + LINGER_MS + 1_000, `closed after ${r.closedAfter} ms`);
    }
  });

  test('a reply that closes the connection before the request was read is not lost to a reset: the server ends its side, drops what still comes, and closes once the client does', async () => {
    const cases: Array<[string, string, RegExp]> = [
      // Refused by a route's error handler: 413 on Content-Length alone, at once.
      ['a body declared too large', `POST /api/record/account HTTP/1.1\r\nHost: x\r\ntokenid: ${token}\r\nContent-Type: application/json\r\nContent-Length: 30000000\r\n\r\n{"accountname":"`, /^HTTP\/1\.1 413 /],
      // Refused by the HTTP parser, whose every later failure on the bytes that follow is not answered again.
      ['header fields over 16 KB', `POST /api/record/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\nContent-Length: 30000000\r\n\r\n`, /^HTTP\/1\.1 431 /],
    ];
    for (const [what, first, status] of cases) {
      const seen = await sendingOnAfterTheReply(port, first);
      assert.equal(seen.error, undefined, `${what}: the client wrote on after the reply without a reset`);
      assert.match(seen.reply, status, what);
      assert.match(seen.reply, /\r\nconnection: close\r\n/i, what);
      assert.equal(seen.replies, 1, `${what}: one reply`);
      assert.ok(seen.endedBeforeClient, `${what}: the server ended its side with the reply`);
    }
  });

  test('serves no request sent behind one whose reply closed the connection', async () => {
    // No Host: 400 and the connection closes with its body unread; the write behind it is never made.
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const text = await new Promise<string>((resolve) => {
      let got = '';
      socket.setEncoding('latin1');
      socket.on('error', () => {});
      socket.on('data', (d: string) => (got += d));
      socket.on('close', () => resolve(got));
      socket.write('POST /api/record/account HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"a"');
      const behind = JSON.stringify({ accountname: 'Sent behind a closing reply' });
      setTimeout(() => socket.write(`${' '.repeat(4_996)}POST /api/record/account HTTP/1.1\r\nHost: x\r\ntokenid: ${token}\r\nContent-Type: application/json\r\nContent-Length: ${behind.length}\r\n\r\n${behind}`), 100);
      setTimeout(() => socket.end(), 600);
    });
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.equal(text.match(/^HTTP\/1\.1 /gm)?.length, 1, text);
    const res = await fetch(`${server.url}/api/query`, { method: 'POST', headers: { tokenid: token, 'content-type': 'application/json' }, body: JSON.stringify({ objecttype: 1, query: "(accountname = 'Sent behind a closing reply')" }) });
    assert.equal(((await res.json()) as { data: { Data: unknown[] } }).data.Data.length, 0, 'not created');
  });

  test('cuts a client that sends its header fields slowly, or its body after an early refusal, within the limit plus a margin', async () => {
    const [slowHeaders, refused] = await Promise.all([
      rawRequest(port, 'GET /api/record/account HTTP/1.1\r\nHost: x\r\n', 'X-A: b\r\n'),
      // Refused at once (no valid token), but it keeps sending: the socket is not held for long either.
      rawRequest(port, 'POST /api/record/account HTTP/1.1\r\nHost: x\r\ntokenid: nope\r\nContent-Length: 1000\r\n\r\n{', ' '),
    ]);
    assertShape(slowHeaders, 408, 'REQUEST_TIMEOUT', false, /did not finish within the time limit/);
    assert.equal(refused.status, 401);
    // The margin equals the limit below 5 s, and Node looks at its connections every second.
    for (const r of [slowHeaders, refused]) assert.ok(r.closedAfter < 2 * LIMIT_MS + 1_500, `closed after ${r.closedAfter} ms`);
  });

  test('holds 1,000 idle keep-alive connections past the time limit, and serves on', async () => {
    const sockets = await Promise.all(Array.from({ length: 1_000 }, () => new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setEncoding('latin1');
      socket.once('data', () => resolve(socket));
      socket.on('error', reject);
      socket.write('GET /api/record/nothing HTTP/1.1\r\nHost: x\r\n\r\n');
    })));
    try {
      await new Promise((r) => setTimeout(r, 2 * LIMIT_MS + 1_500));
      assert.equal(sockets.filter((s) => s.destroyed || s.readyState !== 'open').length, 0, 'every idle connection is still open');
      const res = await fetch(`${server.url}/api/record/account?pagesize=1`, { headers: { tokenid: token } });
      assert.equal(res.status, 200);
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});

test('serves pipelined requests in turn: a PUT sent behind a slower one lands after it, its reply after the first\'s', async () => {
  const TOKEN = '5b0e7c1d-2a3f-4e6d-9c8b-7a6f5e4d3c2b';
  const orchard = await startOrchard({ fixtures: { organizations: [{ name: 'Pipelined', plan: 'enterprise', users: [{ email: 'qa@pipelined.example', tokens: [TOKEN] }] }] } });
  try {
    const created = await fetch(`${orchard.url}/api/record/account`, { method: 'POST', headers: { tokenid: TOKEN, 'content-type': 'application/json' }, body: '{"accountname":"Start"}' });
    const id = ((await created.json()) as { data: { Record: { accountid: string } } }).data.Record.accountid;
    // The first PUT waits 300 ms before its work; served at once, the second would land first.
    await orchard.control.addFaultRule({ methods: ['PUT'], latencyMs: 300, count: 1 });
    const put = (name: string) => {
      const body = JSON.stringify({ accountname: name });
      return `PUT /api/record/account/${id} HTTP/1.1\r\nHost: x\r\ntokenid: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    };
    const replies = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(orchard.url).port), '127.0.0.1');
      let text = '';
      socket.setEncoding('latin1');
      socket.on('error', reject);
      socket.on('data', (d: string) => {
        text += d;
        if (/"accountname":"Second"/.test(text)) socket.end();
      });
      socket.on('close', () => resolve(text));
      socket.write(put('First') + put('Second'));
    });
    assert.deepEqual(replies.match(/"accountname":"\w+"/g), ['"accountname":"First"', '"accountname":"Second"']);
    const now = await fetch(`${orchard.url}/api/record/account/${id}`, { headers: { tokenid: TOKEN } });
    assert.equal(((await now.json()) as { data: { Record: { accountname: string } } }).data.Record.accountname, 'Second');
  } finally {
    await orchard.close();
  }
});
