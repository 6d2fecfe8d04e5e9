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
import { startReceiver, type Receiver } from './receiver.js';

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

describe('webhooks in fixtures files and the control API', () => {
  let receiver: Receiver;
  let orchard: StartedOrchard;
  let orgId: string;
  before(async () => {
    receiver = await startReceiver();
    orchard = await startOrchard({
      config: { webhooks: { allowPrivate: true } },
      fixtures: { organizations: [organization([{ event: 'created', object: 'account', url: receiver.url, filter: 'statecode = 1', headers: { 'X-From': 'fixture' }, secret: SECRET }])] },
    });
    orgId = orchard.organizations[0]!.id;
  });
  after(async () => {
    await orchard.close();
    await receiver.close();
  });

  const create = (name: string) => fetch(`${orchard.url}/api/record/account`, {
    method: 'POST', headers: { tokenid: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ accountname: name }),
  });

  test('a bad webhook of a file is refused with its path: its members when parsed, its filter when loaded', async () => {
    assert.match(refusal({ organizations: [organization([{ event: 'created', url: receiver.url, colour: 'red' }])] })!, /^organizations\[0\]\.webhooks\[0\]\.colour: unknown member/);
    assert.match(refusal({ organizations: [organization([{ event: 'moved', url: receiver.url }])] })!, /^organizations\[0\]\.webhooks\[0\]: 'event' must be one of/);
    assert.match(refusal({ organizations: [organization([{ event: 'created', object: 'acount', url: receiver.url }])] })!, /^organizations\[0\]\.webhooks\[0\]\.object: unknown object 'acount'/);
    assert.match(refusal({ organizations: [organization([{ event: 'created', url: receiver.url, secret: 'whsec_short' }])] })!, /^organizations\[0\]\.webhooks\[0\]: 'secret' must be/);
    await assert.rejects(
      startOrchard({ config: { webhooks: { allowPrivate: true } }, fixtures: { organizations: [organization([{ event: 'created', object: 'account', url: receiver.url, filter: "nosuch = 'x'" }])] } }),
      (err: unknown) => (err as { code?: string }).code === 'FIXTURE_INVALID' && /^organizations\[0\]\.webhooks\[0\]: .*nosuch/.test((err as Error).message),
    );
    await assert.rejects(
      startOrchard({ fixtures: { organizations: [organization([{ event: 'created', url: receiver.url }])] } }),
      (err: unknown) => (err as { code?: string }).code === 'FIXTURE_INVALID' && /^organizations\[0\]\.webhooks\[0\]: The webhook's URL is refused/.test((err as Error).message),
    );
  });

  test('the file\'s webhook fires from the first write after the load, signed with the file\'s secret; reset brings it back; an export writes it whole, and loaded elsewhere it delivers as it did', async () => {
    assert.equal(receiver.received.length, 0, 'loading the records fired nothing');
    assert.equal((await create('First')).status, 201);
    const [got] = await receiver.waitFor(1);
    assert.equal(got!.headers['x-from'], 'fixture');
    assert.deepEqual(new Webhook(SECRET).verify(got!.body, got!.headers), got!.json);

    const [hook] = await orchard.control.listWebhooks(orgId);
    await orchard.control.deleteWebhook(orgId, hook!.id);
    assert.deepEqual(await orchard.control.listWebhooks(orgId), []);
    await orchard.control.reset(orgId);
    const [back] = await orchard.control.listWebhooks(orgId);
    assert.deepEqual([back!.id, back!.headers], [hook!.id, { 'X-From': '****' }], 'shown masked');
    // A test event of the webhook brought back: sent with the file's value, signed with its secret.
    /** The test event a server's webhook `id` of organization `org` sends, once flushed. */
    const testEvent = async (server: StartedOrchard, org: string, id: string) => {
      const made = await server.control.testWebhook(org, id);
      await server.control.flushWebhooks();
      const got = receiver.received.find((r) => r.headers['webhook-id'] === made.id)!;
      assert.equal(got.json.type, 'webhook.test');
      assert.deepEqual(new Webhook(SECRET).verify(got.body, got.headers), got.json);
      return got;
    };
    assert.equal((await testEvent(orchard, orgId, hook!.id)).headers['x-from'], 'fixture');

    const exported = await orchard.control.exportOrganization(orgId) as { organizations: Array<{ webhooks: unknown[] }> };
    assert.deepEqual(exported.organizations[0]!.webhooks, [{ id: hook!.id, event: 'created', object: 'account', url: receiver.url, method: 'POST', filter: 'statecode = 1', headers: { 'X-From': 'fixture' }, secret: SECRET }]);
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
    const made = await orchard.control.createWebhook(orgId, { event: 'created', object: 'account', url: `${receiver.url}/flaky`, secret });
    assert.equal(made.secret, secret);
    let refuse = true;
    receiver.answer = (r) => (r.path.endsWith('/flaky') && refuse ? 503 : 200);
    await create('Flaky');
    await orchard.control.flushWebhooks();
    let [d] = await orchard.control.webhookDeliveries(orgId, made.id);
    assert.deepEqual([d!.state, d!.attempts, d!.lastStatus], ['pending', 1, 503]);
    refuse = false;
    await orchard.control.call('POST', `organizations/${orgId}/clock/advance`, { by: '11s' });
    const cli = async (args: string[]) => {
      let stdout = '';
      const code = await runCli(['--json', ...args], { env: { ADMIN_KEY: orchard.adminKey, ORCHARD_URL: orchard.url }, output: { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } } });
      assert.equal(code, 0, stdout);
      return oneJsonObject({ code, stdout, stderr: '' }) as Record<string, any>;
    };
    assert.deepEqual(await cli(['webhook', 'flush']), { flushed: true });
    [d] = await orchard.control.webhookDeliveries(orgId, made.id);
    assert.deepEqual([d!.state, d!.attempts, d!.lastStatus], ['delivered', 2, 200]);
    assert.deepEqual((await orchard.control.webhookDeliveries(orgId, made.id, { state: 'delivered' })).map((x) => x.id), [d!.id]);
    assert.deepEqual(await orchard.control.webhookDeliveries(orgId, made.id, { state: 'pending' }), []);
    const { items } = await cli(['outbox', 'list', '--org', orgId]);
    const attempts = (items as Array<Record<string, any>>).filter((m) => m.kind === 'webhook-delivery' && m.webhookId === made.id);
    assert.deepEqual(attempts.map((m) => [m.attempt, m.ok, m.status, m.to]), [[2, true, 200, `${receiver.url}/flaky`], [1, false, 503, `${receiver.url}/flaky`]]);
    await orchard.control.deleteWebhook(orgId, made.id);
  });
});
