// The console's files (docs/console.md § Serving): the page and its assets under /console with a
// Content-Security-Policy that allows this origin only, a page revalidated on each load and assets
// cached for good; a clear 503 when the console is not built; and the build npm run build made.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { CONSOLE_CSP, DEFAULT_CONSOLE_DIR } from '../../src/http/console-routes.js';
import { openStores, type Stores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { assertErrorReply, errorCodeOf } from './error-reply.js';

async function appWith(consoleDir: string): Promise<{ app: FastifyInstance; close: () => Promise<void> }> {
  const dataDir = tempDir();
  const config = loadConfig({}, { dataDir, logLevel: 'silent' });
  const stores: Stores = openStores(config);
  const app = await buildApp({ ...stores, config, clock: Date.now, logger: false, consoleDir });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await stores.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const PAGE = '<!doctype html><title>Orchard console</title><script type="module" src="/console/assets/index-abc123.js"></script>';

describe('the console\'s files', () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof appWith>>;
  before(async () => {
    dir = tempDir('orchard-console-');
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), PAGE);
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    server = await appWith(dir);
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('serves the page at /console and /console/ with no token, revalidated on every load, under a CSP of this origin only', async () => {
    for (const url of ['/console', '/console/', '/console/index.html']) {
      const res = await server.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
      assert.equal(res.body, PAGE);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.equal(res.headers['cache-control'], 'no-cache', url);
      assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'DENY');
    }
  });

  test('the CSP names no other origin: every source is \'self\', \'none\' or an inline image', () => {
    for (const directive of CONSOLE_CSP.split('; ')) {
      const [, ...sources] = directive.split(' ');
      for (const source of sources) assert.ok(["'self'", "'none'", 'data:'].includes(source), `${directive}: ${source}`);
    }
    assert.match(CONSOLE_CSP, /default-src 'none'/);
    assert.match(CONSOLE_CSP, /script-src 'self'(;|$)/, 'no inline or evaluated script');
  });

  test('serves assets cached for good (their names change with their content)', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/console/assets/index-abc123.js' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /javascript/);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(res.headers['content-security-policy'], CONSOLE_CSP);
  });

  test('answers a file it does not have 404, with the CSP, and never serves outside its folder', async () => {
    const missing = await server.app.inject({ method: 'GET', url: '/console/assets/nothing.js' });
    assertErrorReply(missing, 404);
    assert.equal(missing.headers['content-security-policy'], CONSOLE_CSP);
    for (const url of ['/console/../package.json', '/console/%2e%2e/%2e%2e/package.json', '/console/..%2fpackage.json']) {
      const res = await server.app.inject({ method: 'GET', url });
      assert.ok([400, 403, 404].includes(res.statusCode), `${url}: ${res.statusCode}`);
      assert.ok(!res.body.includes('"name": "orchard"'), url);
    }
  });
});

describe('a server whose console is not built', () => {
  test('answers every /console path 503 CONSOLE_NOT_BUILT saying how to build it, and serves the API as usual', async () => {
    const empty = tempDir('orchard-console-');
    const server = await appWith(empty);
    try {
      for (const url of ['/console', '/console/', '/console/assets/index.js']) {
        const res = await server.app.inject({ method: 'GET', url });
        assertErrorReply(res, 503, /The console is not built: .*index\.html is missing\. Run npm run build/);
        assert.equal(errorCodeOf(res), 'CONSOLE_NOT_BUILT');
      }
      assert.equal((await server.app.inject({ method: 'GET', url: '/live' })).statusCode, 200);
    } finally {
      await server.close();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the console npm run build made', () => {
  test('is a page whose scripts and styles are files of this origin under /console/assets/, with no inline script', () => {
    const page = fs.readFileSync(path.join(DEFAULT_CONSOLE_DIR, 'index.html'), 'utf8');
    const urls = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(urls.some((u) => /^\/console\/assets\/[\w-]+\.js$/.test(u)), urls.join(' '));
    for (const url of urls) assert.ok(url.startsWith('/console/assets/') || url === 'data:,', `${url} is of this origin`);
    for (const script of page.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      assert.match(script[1]!, /\ssrc="/, 'every script is a file');
      assert.equal(script[2]!.trim(), '');
    }
    for (const url of urls.filter((u) => u.startsWith('/console/assets/'))) {
      assert.ok(fs.existsSync(path.join(DEFAULT_CONSOLE_DIR, url.slice('/console/'.length))), `${url} was built`);
    }
  });
});
