// The secrets of the routes that show them once, masked when the journal is read (docs/control-api.md
// § Journal): a webhook's signing secret in the replies of its create and rotation, the header values
// of a create's body (in either form), a `secret` a body tried to give; a body cut at the limit shown
// up to the member that holds a secret; the control API's calls are not journaled at all.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { maskMembers } from '../../src/toolkit/request-journal.js';
import { maskedValue } from '../../src/webhooks/webhook-admin.js';
import { testContext, type TestContext } from '../helpers.js';
import { ADMIN_KEY, control } from './control-helpers.js';

const AUTH = 'Bearer sk_live_0123456789abcdef';
const KEY = 'k-1234';
const URL = 'http://127.0.0.1:9/hook';

interface Entry { method: string; path: string; status: number; body: string | null; reply: string | null; truncated: boolean }

/** The journal's entries, newest first, as its JSON text too (to look for a secret anywhere). */
async function journalOf(ctx: TestContext): Promise<{ items: Entry[]; text: string }> {
  const { items } = await control<{ items: Entry[] }>(ctx, 'GET', `/organizations/${ctx.orgId}/journal`);
  return { items, text: JSON.stringify(items) };
}

describe('the journal\'s secrets', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: ADMIN_KEY, journalSize: 20, webhooks: { allowPrivate: true, deliver: false } } })));
  after(() => ctx.close());

  test('a webhook\'s create shows its secret and header values masked, the rest as sent and answered', async () => {
    await control(ctx, 'DELETE', `/organizations/${ctx.orgId}/journal`);
    const res = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', object: 'account', url: URL, headers: { Authorization: AUTH, 'X-Api-Key': KEY } } });
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json().data as { id: string; secret: string };
    const { items: [entry], text } = await journalOf(ctx);
    for (const secret of [made.secret, AUTH, KEY]) assert.ok(!text.includes(secret), `${secret} appears nowhere`);
    assert.deepEqual(JSON.parse(entry!.body!), { event: 'created', object: 'account', url: URL, headers: { Authorization: '****cdef', 'X-Api-Key': '****' } });
    const reply = JSON.parse(entry!.reply!);
    assert.equal(reply.data.secret, maskedValue(made.secret));
    assert.match(reply.data.secret, /^\*{4}.{4}$/);
    assert.deepEqual({ ...reply, data: { ...reply.data, secret: made.secret } }, res.json(), 'the rest of the reply as answered (its header values masked by the API)');
  });

  test('header fields given as lines are masked line by line; a secret a body gives is masked, refused or not', async () => {
    await control(ctx, 'DELETE', `/organizations/${ctx.orgId}/journal`);
    const made = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url: URL, headers: [`Authorization: ${AUTH}`] } });
    assert.equal(made.statusCode, 201, made.body);
    const mine = 'whsec_' + 'A'.repeat(44);
    const refused = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url: URL, secret: mine } });
    assert.equal(refused.statusCode, 400, refused.body);
    const { items: [second, first], text } = await journalOf(ctx);
    assert.ok(!text.includes(AUTH) && !text.includes(mine) && !text.includes(made.json().data.secret), text);
    assert.deepEqual(JSON.parse(first!.body!).headers, [maskedValue(`Authorization: ${AUTH}`)]);
    assert.deepEqual([second!.status, JSON.parse(second!.body!).secret], [400, '****AAAA']);
  });

  test('a refusal of a header field does not quote its value', async () => {
    await control(ctx, 'DELETE', `/organizations/${ctx.orgId}/journal`);
    for (const headers of [[AUTH], AUTH, { Authorization: [AUTH] }]) {
      const res = await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url: URL, headers } });
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(!res.body.includes('sk_live'), res.body);
    }
    const { items, text } = await journalOf(ctx);
    assert.equal(items.length, 3);
    assert.ok(!text.includes('sk_live'), text);
    assert.deepEqual(items.map((e) => JSON.parse(e.reply!).Message).reverse(), [
      'headers[0] must be a header field \'Name: value\'; got a text without a colon.',
      '\'headers\' must be an object of names to values ({"Authorization": "Bearer …"}) or a list of \'Name: value\' lines; got a text.',
      'The header field \'Authorization\' must have a text value; got a list.',
    ]);
  });

  test('a rotation\'s reply shows the new secret masked', async () => {
    const made = (await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url: URL } })).json().data as { id: string };
    await control(ctx, 'DELETE', `/organizations/${ctx.orgId}/journal`);
    const res = await ctx.request({ method: 'POST', url: `/api/webhooks/${made.id}/rotate-secret`, payload: { expiresInHours: 1 } });
    assert.equal(res.statusCode, 200, res.body);
    const { secret } = res.json().data as { secret: string };
    const { items: [entry], text } = await journalOf(ctx);
    assert.ok(!text.includes(secret), text);
    assert.deepEqual(JSON.parse(entry!.body!), { expiresInHours: 1 });
    assert.equal(JSON.parse(entry!.reply!).data.secret, maskedValue(secret));
  });

  test('the control API\'s calls, which show tokens and secrets, are not journaled', async () => {
    await control(ctx, 'DELETE', `/organizations/${ctx.orgId}/journal`);
    const made = await control(ctx, 'POST', `/organizations/${ctx.orgId}/webhooks`, { event: 'created', url: URL });
    await control(ctx, 'POST', `/organizations/${ctx.orgId}/webhooks/${made.id}/rotate-secret`, {});
    await control(ctx, 'POST', `/users/${ctx.userId}/tokens`, {});
    assert.deepEqual((await journalOf(ctx)).items, []);
  });
});

describe('the journal\'s secrets in a body cut at the limit', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: ADMIN_KEY, journalSize: 5, journalBodyLimit: 110, webhooks: { allowPrivate: true, deliver: false } } })));
  after(() => ctx.close());

  test('is shown up to the member that holds a secret', async () => {
    const payload = { event: 'created', object: 'account', url: URL, headers: { Authorization: AUTH } };
    const sent = JSON.stringify(payload);
    assert.ok(sent.indexOf('sk_live') < 110, 'the cut falls inside the value');
    const res = await ctx.request({ method: 'POST', url: '/api/webhooks', payload });
    assert.equal(res.statusCode, 201, res.body);
    const { items: [entry], text } = await journalOf(ctx);
    assert.ok(!text.includes('sk_live'), text);
    assert.equal(entry!.body, sent.slice(0, sent.indexOf('"headers":')));
    assert.equal(entry!.truncated, true);
  });
});

test('a text that is not JSON is kept up to the first member that may hold a secret; JSON has each masked', () => {
  const secrets = [['data', 'secret']];
  assert.equal(maskMembers('{"success":true,"data":{"id":"x","secret":"whsec_abcdefghij', secrets, maskedValue), '{"success":true,"data":{"id":"x",');
  assert.equal(maskMembers('{"success":true,"data":{"id":"x","secr', secrets, maskedValue), '{"success":true,"data":{"id":"x","secr', 'no secret can have begun');
  assert.equal(maskMembers('{"a":1,"headers":["X: 1"],"secret":"s', [['secret'], ['headers']], maskedValue), '{"a":1,', 'the first of the members');
  assert.equal(maskMembers('{"data":{"secret":"whsec_0123456789abcdef","n":1}}', secrets, maskedValue), '{"data":{"secret":"****cdef","n":1}}');
  assert.equal(maskMembers('{"Message":"No."}', secrets, maskedValue), '{"Message":"No."}', 'a reply without the member is as it was');
  assert.equal(maskMembers('{"headers":{"A":"x","B":7,"C":null}}', [['headers']], maskedValue), '{"headers":{"A":"****","B":7,"C":null}}');
  assert.equal(maskMembers(null, secrets, maskedValue), null);
});
