// PostgreSQL going away under a running server (issue 5, point 5), on a throwaway cluster the test
// starts itself and stops with `pg_ctl -m immediate`: requests get 503 {Message} while it is down,
// the process keeps running, and it recovers by itself when the database returns.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openStores, type Stores } from '../../src/stores.js';
import { loggerOptions } from '../../src/http/log-options.js';
import { captureLog, logEntries, tempDir } from '../helpers.js';
import { needsPostgres } from '../services.js';
import { canMakeCluster, ThrowawayPostgres } from '../throwaway-postgres.js';

// The throwaway cluster needs the PostgreSQL server binaries, as the PostgreSQL suites need a server.
const skip = needsPostgres || (canMakeCluster() ? false : 'initdb is not installed: the outage test is skipped');

describe('a server whose PostgreSQL goes away', { skip }, () => {
  let cluster: ThrowawayPostgres;
  let dir: string;
  let stores: Stores;
  let app: FastifyInstance;
  let token: string;
  const log = captureLog();

  const list = () => app.inject({ method: 'GET', url: '/api/record/account?pagesize=1', headers: { tokenid: token } });

  before(async () => {
    cluster = await ThrowawayPostgres.start();
    dir = tempDir('orchard-outage-');
    const config = loadConfig({}, { dataDir: dir, databaseUrl: cluster.url, logLevel: 'silent', rateLimits: false });
    stores = openStores(config);
    ({ token } = await stores.admin.createOrganization({ name: 'Outage', plan: 'enterprise', email: 'ops@example.com' }));
    app = await buildApp({ ...stores, config, clock: Date.now, logger: loggerOptions({ level: 'info', format: 'json', stream: log }) });
    await app.ready();
  });

  after(async () => {
    await app.close();
    await stores.close();
    cluster.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('answers 503 with a Message while it is down and recovers by itself when it returns', async () => {
    assert.equal((await list()).statusCode, 200);

    cluster.stopImmediately();
    for (let i = 0; i < 3; i++) {
      const res = await list();
      assert.equal(res.statusCode, 503, res.body);
      assert.deepEqual(JSON.parse(res.body), { Message: 'The database is unreachable at the moment. Retry the request in a few seconds.' });
      assert.ok(res.headers['x-request-id']);
    }
    const created = await app.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: token }, payload: { accountname: 'Lost?' } });
    assert.equal(created.statusCode, 503);

    cluster.startAgain();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await list()).statusCode;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 200, 'the same process serves again once PostgreSQL is back');
    const after = await app.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: token }, payload: { accountname: 'After' } });
    assert.equal(after.statusCode, 201, after.body);

    // The log tells the outage once, each refusal without a stack, and its end once.
    const lines = logEntries(log.lines).filter((l) => l.code === 'STORE_UNAVAILABLE' || /database/.test(l.msg ?? ''));
    const [first, ...rest] = lines;
    assert.equal(first?.level, 50, JSON.stringify(lines));
    assert.match(first!.msg, /^the database cannot be reached/);
    const refusals = rest.filter((l) => l.msg === 'request refused: the database cannot be reached');
    assert.ok(refusals.length >= 3 && refusals.every((l) => l.level === 40 && l.err === undefined), JSON.stringify(rest));
    const back = rest.filter((l) => l.msg === 'the database answers again');
    assert.equal(back.length, 1, JSON.stringify(rest));
    assert.equal(back[0]!.refused, refusals.length + 1);
    assert.equal(logEntries(log.lines).filter((l) => l.level >= 50).length, 1, 'no other error line');
  });
});
