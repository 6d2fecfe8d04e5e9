// `orchard webhook create | list | delete | test | deliveries | rotate-secret` as scripts run them
// (--json), on the data directory a server uses: `create` prints {id, secret} once, the webhook is the
// API's (its header values masked), refusals carry the API's codes, and a private URL needs
// WEBHOOK_ALLOW_PRIVATE=true; a test event made there, and the webhook's header values, survive
// orchard backup and restore; `rotate-secret` prints the new secret once, the old one signing beside
// it for the hours asked.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { runCli } from '../../src/cli.js';
import { tempDir } from '../helpers.js';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openStores } from '../../src/stores.js';
import { fails, ok, oneJsonObject, run } from '../cli/cli-runner.js';
import { startReceiver } from './receiver.js';

/** `orchard --data-dir <dir> --json …` with WEBHOOK_ALLOW_PRIVATE=true. */
async function okPrivate(dir: string, args: readonly string[]): Promise<Record<string, any>> {
  let stdout = '';
  const output = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } };
  const code = await runCli(['--data-dir', dir, '--json', ...args], { env: { WEBHOOK_ALLOW_PRIVATE: 'true' }, output });
  const body = oneJsonObject({ code, stdout, stderr: '' });
  assert.equal(code, 0, JSON.stringify(body));
  return body;
}

describe('orchard webhook', () => {
  let dir: string;
  let org: { id: string };
  before(async () => {
    dir = tempDir('orchard-webhook-cli-');
    org = await ok(dir, ['org', 'create', '--name', 'Acme', '--plan', 'enterprise', '--email', 'ops@acme.example']) as typeof org;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('create prints {id, secret}; list shows it (no secret, header values masked) as the API does, lists as {items}; delete removes it', async () => {
    const made = await okPrivate(dir, ['webhook', 'create', '--org', org.id, '--event', 'updated', '--object', 'account', '--url', 'http://127.0.0.1:9/h',
      '--filter', 'statecode = 1', '--header', 'X-Api-Key: k-1', '--header', 'Authorization: Bearer sk_live_0123456789abcdef', '--method', 'PUT']);
    assert.deepEqual(Object.keys(made), ['id', 'secret']);
    assert.match(made.secret, /^whsec_/);
    const { items: webhooks } = await ok(dir, ['webhook', 'list', '--org', org.id]) as { items: Array<Record<string, unknown>> };
    assert.equal(webhooks.length, 1);
    assert.deepEqual({ ...webhooks[0], createdAt: undefined }, {
      id: made.id, event: 'updated', object: 'account', objectType: 1, url: 'http://127.0.0.1:9/h', method: 'PUT', filter: 'statecode = 1',
      headers: { 'X-Api-Key': '****', Authorization: '****cdef' }, createdAt: undefined, status: 'active', disabledAt: null, failures: 0, failingSince: null, previousSecretExpiresAt: null,
    });
    assert.doesNotMatch((await run(['--data-dir', dir, 'webhook', 'list', '--org', org.id])).stdout, /k-1|sk_live/, 'nor the text');
    assert.deepEqual(await ok(dir, ['webhook', 'deliveries', '--org', org.id, '--id', made.id]), { items: [] });
    assert.deepEqual(await ok(dir, ['webhook', 'deliveries', '--org', org.id, '--id', made.id, '--state', 'failed']), { items: [] });
    await fails(dir, ['webhook', 'deliveries', '--org', org.id, '--id', made.id, '--state', 'sent'], 'USAGE');
    // Enable (what the control API's enable does to a disabled one: test/webhooks/delivery.test.ts): an active one stays so.
    const enabled = await ok(dir, ['webhook', 'enable', '--org', org.id, '--id', made.id]);
    assert.deepEqual([enabled.id, enabled.status, enabled.failures], [made.id, 'active', 0]);
    assert.deepEqual(await ok(dir, ['webhook', 'delete', '--org', org.id, '--id', made.id]), { deleted: true });
    assert.deepEqual(await ok(dir, ['webhook', 'list', '--org', org.id]), { items: [] });
    await fails(dir, ['webhook', 'delete', '--org', org.id, '--id', made.id], 'WEBHOOK_NOT_FOUND');
    const gone = await fails(dir, ['webhook', 'enable', '--org', org.id, '--id', made.id], 'WEBHOOK_NOT_FOUND');
    assert.match(gone.message, /orchard webhook list --org/);
  });

  test('list\'s text names a webhook that is failing, with its failures and since when, and a disabled one', async () => {
    const made = await okPrivate(dir, ['webhook', 'create', '--org', org.id, '--event', 'created', '--url', 'http://127.0.0.1:9/failing']);
    const db = new Database(path.join(dir, 'orgs', `${org.id}.db`));
    db.prepare('UPDATE orchard_webhooks SET failures = 3, failing_since = ? WHERE id = ?').run(Date.parse('2026-03-01T12:00:00Z'), made.id);
    db.close();
    const listed = await run(['--data-dir', dir, 'webhook', 'list', '--org', org.id]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${made.id} .*http://127\\.0\\.0\\.1:9/failing .*\\(failing: 3 attempts since 2026-03-01T12:00:00`, 'm'));
    await ok(dir, ['webhook', 'delete', '--org', org.id, '--id', made.id]);
  });

  test('test makes a pending test event; deliveries --state lists one state; with the header values, both survive a backup restored, where a server delivers them whole', async () => {
    const receiver = await startReceiver();
    const restored = tempDir('orchard-webhook-restored-');
    const backupDir = path.join(tempDir('orchard-webhook-backup-'), 'b');
    try {
      const made = await okPrivate(dir, ['webhook', 'create', '--org', org.id, '--event', 'created', '--url', `${receiver.url}/restored`, '--header', 'Authorization: Bearer sk_live_0123456789abcdef']);
      const test = await ok(dir, ['webhook', 'test', '--org', org.id, '--id', made.id]);
      assert.deepEqual([test.webhookId, test.event, test.recordId, test.state, test.attempts], [made.id, 'test', null, 'pending', 0]);
      const text = await run(['--data-dir', dir, 'webhook', 'deliveries', '--org', org.id, '--id', made.id]);
      assert.match(text.stdout, /^\S+ {2}test event {2}pending, 0 attempts$/m);
      assert.deepEqual(((await ok(dir, ['webhook', 'deliveries', '--org', org.id, '--id', made.id, '--state', 'pending'])).items as Array<{ id: string }>).map((d: { id: string }) => d.id), [test.id]);
      assert.deepEqual(await ok(dir, ['webhook', 'deliveries', '--org', org.id, '--id', made.id, '--state', 'delivered']), { items: [] });

      await ok(dir, ['backup', '--to', backupDir]);
      await ok(restored, ['restore', '--from', backupDir]);
      const config = loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { dataDir: restored, logLevel: 'silent' });
      const stores = openStores(config);
      const app = await buildApp({ ...stores, config, clock: Date.now, logger: false });
      try {
        await app.ready();
        await app.webhooks.idle();
        const [got] = await receiver.waitFor(1);
        assert.deepEqual([got!.headers['webhook-id'], got!.json.type, got!.headers.authorization], [test.id, 'webhook.test', 'Bearer sk_live_0123456789abcdef']);
      } finally {
        await app.close();
        await stores.close();
      }
      await ok(dir, ['webhook', 'delete', '--org', org.id, '--id', made.id]);
    } finally {
      await receiver.close();
      fs.rmSync(restored, { recursive: true, force: true });
      fs.rmSync(path.dirname(backupDir), { recursive: true, force: true });
    }
  });

  test('rotate-secret prints {id, secret, previousSecretExpiresAt}: the old secret signs beside the new one until then, or not at all with --expires-in-hours 0', async () => {
    const made = await okPrivate(dir, ['webhook', 'create', '--org', org.id, '--event', 'created', '--url', 'http://127.0.0.1:9/rotated']);
    const stored = () => {
      const db = new Database(path.join(dir, 'orgs', `${org.id}.db`));
      try {
        return db.prepare('SELECT secret, previous_secret AS previous, previous_secret_expires_at AS until FROM orchard_webhooks WHERE id = ?').get(made.id) as { secret: string; previous: string | null; until: number | null };
      } finally {
        db.close();
      }
    };
    const before = Date.now();
    const rotated = await ok(dir, ['webhook', 'rotate-secret', '--org', org.id, '--id', made.id]) as { id: string; secret: string; previousSecretExpiresAt: string };
    assert.deepEqual(Object.keys(rotated), ['id', 'secret', 'previousSecretExpiresAt']);
    assert.equal(rotated.id, made.id);
    assert.notEqual(rotated.secret, made.secret);
    // By default 24 hours from the command (real time: the CLI has no moved clocks).
    const until = Date.parse(rotated.previousSecretExpiresAt);
    assert.ok(until >= before + 24 * 3_600_000 && until <= Date.now() + 24 * 3_600_000, rotated.previousSecretExpiresAt);
    assert.deepEqual(stored(), { secret: rotated.secret, previous: made.secret, until });
    const { items } = await ok(dir, ['webhook', 'list', '--org', org.id]) as { items: Array<Record<string, unknown>> };
    assert.equal(items.find((h) => h.id === made.id)!.previousSecretExpiresAt, rotated.previousSecretExpiresAt);

    const human = await run(['--data-dir', dir, 'webhook', 'rotate-secret', '--org', org.id, '--id', made.id, '--expires-in-hours', '2']);
    assert.equal(human.code, 0, human.stderr);
    const secret = /New signing secret \(shown once\): (whsec_\S+)/.exec(human.stdout)![1];
    assert.match(human.stdout, /The secret it replaced also signs until \d{4}-\d{2}-\d{2}T/);
    assert.deepEqual([stored().secret, stored().previous], [secret, rotated.secret], 'the older secret is replaced');

    const ended = await ok(dir, ['webhook', 'rotate-secret', '--org', org.id, '--id', made.id, '--expires-in-hours', '0']) as { secret: string; previousSecretExpiresAt: null };
    assert.equal(ended.previousSecretExpiresAt, null);
    assert.deepEqual(stored(), { secret: ended.secret, previous: null, until: null });

    const long = await fails(dir, ['webhook', 'rotate-secret', '--org', org.id, '--id', made.id, '--expires-in-hours', '169'], 'WEBHOOK_INVALID');
    assert.match(long.message, /^--expires-in-hours must be a whole number of hours from 0 to 168:/);
    await fails(dir, ['webhook', 'rotate-secret', '--org', org.id, '--id', made.id, '--expires-in-hours', 'soon'], 'USAGE');
    await fails(dir, ['webhook', 'rotate-secret', '--org', org.id, '--id', '00000000-0000-4000-8000-000000000000'], 'WEBHOOK_NOT_FOUND');
    assert.equal(stored().secret, ended.secret, 'refusals change nothing');
    await ok(dir, ['webhook', 'delete', '--org', org.id, '--id', made.id]);
  });

  test('refuses what the API refuses, with its codes; a private URL without WEBHOOK_ALLOW_PRIVATE', async () => {
    const privateUrl = await fails(dir, ['webhook', 'create', '--org', org.id, '--event', 'created', '--url', 'http://127.0.0.1:9/h'], 'WEBHOOK_TARGET_FORBIDDEN');
    assert.match(privateUrl.message, /WEBHOOK_ALLOW_PRIVATE=true .*for orchard webhook create, in the command's environment too/);
    // The API's checks name its body's members; the CLI's user is told the options typed.
    const filter = await fails(dir, ['webhook', 'create', '--org', org.id, '--event', 'created', '--url', 'https://8.8.8.8/h', '--filter', 'statecode = 1'], 'WEBHOOK_INVALID');
    assert.equal(filter.message, 'A --filter needs an --object: a filter names the fields of one object.');
    const url = await fails(dir, ['webhook', 'create', '--org', org.id, '--event', 'created', '--url', 'notaurl'], 'WEBHOOK_INVALID');
    assert.equal(url.message, "--url is not a URL: 'notaurl'. Give an absolute http(s) URL such as 'https://hooks.example.com/orchard'.");
    await fails(dir, ['webhook', 'create', '--org', org.id, '--event', 'created', '--object', 'account', '--url', 'https://8.8.8.8/h', '--filter', 'nosuch = 1'], 'FIELD_UNKNOWN');
    const header = await fails(dir, ['webhook', 'create', '--org', org.id, '--event', 'created', '--url', 'https://8.8.8.8/h', '--header', 'X-A: 1', '--header', 'no colon'], 'WEBHOOK_INVALID');
    assert.equal(header.message, "--header #2 must be a header field 'Name: value'; got a text without a colon.");
    await fails(dir, ['webhook', 'create', '--org', org.id, '--event', 'moved', '--url', 'https://8.8.8.8/h'], 'USAGE');
    await fails(dir, ['webhook', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--event', 'created', '--url', 'https://8.8.8.8/h'], 'ORGANIZATION_NOT_FOUND');
    assert.deepEqual(await ok(dir, ['webhook', 'list', '--org', org.id]), { items: [] });
  });
});
