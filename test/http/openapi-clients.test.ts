// The OpenAPI documents as clients and tools need them (docs/api.md § The OpenAPI documents):
// Redocly's recommended rules find nothing in the service's document (with or without BASE_URL) nor
// in the control API's; every operation has a unique operationId and the token as its security;
// servers and a license are stated; and every request example is one the server accepts, so the
// docs page's "Try it out" sends a valid account.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { testContext, type TestContext } from '../helpers.js';

const KEY = 'test-admin-key-0123456789abcdef';

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string; example?: unknown; schema?: { example?: unknown } }>;
  requestBody?: { content: Record<string, { example?: unknown; schema?: object }> };
}
interface Doc {
  servers?: Array<{ url: string }>;
  info: { license?: { name: string; url?: string } };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, object> };
}

/** Every problem Redocly's recommended rules report (errors and warnings), as `severity rule: message`. */
async function lint(doc: Doc): Promise<string[]> {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`);
}

const operations = (doc: Doc) => Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

describe('the service\'s document', () => {
  let ctx: TestContext;
  let bare: TestContext;
  let doc: Doc;
  before(async () => {
    ctx = await testContext({ config: { adminKey: KEY } });
    bare = await testContext({ config: { baseUrl: undefined } });
    doc = (await ctx.request({ method: 'GET', url: '/openapi.json', token: null })).json();
  });
  after(async () => {
    await ctx.close();
    await bare.close();
  });

  test('Redocly\'s recommended rules report nothing, with BASE_URL or without it', async () => {
    assert.deepEqual(await lint(doc), []);
    const withoutBase: Doc = (await bare.request({ method: 'GET', url: '/openapi.json', token: null })).json();
    assert.deepEqual(withoutBase.servers, [{ url: '/', description: 'This Orchard server' }]);
    assert.deepEqual(await lint(withoutBase), []);
    const control: Doc = (await ctx.request({ method: 'GET', url: '/_orchard/openapi.json', token: null, headers: { authorization: `Bearer ${KEY}` } })).json();
    assert.deepEqual(await lint(control), []);
  });

  test('the rules would see what was wrong: a document without servers, license or operationIds fails them', async () => {
    const broken = structuredClone(doc);
    delete broken.servers;
    delete broken.info.license;
    delete broken.paths['/api/record/{obj}']!.get!.operationId;
    const problems = await lint(broken);
    assert.ok(problems.some((p) => p.startsWith('error no-empty-servers')), problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('info-license')));
    assert.ok(problems.some((p) => p.includes('operation-operationId')));
  });

  test('servers, a license, and on every operation a unique operationId and the tokenid scheme', () => {
    assert.deepEqual(doc.servers, [{ url: 'http://orchard.test', description: 'This Orchard server' }]);
    assert.deepEqual(doc.info.license, { name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' });
    assert.ok(doc.components.securitySchemes.tokenid);
    const ids = operations(doc).map(({ op }) => op.operationId);
    assert.ok(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id)), ids.join(' '));
    assert.equal(new Set(ids).size, ids.length);
    for (const { path, method, op } of operations(doc)) assert.deepEqual(op.security, [{ tokenid: [] }], `${method} ${path}`);
  });

  test('the v3 bodies are typed: batch items and the query\'s members', () => {
    const body = (path: string) => doc.paths[path]!.post!.requestBody!.content['application/json']!.schema as { properties: Record<string, any>; required?: string[] };
    assert.equal(body('/api/v3/record/{obj}/batch/create').properties.data.items.type, 'object');
    assert.deepEqual(body('/api/v3/record/{obj}/batch/update').properties.data.items.required, ['id', 'record']);
    assert.equal(body('/api/v3/record/{obj}/batch/delete').properties.data.items.format, 'uuid');
    const query = body('/api/v3/query');
    assert.deepEqual(query.required, ['objectType']);
    assert.ok(query.properties.filter.items.properties.conditions.items.properties.operator.enum.includes('start-with'));
  });

  test('every request example is accepted as sent: "Try it out" creates a valid account', async () => {
    const sent: string[] = [];
    for (const { path, method, op } of operations(doc)) {
      const example = op.requestBody?.content['application/json']?.example;
      if (example === undefined) continue;
      let url = path;
      for (const p of op.parameters ?? []) {
        if (p.in !== 'path') continue;
        const value = p.example ?? p.schema?.example;
        assert.ok(value !== undefined, `${method} ${path}: path parameter ${p.name} has an example`);
        url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
      }
      const res = await ctx.request({ method: method.toUpperCase() as 'POST', url, payload: example as object });
      // The examples of updates and deletes name a record that does not exist here: that and nothing else.
      assert.ok(res.statusCode < 300 || res.headers['x-error-code'] === 'RECORD_NOT_FOUND', `${method} ${url}: ${res.statusCode} ${res.body}`);
      sent.push(`${method} ${path}`);
    }
    assert.ok(sent.includes('post /api/record/{obj}'));
    assert.ok(sent.includes('post /api/v3/query'));
    const accounts = (await ctx.request({ method: 'GET', url: '/api/record/account' })).json().data.Records as Array<{ accountname: string }>;
    assert.ok(accounts.some((a) => a.accountname === 'Acme Ltd'));
  });
});
