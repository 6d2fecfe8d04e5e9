// The control API under /_orchard/: absent without ADMIN_KEY (the service's 404), opened only by
// the admin key as a Bearer credential (never by an organization's token), errors as
// {error: {code, message}}, described by its own OpenAPI document and left out of the service's;
// the ControlClient the CLI uses against a listening server; `orchard org list`.

import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { ControlClient, ControlError, controlClientFrom } from '../../src/control-client.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { tempDir, testContext, type TestContext } from '../helpers.js';
import { ok } from '../cli/cli-runner.js';
import fs from 'node:fs';

const KEY = 'test-admin-key-0123456789abcdef';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
/** An id that names nothing. */
const NO_ID = '00000000-0000-4000-8000-000000000000';

describe('without ADMIN_KEY', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext()));
  after(() => ctx.close());

  test('every /_orchard/ path answers as an unknown route does, key or not', async () => {
    const unknown = await ctx.request({ method: 'GET', url: '/no-such-route', token: null });
    for (const url of ['/_orchard/organizations', '/_orchard/openapi.json', '/_orchard/']) {
      const res = await ctx.request({ method: 'GET', url, token: null, headers: bearer(KEY) });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.headers['x-error-code'], 'ROUTE_NOT_FOUND');
      assert.deepEqual(Object.keys(res.json()), Object.keys(unknown.json()));
    }
  });
});

describe('with ADMIN_KEY', () => {
  let ctx: TestContext;
  before(async () => (ctx = await testContext({ config: { adminKey: KEY } })));
  after(() => ctx.close());

  test('no key: 401 ADMIN_KEY_MISSING with WWW-Authenticate, in the control shape', async () => {
    const res = await ctx.request({ method: 'GET', url: '/_orchard/organizations', token: null });
    assert.equal(res.statusCode, 401);
    assert.equal(res.headers['x-error-code'], 'ADMIN_KEY_MISSING');
    assert.match(String(res.headers['www-authenticate']), /^Bearer /);
    assert.equal(res.json().error.code, 'ADMIN_KEY_MISSING');
    assert.match(res.json().error.message, /Authorization: Bearer/);
  });

  test('a bad body is refused naming what would be accepted: the values of an enum, the members an empty object lacks', async () => {
    const call = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
      const res = await ctx.request({ method, url: `/_orchard${url}`, token: null, headers: bearer(KEY), payload });
      assert.equal(res.statusCode, 400, res.body);
      return res.json().error.message as string;
    };
    assert.equal(await call('POST', '/organizations', { name: 'X', email: 'x@x.example', plan: 'gold' }),
      'The request body is invalid: \'plan\' must be one of "free", "standard", "professional", "enterprise". Check your data.');
    assert.equal(await call('PATCH', `/organizations/${ctx.orgId}`, {}),
      'This call needs a JSON body with at least one of \'plan\' (one of "free", "standard", "professional", "enterprise") or \'minuteLimit\' (a whole number of at least 1 in decimal digits, such as 10); got {}.');
    assert.equal(await call('POST', '/clock/advance', { by: '1h', ms: 5 }),
      'The request body is invalid: give \'ms\' or \'by\', not both.');
    // A number out of its range: the range and the value sent, not ajv's ">= 1".
    assert.equal(await call('PATCH', `/organizations/${ctx.orgId}`, { minuteLimit: 0 }),
      'The request body is invalid: \'minuteLimit\' must be a whole number of at least 1; got 0. Check your data.');
  });

  test('a call that needs body members, sent without a body or with one that is not an object, says what it takes: the members it needs with what each is, then the others', async () => {
    const message = async (method: 'POST' | 'PATCH' | 'PUT', url: string, payload?: string) => {
      const res = await ctx.request({ method, url: `/_orchard${url}`, token: null, headers: { ...bearer(KEY), 'content-type': 'application/json' }, ...(payload !== undefined ? { payload } : {}) });
      assert.deepEqual([res.statusCode, res.headers['x-error-code']], [400, 'BODY_INVALID'], `${method} ${url}: ${res.body}`);
      return res.json().error.message as string;
    };
    const setClock = 'This call needs a JSON body with \'at\' (an ISO 8601 date-time; UTC when it has no zone), and may have \'frozen\'';
    assert.equal(await message('POST', '/clock/set'), `${setClock}; got no body.`);
    assert.equal(await message('POST', `/organizations/${ctx.orgId}/clock/set`, '{"frozen": true}'), `${setClock}; 'at' is missing.`);
    assert.equal(await message('POST', '/clock/set', '"2030-01-01T00:00:00Z"'), `${setClock}; got "2030-01-01T00:00:00Z".`);
    const faultRule = 'This call needs a JSON body, an object with any of \'orgId\', \'methods\', \'families\', \'object\', \'probability\', \'seed\', \'count\', \'status\', \'window\', \'retryAfter\' and \'latencyMs\'';
    assert.equal(await message('POST', '/faults'), `${faultRule}; got no body.`);
    assert.equal(await message('POST', '/faults', '[{"status": 503}]'), `${faultRule}; got [{"status":503}].`);
    assert.equal(await message('PATCH', `/organizations/${ctx.orgId}`),
      'This call needs a JSON body with at least one of \'plan\' (one of "free", "standard", "professional", "enterprise") or \'minuteLimit\' (a whole number of at least 1 in decimal digits, such as 10); got no body.');
    assert.equal(await message('POST', '/organizations'),
      'This call needs a JSON body with \'name\' and \'email\' (the primary user\'s e-mail; usage notices go there), and may have \'plan\' and \'minuteLimit\'; got no body.');
    assert.equal(await message('POST', '/organizations', '{"name": "Acme"}'),
      'This call needs a JSON body with \'name\' and \'email\' (the primary user\'s e-mail; usage notices go there), and may have \'plan\' and \'minuteLimit\'; \'email\' is missing.');
    assert.equal(await message('PATCH', `/users/${ctx.userId}`, 'null'),
      'This call needs a JSON body with at least one of \'role\' or \'disabled\' (a JSON boolean, true or false); got no body.');
    assert.match(await message('POST', `/organizations/${ctx.orgId}/webhooks`),
      /^This call needs a JSON body with 'event' \(created, updated or deleted\) and 'url' \(an absolute http\(s\) URL; .*\), and may have 'object', 'method', 'filter', 'headers' and 'secret'; got no body\.$/);
    // A call whose members are all optional takes no body; one that takes none takes no object but {}.
    assert.equal(await message('POST', `/organizations/${ctx.orgId}/copy`, '[]'), 'This call takes no body, or a JSON object with any of \'name\'; got [].');
    assert.equal(await message('POST', `/organizations/${ctx.orgId}/reset`, '"now"'), 'This call takes no body members: send no body, or {}; got "now".');
    // A member's own fault is still named as before.
    assert.equal(await message('POST', '/organizations', '{"name": "Acme", "email": 5, "plan": "gold"}'),
      'The request body is invalid: \'plan\' must be one of "free", "standard", "professional", "enterprise". Check your data.');
    assert.equal((await ctx.request({ method: 'GET', url: '/_orchard/clocks', token: null, headers: bearer(KEY) })).json().items.length, 1, 'no clock was set');
  });

  test('a member or query parameter a route does not take is refused naming those it takes, not dropped: nothing is made or done without it; an unknown control path points to the control API\'s routes', async () => {
    const roles = async () => (await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/roles`, token: null, headers: bearer(KEY) })).json().items.map((r: { name: string }) => r.name);
    const typo = await ctx.request({ method: 'PUT', url: `/_orchard/organizations/${ctx.orgId}/roles/typo`, token: null, headers: bearer(KEY), payload: { grant: 'account:read', hidden: 'account:telephone1' } });
    assert.deepEqual([typo.statusCode, typo.json().error], [400, {
      code: 'BODY_INVALID', message: 'The request body is invalid: \'hidden\' is not a member this route takes; it takes grant, hide, readonly. Check your data.',
    }]);
    assert.ok(!(await roles()).includes('typo'), 'no role was made without the field it was to hide');
    const nested = await ctx.request({ method: 'POST', url: '/_orchard/faults', token: null, headers: bearer(KEY), payload: { status: 503, count: 1, extra: { a: 1 } } });
    assert.match(nested.json().error.message, /^The request body is invalid: 'extra' is not a member this route takes; it takes orgId, .*status/);
    const reset = await ctx.request({ method: 'POST', url: `/_orchard/organizations/${ctx.orgId}/reset`, token: null, headers: bearer(KEY), payload: { keepRecords: true } });
    assert.deepEqual([reset.statusCode, reset.json().error.message], [400, 'The request body is invalid: \'keepRecords\' is not a member this route takes; it takes none there. Check your data.'], 'a call that takes no body refuses members, rather than acting without them');
    const clock = await ctx.request({ method: 'DELETE', url: '/_orchard/clock', token: null, headers: bearer(KEY), payload: { orgId: ctx.orgId } });
    assert.equal(clock.statusCode, 400, 'the server\'s clock is not put back for a body meant for an organization\'s');
    const unknownRoute = await ctx.request({ method: 'GET', url: '/_orchard/organization', token: null, headers: bearer(KEY) });
    assert.deepEqual([unknownRoute.statusCode, unknownRoute.json().error.message], [404, 'No route matches GET /_orchard/organization. The control API\'s routes are listed in /_orchard/openapi.json and docs/control-api.md.']);
    const query = await ctx.request({ method: 'GET', url: `/_orchard/organizations/${ctx.orgId}/journal?stauts=4xx`, token: null, headers: bearer(KEY) });
    assert.deepEqual([query.statusCode, query.json().error.message], [400, 'Invalid query parameter \'stauts\' is not a parameter this route takes; it takes method, path, status, since, until, limit.']);
  });

  test('a wrong key, or an organization\'s token however sent, is refused', async () => {
    const wrong = await ctx.request({ method: 'GET', url: '/_orchard/organizations', token: null, headers: bearer(KEY + 'x') });
    assert.equal(wrong.statusCode, 401);
    assert.equal(wrong.json().error.code, 'ADMIN_KEY_INVALID');
    const asTokenid = await ctx.request({ method: 'GET', url: '/_orchard/organizations' });
    assert.equal(asTokenid.statusCode, 401);
    assert.equal(asTokenid.json().error.code, 'ADMIN_KEY_MISSING');
    const asBearer = await ctx.request({ method: 'GET', url: '/_orchard/organizations', headers: bearer(ctx.token) });
    assert.equal(asBearer.json().error.code, 'ADMIN_KEY_INVALID');
    const basic = await ctx.request({ method: 'GET', url: '/_orchard/organizations', token: null, headers: { authorization: `Basic ${KEY}` } });
    assert.equal(basic.json().error.code, 'ADMIN_KEY_MISSING');
  });

  test('organizations: list, create (its token works on the API), update; bad input is a 400 naming the member', async () => {
    const list = await ctx.request({ method: 'GET', url: '/_orchard/organizations', token: null, headers: bearer(KEY) });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json().items.map((o: { id: string }) => o.id), [ctx.orgId]);
    assert.equal(list.json().items[0].name, 'Test Org');

    const created = await ctx.request({ method: 'POST', url: '/_orchard/organizations', token: null, headers: bearer(KEY),
      payload: { name: 'Beta', email: 'ops@beta.example', plan: 'standard', minuteLimit: 250 } });
    assert.equal(created.statusCode, 201);
    const { organization, token, userId } = created.json();
    assert.equal(organization.plan, 'standard');
    assert.equal(organization.minuteLimit, 250);
    assert.equal(organization.primaryUserId, userId);
    const read = await ctx.request({ method: 'GET', url: '/api/record/account', token });
    assert.equal(read.statusCode, 200);

    const patched = await ctx.request({ method: 'PATCH', url: `/_orchard/organizations/${organization.id}`, token: null, headers: bearer(KEY), payload: { plan: 'professional' } });
    assert.equal(patched.statusCode, 200);
    assert.equal(patched.json().plan, 'professional');
    assert.equal(patched.json().minuteLimit, 250);

    const bad = await ctx.request({ method: 'POST', url: '/_orchard/organizations', token: null, headers: bearer(KEY), payload: { name: 'Gamma', email: 'x@y.example', plan: 'gold' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().error.code, 'BODY_INVALID');
    assert.match(bad.json().error.message, /plan/);
    const missing = await ctx.request({ method: 'PATCH', url: '/_orchard/organizations/nope', token: null, headers: bearer(KEY), payload: { plan: 'free' } });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['x-error-code'], missing.json().error.code);
  });

  test('an unknown control path is a 404 in the control shape (after the key)', async () => {
    const res = await ctx.request({ method: 'GET', url: '/_orchard/nothing-here', token: null, headers: bearer(KEY) });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().error.code, 'ROUTE_NOT_FOUND');
  });

  test('its own OpenAPI document describes its calls; the service\'s document leaves them out', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/_orchard/openapi.json', token: null, headers: bearer(KEY) })).json();
    assert.equal(doc.openapi, '3.0.3');
    assert.deepEqual(doc.components.securitySchemes.adminKey, { type: 'http', scheme: 'bearer', description: 'The server\'s ADMIN_KEY setting.' });
    for (const path of ['/_orchard/organizations', '/_orchard/organizations/{id}', '/_orchard/organizations/{id}/users', '/_orchard/tokens/{id}/revoke', '/_orchard/tokens/{id}/rotate', '/_orchard/users/{id}', '/_orchard/users/{id}/tokens']) assert.ok(path in doc.paths, path);
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string; tags?: string[]; summary?: string }>>)) {
      for (const [method, op] of Object.entries(ops)) assert.ok(op.operationId && op.tags?.length && op.summary, `${method} ${path} has an operationId, tags and a summary`);
    }
    assert.deepEqual(Object.keys(doc.paths['/_orchard/organizations']).sort(), ['get', 'post']);
    const patch = doc.paths['/_orchard/organizations/{id}'].patch;
    assert.equal(patch.operationId, 'updateOrganization');
    assert.deepEqual(patch.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), ['path:id']);
    assert.ok(doc.paths['/_orchard/organizations'].post.requestBody.content['application/json'].schema.properties.email);
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId));
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique');
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops as Record<string, { operationId: string; tags?: string[]; summary?: string; responses: Record<string, unknown> }>)) {
        assert.ok(op.tags?.length && op.summary, `${method} ${path} has tags and a summary`);
        assert.ok(Object.keys(op.responses).some((s) => s.startsWith('2')), `${method} ${path} describes its success`);
      }
    }

    const service = (await ctx.request({ method: 'GET', url: '/openapi.json', token: null })).json();
    assert.deepEqual(Object.keys(service.paths).filter((p) => p.startsWith('/_orchard')), []);
    assert.ok(Object.keys(service.paths).length > 5);
  });

  test('a body is required in the document only where a call needs one; the others take none, sent without a body or with an empty one labelled JSON', async () => {
    /** The calls that need a body, and what they need. */
    const NEEDS_BODY = [
      'createOrganization', 'createSnapshot', 'setRole', 'createUser', 'createWebhook', 'setServerClock', 'setOrganizationClock', // a required member
      'updateOrganization', 'updateUser', // at least one change
      'advanceServerClock', 'advanceOrganizationClock', // `by` or `ms`
      'addFaultRule', // a status or a latency
      'loadFixtures', // the organizations
    ];
    const doc = (await ctx.request({ method: 'GET', url: '/_orchard/openapi.json', token: null, headers: bearer(KEY) })).json();
    const calls = Object.entries(doc.paths as Record<string, Record<string, { operationId: string; requestBody?: { required: boolean } }>>)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase() as 'POST' | 'PUT' | 'PATCH' | 'DELETE', op })))
      .filter((c) => c.op.requestBody);
    assert.deepEqual(calls.filter((c) => c.op.requestBody!.required).map((c) => c.op.operationId).sort(), [...NEEDS_BODY].sort());
    const noBody = [{}, { payload: '', headers: { 'content-type': 'application/json' } }];
    try {
      for (const { path, method, op } of calls) {
        for (const sent of noBody) {
          // The organization's id where the call needs it to reach its body's check; ids naming nothing elsewhere, so nothing is changed.
          const required = op.requestBody!.required;
          const url = path.replace('{id}', required && path.startsWith('/_orchard/organizations/') ? ctx.orgId : NO_ID).replace(/\{\w+\}/g, NO_ID);
          const res = await ctx.request({ method, url, token: null, ...sent, headers: { ...bearer(KEY), ...sent.headers } });
          const where = `${method} ${url} ${sent.payload === undefined ? 'without a body' : 'with an empty JSON body'}: ${res.statusCode} ${res.body}`;
          if (required) assert.deepEqual([res.statusCode, res.json().error.code], [400, 'BODY_INVALID'], where);
          // Each says what the call takes.
          if (required) assert.match(res.json().error.message, /^This call needs a JSON body\b/, where);
          else assert.notEqual(res.statusCode, 400, where);
        }
      }
    } finally {
      await ctx.request({ method: 'DELETE', url: '/_orchard/clock', token: null, headers: bearer(KEY) });
    }
  });
});

test('ADMIN_KEY must be 16 to 512 visible characters', () => {
  assert.equal(loadConfig({}).adminKey, undefined);
  assert.equal(loadConfig({ ADMIN_KEY: KEY }).adminKey, KEY);
  assert.throws(() => loadConfig({ ADMIN_KEY: 'short' }), /ADMIN_KEY must be 16 to 512/);
  assert.throws(() => loadConfig({ ADMIN_KEY: 'has a space in the middle' }), /ADMIN_KEY must be/);
});

describe('ControlClient against a listening server', () => {
  let dir: string;
  let server: RunningServer;
  let bare: RunningServer;
  before(async () => {
    dir = tempDir('orchard-control-');
    server = await startServer(loadConfig({}, { dataDir: `${dir}/a`, port: 0, logLevel: 'silent', adminKey: KEY }), () => {});
    bare = await startServer(loadConfig({}, { dataDir: `${dir}/b`, port: 0, logLevel: 'silent' }), () => {});
  });
  after(async () => {
    await server.close();
    await bare.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('calls the API with the key and parses the reply', async () => {
    const client = new ControlClient({ url: server.url + '/', adminKey: KEY });
    const { items } = await client.call<{ items: { id: string }[] }>('GET', 'organizations');
    assert.deepEqual(items.map((o) => o.id), [server.demo!.orgId]);
  });

  test('failures are ControlErrors with the server\'s code, or say what is missing', async () => {
    await assert.rejects(new ControlClient({ url: server.url, adminKey: 'x'.repeat(20) }).call('GET', 'organizations'),
      (err: unknown) => err instanceof ControlError && err.code === 'ADMIN_KEY_INVALID' && err.status === 401);
    await assert.rejects(new ControlClient({ url: bare.url, adminKey: KEY }).call('GET', 'organizations'),
      (err: unknown) => err instanceof ControlError && err.code === 'CONTROL_API_OFF' && /ADMIN_KEY/.test(err.message));
    await assert.rejects(new ControlClient({ url: 'http://127.0.0.1:9', adminKey: KEY }).call('GET', 'organizations'),
      (err: unknown) => err instanceof ControlError && err.code === 'UNREACHABLE' && /--url or ORCHARD_URL/.test(err.message));
    const local = () => 'http://127.0.0.1:9999';
    assert.throws(() => controlClientFrom({}, undefined, local), (err: unknown) => err instanceof ControlError && err.code === 'ADMIN_KEY_MISSING');
    assert.equal(controlClientFrom({ ADMIN_KEY: KEY }, undefined, local).url, 'http://127.0.0.1:9999');
    assert.equal(controlClientFrom({ ADMIN_KEY: KEY, ORCHARD_URL: 'http://h:1/' }, undefined, local).url, 'http://h:1');
    assert.equal(controlClientFrom({ ADMIN_KEY: KEY, ORCHARD_URL: 'http://h:1/' }, 'http://given:2', local).url, 'http://given:2');
  });

  test('orchard org list --json prints {items} with the organizations of the data directory', async () => {
    const printed = await ok(`${dir}/a`, ['org', 'list']);
    assert.deepEqual((printed.items as { id: string; minuteLimit: number }[]).map((o) => [o.id, o.minuteLimit]), [[server.demo!.orgId, 100]]);
  });
});
