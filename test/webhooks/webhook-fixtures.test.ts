// Webhooks for test suites (docs/webhooks.md, docs/fixtures.md, docs/control-api.md): a fixtures
// file's `webhooks` are made when the organization is loaded (with the secret the file fixes),
// checked with their path, brought back by reset and written by an export; the control API makes,
// lists, deletes them and runs the worker now (`orchard webhook flush`), and the outbox shows each
// attempt (`orchard outbox list`).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startOrchard, type StartedOrchard } from 'orchard/testing';
import { runCli } from '../../src/cli.js';
import { parseFixtures } from '../../src/fixtures/parse-fixtures.js';
import { newSecret } from '../../src/webhooks/signing.js';
import { oneJsonObject } from '../cli/cli-runner.js';
import { acceptedBy, startReceiver, type Receiver } from './receiver.js';

const TOKEN = 'fixture-webhooks-token-01';
const SECRET = newSecret();

const organization = (webhooks: unknown) => ({
  name: 'Hooked', plan: 'enterprise',
  users: [{ email: 'qa@hooked.example', tokens: [TOKEN] }],
  records: { account: [{ accountname: 'Loaded, not sent' }] },
  webhooks,
});

/** The FIXTURE_INVALID message of a fixtures value, or null. */
function refusal(value: unknown): string | null {
  try {
    parseFixtures(value);
    return null;
  } catch (err) {
    assert.equal((err as { code?: string }).code, 'FIXTURE_INVALID');
    return (err as Error).message;
  }
}

/** A receiver and a server that loaded one organization with the webhooks `webhooks` makes of the receiver's URL, for a suite's tests. */
function served(webhooks: (url: string) => unknown[]): { receiver: Receiver; orchard: StartedOrchard; orgId: string } {
  const srv = {} as { receiver: Receiver; orchard: StartedOrchard; orgId: string };
  before(async () => {
    srv.receiver = await startReceiver();
    srv.orchard = await startOrchard({ config: { webhooks: { allowPrivate: true } }, fixtures: { organizations: [organization(webhooks(srv.receiver.url))] } });
    srv.orgId = srv.orchard.organizations[0]!.id;
  });
  after(async () => {
    await srv.orchard.close();
    await srv.receiver.close();
  });
  return srv;
}

describe('webhooks in fixtures files and the control API', () => {
  const srv = served((url) => [{ event: 'created', object: 'account', url, filter: 'statecode = 1', headers: { 'X-From': 'fixture' }, secret: SECRET }]);

  const create = (name: string) => fetch(`${srv.orchard.url}/api/record/account`, {
    method: 'POST', headers: { tokenid: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ accountname: name }),
  });

  test('a bad webhook of a file is refused with its path: its members when parsed, its filter when loaded', async () => {
    assert.match(refusal({ organizations: [organization([{ event: 'created', url: srv.receiver.url, colour: 'red' }])] })!, /^organizations\[0\]\.webhooks\[0\]\.colour: unknown member/);
    assert.match(refusal({ organizations: [organization([{ event: 'moved', url: srv.receiver.url }])] })!, /^organizations\[0\]\.webhooks\[0\]: 'event' must be one of/);
    assert.match(refusal({ organizations: [organization([{ event: 'created', object: 'acount', url: srv.receiver.url }])] })!, /^organizations\[0\]\.webhooks\[0\]\.object: unknown object 'acount'/);
    assert.match(refusal({ organizations: [organization([{ event: 'created', url: srv.receiver.url, secret: 'whsec_short' }])] })!, /^organizations\[0\]\.webhooks\[0\]: 'secret' must be/);
    await assert.rejects(
      startOrchard({ config: { webhooks: { allowPrivate: true } }, fixtures: { organizations: [organization([{ event: 'created', object: 'account', url: srv.receiver.url, filter: "nosuch = 'x'" }])] } }),
      (err: unknown) => (err as { code?: string }).code === 'FIXTURE_INVALID' && /^organizations\[0\]\.webhooks\[0\]: .*nosuch/.test((err as Error).message),
    );
    await assert.rejects(
      startOrchard({ fixtures: { organizations: [organization([{ event: 'created', url: srv.receiver.url }])] } }),
      (err: unknown) => (err as { code?: string }).code === 'FIXTURE_INVALID' && /^organizations\[0\]\.webhooks\[0\]: The webhook's URL is refused/.test((err as Error).message),
    );
  });

  test('the file\'s webhook fires from the first write after the load, signed with the file\'s secret; reset brings it back; an export writes it whole, and loaded elsewhere it delivers as it did', async () => {
    assert.equal(srv.receiver.received.length, 0, 'loading the records fired nothing');
    assert.equal((await create('First')).status, 201);
    const [got] = await srv.receiver.waitFor(1);
    assert.equal(got!.headers['x-from'], 'fixture');
    assert.deepEqual(new Webhook(SECRET).verify(got!.body, got!.headers), got!.json);

    const [hook] = await srv.orchard.control.listWebhooks(srv.orgId);
    await srv.orchard.control.deleteWebhook(srv.orgId, hook!.id);
    assert.deepEqual(await srv.orchard.control.listWebhooks(srv.orgId), []);
    await srv.orchard.control.reset(srv.orgId);
    const [back] = await srv.orchard.control.listWebhooks(srv.orgId);
    assert.deepEqual([back!.id, back!.headers], [hook!.id, { 'X-From': '****' }], 'shown masked');
    // A test event of the webhook brought back: sent with the file's value, signed with its secret.
    /** The test event a server's webhook `id` of organization `org` sends, once flushed. */
    const testEvent = async (server: StartedOrchard, org: string, id: string) => {
      const made = await server.control.testWebhook(org, id);
      await server.control.flushWebhooks();
      const got = srv.receiver.received.find((r) => r.headers['webhook-id'] === made.id)!;
      assert.equal(got.json.type, 'webhook.test');
      assert.deepEqual(new Webhook(SECRET).verify(got.body, got.headers), got.json);
      return got;
    };
    assert.equal((await testEvent(srv.orchard, srv.orgId, hook!.id)).headers['x-from'], 'fixture');

    const exported = await srv.orchard.control.exportOrganization(srv.orgId) as { organizations: Array<{ webhooks: unknown[] }> };
    assert.deepEqual(exported.organizations[0]!.webhooks, [{ id: hook!.id, event: 'created', object: 'account', url: srv.receiver.url, method: 'POST', filter: 'statecode = 1', headers: { 'X-From': 'fixture' }, secret: SECRET }]);
    assert.equal(refusal(exported), null, 'the export is a valid fixtures value');
    // Loaded by another server, the export's webhook sends what the original sent.
    const elsewhere = await startOrchard({ config: { webhooks: { allowPrivate: true } }, fixtures: exported });
    try {
      assert.equal((await testEvent(elsewhere, elsewhere.organizations[0]!.id, hook!.id)).headers['x-from'], 'fixture');
    } finally {
      await elsewhere.close();
    }
  });

  test('the control API makes a webhook with a chosen secret; flush attempts what came due on a moved clock; the outbox shows each attempt', async () => {
    const secret = newSecret();
    const made = await srv.orchard.control.createWebhook(srv.orgId, { event: 'created', object: 'account', url: `${srv.receiver.url}/flaky`, secret });
    assert.equal(made.secret, secret);
    let refuse = true;
    srv.receiver.answer = (r) => (r.path.endsWith('/flaky') && refuse ? 503 : 200);
    await create('Flaky');
    await srv.orchard.control.flushWebhooks();
    let [d] = await srv.orchard.control.webhookDeliveries(srv.orgId, made.id);
    assert.deepEqual([d!.state, d!.attempts, d!.lastStatus], ['pending', 1, 503]);
    refuse = false;
    await srv.orchard.control.call('POST', `organizations/${srv.orgId}/clock/advance`, { by: '11s' });
    const cli = async (args: string[]) => {
      let stdout = '';
      const code = await runCli(['--json', ...args], { env: { ADMIN_KEY: srv.orchard.adminKey, ORCHARD_URL: srv.orchard.url }, output: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } } });
      assert.equal(code, 0, stdout);
      return oneJsonObject({ code, stdout, stderr: '' }) as Record<string, any>;
    };
    assert.deepEqual(await cli(['webhook', 'flush']), { flushed: true });
    [d] = await srv.orchard.control.webhookDeliveries(srv.orgId, made.id);
    assert.deepEqual([d!.state, d!.attempts, d!.lastStatus], ['delivered', 2, 200]);
    assert.deepEqual((await srv.orchard.control.webhookDeliveries(srv.orgId, made.id, { state: 'delivered' })).map((x) => x.id), [d!.id]);
    assert.deepEqual(await srv.orchard.control.webhookDeliveries(srv.orgId, made.id, { state: 'pending' }), []);
    const { items } = await cli(['outbox', 'list', '--org', srv.orgId]);
    const attempts = (items as Array<Record<string, any>>).filter((m) => m.kind === 'webhook-delivery' && m.webhookId === made.id);
    assert.deepEqual(attempts.map((m) => [m.attempt, m.ok, m.status, m.to]), [[2, true, 200, `${srv.receiver.url}/flaky`], [1, false, 503, `${srv.receiver.url}/flaky`]]);
    await srv.orchard.control.deleteWebhook(srv.orgId, made.id);
  });

  test('the control API rotates a secret, chosen or made, on the organization\'s clock: both sign until then; an export writes both and the end', async () => {
    const [s1, s2] = [newSecret(), newSecret()];
    const made = await srv.orchard.control.createWebhook(srv.orgId, { event: 'created', object: 'account', url: `${srv.receiver.url}/rotated`, secret: s1 });
    const at = '2026-06-01T00:00:00.000Z';
    await srv.orchard.control.call('POST', `organizations/${srv.orgId}/clock/freeze`, { at });
    try {
      const rotated = await srv.orchard.control.rotateWebhookSecret(srv.orgId, made.id, { expiresInHours: 2, secret: s2 });
      assert.deepEqual([rotated.id, rotated.secret, rotated.previousSecretExpiresAt], [made.id, s2, '2026-06-01T02:00:00.000Z']);
      assert.equal((await srv.orchard.control.listWebhooks(srv.orgId)).find((h) => h.id === made.id)!.previousSecretExpiresAt, '2026-06-01T02:00:00.000Z');
      const start = srv.receiver.received.length;
      await create('Rotated');
      await srv.orchard.control.flushWebhooks();
      const got = srv.receiver.received.slice(start).find((r) => r.path.endsWith('/rotated'))!;
      for (const secret of [s1, s2]) assert.deepEqual(new Webhook(secret).verify(got.body, got.headers), got.json);

      const exported = await srv.orchard.control.exportOrganization(srv.orgId) as { organizations: Array<{ webhooks: Array<Record<string, unknown>> }> };
      const written = exported.organizations[0]!.webhooks.find((h) => h.id === made.id)!;
      assert.deepEqual([written.secret, written.previousSecret, written.previousSecretExpiresAt], [s2, s1, '2026-06-01T02:00:00.000Z']);
      assert.deepEqual(parseFixtures(exported).organizations[0]!.webhooks.find((h) => h.id === made.id)!.previous, { secret: s1, expiresAt: '2026-06-01T02:00:00.000Z' });

      // A member it does not take, an hour past the most (the body's schema), a secret that is not one: refused.
      for (const [body, code] of [[{ colour: 'red' }, 'BODY_INVALID'], [{ expiresInHours: 169 }, 'BODY_INVALID'], [{ secret: 'whsec_short' }, 'WEBHOOK_INVALID']] as const) {
        await assert.rejects(srv.orchard.control.rotateWebhookSecret(srv.orgId, made.id, body as object), (err: unknown) => (err as { status?: number }).status === 400 && (err as { code?: string }).code === code, JSON.stringify(body));
      }
      // No body: a secret made, the one replaced signing for 24 hours.
      const made2 = await srv.orchard.control.call<{ secret: string; previousSecretExpiresAt: string }>('POST', `organizations/${srv.orgId}/webhooks/${made.id}/rotate-secret`);
      assert.match(made2.secret, /^whsec_/);
      assert.equal(made2.previousSecretExpiresAt, '2026-06-02T00:00:00.000Z');
    } finally {
      await srv.orchard.control.call('DELETE', `organizations/${srv.orgId}/clock`);
      await srv.orchard.control.deleteWebhook(srv.orgId, made.id);
    }
  });
});

describe('a webhook in the middle of a secret\'s rotation in a fixtures file', () => {
  const [s1, s2] = [newSecret(), newSecret()];
  const expiresAt = '2026-06-01T02:00:00.000Z';
  const srv = served((url) => [{ event: 'created', object: 'account', url, secret: s2, previousSecret: s1, previousSecretExpiresAt: expiresAt }]);

  test('is refused without both members or with a bad one, with its path', () => {
    const hook = (members: object) => ({ organizations: [organization([{ event: 'created', url: srv.receiver.url, secret: s2, ...members }])] });
    assert.match(refusal(hook({ previousSecret: s1 }))!, /^organizations\[0\]\.webhooks\[0\]\.previousSecret: needs previousSecretExpiresAt/);
    assert.match(refusal(hook({ previousSecretExpiresAt: expiresAt }))!, /^organizations\[0\]\.webhooks\[0\]\.previousSecretExpiresAt: needs previousSecret/);
    assert.match(refusal(hook({ previousSecret: 'whsec_short', previousSecretExpiresAt: expiresAt }))!, /\.previousSecret: must be 'whsec_'/);
    assert.match(refusal(hook({ previousSecret: s1, previousSecretExpiresAt: '2026-06-01 02:00' }))!, /\.previousSecretExpiresAt: must be a UTC date and time/);
  });

  test('signs with both secrets until the file\'s time on the organization\'s clock, then with its secret alone', async () => {
    const signedWith = async (name: string) => {
      const start = srv.receiver.received.length;
      assert.equal((await fetch(`${srv.orchard.url}/api/record/account`, {
        method: 'POST', headers: { tokenid: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ accountname: name }),
      })).status, 201);
      await srv.orchard.control.flushWebhooks();
      const [got] = srv.receiver.received.slice(start);
      return acceptedBy(got!, [s1, s2]);
    };
    await srv.orchard.control.call('POST', `organizations/${srv.orgId}/clock/freeze`, { at: '2026-06-01T01:59:59.999Z' });
    assert.deepEqual(await signedWith('Before'), [true, true]);
    assert.equal((await srv.orchard.control.listWebhooks(srv.orgId))[0]!.previousSecretExpiresAt, expiresAt);
    await srv.orchard.control.call('POST', `organizations/${srv.orgId}/clock/freeze`, { at: expiresAt });
    assert.deepEqual(await signedWith('After'), [false, true]);
    assert.equal((await srv.orchard.control.listWebhooks(srv.orgId))[0]!.previousSecretExpiresAt, null);

    // A reset brings back the file's secrets: a rotation since is undone.
    const [hook] = await srv.orchard.control.listWebhooks(srv.orgId);
    await srv.orchard.control.rotateWebhookSecret(srv.orgId, hook!.id, { expiresInHours: 0 });
    await srv.orchard.control.reset(srv.orgId);
    await srv.orchard.control.call('POST', `organizations/${srv.orgId}/clock/freeze`, { at: '2026-06-01T01:00:00.000Z' });
    assert.deepEqual(await signedWith('Reset'), [true, true]);
  });
});
