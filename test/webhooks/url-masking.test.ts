// A receiver's URL often carries its key in the query string (…/in?token=…). Deliveries send it
// whole; what shows a delivery or a notice — the toolkit's outbox, the e-mail of a disabled webhook,
// the log line — masks each query value as a webhook's header values are masked; the webhook's own
// record shows the organization's admins the URL they set (docs/webhooks.md § A webhook).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loggerOptions } from '../../src/http/log-options.js';
import { maskedUrl } from '../../src/webhooks/webhook-admin.js';
import { captureLog, logEntries, testContext, type TestContext } from '../helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

const KEY = 'test-admin-key-0123456789abcdef';
const SECRET = 'sk_live_0123456789abcdefWXYZ';

test('maskedUrl masks each query value as a header value is masked, and nothing else', () => {
  assert.equal(maskedUrl('https://hooks.example/in'), 'https://hooks.example/in');
  assert.equal(maskedUrl(`https://hooks.example/in?token=${SECRET}`), 'https://hooks.example/in?token=****WXYZ');
  assert.equal(maskedUrl('https://hooks.example/in?token=short&channel=ops&empty=&bare&'), 'https://hooks.example/in?token=****&channel=****&empty=&****&');
  assert.equal(maskedUrl('https://hooks.example/in?'), 'https://hooks.example/in?');
});

describe('a receiver URL with a key in its query string', () => {
  let ctx: TestContext;
  let receiver: Receiver;
  const log = captureLog();

  before(async () => {
    ctx = await testContext({
      config: { adminKey: KEY, webhooks: { allowPrivate: true, disableFailures: 2, disableHours: 0, retryBaseMs: 1_000, retryCapMs: 1_000 } },
      logger: loggerOptions({ level: 'info', format: 'json', stream: log }),
    });
    receiver = await startReceiver();
  });
  after(async () => {
    await ctx.close();
    await receiver.close();
  });

  const outbox = async () => (await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/outbox`, token: null, headers: { authorization: `Bearer ${KEY}` } })).json().items as Array<Record<string, any>>;
  const account = (name: string) => ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: name } });

  test('is sent whole; the outbox shows it with its query values masked; the webhook shows its admins the URL they set', async () => {
    const url = `${receiver.url}/in?token=${SECRET}&channel=ops`;
    const made = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url } });
    assert.equal(made.statusCode, 201, made.body);
    const hook = made.json().data as { id: string; url: string };
    assert.equal(hook.url, url, 'the reply that made it');
    assert.equal((await ctx.request({ method: 'GET', url: `/api/webhooks/${hook.id}` })).json().data.url, url, 'the API');
    const listed = (await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/webhooks`, token: null, headers: { authorization: `Bearer ${KEY}` } })).json().items;
    assert.deepEqual(listed.map((h: { url: string }) => h.url), [url], 'the control API');

    await account('Sent');
    await ctx.app.webhooks.idle();
    assert.equal(receiver.received.at(-1)!.path, `/hooks/in?token=${SECRET}&channel=ops`, 'the receiver gets its key');
    const sent = (await outbox()).filter((m) => m.kind === 'webhook-delivery' && m.webhookId === hook.id);
    assert.deepEqual(sent.map((m) => m.to), [`${receiver.url}/in?token=****WXYZ&channel=****`]);
    assert.ok(!JSON.stringify(await outbox()).includes(SECRET));
    await ctx.request({ method: 'DELETE', url: `/api/webhooks/${hook.id}` });
  });

  test('a webhook disabled for failing is told of, in the e-mail, the outbox and the log, with its URL\'s query values masked', async () => {
    const hook = (await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url: `${receiver.url}/down?token=${SECRET}` } })).json().data as { id: string };
    receiver.answer = (r) => (r.path.startsWith('/hooks/down') ? 500 : 200);
    try {
      await account('Refused');
      await ctx.app.webhooks.idle();
      ctx.clock.advance(1_000);
      await ctx.app.webhooks.idle();
      assert.equal((await ctx.request({ method: 'GET', url: `/api/webhooks/${hook.id}` })).json().data.status, 'disabled');
    } finally {
      receiver.answer = () => 200;
    }
    const masked = `${receiver.url}/down?token=****WXYZ`;
    const notice = (await outbox()).find((m) => m.kind === 'webhook-disabled' && m.webhookId === hook.id)!;
    assert.ok(notice.text.includes(`its deliveries to ${masked} failed`), notice.text);
    assert.deepEqual((await outbox()).filter((m) => m.webhookId === hook.id && m.kind === 'webhook-delivery').map((m) => m.to), [masked, masked]);
    // The .eml files' text is quoted-printable: its soft line breaks and =XX escapes undone.
    const emails = fs.readdirSync(path.join(ctx.dir, 'outbox')).map((f) => fs.readFileSync(path.join(ctx.dir, 'outbox', f), 'utf8'))
      .map((t) => t.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))).filter((t) => t.includes(hook.id));
    assert.equal(emails.length, 1);
    assert.ok(emails[0]!.includes(masked), emails[0]);
    const line = logEntries(log.lines).find((e) => e.msg?.startsWith('webhook disabled') && e.webhookId === hook.id);
    assert.equal(line?.url, masked);
    assert.ok(!emails[0]!.includes(SECRET) && !log.lines.some((l) => l.includes(SECRET)) && !JSON.stringify(await outbox()).includes(SECRET));
  });
});
