// Two servers on one PostgreSQL (and Redis, when REDIS_URL is set), as a team hosting Orchard on
// several machines runs it (docs/scaling.md § Shared and per-process state): what one changes
// through its control API the other applies within the cache listener's bound; webhook deliveries
// are made once whichever server writes or delivers; and the toolkit (clocks, fault rules, the
// journal) stays the process's own, as documented.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { BOUND_MS } from '../../src/store/postgres/cache-listener.js';
import { openStores, type Stores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, REDIS_URL, uniqueName } from '../services.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

/** Longest wait for a change to reach the other server: the listener's bound, and slack for a loaded machine. */
const WITHIN_MS = BOUND_MS + 2_000;
const ADMIN_KEY = 'shared-state-admin-key-0123456789';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Server { readonly stores: Stores; readonly app: FastifyInstance }

describe('two servers on one PostgreSQL: what one changes, the other honours', { skip: needsPostgres }, () => {
  let dir: string;
  let schema: string;
  let receiver: Receiver;
  const servers: Server[] = [];
  let a: Server;
  let b: Server;

  const open = async (config: Config): Promise<Server> => {
    const stores = openStores(config);
    const app = await buildApp({ ...stores, config, clock: Date.now, logger: false });
    await app.ready();
    servers.push({ stores, app });
    return { stores, app };
  };
  const config = (deliver = true): Config => loadConfig({}, {
    dataDir: dir, databaseUrl: DATABASE_URL, ...(REDIS_URL ? { redisUrl: REDIS_URL } : {}), databaseSchema: schema, logLevel: 'silent', adminKey: ADMIN_KEY,
    webhooks: { allowPrivate: true, deliver },
  });

  const api = (s: Server, token: string, method: string, url: string, payload?: object) =>
    s.app.inject({ method: method as 'GET', url, headers: { tokenid: token }, ...(payload ? { payload } : {}) });
  const control = async (s: Server, method: string, url: string, payload?: object) => {
    const res = await s.app.inject({ method: method as 'GET', url: `/_orchard${url}`, headers: { authorization: `Bearer ${ADMIN_KEY}` }, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.body === '' ? undefined : res.json();
  };
  /** Asks until `check` holds of `server`'s reply; fails past the bound. */
  const until = async (what: string, ask: () => Promise<{ statusCode: number; body: string }>, check: (status: number, body: string) => boolean) => {
    const started = Date.now();
    for (;;) {
      const res = await ask();
      if (check(res.statusCode, res.body)) return;
      assert.ok(Date.now() - started < WITHIN_MS, `${what}: no change after ${WITHIN_MS} ms: ${res.statusCode} ${res.body.slice(0, 200)}`);
      await sleep(20);
    }
  };
  /** A new organization, served once by each server, whose listeners then vouch for what they keep. */
  const organization = async (plan = 'enterprise') => {
    const made = await control(a, 'POST', '/organizations', { name: 'Shared', email: 'owner@example.com', plan });
    for (const s of servers) await until('served', () => api(s, made.token, 'GET', '/api/record/account?pagesize=1'), (status) => status === 200);
    // The first requests start each server's listener; it vouches for what it keeps once its first ping is back.
    await sleep(300);
    return { orgId: made.organization.id as string, userId: made.userId as string, token: made.token as string };
  };

  before(async () => {
    dir = tempDir('orchard-shared-state-');
    schema = uniqueName('ss');
    receiver = await startReceiver();
    a = await open(config());
    b = await open(config());
  });

  after(async () => {
    for (const s of servers) {
      await s.app.close();
      await s.stores.close();
    }
    await receiver.close();
    const sql = new pg.Client({ connectionString: DATABASE_URL });
    await sql.connect();
    await dropSchemas(sql, schema);
    await sql.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('applies a plan, a minute limit, a role\'s grants, a revocation and a deletion made through the other\'s control API', async () => {
    const { orgId, userId, token } = await organization();
    const opportunities = () => api(b, token, 'GET', '/api/record/opportunity?pagesize=1');
    await control(a, 'PATCH', `/organizations/${orgId}`, { plan: 'free', minuteLimit: 4321 });
    await until('the plan', opportunities, (status) => status === 402);
    assert.match(String((await api(b, token, 'GET', '/api/record/account?pagesize=1')).headers['ratelimit-policy']), /"minute";q=4321;/);

    await control(a, 'PUT', `/organizations/${orgId}/roles/sales`, { grant: 'account:read,create,update' });
    await control(a, 'PATCH', `/users/${userId}`, { role: 'sales' });
    const write = () => api(b, token, 'POST', '/api/record/account', { accountname: 'Through B', telephone2: '5' });
    await until('the role', write, (status) => status === 201);
    await control(a, 'PUT', `/organizations/${orgId}/roles/sales`, { grant: 'account:read,create,update', readonly: 'account:telephone2' });
    await until('the role\'s read-only field', write, (status, body) => status === 403 && body.includes('telephone2'));

    const second = (await control(a, 'POST', `/users/${userId}/tokens`)).token as string;
    await until('a new token', () => api(b, second, 'GET', '/api/record/account?pagesize=1'), (status) => status === 200);
    const { items } = await control(a, 'GET', `/users/${userId}/tokens`);
    await control(a, 'POST', `/tokens/${items.find((t: { last4: string }) => second.endsWith(t.last4)).id}/revoke`);
    await until('the revocation', () => api(b, second, 'GET', '/api/record/account?pagesize=1'), (status) => status === 401);

    await control(a, 'DELETE', `/organizations/${orgId}`);
    await until('the deletion', () => api(b, token, 'GET', '/api/record/account?pagesize=1'), (status) => status === 401);
  });

  test('makes one delivery per event with both servers writing and delivering, and none once the webhook is deleted through the other', async () => {
    const { token } = await organization();
    const hook = await api(a, token, 'POST', '/api/webhooks', { event: 'created', object: 'account', url: receiver.url });
    assert.equal(hook.statusCode, 201, hook.body);
    const hookId = hook.json().data.id as string;
    const ours = () => receiver.received.filter((r) => r.json.data?.webhookId === hookId);
    /** Both workers idle: every due delivery either claimed has been attempted and recorded. */
    const flush = async () => {
      await control(a, 'POST', '/webhooks/flush');
      await control(b, 'POST', '/webhooks/flush');
      return { statusCode: 200, body: '' };
    };
    // Once a write through B makes a delivery (it has heard of the webhook), 40 writes through both.
    await until('a delivery of a write through B', async () => {
      assert.equal((await api(b, token, 'POST', '/api/record/account', { accountname: 'Probe' })).statusCode, 201);
      return flush();
    }, () => ours().length > 0);
    const replies = await Promise.all(Array.from({ length: 40 }, (_, i) => api(i % 2 === 0 ? a : b, token, 'POST', '/api/record/account', { accountname: `Written ${i}` })));
    assert.deepEqual(replies.map((r) => r.statusCode), replies.map(() => 201));
    const written = new Set(replies.map((r) => r.json().data.Record.accountid as string));
    // Both workers idle: every due delivery claimed has been attempted and recorded.
    await until('the deliveries', flush, () => [...written].every((id) => ours().some((r) => r.json.data.id === id)));
    const delivered = ours().map((r) => r.json.data.id as string).filter((id) => written.has(id));
    assert.equal(delivered.length, 40, 'each write delivered once');

    assert.equal((await api(a, token, 'DELETE', `/api/webhooks/${hookId}`)).statusCode, 200);
    await until('the deletion', () => api(b, token, 'GET', `/api/webhooks/${hookId}`), (status) => status === 404);
    const count = ours().length;
    assert.equal((await api(b, token, 'POST', '/api/record/account', { accountname: 'After' })).statusCode, 201);
    await flush();
    assert.equal(ours().length, count, 'no delivery for a deleted webhook');
  });

  test('makes the deliveries of a write through a server whose clock is moved ahead due at its time: a server on the real clock takes them once its clock gets there', async () => {
    const writer = await open(config(false));
    const { orgId, token } = await organization();
    const hook = await api(writer, token, 'POST', '/api/webhooks', { event: 'created', object: 'account', url: receiver.url });
    assert.equal(hook.statusCode, 201, hook.body);
    const hookId = hook.json().data.id as string;
    await control(writer, 'POST', `/organizations/${orgId}/clock/advance`, { by: '1h' });
    assert.equal((await api(writer, token, 'POST', '/api/record/account', { accountname: 'Written ahead' })).statusCode, 201);
    const states = async () => ((await api(b, token, 'GET', `/api/webhooks/${hookId}/deliveries`)).json().data.deliveries as Array<{ state: string }>).map((d) => d.state);
    await control(b, 'POST', '/webhooks/flush');
    assert.deepEqual(await states(), ['pending'], 'not due on B\'s clock');
    await control(b, 'POST', `/organizations/${orgId}/clock/advance`, { by: '1h' });
    await control(b, 'POST', '/webhooks/flush');
    assert.deepEqual(await states(), ['delivered']);
  });

  test('keeps clocks, fault rules and the journal per process, as documented', async () => {
    const { orgId, token } = await organization();
    const moved = await control(a, 'POST', `/organizations/${orgId}/clock/advance`, { by: '48h' });
    assert.equal(moved.mode, 'moved');
    assert.equal((await control(b, 'GET', `/organizations/${orgId}/clock`)).mode, 'real', 'B\'s clock is its own');
    const createdOn = async (s: Server) => Date.parse(`${(await api(s, token, 'POST', '/api/record/account', { accountname: 'Timed' })).json().data.Record.createdon}Z`);
    assert.ok(await createdOn(a) - await createdOn(b) > 47 * 3_600_000, 'records written through A carry its moved time');

    await control(a, 'POST', '/faults', { orgId, status: 503 });
    assert.equal((await api(a, token, 'GET', '/api/record/account?pagesize=1')).statusCode, 503);
    assert.equal((await api(b, token, 'GET', '/api/record/account?pagesize=1')).statusCode, 200, 'a fault rule fires on its process only');
    await control(a, 'DELETE', '/faults');

    await control(b, 'DELETE', `/organizations/${orgId}/journal`);
    await api(a, token, 'GET', '/api/record/contact?pagesize=1');
    const journal = await control(b, 'GET', `/organizations/${orgId}/journal`);
    assert.ok(!JSON.stringify(journal.items).includes('/api/record/contact'), 'B\'s journal holds B\'s requests only');
  });
});
