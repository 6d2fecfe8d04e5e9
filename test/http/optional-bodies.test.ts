// Request bodies that may be left out (every member optional): the OpenAPI document says so
// (requestBody.required: false) for exactly those routes, and each takes no body — none sent and no
// Content-Type, or an empty one with Content-Type: application/json — as the defaults.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';

type Operations = Record<string, Record<string, { operationId: string; requestBody?: { required?: boolean } }>>;

let ctx: TestContext;
let paths: Operations;

before(async () => {
  ctx = await testContext();
  paths = (await ctx.request({ method: 'GET', url: '/openapi.json', token: null })).json().paths;
});
after(() => ctx.close());

/** Each way of sending no body: nothing at all, and an empty body a client labels JSON. */
const NO_BODY = [{ name: 'no body, no Content-Type' }, { name: 'an empty body with Content-Type: application/json', payload: '', headers: { 'content-type': 'application/json' } }] as const;

test('the service\'s document marks a body optional only where every member is optional and none may be sent', () => {
  const optional = Object.values(paths).flatMap((ops) => Object.values(ops)).filter((op) => op.requestBody && op.requestBody.required === false).map((op) => op.operationId);
  assert.deepEqual(optional.sort(), ['addField', 'rotateWebhookSecret', 'runView']);
  // A record body is the record; a query names its object; a view its name; the upload its file part.
  for (const id of ['createRecord', 'updateRecord', 'queryRecords', 'defineView', 'attachFile', 'createWebhook']) {
    const op = Object.values(paths).flatMap((ops) => Object.values(ops)).find((o) => o.operationId === id);
    assert.equal(op?.requestBody?.required, true, id);
  }
});

test('POST /api/webhooks/{id}/rotate-secret without a body rotates with the default overlap of 24 hours', async () => {
  const made = (await ctx.request({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url: 'https://hooks.example.com/rotate' } })).json().data;
  for (const sent of NO_BODY) {
    const res = await ctx.request({ method: 'POST', url: `/api/webhooks/${made.id}/rotate-secret`, ...sent });
    assert.equal(res.statusCode, 200, `${sent.name}: ${res.body}`);
    const { secret, previousSecretExpiresAt } = res.json().data;
    assert.match(secret, /^whsec_/);
    assert.notEqual(secret, made.secret);
    assert.equal(Date.parse(previousSecretExpiresAt) - ctx.clock.now(), 24 * 3_600_000, sent.name);
  }
});

test('POST /api/v2/views/{ot}/{viewId} without a body runs the view with its own page, order and fields', async () => {
  for (const sent of NO_BODY) {
    const res = await ctx.request({ method: 'POST', url: '/api/v2/views/account/default', ...sent });
    assert.equal(res.statusCode, 200, `${sent.name}: ${res.body}`);
    const { ViewName, PageNum, SortBy, SortBy_Desc } = res.json().data;
    assert.deepEqual([ViewName, PageNum, SortBy, SortBy_Desc], ['All Accounts', 1, 'createdon', true], sent.name);
  }
});

test('POST /api/v2/system-field/{ot}/{type} without a body adds a field named and labelled pcfsystemfield{N}', async () => {
  for (const sent of NO_BODY) {
    const res = await ctx.request({ method: 'POST', url: '/api/v2/system-field/account/text', ...sent });
    assert.equal(res.statusCode, 200, `${sent.name}: ${res.body}`);
    const [{ fieldname }] = res.json().data.systemField;
    assert.match(fieldname, /^pcfsystemfield\d+$/);
    const field = (await ctx.request({ method: 'GET', url: `/metadata/records/account/fields/${fieldname}` })).json().data;
    assert.deepEqual([field.systemName, field.label], [fieldname, fieldname]);
  }
  // A type that needs more says what it lacks, as with an empty body.
  const lookup = await ctx.request({ method: 'POST', url: '/api/v2/system-field/account/lookup' });
  assert.equal(lookup.statusCode, 400);
  assert.match(lookup.json().Message, /relatedObject/);
});
