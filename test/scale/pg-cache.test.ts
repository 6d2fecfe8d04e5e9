// Token identities and organizations' definitions kept in memory on PostgreSQL, checked by the change
// listener (src/store/postgres/cache-listener.ts): two servers on one PostgreSQL, each with its own stores;
// what one changes (a token revoked or rotated, a role, a user disabled, a field or an object added)
// the other applies within the listener's bound, and while its listening connection is lost it reads
// everything on every request. Changes made behind the triggers' back (a trigger disabled) show that
// the cache is really used, so each test would fail were the invalidation missing.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { BOUND_MS, CacheListener, notifyStatement } from '../../src/store/postgres/cache-listener.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import { customFieldSpec, customObjectSpec } from '../../src/schema/custom-definitions.js';
import { loadFixtures } from '../../src/fixtures/load-fixtures.js';
import { parseFixtures } from '../../src/fixtures/parse-fixtures.js';
import { openStores, type Stores } from '../../src/stores.js';
import { tempDir } from '../helpers.js';
import { DATABASE_URL, needsPostgres, uniqueName } from '../services.js';
import { TcpProxy } from '../tcp-proxy.js';

/** Longest wait for a change to reach the other server: the listener's bound, and slack for a loaded machine. */
const WITHIN_MS = BOUND_MS + 2_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Server { readonly stores: Stores; readonly app: FastifyInstance }

describe('what one server keeps in memory on PostgreSQL, when another changes it', { skip: needsPostgres }, () => {
  let dir: string;
  let schema: string;
  let config: Config;
  let a: Server;
  let b: Server;
  let sql: pg.Client;
  let orgId: string;
  let userId: string;
  let token: string;

  const open = async (): Promise<Server> => {
    const stores = openStores(config);
    const app = await buildApp({ ...stores, config, clock: Date.now, logger: false });
    await app.ready();
    return { stores, app };
  };

  const get = (server: Server, url: string, tokenId = token) => server.app.inject({ method: 'GET', url, headers: { tokenid: tokenId } });

  /** Asks `server` until `check` holds of its reply; fails past `ms`. Returns the time it took. */
  const until = async (server: Server, url: string, tokenId: string, check: (status: number, body: string) => boolean, ms = WITHIN_MS): Promise<number> => {
    const started = Date.now();
    for (;;) {
      const res = await get(server, url, tokenId);
      if (check(res.statusCode, res.body)) return Date.now() - started;
      assert.ok(Date.now() - started < ms, `no change after ${ms} ms: ${res.statusCode} ${res.body.slice(0, 200)}`);
      await sleep(20);
    }
  };

  /** The listener of `server` is current: it answers from memory (a change hidden from the triggers goes unseen). */
  const warm = async (server: Server, url: string, tokenId = token) => {
    // The first requests start the listener; it vouches for the caches once its first ping comes back.
    await until(server, url, tokenId, (status) => status === 200);
    await sleep(100);
    assert.equal((await get(server, url, tokenId)).statusCode, 200);
  };

  /** Runs `statement` with the control tables' triggers off: a change no process hears of. */
  const unheard = async (statement: string, values: unknown[]) => {
    await sql.query('BEGIN');
    await sql.query(`ALTER TABLE "${schema}".tokens DISABLE TRIGGER tokens_changed`);
    await sql.query(statement, values);
    await sql.query(`ALTER TABLE "${schema}".tokens ENABLE TRIGGER tokens_changed`);
    await sql.query('COMMIT');
  };

  const newToken = async (): Promise<string> => a.stores.admin.createToken(userId);

  before(async () => {
    dir = tempDir('orchard-listener-');
    schema = uniqueName('cf');
    config = loadConfig({}, { dataDir: dir, databaseUrl: DATABASE_URL, databaseSchema: schema, logLevel: 'silent', rateLimits: false });
    a = await open();
    b = await open();
    ({ org: { id: orgId }, user: { id: userId }, token } = await a.stores.admin.createOrganization({ name: 'Shared', plan: 'enterprise', email: 'owner@example.com' }));
    sql = new pg.Client({ connectionString: DATABASE_URL });
    await sql.connect();
  });

  after(async () => {
    for (const s of [a, b]) {
      await s.app.close();
      await s.stores.close();
    }
    const { rows } = await sql.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname = $1 OR nspname LIKE $1 || '\\_org\\_%'", [schema]);
    for (const r of rows) await sql.query(`DROP SCHEMA "${r.nspname}" CASCADE`);
    await sql.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('keeps a token\'s identity in memory: a revocation no process hears of goes unseen', async () => {
    const kept = await newToken();
    await warm(b, '/api/record/account', kept);
    await unheard(`UPDATE "${schema}".tokens SET revoked_at = now() WHERE hash = (SELECT hash FROM "${schema}".tokens ORDER BY created_at DESC LIMIT 1)`, []);
    assert.equal((await get(b, '/api/record/account', kept)).statusCode, 200, 'served from memory');
    assert.equal((await get(a, '/api/record/account', kept)).statusCode, 401, 'a server that had not kept it reads the revocation');
  });

  test('refuses within the bound a token revoked through the other server', async () => {
    const revoked = await newToken();
    await warm(b, '/api/record/account', revoked);
    assert.equal(await a.stores.admin.revokeToken(revoked), true);
    const ms = await until(b, '/api/record/account', revoked, (status) => status === 401);
    assert.ok(ms < WITHIN_MS, `${ms} ms`);
  });

  test('refuses within the bound the old token of a rotation, and serves the new one', async () => {
    const old = await newToken();
    await warm(b, '/api/record/account', old);
    const [info] = (await a.stores.admin.listTokens(userId)).filter((t) => t.last4 === old.slice(-4));
    const { token: fresh } = await a.stores.admin.rotateToken(info!.id);
    await until(b, '/api/record/account', old, (status) => status === 401);
    assert.equal((await get(b, '/api/record/account', fresh)).statusCode, 200);
  });

  test('applies within the bound a role changed, and a user disabled, through the other server', async () => {
    const { user, token: clerk } = await a.stores.admin.createUser({ orgId, email: 'clerk@example.com' });
    await warm(b, '/api/record/account', clerk);
    await a.stores.admin.setRole({ orgId, role: 'clerk', grant: 'contact:read' });
    await a.stores.admin.setUserRole(user.id, 'clerk');
    await until(b, '/api/record/account', clerk, (status) => status === 403);
    assert.equal((await get(b, '/api/record/contact', clerk)).statusCode, 200);
    await a.stores.admin.setRole({ orgId, role: 'clerk', grant: 'contact:read;account:read' });
    await until(b, '/api/record/account', clerk, (status) => status === 200);
    await a.stores.admin.setUserDisabled(user.id, true);
    await until(b, '/api/record/account', clerk, (status) => status === 401);
  });

  test('shows within the bound a field added through the other server, or by a command that keeps nothing in memory', async () => {
    const created = await a.app.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: token }, payload: { accountname: 'Seen by B', telephone1: '1' } });
    assert.equal(created.statusCode, 201, created.body);
    const id = JSON.parse(created.body).data.Record.accountid as string;
    await warm(b, `/api/record/account/${id}`);
    const field = await a.app.inject({ method: 'POST', url: '/api/v2/system-field/1/text', headers: { tokenid: token }, payload: { label: 'Region', fieldName: 'pcfregion' } });
    assert.equal(field.statusCode, 200, field.body);
    await until(b, `/api/record/account/${id}`, token, (_s, body) => 'pcfregion' in JSON.parse(body).data.Record);
    // As the CLI opens the stores: it keeps nothing, and still tells the servers of its changes.
    const cli = openStores(config, { keepInMemory: false });
    try {
      await (await cli.records.org(orgId)).addField(1, (obj, s) => customFieldSpec(s, obj, 'text', { label: 'Zone', fieldName: 'pcfzone' }));
    } finally {
      await cli.close();
    }
    await until(b, `/api/record/account/${id}`, token, (_s, body) => 'pcfzone' in JSON.parse(body).data.Record);
  });

  test('uses at once a field or an object it has not heard of: a name its definitions lack makes it read them again', async () => {
    const created = await a.app.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: token }, payload: { accountname: 'Written through B' } });
    const id = JSON.parse(created.body).data.Record.accountid as string;
    await warm(b, `/api/record/account/${id}`);
    // A store that tells nobody (no channel): only B's second look can find what it made.
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    try {
      const silent = new PostgresRecordStore(pool, { schemaPrefix: `${schema}_org_` });
      const records = await silent.org(orgId);
      await records.addField(1, (obj, s) => customFieldSpec(s, obj, 'text', { label: 'Silent', fieldName: 'pcfsilent' }));
      const object = await records.addObject((s) => customObjectSpec(s, { name: 'Unheard Thing' }, randomUUID()));
      const updated = await b.app.inject({ method: 'PUT', url: `/api/record/account/${id}`, headers: { tokenid: token }, payload: { pcfsilent: 'yes' } });
      assert.equal(updated.statusCode, 200, updated.body);
      const list = await get(b, `/api/record/${object.objects.find((o) => o.displayName === 'Unheard Thing')!.systemName}`);
      assert.equal(list.statusCode, 200, list.body);
    } finally {
      await pool.end();
    }
  });

  test('never fails a request on a column a restore it has not heard of took away: it reads the definitions again', async () => {
    const created = await a.app.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: token }, payload: { accountname: 'Before' } });
    const id = JSON.parse(created.body).data.Record.accountid as string;
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
    try {
      const silent = new PostgresRecordStore(pool, { schemaPrefix: `${schema}_org_` });
      await silent.snapshot(orgId, 'before');
      const field = await a.app.inject({ method: 'POST', url: '/api/v2/system-field/1/text', headers: { tokenid: token }, payload: { label: 'Gone', fieldName: 'pcfgone' } });
      assert.equal(field.statusCode, 200, field.body);
      await until(b, `/api/record/account/${id}`, token, (_s, body) => 'pcfgone' in JSON.parse(body).data.Record);
      await silent.restore(orgId, 'before');
      for (const url of [`/api/record/account/${id}`, '/api/record/account']) {
        const res = await get(b, url);
        assert.equal(res.statusCode, 200, res.body);
        assert.ok(!res.body.includes('pcfgone'), res.body.slice(0, 200));
      }
    } finally {
      await pool.end();
    }
  });

  test('reads the definitions, and the webhooks, of an organization deleted and loaded again under its id through the other server, its version number the same', async () => {
    const id = randomUUID();
    const tokenId = `again-${randomUUID()}`;
    const deps = { control: a.stores.control, records: a.stores.records, clock: Date.now, allowPrivateWebhooks: true };
    // Two changes of definitions each, so both loads reach the same version number: an object and a
    // webhook on it, then the object with one more field and a view.
    const load = (fields: string[], extra: Record<string, unknown>) => loadFixtures(deps, parseFixtures({
      version: 1,
      organizations: [{
        id, name: 'Loaded again', plan: 'enterprise', users: [{ email: 'again@example.com', tokens: [tokenId] }],
        objects: [{ name: 'Trial Run', fields: fields.map((f) => ({ type: 'text', fieldName: f, label: f })) }], ...extra,
      }],
    }));
    await load(['pcfbefore'], { webhooks: [{ event: 'created', object: 'customobject1000', url: 'http://127.0.0.1:9/hook' }] });
    await warm(b, '/api/record/customobject1000', tokenId);
    const first = await b.app.inject({ method: 'POST', url: '/api/record/customobject1000', headers: { tokenid: tokenId }, payload: { name: 'Before', pcfbefore: 'x' } });
    assert.equal(first.statusCode, 201, first.body);
    const orgSchema = `${schema}_org_${id.replace(/-/g, '')}`;
    const version = async () => (await sql.query<{ v: number }>(`SELECT schema_version AS v FROM "${orgSchema}".orchard_meta`)).rows[0]!.v;
    const before = await version();
    await a.stores.admin.deleteOrganization(id);
    await load(['pcfbefore', 'pcfafter'], { views: { customobject1000: [{ name: 'After' }] } });
    assert.equal(await version(), before, 'the case this test is for: the new schema reached the old one\'s version number');
    // The new field is written through B at once (a name B lacks makes it read the definitions again)…
    const written = await b.app.inject({ method: 'POST', url: '/api/record/customobject1000', headers: { tokenid: tokenId }, payload: { name: 'After', pcfafter: 'y' } });
    assert.equal(written.statusCode, 201, written.body);
    // …with no delivery for the webhook of the organization that was deleted.
    const { rows: [deliveries] } = await sql.query<{ n: string }>(`SELECT count(*) AS n FROM "${orgSchema}".orchard_deliveries`);
    assert.equal(Number(deliveries!.n), 0, 'a delivery was made for a webhook of the deleted organization');
    await until(b, '/api/record/customobject1000', tokenId, (status, body) => status === 200 && body.includes('pcfafter'));
  });

  test('writes and reads through a server whose connections prepared the statements of an organization loaded again under its id with a field of another type', async () => {
    const id = randomUUID();
    const tokenId = `retyped-${randomUUID()}`;
    const recordId = randomUUID();
    const load = (type: string, value: unknown) => loadFixtures({ control: a.stores.control, records: a.stores.records, clock: Date.now }, parseFixtures({
      version: 1,
      organizations: [{
        id, name: 'Retyped', plan: 'enterprise', users: [{ email: 'retyped@example.com', tokens: [tokenId] }],
        fields: { account: [{ type, fieldName: 'pcfsize', label: 'Size' }] }, records: { account: [{ accountid: recordId, accountname: 'Kept', pcfsize: value }] },
      }],
    }));
    await load('text', 'large');
    await warm(b, `/api/record/account/${recordId}`, tokenId);
    const create = (pcfsize: unknown) => b.app.inject({ method: 'POST', url: '/api/record/account', headers: { tokenid: tokenId }, payload: { accountname: 'New', pcfsize } });
    assert.equal((await create('small')).statusCode, 201);
    await a.stores.admin.deleteOrganization(id);
    await load('number', 3);
    // The same statement texts, on connections that prepared them with a text column.
    const created = await create(4);
    assert.equal(created.statusCode, 201, created.body);
    const read = await get(b, `/api/record/account/${recordId}`, tokenId);
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(JSON.parse(read.body).data.Record.pcfsize, 3);
  });

  test('reads everything on every request while its listening connection is lost, and keeps things in memory again once it is back', async () => {
    const lost = await newToken();
    await warm(b, '/api/record/account', lost);
    // Both servers' listeners listen on one channel under one name; ending both leaves B without notices.
    const ended = await sql.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`orchard-cache:${schema}`]);
    assert.ok(ended.rowCount! >= 1);
    await sleep(200); // the listeners see their connection end; they connect again after a second
    await unheard(`UPDATE "${schema}".tokens SET revoked_at = now() WHERE hash = (SELECT hash FROM "${schema}".tokens ORDER BY created_at DESC LIMIT 1)`, []);
    assert.equal((await get(b, '/api/record/account', lost)).statusCode, 401, 'read from the database, not from memory');
    // Back: B keeps identities in memory again (a revocation hidden from the triggers goes unseen).
    const back = await newToken();
    await sleep(1_500);
    await warm(b, '/api/record/account', back);
    await unheard(`UPDATE "${schema}".tokens SET revoked_at = now() WHERE hash = (SELECT hash FROM "${schema}".tokens ORDER BY created_at DESC LIMIT 1)`, []);
    assert.equal((await get(b, '/api/record/account', back)).statusCode, 200);
  });
});

describe('the cache listener\'s bound', { skip: needsPostgres }, () => {
  test('vouches for caches only within the bound of the last ping it heard, and for none once closed', async () => {
    const channel = uniqueName('cfb');
    // Pings far apart: after the first, nothing renews the bound.
    const listener = new CacheListener(DATABASE_URL!, channel, { boundMs: 300, pingMs: 60_000 });
    try {
      assert.equal(listener.trusted(), false, 'not before its first ping came back');
      const started = Date.now();
      while (!listener.trusted()) {
        assert.ok(Date.now() - started < 5_000, 'the first ping never came back');
        await sleep(10);
      }
      await sleep(400);
      assert.equal(listener.trusted(), false, 'past the bound without a ping');
    } finally {
      await listener.close();
    }
    assert.equal(listener.trusted(), false);
  });

  test('tells its subscribers of every notice on its channel, and to drop everything when it connects', async () => {
    const channel = uniqueName('cfn');
    const listener = new CacheListener(DATABASE_URL!, channel);
    const heard: Array<string | null> = [];
    listener.subscribe((payload) => heard.push(payload));
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      listener.trusted();
      const started = Date.now();
      while (!listener.trusted()) {
        assert.ok(Date.now() - started < 5_000);
        await sleep(10);
      }
      await client.query(notifyStatement(channel, 'schema:x'));
      await client.query('SELECT pg_notify($1, $2)', [`${channel}_other`, 'schema:y']);
      while (heard.length < 2 && Date.now() - started < 5_000) await sleep(10);
      assert.deepEqual(heard, [null, 'schema:x']);
    } finally {
      await client.end();
      await listener.close();
    }
  });

  test('connects again when its connection stalls (bytes stop, the socket stays open), and logs the loss and the return once each', async () => {
    const proxy = await TcpProxy.start(TcpProxy.targetOf(DATABASE_URL!));
    const lines: string[] = [];
    const log = { warn: (_o: object, msg: string) => lines.push(`warn ${msg}`), info: (_o: object, msg: string) => lines.push(`info ${msg}`) };
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const listener = new CacheListener(TcpProxy.urlThrough(DATABASE_URL!, proxy), uniqueName('cfs'), { boundMs: 300, pingMs: 50, reconnectMs: 100 });
    listener.logTo(log);
    const trustedWithin = async (ms: number) => {
      const started = Date.now();
      while (!listener.trusted()) {
        assert.ok(Date.now() - started < ms, `not trusted after ${ms} ms; log: ${lines.join('; ')}`);
        await sleep(10);
      }
    };
    try {
      await trustedWithin(5_000);
      proxy.freeze();
      await sleep(400);
      assert.equal(listener.trusted(), false, 'past the bound without its ping');
      // Three bounds without its ping: the connection is given up and a new one made, through the proxy again.
      await trustedWithin(5_000);
      await sleep(300);
      assert.equal(listener.trusted(), true);
      assert.deepEqual(lines, [
        'warn Cache listener lost: identities and definitions are read from PostgreSQL on every request until it is back',
        'info Cache listener back: identities and definitions are kept in memory again',
      ]);
      assert.deepEqual(warnings.filter((w) => w.includes('already executing a query')), [], 'no ping sent while one was outstanding');
    } finally {
      process.off('warning', onWarning);
      await listener.close();
      await proxy.close();
    }
  });
});
