// The OpenAPI document at /openapi.json and the docs UI at /docs: generated from the route
// schemas, served without a token, structurally sane, and the UI's assets load offline.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { testContext, type TestContext } from '../helpers.js';

interface Operation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, { description?: string; headers?: Record<string, { schema?: JsonSchema }>; content?: Record<string, { schema?: JsonSchema }> }>;
  operationId?: string;
}
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  $ref?: string;
}
interface OpenApiDoc {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components?: {
    securitySchemes?: Record<string, { type: string; in?: string; name?: string }>;
    schemas?: Record<string, JsonSchema>;
  };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const RECORD_ROUTES: ReadonlyArray<[string, string]> = [
  ['/api/record/{obj}', 'get'],
  ['/api/record/{obj}', 'post'],
  ['/api/record/{obj}/{id}', 'get'],
  ['/api/record/{obj}/{id}', 'put'],
  ['/api/record/{obj}/{id}', 'delete'],
];

let ctx: TestContext;
let doc: OpenApiDoc;

before(async () => {
  ctx = await testContext();
  const res = await ctx.request({ method: 'GET', url: '/openapi.json', token: null });
  assert.equal(res.statusCode, 200, res.body);
  doc = JSON.parse(res.body) as OpenApiDoc;
});
after(() => ctx.close());

/** Follows a local `#/components/schemas/x` reference, so the assertions hold whether or not schemas are shared by $ref. */
function deref(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema?.$ref) return schema;
  const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
  return deref(doc.components?.schemas?.[name]);
}

function jsonSchemaOf(op: Operation, status: string): JsonSchema | undefined {
  return deref(op.responses?.[status]?.content?.['application/json']?.schema);
}

function operations(): Array<{ path: string; method: string; op: Operation }> {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops)
    .filter(([method]) => HTTP_METHODS.has(method))
    .map(([method, op]) => ({ path, method, op })));
}

/** The script, stylesheet and icon URLs an HTML page references, resolved against the page's URL. */
function assetUrls(html: string, pageUrl: string): string[] {
  const refs = [...html.matchAll(/<(?:script|link)\b[^>]*?\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
  return refs.map((ref) => {
    const u = new URL(ref, `http://orchard.test${pageUrl}`);
    return u.pathname + u.search;
  });
}

test('serves an OpenAPI 3 document as JSON without a token', async () => {
  const res = await ctx.request({ method: 'GET', url: '/openapi.json', token: null });
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.ok(res.headers['x-request-id'], 'every reply carries X-Request-Id');
  assert.match(doc.openapi, /^3\./);
  assert.equal(typeof doc.info.title, 'string');
  assert.equal(typeof doc.info.version, 'string');
});

test('still serves the document when a bad token is sent, as it is public', async () => {
  const res = await ctx.request({ method: 'GET', url: '/openapi.json', token: 'not-a-token' });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(JSON.parse(res.body), doc);
});

test('lists every record route with its method', () => {
  for (const [path, method] of RECORD_ROUTES) {
    assert.ok(doc.paths[path], `${path} is documented`);
    assert.ok(doc.paths[path]![method], `${method.toUpperCase()} ${path} is documented`);
  }
});

test('documents the path parameters of the record routes as required strings', () => {
  for (const [path, method] of RECORD_ROUTES) {
    const params = doc.paths[path]![method]!.parameters ?? [];
    const expected = path.endsWith('{id}') ? ['id', 'obj'] : ['obj'];
    const inPath = params.filter((p) => p.in === 'path');
    assert.deepEqual(inPath.map((p) => p.name).sort(), expected, `${method} ${path}`);
    for (const p of inPath) {
      assert.equal(p.required, true, `${method} ${path} ${p.name} is required`);
      assert.deepEqual(p.schema && (p.schema as JsonSchema).type, 'string');
    }
  }
});

test('documents pagesize and pagenumber as optional integer query parameters of GET list', () => {
  const params = doc.paths['/api/record/{obj}']!.get!.parameters ?? [];
  for (const name of ['pagesize', 'pagenumber']) {
    const p = params.find((x) => x.name === name);
    assert.ok(p, `${name} is documented`);
    assert.equal(p.in, 'query');
    assert.notEqual(p.required, true);
    assert.equal((p.schema as JsonSchema).type, 'integer');
  }
});

test('declares the tokenid header as an apiKey security scheme that every record route requires', () => {
  assert.deepEqual(doc.components?.securitySchemes?.tokenid, { type: 'apiKey', in: 'header', name: 'tokenid', description: 'An API token (orchard token create).' });
  for (const [path, method] of RECORD_ROUTES) {
    const security = doc.paths[path]![method]!.security;
    assert.ok(security?.some((s) => 'tokenid' in s), `${method.toUpperCase()} ${path} requires tokenid`);
  }
});

test('documents the success envelope for the 2xx reply of every record route', () => {
  const success: Record<string, string> = { get: '200', post: '201', put: '200', delete: '200' };
  for (const [path, method] of RECORD_ROUTES) {
    const schema = jsonSchemaOf(doc.paths[path]![method]!, success[method]!);
    assert.ok(schema, `${method.toUpperCase()} ${path} documents ${success[method]}`);
    assert.deepEqual(Object.keys(schema.properties ?? {}).sort(), ['data', 'message', 'success']);
    assert.deepEqual([...(schema.required ?? [])].sort(), ['data', 'message', 'success']);
  }
});

test('documents the record-list payload, plus Record, for GET list and GET one', () => {
  for (const path of ['/api/record/{obj}', '/api/record/{obj}/{id}']) {
    const data = deref(jsonSchemaOf(doc.paths[path]!.get!, '200')?.properties?.data);
    const props = Object.keys(data?.properties ?? {});
    for (const name of ['PrimaryKey', 'PrimaryField', 'Total_Records', 'Page_Size', 'Page_Number', 'Records', 'Record']) {
      assert.ok(props.includes(name), `GET ${path} documents data.${name}`);
    }
  }
});

test('documents 400, 401, 404 and 500 of every record route as the {Message} body alone', () => {
  for (const [path, method] of RECORD_ROUTES) {
    for (const status of ['400', '401', '404', '500']) {
      const schema = jsonSchemaOf(doc.paths[path]![method]!, status);
      assert.ok(schema, `${method.toUpperCase()} ${path} documents ${status}`);
      assert.equal(schema.type, 'object');
      assert.deepEqual(Object.keys(schema.properties ?? {}), ['Message'], `${status} carries Message only`);
      assert.equal(schema.properties!.Message!.type, 'string');
      assert.deepEqual(schema.required, ['Message']);
    }
  }
});

test('documents the X-Error-Code header on every error reply of every operation', () => {
  for (const { path, method, op } of operations()) {
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      if (Number(status) < 400) continue;
      assert.equal(response.headers?.['X-Error-Code']?.schema?.type, 'string', `${method} ${path} ${status}`);
    }
  }
});

test('documents 403 for the record routes that write', () => {
  for (const [path, method] of RECORD_ROUTES.filter(([, m]) => m !== 'get')) {
    assert.deepEqual(Object.keys(jsonSchemaOf(doc.paths[path]![method]!, '403')?.properties ?? {}), ['Message'], `${method.toUpperCase()} ${path}`);
  }
});

test('documents 402 (plan) and 403 (role) as the {Message} body on every record route and the query', () => {
  for (const [path, method] of [...RECORD_ROUTES, ['/api/query', 'post'] as const]) {
    for (const status of ['402', '403']) {
      const op = doc.paths[path]![method]!;
      assert.deepEqual(Object.keys(jsonSchemaOf(op, status)?.properties ?? {}), ['Message'], `${method.toUpperCase()} ${path} ${status}`);
      assert.match(op.responses![status]!.description ?? '', status === '402' ? /plan/ : /role/, `${method.toUpperCase()} ${path} ${status} says when`);
    }
  }
});

test('says when each reply of the record routes is sent, not Fastify\'s placeholder', () => {
  for (const [path, method] of RECORD_ROUTES) {
    for (const [status, reply] of Object.entries(doc.paths[path]![method]!.responses ?? {})) {
      assert.ok(reply.description && reply.description !== 'Default Response', `${method.toUpperCase()} ${path} ${status} is described`);
    }
  }
  const errors = doc.paths['/api/record/{obj}/{id}']!.get!.responses!;
  assert.notEqual(errors['401']!.description, errors['404']!.description, 'each error status has its own description');
});

test('documents a JSON request body for create and update', () => {
  for (const [path, method] of [['/api/record/{obj}', 'post'], ['/api/record/{obj}/{id}', 'put']] as const) {
    const body = (doc.paths[path]![method] as Operation & { requestBody?: { content?: Record<string, unknown> } }).requestBody;
    assert.ok(body?.content?.['application/json'], `${method.toUpperCase()} ${path}`);
  }
});

test('documents the file routes: a multipart upload with a binary part named file, the list, the download and the removal', () => {
  const files = doc.paths['/api/v2/record/{ot}/{id}/files']!;
  const upload = files.post as Operation & { requestBody?: { content?: Record<string, { schema?: JsonSchema & { properties?: Record<string, JsonSchema & { format?: string }> } }> } };
  const form = upload.requestBody?.content?.['multipart/form-data']?.schema;
  assert.deepEqual(form?.required, ['file']);
  assert.deepEqual([form?.properties?.file?.type, form?.properties?.file?.format], ['string', 'binary']);
  assert.deepEqual(jsonSchemaOf(upload, '200')?.required, ['success', '_id', 'file']);
  assert.ok(jsonSchemaOf(files.post!, '413'), 'the upload documents 413');
  assert.equal(deref(jsonSchemaOf(files.get!, '200')?.properties?.data)?.type, 'array');
  const one = doc.paths['/api/v2/record/{ot}/{id}/files/{fileId}']!;
  assert.ok(one.get?.responses?.['200'], 'the download is documented');
  assert.deepEqual(Object.keys(jsonSchemaOf(one.delete!, '200')?.properties ?? {}).sort(), ['data', 'message', 'success']);
  assert.equal(jsonSchemaOf(one.get!, '404')?.properties?.Message?.type, 'string');
});

test('every documented path is an OpenAPI template with its parameters declared', () => {
  const seenIds = new Set<string>();
  for (const { path, method, op } of operations()) {
    const where = `${method.toUpperCase()} ${path}`;
    assert.match(path, /^\//, where);
    // Fastify's own syntax (wildcards, :params, regexps) must never leak into the document.
    assert.doesNotMatch(path, /[*:()]/, `${where} has no Fastify route syntax`);
    assert.doesNotMatch(path, /\/\//, `${where} has no doubled slash`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!).sort();
    const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name).sort();
    assert.deepEqual(declared, templated, `${where} declares exactly its path parameters`);
    const names = (op.parameters ?? []).map((p) => `${p.in}:${p.name}`);
    assert.equal(new Set(names).size, names.length, `${where} has no duplicate parameters`);
    if (op.operationId) {
      assert.ok(!seenIds.has(op.operationId), `operationId ${op.operationId} is unique`);
      seenIds.add(op.operationId);
    }
  }
});

test('every operation has responses, at least one 2xx, and each response a description', () => {
  const ops = operations();
  assert.ok(ops.length >= RECORD_ROUTES.length);
  for (const { path, method, op } of ops) {
    const where = `${method.toUpperCase()} ${path}`;
    const statuses = Object.keys(op.responses ?? {});
    assert.ok(statuses.length > 0, `${where} has responses`);
    assert.ok(statuses.some((s) => /^2\d\d$/.test(s)), `${where} has a 2xx response`);
    for (const s of statuses) {
      assert.match(s, /^([1-5]\d\d|[1-5]XX|default)$/, `${where} status ${s}`);
      assert.equal(typeof op.responses![s]!.description, 'string', `${where} ${s} has a description`);
    }
  }
});

test('every security requirement names a declared scheme and every $ref resolves', () => {
  const schemes = Object.keys(doc.components?.securitySchemes ?? {});
  for (const { path, method, op } of operations()) {
    for (const requirement of op.security ?? []) {
      for (const name of Object.keys(requirement)) {
        assert.ok(schemes.includes(name), `${method.toUpperCase()} ${path} uses declared scheme ${name}`);
      }
    }
  }
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
  for (const ref of refs) {
    assert.match(ref, /^#\/components\/schemas\//, `${ref} is local`);
    assert.ok(deref({ $ref: ref }), `${ref} resolves`);
  }
});

test('does not document itself or the docs UI as API routes', () => {
  for (const path of Object.keys(doc.paths)) {
    assert.ok(!path.startsWith('/docs') && path !== '/openapi.json', `${path} is an API route`);
  }
});

for (const page of ['/docs', '/docs/']) {
  test(`serves the docs UI at ${page} as HTML without a token, and its assets load`, async () => {
    const res = await ctx.request({ method: 'GET', url: page, token: null });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const assets = assetUrls(res.body, page);
    assert.ok(assets.some((a) => a.endsWith('.js')), 'references a script');
    assert.ok(assets.some((a) => a.endsWith('.css')), 'references a stylesheet');
    for (const url of assets) {
      const asset = await ctx.request({ method: 'GET', url, token: null });
      assert.equal(asset.statusCode, 200, `${url} loads`);
      assert.ok(asset.rawPayload.length > 0, `${url} is not empty`);
    }
  });
}

test('the docs UI loads the same OpenAPI document as /openapi.json', async () => {
  const html = (await ctx.request({ method: 'GET', url: '/docs/', token: null })).body;
  // Swagger UI's initializer script names the document it fetches (the vendor bundle holds
  // unrelated `url:` literals, so only the initializer is read).
  const initializer = assetUrls(html, '/docs/').find((a) => /initializer\.js$/.test(a));
  assert.ok(initializer, 'the page loads a Swagger UI initializer');
  const js = (await ctx.request({ method: 'GET', url: initializer, token: null })).body;
  const named = /\burl:\s*(?:resolveUrl\()?['"]([^'"]+)['"]/.exec(js)?.[1];
  assert.ok(named, 'the initializer names the document URL');
  const specUrl = new URL(named, 'http://orchard.test/docs/').pathname;
  const res = await ctx.request({ method: 'GET', url: specUrl, token: null });
  assert.equal(res.statusCode, 200, `${specUrl} loads`);
  assert.deepEqual(JSON.parse(res.body), doc);
});
