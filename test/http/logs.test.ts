// The server's log (docs/operations.md § Logs): JSON lines or readable ones by LOG_FORMAT, no token
// in any line (the tokenid header, the ?tokenid= form in the URL, the admin key), one line when the
// server starts and one when it stops, and a 408 logged as a warning without a stack.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { loggerOptions, maskTokens, type LogStream } from '../../src/http/log-options.js';
import { startServer } from '../../src/server.js';
import { openStores, type Stores } from '../../src/stores.js';
import { captureLog, logEntries, tempDir } from '../helpers.js';

test('maskTokens masks the value of every tokenid query parameter, however its name is written', () => {
  assert.equal(maskTokens('/api/record/account'), '/api/record/account');
  assert.equal(maskTokens('/api/record/account?pagesize=2&tokenid=abc-def'), '/api/record/account?pagesize=2&tokenid=***');
  assert.equal(maskTokens('/a?TokenID=abc&x=1'), '/a?TokenID=***&x=1');
  assert.equal(maskTokens('/a?token%69d=abc&tokenid=def#frag'), '/a?token%69d=***&tokenid=***#frag');
  assert.equal(maskTokens('/a?tokenidx=keep&mytokenid=keep&tokenid'), '/a?tokenidx=keep&mytokenid=keep&tokenid');
  assert.equal(maskTokens('/a?%zz=1&tokenid=abc'), '/a?%zz=1&tokenid=***');
});

describe('request lines', () => {
  const KEY = 'log-test-admin-key-0123456789';
  let dir: string;
  let stores: Stores;
  let token: string;
  before(async () => {
    dir = tempDir();
    stores = openStores(loadConfig({}, { dataDir: dir }));
    token = (await stores.admin.createOrganization({ name: 'Logs', plan: 'enterprise', email: 'logs@example.com' })).token;
  });
  after(async () => {
    await stores.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function logOf(format: 'json' | 'pretty' | 'auto', stream: LogStream & { lines: string[] }): Promise<string[]> {
    const config = loadConfig({}, { dataDir: dir, adminKey: KEY });
    const app = await buildApp({ ...stores, config, clock: Date.now, logger: loggerOptions({ level: 'info', format, stream }) });
    try {
      await app.inject({ method: 'GET', url: `/api/record/account?pagesize=1&tokenid=${token}` });
      await app.inject({ method: 'GET', url: `/api/record/account?TOKENID=${token.toUpperCase()}` });
      await app.inject({ method: 'GET', url: '/api/record/account', headers: { tokenid: token } });
      await app.inject({ method: 'GET', url: '/api/record/account', headers: { tokenid: 'wrong-token-value' } });
      await app.inject({ method: 'GET', url: '/_orchard/organizations', headers: { authorization: `Bearer ${KEY}` } });
    } finally {
      await app.close();
    }
    return stream.lines;
  }

  test('JSON lines: the URL shows tokenid=***; no line holds a token or the admin key', async () => {
    const lines = await logOf('json', captureLog());
    const entries = logEntries(lines);
    const urls = entries.filter((e) => e.req).map((e) => e.req.url as string);
    assert.ok(urls.includes('/api/record/account?pagesize=1&tokenid=***'), urls.join(' '));
    assert.ok(urls.includes('/api/record/account?TOKENID=***'));
    for (const line of lines) {
      for (const secret of [token, token.toUpperCase(), 'wrong-token-value', KEY]) assert.ok(!line.includes(secret), line);
    }
    assert.ok(entries.some((e) => e.msg === 'request completed' && e.res?.statusCode === 200));
  });

  test('LOG_FORMAT pretty (or auto on a terminal) writes readable lines, still without the token; auto elsewhere writes JSON', async () => {
    for (const [format, tty] of [['pretty', false], ['auto', true]] as const) {
      const lines = await logOf(format, captureLog(tty));
      assert.ok(lines.length > 0);
      for (const line of lines) {
        assert.throws(() => JSON.parse(line), `not JSON: ${line}`);
        assert.ok(!line.includes(token), line);
      }
      assert.ok(lines.some((l) => /INFO.*incoming request/.test(l)), lines.join('\n'));
      assert.ok(lines.some((l) => l.includes('tokenid=***')));
    }
    const auto = await logOf('auto', captureLog(false));
    assert.doesNotThrow(() => logEntries(auto));
  });

  test('LOG_FORMAT takes pretty, json or auto (the default)', () => {
    assert.equal(loadConfig({}).logFormat, 'auto');
    assert.equal(loadConfig({ LOG_FORMAT: 'json' }).logFormat, 'json');
    assert.throws(() => loadConfig({ LOG_FORMAT: 'xml' }), /LOG_FORMAT must be one of pretty, json, auto/);
  });
});

describe('a listening server', () => {
  const LIMIT_MS = 300;
  let dir: string;
  const log = captureLog();
  let server: Awaited<ReturnType<typeof startServer>>;
  before(async () => {
    dir = tempDir();
    server = await startServer(loadConfig({}, { dataDir: dir, port: 0, host: '0.0.0.0', logLevel: 'info', logFormat: 'json', requestTimeoutMs: LIMIT_MS }), () => {}, { logStream: log });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Sends `head`, then `trickle` a byte at a time, until the server closes. */
  function slowRequest(head: string, trickle: string): Promise<string> {
    const port = Number(new URL(server.url).port);
    return new Promise((resolve, reject) => {
      let answer = '';
      let timer: NodeJS.Timeout | undefined;
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(head);
        timer = setInterval(() => socket.writable && socket.write(trickle), 50);
      });
      socket.setEncoding('latin1').on('data', (d: string) => (answer += d));
      socket.on('close', () => { clearInterval(timer); resolve(answer); });
      socket.on('error', (err) => { clearInterval(timer); reject(err); });
    });
  }

  test('one line when it starts, on any number of addresses, and nothing of Fastify\'s own', () => {
    const entries = logEntries(log.lines);
    assert.equal(entries.length, 1, log.lines.join('\n'));
    assert.equal(entries[0]!.msg, 'Orchard started');
    assert.equal(entries[0]!.url, server.url);
    assert.equal(entries[0]!.store, 'sqlite');
    assert.equal(log.lines[0]!.match(/"pid":/g)?.length, 1, 'each key once');
  });

  test('a 408 is a warning without a stack, whether the body or the header fields come too slowly', async () => {
    const token = server.demo!.token;
    const body = await slowRequest(`POST /api/record/account HTTP/1.1\r\nHost: x\r\ntokenid: ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`, ' ');
    assert.match(body, /^HTTP\/1\.1 408/);
    const headers = await slowRequest('GET /api/record/account HTTP/1.1\r\nHost: x\r\n', 'X-A: b\r\n');
    assert.match(headers, /^HTTP\/1\.1 408/);
    const entries = logEntries(log.lines);
    const warnings = entries.filter((e) => e.level === 40);
    assert.equal(warnings.length, 2, log.lines.join('\n'));
    for (const w of warnings) {
      assert.equal(w.code, 'REQUEST_TIMEOUT');
      assert.equal(w.err, undefined);
      assert.ok(!JSON.stringify(w).includes('stack'));
    }
    assert.deepEqual(entries.filter((e) => e.level >= 50), []);
    assert.ok(!log.lines.some((l) => l.includes(token)));
  });

  test('one line when it stops', async () => {
    const before = log.lines.length;
    await server.close();
    const entries = logEntries(log.lines.slice(before));
    assert.deepEqual(entries.map((e) => e.msg), ['Orchard stopped']);
    assert.equal(typeof entries[0]!.uptimeSeconds, 'number');
  });
});
