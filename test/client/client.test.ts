// The typed client (packages/client, imported by its package name) against a real Orchard on port 0:
// typed record calls, auto-paging lists and queries, retries of 429 (after Retry-After) and 503
// (bounded), errors carrying the server's message and code; and its types are those of this build.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createOrchardClient, OrchardApiError, retryAfterMs, retryingFetch, type OrchardClient } from 'orchard-client';
import { loadConfig } from '../../src/config.js';
import { ControlClient } from '../../src/control-client.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { tempDir } from '../helpers.js';
import { clientTypes, TYPES_FILE } from './client-types.js';

const KEY = 'client-test-admin-key-0123456789';

/** Every row an iterator yields. */
async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

test('packages/client/src/openapi.ts is what this build\'s OpenAPI document generates (npm run client:types)', async () => {
  assert.equal(fs.readFileSync(TYPES_FILE, 'utf8'), await clientTypes(), 'stale: run npm run client:types');
});

test('Retry-After in seconds or as an HTTP date', () => {
  assert.equal(retryAfterMs('7'), 7000);
  assert.equal(retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('2015-10-21T07:28:00Z')), 10_000);
  assert.equal(retryAfterMs(null), undefined);
  assert.equal(retryAfterMs('soon'), undefined);
});

test('a 503 without Retry-After (from a server that sends none) is retried after a growing pause', async () => {
  const waits: number[] = [];
  let calls = 0;
  const fetching = retryingFetch(async () => new Response('{}', { status: ++calls <= 3 ? 503 : 200 }), { sleep: async (ms) => void waits.push(ms) });
  assert.equal((await fetching(new Request('http://orchard.test/api/record/account'))).status, 200);
  assert.deepEqual(waits, [250, 500, 1000]);
});

describe('against a listening Orchard', () => {
  let dir: string;
  let server: RunningServer;
  let control: ControlClient;
  let orgId: string;
  let token: string;
  let client: OrchardClient;
  const waits: number[] = [];
  const SEEDED = 120;

  before(async () => {
    dir = tempDir('orchard-client-');
    server = await startServer(loadConfig({}, { dataDir: dir, port: 0, logLevel: 'silent', adminKey: KEY }), () => {});
    control = new ControlClient({ url: server.url, adminKey: KEY });
    const made = await control.call<{ organization: { id: string }; token: string }>('POST', 'organizations', { name: 'Client', email: 'c@x.example', plan: 'enterprise', minuteLimit: 100_000 });
    orgId = made.organization.id;
    token = made.token;
    await server.stores.admin.seed({ orgId, object: 'account', count: SEEDED, seed: 3 });
    client = createOrchardClient({ baseUrl: server.url + '/', token, retry: { sleep: async (ms) => void waits.push(ms) } });
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('create, get, update and delete a record', async () => {
    const made = await client.createRecord('account', { accountname: 'Typed Ltd', telephone1: '555' });
    const id = String(made.accountid);
    assert.equal((await client.getRecord('account', id)).accountname, 'Typed Ltd');
    assert.equal((await client.updateRecord(1, id, { telephone1: '556' })).telephone1, '556');
    await client.deleteRecord('account', id);
    await assert.rejects(client.getRecord('account', id), (err: unknown) =>
      err instanceof OrchardApiError && err.status === 404 && err.code === 'RECORD_NOT_FOUND' && err.message === `No account record has id '${id}'.` && err.requestId !== null);
  });

  test('listRecords pages through every record', async () => {
    const ids: string[] = [];
    for await (const r of client.listRecords('account', { pageSize: 50 })) ids.push(String(r.accountid));
    assert.equal(ids.length, SEEDED);
    assert.equal(new Set(ids).size, SEEDED);
  });

  test('query and v3Query page until the last page', async () => {
    const names: string[] = [];
    for await (const row of client.query({ objecttype: 1, fields: 'accountid,accountname', page_size: 50, sort_by: 'accountname' })) names.push(String(row.accountid));
    assert.equal(new Set(names).size, SEEDED);
    const v3: string[] = [];
    for await (const row of client.v3Query({ objectType: 'account', fields: [{ name: 'accountname' }], pageSize: 40 })) v3.push(String(row._id));
    assert.equal(new Set(v3).size, SEEDED);
    await assert.rejects(all(client.query({ objecttype: 1, fields: 'nope' })), (err: unknown) =>
      err instanceof OrchardApiError && err.status === 400 && err.code === 'FIELD_UNKNOWN' && /nope/.test(err.message));
    await assert.rejects(all(client.v3Query({ objectType: 'nothing' })), (err: unknown) =>
      err instanceof OrchardApiError && err.status === 404 && err.code === 'OBJECT_UNKNOWN' && err.message.length > 0);
  });

  test('a 429 and a 503 are retried after their Retry-After', async () => {
    waits.length = 0;
    await control.call('POST', 'faults', { orgId, status: 429, retryAfter: 2, count: 2 });
    assert.equal((await client.listPage('account', { pageSize: 1 })).Records.length, 1);
    assert.deepEqual(waits, [2000, 2000]);
    waits.length = 0;
    await control.call('POST', 'faults', { orgId, status: 503, count: 3, methods: ['POST'] });
    assert.equal((await client.createRecord('account', { accountname: 'After 503s' })).accountname, 'After 503s', 'the body is sent again');
    assert.deepEqual(waits, [5000, 5000, 5000], 'the Retry-After of STORE_UNAVAILABLE');
  });

  test('retries are bounded; a wait over maxDelayMs is not made; the error carries the code', async () => {
    const once = createOrchardClient({ baseUrl: server.url, token, retry: { retries: 1, sleep: async () => {} } });
    await control.call('POST', 'faults', { orgId, status: 503, count: 2 });
    await assert.rejects(once.listPage('account'), (err: unknown) => err instanceof OrchardApiError && err.status === 503 && err.code === 'STORE_UNAVAILABLE');
    await control.call('DELETE', 'faults');
    await control.call('POST', 'faults', { orgId, status: 429, window: 'day', count: 1 });
    const started = waits.length;
    await assert.rejects(client.listPage('account'), (err: unknown) =>
      err instanceof OrchardApiError && err.status === 429 && err.code === 'LIMIT_DAY' && err.retryAfter! > 60 && /Daily request limit/.test(err.message));
    assert.equal(waits.length, started, 'no wait until 00:00 UTC');
    const off = createOrchardClient({ baseUrl: server.url, token, retry: { retries: 0 } });
    await control.call('POST', 'faults', { orgId, status: 429, retryAfter: 1, count: 1 });
    await assert.rejects(off.listPage('account'), (err: unknown) => err instanceof OrchardApiError && err.code === 'LIMIT_MINUTE' && err.retryAfter === 1);
  });

  test('a call whose body every member of which is optional compiles and works without one: a secret rotated, a view run, a field added', async () => {
    const hook = await control.createWebhook(orgId, { event: 'created', url: 'https://hooks.example.com/typed' });
    // No `body`: the types say it is optional (tsc compiles this file in the build).
    const rotated = await client.api.POST('/api/webhooks/{id}/rotate-secret', { params: { path: { id: hook.id } } });
    assert.equal(rotated.response.status, 200);
    assert.match(rotated.data!.data.secret, /^whsec_/);
    assert.notEqual(rotated.data!.data.secret, hook.secret);
    assert.notEqual(rotated.data!.data.previousSecretExpiresAt, null, 'the replaced secret signs on for the default 24 hours');
    const view = await client.api.POST('/api/v2/views/{ot}/{viewId}', { params: { path: { ot: 'account', viewId: 'default' } } });
    assert.deepEqual([view.response.status, view.data!.data.ViewName], [200, 'All Accounts']);
    const field = await client.api.POST('/api/v2/system-field/{ot}/{type}', { params: { path: { ot: 'account', type: 'text' } } });
    assert.equal(field.response.status, 200);
    assert.match(field.data!.data.systemField[0]!.fieldname, /^pcfsystemfield\d+$/);
  });

  test('a bad token is a 401 with its code', async () => {
    const wrong = createOrchardClient({ baseUrl: server.url, token: '00000000-0000-4000-8000-000000000000' });
    await assert.rejects(wrong.listPage('account'), (err: unknown) => err instanceof OrchardApiError && err.status === 401 && err.code === 'TOKEN_INVALID');
  });
});
