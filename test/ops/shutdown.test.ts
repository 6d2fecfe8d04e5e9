// Closing the server (SIGTERM): a request in flight is answered with Connection: close, so its
// connection ends with its reply and the close does not wait out the keep-alive timeout; a request
// already under way on a kept-alive connection is served, not answered with Fastify's bare 503.

import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { eventually, testContext } from '../helpers.js';

/** A raw connection to `port` and what it has received so far; `ended` resolves when the server closes it. */
function connect(port: number): { socket: net.Socket; received: () => string; ended: Promise<void> } {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, ended };
}

/** The status, header fields (lowercase names) and body of the one reply in `text`. */
function parseReply(text: string): { status: number; headers: Record<string, string>; body: string } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

test('a request in flight when the server begins to close is answered with Connection: close, and the close ends with it', async () => {
  const ctx = await testContext();
  try {
    // Long enough to be in flight when the close begins; nothing is timed on it.
    ctx.app.toolkit.faults.add({ latencyMs: 300 });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as net.AddressInfo).port;
    const conn = connect(port);
    conn.socket.write(`GET /api/record/account?pagesize=1 HTTP/1.1\r\nHost: orchard.test\r\nConnection: keep-alive\r\ntokenid: ${ctx.token}\r\n\r\n`);
    await eventually(() => ctx.app.toolkit.faults.list()[0]!.matched === 1, 'the request is in flight');
    const closed = ctx.app.close();
    await conn.ended;
    const reply = parseReply(conn.received());
    assert.equal(reply.status, 200, conn.received());
    assert.equal(reply.headers.connection, 'close', 'the client learns the connection ends with this reply');
    assert.equal(JSON.parse(reply.body).success, true);
    await closed;
  } finally {
    await ctx.close();
  }
});

test('a request whose bytes were arriving on a kept-alive connection when the close began is served, with Connection: close', async () => {
  const ctx = await testContext();
  try {
    assert.equal((await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Served' } })).statusCode, 201);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as net.AddressInfo).port;
    const conn = connect(port);
    // Its request line and part of its header fields: the connection is not idle, so the close keeps it.
    conn.socket.write('GET /api/record/account?pagesize=1 HTTP/1.1\r\nHost: orchard.test\r\n');
    await new Promise((resolve) => conn.socket.once('connect', resolve));
    // Those bytes reach the server within the loopback's microseconds; its parser then has a request under way.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = ctx.app.close();
    await eventually(() => !ctx.app.server.listening, 'the server stopped listening');
    conn.socket.write(`Connection: keep-alive\r\ntokenid: ${ctx.token}\r\nX-Request-Id: during-close\r\n\r\n`);
    await conn.ended;
    const reply = parseReply(conn.received());
    assert.equal(reply.status, 200, conn.received());
    assert.equal(reply.headers.connection, 'close');
    assert.equal(reply.headers['x-request-id'], 'during-close');
    const body = JSON.parse(reply.body);
    assert.equal(body.success, true);
    assert.equal(body.data.Records.length, 1, 'served from the stores, still open');
    await closed;
  } finally {
    await ctx.close();
  }
});
