// ControlClient against a listening server on port 0: a method for every call of the control API's
// OpenAPI document (read from the server), and each method doing its call — organizations, roles, users and tokens,
// clocks (named, or chosen by orgId), fault rules, journal (entries, or the whole reply) and outbox, enabling a webhook and retrying a delivery.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadConfig } from '../../src/config.js';
import { ControlClient, ControlError } from '../../src/control-client.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { tempDir } from '../helpers.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';

const KEY = 'test-admin-key-0123456789abcdef';
const MIN = 60_000;

/** Methods named before every call had one, kept for their callers: the call's operationId → the method. */
const NAMED_OTHERWISE: Readonly<Record<string, string>> = {
  resetOrganization: 'reset',
  createSnapshot: 'snapshot',
  restoreSnapshot: 'restore',
  listWebhookDeliveries: 'webhookDeliveries',
};

/**
 * Calls of the document that get no method, each with the reason. None today: every call is one a
 * suite or the CLI may make. (The document itself, GET /_orchard/openapi.json, is not among its calls.)
 */
const WITHOUT_METHOD: Readonly<Record<string, string>> = {};

/** A clock's organization, mode and time. */
const pick = (c: { orgId: string | null; mode: string; now: string }) => [c.orgId, c.mode, c.now];

const rejectsWith = (code: string, status: number) => (err: unknown) => err instanceof ControlError && err.code === code && err.status === status;

describe('ControlClient covers the control API', () => {
  let dir: string;
  let server: RunningServer;
  let control: ControlClient;
  let receiver: Receiver;

  before(async () => {
    dir = tempDir('orchard-control-client-');
    server = await startServer(loadConfig({}, {
      dataDir: dir, port: 0, logLevel: 'silent', adminKey: KEY, journalSize: 20, journalBodyLimit: 512,
      webhooks: { allowPrivate: true, retryBaseMs: MIN, retryCapMs: 4 * MIN, maxAttempts: 6, disableFailures: 2, disableHours: 1, timeoutMs: 2_000 },
    }), () => {});
    control = new ControlClient({ url: server.url, adminKey: KEY });
    receiver = await startReceiver();
  });
  after(async () => {
    await server.close();
    await receiver.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A request of the service's API with `token`. */
  const api = (token: string, method: string, path: string, body?: object) => fetch(`${server.url}${path}`, {
    method, headers: { tokenid: token, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const organization = async (name: string) => {
    const made = await control.createOrganization({ name, email: `ops@${name.toLowerCase()}.example`, plan: 'enterprise' });
    return { orgId: made.organization.id, token: made.token };
  };

  test('has a method for every operation of the control API\'s OpenAPI document', async () => {
    const doc = await control.call<{ paths: Record<string, Record<string, { operationId: string }>> }>('GET', 'openapi.json');
    const operations = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    assert.ok(operations.length > 40, `${operations.length} operations read`);
    const missing = operations.filter((id) => !(id in WITHOUT_METHOD))
      .filter((id) => typeof (ControlClient.prototype as unknown as Record<string, unknown>)[NAMED_OTHERWISE[id] ?? id] !== 'function');
    assert.deepEqual(missing, [], 'give ControlClient a method for each (named as the operationId), or say in WITHOUT_METHOD why it has none');
    const stale = [...Object.keys(NAMED_OTHERWISE), ...Object.keys(WITHOUT_METHOD)].filter((id) => !operations.includes(id));
    assert.deepEqual(stale, [], 'the lists name only operations of the document');
  });

  test('organizations: create (its token works), list, update, usage, delete (its token refused)', async () => {
    const made = await control.createOrganization({ name: 'Listed', email: 'ops@listed.example', plan: 'standard' });
    assert.deepEqual([made.organization.name, made.organization.plan, made.organization.primaryUserId], ['Listed', 'standard', made.userId]);
    const id = made.organization.id;
    assert.equal((await api(made.token, 'GET', '/api/record/account')).status, 200);
    assert.ok((await control.listOrganizations()).some((o) => o.id === id && o.name === 'Listed'));
    const updated = await control.updateOrganization(id, { plan: 'enterprise', minuteLimit: 7 });
    assert.deepEqual([updated.plan, updated.minuteLimit], ['enterprise', 7]);
    const usage = await control.getOrganizationUsage(id);
    assert.equal(usage.counted, true);
    assert.equal(usage.minute?.quota, 7);
    assert.equal(usage.days.at(-1)?.count, 1, 'the one request made');
    assert.deepEqual(await control.deleteOrganization(id), { id, name: 'Listed', deleted: true });
    assert.ok(!(await control.listOrganizations()).some((o) => o.id === id));
    assert.equal((await api(made.token, 'GET', '/api/record/account')).status, 401);
    await assert.rejects(control.getOrganizationUsage(id), rejectsWith('ORGANIZATION_NOT_FOUND', 404));
  });

  test('roles, users and tokens: set and list a role, a user holding it, disabled and enabled, tokens made, revoked and rotated, deleted', async () => {
    const { orgId } = await organization('People');
    const role = await control.setRole(orgId, 'viewer', { grant: 'account:read', hide: 'account:telephone1' });
    assert.deepEqual([role.name, role.builtIn, role.grants.account], ['viewer', false, { permissions: ['read'], hidden: ['telephone1'], readOnly: [] }]);
    assert.deepEqual((await control.listRoles(orgId)).map((r) => r.name), ['admin', 'viewer']);

    const { user, token } = await control.createUser(orgId, { email: 'vi@people.example', role: 'viewer', fullname: 'Vi Ewer' });
    assert.deepEqual([user.orgId, user.role, user.fullname, user.disabled], [orgId, 'viewer', 'Vi Ewer', false]);
    assert.equal((await api(token, 'GET', '/api/record/account')).status, 200);
    assert.equal((await api(token, 'POST', '/api/record/account', { accountname: 'No' })).status, 403, 'the role reads only');
    assert.deepEqual((await control.listUsers(orgId)).map((u) => u.email), ['ops@people.example', 'vi@people.example']);

    assert.equal((await control.updateUser(user.id, { disabled: true })).disabled, true);
    assert.equal((await api(token, 'GET', '/api/record/account')).status, 401);
    const enabled = await control.updateUser(user.id, { disabled: false, role: 'admin' });
    assert.deepEqual([enabled.disabled, enabled.role], [false, 'admin']);
    assert.equal((await api(token, 'POST', '/api/record/account', { accountname: 'Yes' })).status, 201);

    const [first] = await control.listTokens(user.id);
    assert.deepEqual([first!.userId, first!.last4, first!.revokedAt], [user.id, token.slice(-4), null]);
    const second = await control.createToken(user.id);
    assert.equal(second.created.last4, second.token.slice(-4));
    assert.deepEqual((await control.listTokens(user.id)).map((t) => t.id).sort(), [first!.id, second.created.id].sort());
    assert.notEqual((await control.revokeToken(second.created.id)).revokedAt, null);
    assert.equal((await api(second.token, 'GET', '/api/record/account')).status, 401);
    const rotated = await control.rotateToken(first!.id);
    assert.deepEqual([rotated.revoked.id, rotated.created.userId], [first!.id, user.id]);
    assert.equal((await api(token, 'GET', '/api/record/account')).status, 401, 'the rotated token is revoked');
    assert.equal((await api(rotated.token, 'GET', '/api/record/account')).status, 200);

    await control.updateUser(user.id, { role: 'viewer' });
    await assert.rejects(control.deleteRole(orgId, 'viewer'), rejectsWith('ROLE_IN_USE', 409));
    assert.deepEqual(await control.deleteUser(user.id), { id: user.id, orgId, email: 'vi@people.example', deleted: true });
    assert.equal((await api(rotated.token, 'GET', '/api/record/account')).status, 401);
    assert.deepEqual(await control.deleteRole(orgId, 'viewer'), { orgId, name: 'viewer', deleted: true });
    assert.deepEqual((await control.listRoles(orgId)).map((r) => r.name), ['admin']);
  });

  test('clocks: the server\'s and an organization\'s frozen, set, advanced by a duration or milliseconds, listed and put back', async () => {
    const { orgId } = await organization('Clocked');
    try {
      const { offsetMs, ...frozen } = await control.freezeServerClock('2030-06-01T12:00:00Z');
      assert.deepEqual(frozen, { orgId: null, mode: 'frozen', now: '2030-06-01T12:00:00.000Z', inherited: false });
      assert.ok(offsetMs > 0, 'ahead of the real time');
      assert.equal((await control.getServerClock()).now, '2030-06-01T12:00:00.000Z');
      assert.equal((await control.advanceServerClock('1h')).now, '2030-06-01T13:00:00.000Z');
      assert.equal((await control.advanceServerClock(MIN)).now, '2030-06-01T13:01:00.000Z');
      assert.equal((await control.setServerClock('2031-01-01T00:00:00Z', { frozen: true })).now, '2031-01-01T00:00:00.000Z');
      const followed = await control.getOrganizationClock(orgId);
      assert.deepEqual([followed.orgId, followed.inherited, followed.now], [orgId, true, '2031-01-01T00:00:00.000Z']);

      const own = await control.freezeOrganizationClock(orgId);
      assert.deepEqual([own.mode, own.inherited, own.now], ['frozen', false, '2031-01-01T00:00:00.000Z'], 'frozen where it stood');
      assert.equal((await control.freezeOrganizationClock(orgId, '2031-05-05T05:05:05Z')).now, '2031-05-05T05:05:05.000Z');
      assert.equal((await control.setOrganizationClock(orgId, '2032-02-02T00:00:00Z', { frozen: true })).now, '2032-02-02T00:00:00.000Z');
      assert.equal((await control.advanceOrganizationClock(orgId, '1d')).now, '2032-02-03T00:00:00.000Z');
      assert.equal((await control.advanceOrganizationClock(orgId, -3_600_000)).now, '2032-02-02T23:00:00.000Z');
      assert.deepEqual((await control.listClocks()).map((c) => [c.orgId, c.now]), [[null, '2031-01-01T00:00:00.000Z'], [orgId, '2032-02-02T23:00:00.000Z']]);
      const made = await api((await control.createUser(orgId, { email: 'c@clocked.example' })).token, 'POST', '/api/record/account', { accountname: 'When' });
      assert.equal(((await made.json()) as { data: { Record: { createdon: string } } }).data.Record.createdon, '2032-02-02T23:00:00', 'a record is written on its organization\'s clock');

      const back = await control.resetOrganizationClock(orgId);
      assert.deepEqual([back.inherited, back.now], [true, '2031-01-01T00:00:00.000Z']);
    } finally {
      assert.equal((await control.resetServerClock()).mode, 'real');
    }
    assert.equal((await control.getOrganizationClock(orgId)).mode, 'real');
  });

  test('clocks by orgId: an organization\'s with its id, the server\'s with null, each leaving the other as it is', async () => {
    const { orgId } = await organization('Chosen');
    try {
      assert.deepEqual(pick(await control.freezeClock(orgId, '2040-01-01T00:00:00Z')), [orgId, 'frozen', '2040-01-01T00:00:00.000Z']);
      assert.deepEqual(pick(await control.freezeClock(null, '2041-01-01T00:00:00Z')), [null, 'frozen', '2041-01-01T00:00:00.000Z']);
      assert.deepEqual(pick(await control.advanceClock(orgId, '1h')), [orgId, 'frozen', '2040-01-01T01:00:00.000Z']);
      assert.deepEqual(pick(await control.advanceClock(null, 60_000)), [null, 'frozen', '2041-01-01T00:01:00.000Z']);
      assert.deepEqual(pick(await control.setClock(orgId, '2042-02-02T00:00:00Z', { frozen: true })), [orgId, 'frozen', '2042-02-02T00:00:00.000Z']);
      assert.deepEqual(pick(await control.getClock(null)), [null, 'frozen', '2041-01-01T00:01:00.000Z'], 'the server\'s clock stayed');
      assert.deepEqual(pick(await control.resetClock(null)).slice(0, 2), [null, 'real']);
      assert.deepEqual(pick(await control.getClock(orgId)), [orgId, 'frozen', '2042-02-02T00:00:00.000Z'], 'the organization\'s own clock stayed');
      const followed = await control.resetClock(orgId);
      assert.deepEqual([followed.orgId, followed.inherited, followed.mode], [orgId, true, 'real']);
    } finally {
      await control.resetServerClock();
    }
  });

  test('fault rules: added (a request gets the forced reply), listed, removed one by one and all', async () => {
    const { orgId, token } = await organization('Faulty');
    const rule = await control.addFaultRule({ orgId, families: ['records'], methods: ['GET'], status: 503, count: 1 });
    assert.deepEqual([rule.orgId, rule.status, rule.remaining, rule.fired], [orgId, 503, 1, 0]);
    assert.deepEqual((await control.listFaultRules({ orgId })).map((r) => r.id), [rule.id]);
    assert.ok((await control.listFaultRules()).some((r) => r.id === rule.id));
    assert.equal((await api(token, 'GET', '/api/record/account')).status, 503);
    assert.equal((await api(token, 'GET', '/api/record/account')).status, 200);
    assert.deepEqual(await control.listFaultRules({ orgId }), [], 'its count spent, the rule is gone');

    const first = await control.addFaultRule({ orgId, methods: ['DELETE'], status: 500 });
    const second = await control.addFaultRule({ orgId, methods: ['PUT'], latencyMs: 1 });
    await control.removeFaultRule(first.id);
    assert.deepEqual((await control.listFaultRules({ orgId })).map((r) => r.id), [second.id]);
    await assert.rejects(control.removeFaultRule(first.id), rejectsWith('FAULT_RULE_NOT_FOUND', 404));
    assert.equal(await control.clearFaultRules({ orgId }), 1);
    assert.deepEqual(await control.listFaultRules({ orgId }), []);
  });

  test('journal: the organization\'s requests listed newest first, filtered, and cleared', async () => {
    const { orgId, token } = await organization('Journaled');
    await api(token, 'GET', '/api/record/account');
    await api(token, 'GET', '/api/record/nothing');
    assert.deepEqual((await control.listJournal(orgId)).map((e) => [e.method, e.path, e.status]), [['GET', '/api/record/nothing', 404], ['GET', '/api/record/account', 200]]);
    const [refused] = await control.listJournal(orgId, { status: '4xx', limit: 5 });
    assert.equal(refused!.path, '/api/record/nothing');
    assert.equal(refused!.headers.tokenid, `****${token.slice(-4)}`, 'the token masked');
    const page = await control.getJournal(orgId, { status: '4xx' });
    assert.deepEqual([page.items.map((e) => e.path), page.size, page.bodyLimit], [['/api/record/nothing'], 20, 512], 'the whole reply: the entries, JOURNAL_SIZE and the body limit');
    await control.clearJournal(orgId);
    assert.deepEqual(await control.listJournal(orgId), []);
  });

  test('webhooks: one disabled for failing is enabled again; its failed delivery retried is delivered; the outbox shows each attempt and is cleared', async () => {
    const { orgId, token } = await organization('Hooked');
    await control.freezeOrganizationClock(orgId);
    receiver.answer = () => 500;
    const hook = await control.createWebhook(orgId, { event: 'created', object: 'account', url: `${receiver.url}/hooked` });
    assert.equal((await api(token, 'POST', '/api/record/account', { accountname: 'Hooked' })).status, 201);
    await control.flushWebhooks();
    // Failing since the first attempt; the next, past an hour later, is the second failure: disabled.
    await control.advanceOrganizationClock(orgId, '61m');
    await control.flushWebhooks();
    assert.equal((await control.listWebhooks(orgId))[0]!.status, 'disabled');
    const [failed] = await control.webhookDeliveries(orgId, hook.id, { state: 'failed' });
    assert.ok(failed, 'the delivery failed with the disabling');

    receiver.answer = () => 200;
    const enabled = await control.enableWebhook(orgId, hook.id);
    assert.deepEqual([enabled.id, enabled.status, enabled.failures, enabled.disabledAt], [hook.id, 'active', 0, null]);
    const retried = await control.retryWebhookDelivery(orgId, hook.id, String(failed.id));
    assert.deepEqual([retried.id, retried.state, retried.attempts], [failed.id, 'pending', 0]);
    await control.flushWebhooks();
    assert.deepEqual((await control.webhookDeliveries(orgId, hook.id, { limit: 1 })).map((d) => [d.id, d.state]), [[failed.id, 'delivered']]);
    await assert.rejects(control.retryWebhookDelivery(orgId, hook.id, String(failed.id)), rejectsWith('DELIVERY_NOT_FAILED', 409));

    const outbox = await control.listOutbox(orgId);
    assert.deepEqual(outbox.flatMap((m) => (m.kind === 'webhook-delivery' ? [m.ok] : [])), [true, false, false], 'newest first');
    assert.equal(outbox.filter((m) => m.kind === 'webhook-disabled').length, 1);
    await control.clearOutbox(orgId);
    assert.deepEqual(await control.listOutbox(orgId), []);
  });
});
