// The request journal (docs/control-api.md § Journal): the last JOURNAL_SIZE requests of each
// organization with their tokens masked and bodies cut, queried by method, path, status and time,
// and cleared; nothing is kept when it is off.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { RequestJournal } from '../../src/toolkit/request-journal.js';
import { maskedValue as mask } from '../../src/webhooks/webhook-admin.js';
import { testContext, type TestContext } from '../helpers.js';
import { MULTIPART, multipartBody } from '../http/multipart-body.js';
import { ADMIN_KEY, control, controlReply } from './control-helpers.js';

describe('the journal, on', () => {
  let ctx: TestContext;
  let other: string;
  before(async () => {
    ctx = await testContext({ config: { adminKey: ADMIN_KEY, journalSize: 5, journalBodyLimit: 40 } });
    other = (await control(ctx, 'POST', '/organizations', { name: 'Other', email: 'o@x.example', plan: 'enterprise', minuteLimit: 1_000_000 })).token;
  });
  after(() => ctx.close());

  const journal = (query = '') => control(ctx, 'GET', `/organizations/${ctx.orgId}/journal${query}`);

  test('records each request with its reply, the token masked and bodies cut', async () => {
    await control(ctx, 'POST', '/clock/freeze', { at: '2030-01-01T10:00:00Z' });
    const created = await ctx.request({ method: 'POST', url: '/api/record/account', headers: { 'x-request-id': 'req-1' }, payload: { accountname: 'A fairly long account name to be cut somewhere' } });
    assert.equal(created.statusCode, 201);
    const byQuery = await ctx.request({ method: 'GET', url: `/api/record/account?pagesize=1&TokenId=${ctx.token}`, token: null });
    assert.equal(byQuery.statusCode, 200);
    const { items, size, bodyLimit } = await journal();
    assert.deepEqual([size, bodyLimit, items.length], [5, 40, 2]);
    const [get, post] = items;
    assert.deepEqual({ ...post, durationMs: 0, headers: {}, reply: post.reply.length }, {
      at: '2030-01-01T10:00:00.000Z', requestId: 'req-1', method: 'POST', path: '/api/record/account', query: {}, headers: {},
      body: '{"accountname":"A fairly long account na', status: 201, reply: 40, durationMs: 0, truncated: true,
    });
    assert.equal(post.headers.tokenid, mask(ctx.token));
    assert.ok(!JSON.stringify(items).includes(ctx.token), 'the token appears nowhere');
    assert.match(post.headers.tokenid, /^\*{4}.{4}$/);
    assert.ok(post.reply.startsWith('{"success":true'));
    assert.equal(typeof post.durationMs, 'number');
    assert.deepEqual(get.query, { pagesize: 1, TokenId: mask(ctx.token) });
    assert.equal(get.body, null);
    assert.equal(get.status, 200);
  });

  test('queried by method, path, status and time; another organization\'s requests are apart', async () => {
    await ctx.request({ method: 'GET', url: '/api/record/account/not-an-id' });
    await control(ctx, 'POST', '/clock/advance', { by: '1h' });
    await ctx.request({ method: 'GET', url: '/metadata/records' });
    await ctx.request({ method: 'GET', url: '/api/record/account', token: other });
    const paths = async (q: string) => (await journal(q)).items.map((e: { method: string; path: string; status: number }) => `${e.method} ${e.path} ${e.status}`);
    assert.deepEqual(await paths('?method=post'), ['POST /api/record/account 201']);
    assert.deepEqual(await paths('?status=4xx'), ['GET /api/record/account/not-an-id 400']);
    assert.deepEqual(await paths('?status=4XX'), ['GET /api/record/account/not-an-id 400'], 'a class in any case');
    assert.deepEqual(await paths('?status=200&path=METADATA'), ['GET /metadata/records 200']);
    assert.deepEqual(await paths('?since=2030-01-01T10:30:00Z'), ['GET /metadata/records 200']);
    assert.deepEqual(await paths('?until=2030-01-01T10:30:00Z&limit=1'), ['GET /api/record/account/not-an-id 400']);
    const bad = await controlReply(ctx, 'GET', `/organizations/${ctx.orgId}/journal?status=abc`);
    assert.equal(bad.statusCode, 400);
    // Instants are read as a clock's `at`: UTC without a zone, a date alone; one naming no instant is refused.
    assert.deepEqual(await paths('?since=2030-01-01T10:30:00'), ['GET /metadata/records 200']);
    assert.deepEqual(await paths('?since=2030-01-01T11:30:00%2B01:00'), ['GET /metadata/records 200']);
    assert.deepEqual(await paths('?until=2030-01-02&status=4xx'), ['GET /api/record/account/not-an-id 400']);
    for (const never of ['2030-01-01T10:29:60Z', '2030-02-30', 'yesterday']) {
      const refused = await controlReply(ctx, 'GET', `/organizations/${ctx.orgId}/journal?since=${never}`);
      assert.deepEqual([refused.statusCode, refused.json().error.code], [400, 'PARAM_INVALID'], never);
      assert.match(refused.json().error.message, new RegExp(`'since': give an ISO 8601 date or date-time, UTC when it has no zone, .*; got '${never}'\\.$`));
    }
  });

  test('keeps the last JOURNAL_SIZE requests; clear forgets them', async () => {
    for (let i = 0; i < 7; i++) await ctx.request({ method: 'GET', url: `/api/record/account?pagenumber=${i + 1}` });
    const { items } = await journal();
    assert.deepEqual(items.map((e: { query: { pagenumber: number } }) => e.query.pagenumber), [7, 6, 5, 4, 3]);
    assert.equal((await controlReply(ctx, 'DELETE', `/organizations/${ctx.orgId}/journal`)).statusCode, 204);
    assert.deepEqual((await journal()).items, []);
    const missing = await controlReply(ctx, 'GET', '/organizations/nope/journal');
    assert.equal(missing.json().error.code, 'ORGANIZATION_NOT_FOUND');
  });
});

describe('the journal\'s path filter', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: ADMIN_KEY, journalSize: 10 } })));
  after(() => ctx.close());

  test('typed Hebrew, a space or an escape finds a path whatever its percent-encoding, and a broken escape typed is text', async () => {
    // Paths as clients send them: Hebrew as UTF-8 escapes (upper- or lowercase hex), a space as %20, a % as %25.
    // (A path with a malformed escape is refused before it has an organization, so it is never kept.)
    await ctx.request({ method: 'GET', url: '/api/record/%D7%97%D7%A9%D7%91%D7%95%D7%9F' });
    await ctx.request({ method: 'GET', url: '/api/record/account/%d7%a9%d7%9c%d7%95%d7%9d' });
    await ctx.request({ method: 'GET', url: '/api/record/account/two%20words' });
    await ctx.request({ method: 'GET', url: '/api/record/account/100%25' });
    const paths = async (typed: string) => (await control(ctx, 'GET', `/organizations/${ctx.orgId}/journal?path=${encodeURIComponent(typed)}`))
      .items.map((e: { path: string }) => e.path);
    assert.deepEqual(await paths('חשבון'), ['/api/record/%D7%97%D7%A9%D7%91%D7%95%D7%9F']);
    assert.deepEqual(await paths('account/שלום'), ['/api/record/account/%d7%a9%d7%9c%d7%95%d7%9d'], 'lowercase escapes');
    assert.deepEqual(await paths('two words'), ['/api/record/account/two%20words']);
    assert.deepEqual(await paths('%D7%97%D7%A9'), ['/api/record/%D7%97%D7%A9%D7%91%D7%95%D7%9F'], 'the escapes as written still match');
    assert.deepEqual(await paths('two%20WORDS'), ['/api/record/account/two%20words']);
    assert.deepEqual(await paths('t/100%'), ['/api/record/account/100%25'], 'a typed % finds an escaped one');
    assert.deepEqual(await paths('%zz%D7'), [], 'typed escapes that decode to no character are text');
    assert.deepEqual(await paths('שלום!'), []);
  });
});

describe('the journal, off (the default)', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: ADMIN_KEY } })));
  after(() => ctx.close());

  test('keeps nothing and says so', async () => {
    assert.equal(ctx.config.journalSize, 0);
    await ctx.request({ method: 'GET', url: '/api/record/account' });
    assert.deepEqual(await control(ctx, 'GET', `/organizations/${ctx.orgId}/journal`), { items: [], size: 0, bodyLimit: 4096 });
  });

  test('a journal of size 0 records nothing even when told to', () => {
    const j = new RequestJournal(0, 10, mask);
    j.record('o', { at: 0, requestId: '', method: 'GET', url: '/', query: {}, headers: {}, body: null, status: 200, reply: null, durationMs: 0, truncated: false });
    assert.deepEqual(j.query('o'), []);
  });
});

test('the journal keeps an import, whose body is a stream its route reads, without the body', async () => {
  const ctx = await testContext({ config: { adminKey: ADMIN_KEY, journalSize: 5 } });
  try {
    const imported = await ctx.request({ method: 'POST', url: '/api/record/account/import', payload: 'accountname\nImported\n', headers: { 'content-type': 'text/csv' } });
    assert.equal(imported.statusCode, 200);
    const [entry] = (await control(ctx, 'GET', `/organizations/${ctx.orgId}/journal`)).items;
    assert.deepEqual([entry.method, entry.path, entry.status, entry.body], ['POST', '/api/record/account/import', 200, null]);
    assert.ok(entry.reply.includes('"created":1'), entry.reply);
  } finally {
    await ctx.close();
  }
});

test('the journal shows a multipart upload as its size and the parts its route read, never the file: not as "null"', async () => {
  const ctx = await testContext({ config: { adminKey: ADMIN_KEY, journalSize: 5 } });
  try {
    const created = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'With a file' } });
    const url = `/api/v2/record/account/${created.json().data.Record.accountid}/files`;
    const payload = multipartBody([{ name: 'comment', content: 'hello' }, { name: 'file', filename: 'report.txt', type: 'text/plain', content: 'the contents of the file' }]);
    const upload = () => ctx.request({ method: 'POST', url, payload, headers: { 'content-type': MULTIPART } });
    assert.equal((await upload()).statusCode, 200);
    // Refused before its route read the parts: its size only.
    await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, families: ['v2'], status: 503, count: 1 });
    assert.equal((await upload()).statusCode, 503);
    const [refused, attached] = (await control(ctx, 'GET', `/organizations/${ctx.orgId}/journal?method=POST&path=/files`)).items;
    assert.deepEqual(JSON.parse(attached.body), { multipart: { bytes: payload.length, parts: [
      { name: 'comment', bytes: 5 }, { name: 'file', filename: 'report.txt', contentType: 'text/plain', bytes: 24 },
    ] } });
    assert.deepEqual(JSON.parse(refused.body), { multipart: { bytes: payload.length, parts: null } });
    assert.ok(!JSON.stringify([attached, refused]).includes('the contents of the file'), 'no file content in the journal');
  } finally {
    await ctx.close();
  }
});
