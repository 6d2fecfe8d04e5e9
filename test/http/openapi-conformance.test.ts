// The OpenAPI document at /openapi.json tells the truth, route by route: every operation is driven
// with real requests (good ones and the documented failures: no token, a role that may not, an
// unknown object or record, a malformed body, conditional requests, the rate limit), and each reply
// is checked against the document: its status is documented for the operation, its body validates
// against the schema documented for that status and content type, and the headers documented for it
// (ETag, Location, Retry-After, X-Error-Code) are there. Every route the server registers is in the
// document or one of those docs/api.md § The OpenAPI documents says are left out. On both stores.

import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { CONTEXT_STORES, testContextOn, type TestContext } from '../helpers.js';
import { ADMIN_KEY, control } from '../toolkit/control-helpers.js';
import { errorCatalogue } from '../../src/errors.js';

interface Schema {
  type?: string; nullable?: boolean; enum?: unknown[]; $ref?: string;
  properties?: Record<string, Schema>; required?: string[]; additionalProperties?: boolean | Schema;
  items?: Schema; oneOf?: Schema[]; anyOf?: Schema[]; allOf?: Schema[];
}
interface Response { description?: string; headers?: Record<string, { schema?: Schema }>; content?: Record<string, { schema?: Schema }> }
interface Operation { responses: Record<string, Response>; requestBody?: { content?: Record<string, unknown> } }
interface Document { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } }

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * What a value breaks of an OpenAPI 3.0 schema, as the JSON paths and reasons: the structural keywords
 * the document uses (type with nullable, enum, properties, required, additionalProperties, items, the
 * combinators, local $refs). Formats and ranges are the routes' own checks, not the reply's shape.
 */
export function violations(doc: Document, schema: Schema | undefined, value: unknown, at = '$'): string[] {
  if (!schema) return [];
  if (schema.$ref) return violations(doc, doc.components?.schemas?.[schema.$ref.replace('#/components/schemas/', '')], value, at);
  if (value === null) return schema.nullable || schema.type === 'null' || (!schema.type && !schema.properties) ? [] : [`${at} is null`];
  const out: string[] = [];
  if (schema.allOf) for (const s of schema.allOf) out.push(...violations(doc, s, value, at));
  for (const alternatives of [schema.oneOf, schema.anyOf]) {
    if (alternatives && !alternatives.some((s) => violations(doc, s, value, at).length === 0)) out.push(`${at} matches none of its alternatives`);
  }
  if (schema.enum && !schema.enum.includes(value)) out.push(`${at} is ${JSON.stringify(value)}, not one of ${JSON.stringify(schema.enum)}`);
  const type = Array.isArray(value) ? 'array' : typeof value;
  const fits = (t: string): boolean => t === type || (t === 'integer' && Number.isInteger(value)) || (t === 'number' && type === 'number');
  if (schema.type && !fits(schema.type)) return [...out, `${at} is ${type}, not ${schema.type}`];
  if (type === 'array' && schema.items) (value as unknown[]).forEach((v, i) => out.push(...violations(doc, schema.items, v, `${at}[${i}]`)));
  if (type === 'object') {
    const obj = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in obj)) out.push(`${at}.${name} is missing`);
    for (const [name, v] of Object.entries(obj)) {
      const own = schema.properties?.[name];
      if (own) out.push(...violations(doc, own, v, `${at}.${name}`));
      else if (schema.additionalProperties === false) out.push(`${at}.${name} is not in the schema`);
      else if (typeof schema.additionalProperties === 'object') out.push(...violations(doc, schema.additionalProperties, v, `${at}.${name}`));
    }
  }
  return out;
}

/** The document's path template a concrete path is an instance of (`/api/record/{obj}/{id}`), literal segments first. */
function templateOf(doc: Document, path: string): string | undefined {
  const segs = path.split('/');
  const candidates = Object.keys(doc.paths).filter((t) => {
    const ts = t.split('/');
    return ts.length === segs.length && ts.every((s, i) => s === segs[i] || /^\{.+\}$/.test(s));
  });
  // `/api/record/{obj}/export` before `/api/record/{obj}/{id}`: the fewest parameters wins, as the router does.
  return candidates.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

/** Headers a reply of a status must carry whenever the document names them for it (others, such as ETag on a write, are conditional). */
const ALWAYS: Record<string, (status: number) => boolean> = {
  'x-error-code': (s) => s >= 400,
  'retry-after': (s) => s === 429 || s === 503,
  location: (s) => s === 201,
};
/** Headers that mean something to a client: when the server sends one, the document must name it for that reply. */
const MEANINGFUL = ['location', 'etag', 'retry-after', 'x-error-code'];

/** Every problem of one exchange with the document, empty when the reply is what the document says. */
export function conformance(doc: Document, method: string, url: string, res: LightMyRequestResponse, sentType?: string): string[] {
  const path = url.split('?', 1)[0]!;
  const template = templateOf(doc, path);
  const where = `${method} ${url} → ${res.statusCode}`;
  if (!template) return [`${where}: no documented path`];
  const op = doc.paths[template]![method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()];
  if (!op) return [`${where}: ${method} ${template} is not documented`];
  const response = op.responses[String(res.statusCode)] ?? op.responses[`${String(res.statusCode)[0]}XX`] ?? op.responses.default;
  if (!response) return [`${where}: ${res.statusCode} is not documented for ${method} ${template} (documented: ${Object.keys(op.responses).join(', ')})`];
  const problems: string[] = [];
  if (sentType && res.statusCode < 300 && !op.requestBody?.content?.[sentType]) {
    problems.push(`${where}: took a ${sentType} body, which the document does not name (documented: ${Object.keys(op.requestBody?.content ?? {}).join(', ') || 'no body'})`);
  }
  const headers = Object.fromEntries(Object.keys(response.headers ?? {}).map((h) => [h.toLowerCase(), h]));
  for (const [name, required] of Object.entries(ALWAYS)) {
    if (required(res.statusCode) && name in headers && res.headers[name] === undefined) problems.push(`${where}: no ${name} header`);
  }
  for (const name of MEANINGFUL) {
    if (res.headers[name] !== undefined && !(name in headers)) problems.push(`${where}: sends ${name}, which the document does not name for ${res.statusCode}`);
  }
  const type = String(res.headers['content-type'] ?? '').split(';', 1)[0]!.trim();
  const content = response.content ?? {};
  if (method === 'HEAD' || res.statusCode === 304 || res.rawPayload.length === 0) {
    if (res.rawPayload.length > 0) problems.push(`${where}: a body where none is sent`);
    return problems;
  }
  if (Object.keys(content).length === 0) return [...problems, `${where}: a ${type} body, but the document has no content for ${res.statusCode}`];
  // */* is a file's own type (a download keeps the type it was uploaded with).
  const media = content[type] ?? content['*/*'];
  if (!media) return [...problems, `${where}: ${type} is not documented (documented: ${Object.keys(content).join(', ')})`];
  if (type === 'application/json') {
    problems.push(...violations(doc, media.schema, res.json()).map((v) => `${where}: ${v}`));
  }
  return problems;
}

test('the schema check finds what a reply breaks, and passes what it keeps', () => {
  const doc: Document = { paths: {}, components: { schemas: { Item: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } } };
  const schema: Schema = {
    type: 'object', required: ['items', 'label'], additionalProperties: false,
    properties: { items: { type: 'array', items: { $ref: '#/components/schemas/Item' } }, label: { type: 'string', nullable: true }, kind: { type: 'string', enum: ['a', 'b'] } },
  };
  assert.deepEqual(violations(doc, schema, { items: [{ n: 1 }], label: null, kind: 'a' }), []);
  assert.deepEqual(violations(doc, schema, { items: [{ n: 1.5 }, {}], label: 3, kind: 'c', extra: true }), [
    '$.items[0].n is number, not integer', '$.items[1].n is missing', '$.label is number, not string', '$.kind is "c", not one of ["a","b"]', '$.extra is not in the schema',
  ]);
  assert.deepEqual(violations(doc, schema, null), ['$ is null']);
});

const UNKNOWN_ID = '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f';

for (const store of CONTEXT_STORES) {
  describe(`the OpenAPI document against the server (${store.name})`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let doc: Document;
    let readerToken: string;
    /** The first request that reached each operation (`GET /api/record/{obj}`), for the failures any route can give. */
    const driven = new Map<string, InjectOptions & { token?: string | null; url: string; method: string }>();
    const problems: string[] = [];

    /** Sends the request and files every way its reply differs from the document. */
    async function send(opts: InjectOptions & { token?: string | null; url: string; method: string }): Promise<LightMyRequestResponse> {
      const res = await ctx.request(opts);
      const template = templateOf(doc, opts.url.split('?', 1)[0]!);
      const op = `${opts.method === 'HEAD' ? 'GET' : opts.method} ${template}`;
      if (!driven.has(op) && opts.token === undefined) driven.set(op, opts);
      const headers = (opts.headers ?? {}) as Record<string, string>;
      const sentType = opts.payload === undefined ? undefined : (headers['content-type'] ?? 'application/json').split(';', 1)[0]!;
      problems.push(...conformance(doc, opts.method, opts.url, res, sentType));
      // docs/errors.md: the code names its status; docs/api.md § Replies: every reply is one caller's view.
      const code = res.headers['x-error-code'] as keyof typeof errorCatalogue | undefined;
      if (code !== undefined && errorCatalogue[code]?.status !== res.statusCode) problems.push(`${opts.method} ${opts.url} → ${res.statusCode}: X-Error-Code ${code} is ${errorCatalogue[code]?.status ?? 'not in docs/errors.md'}`);
      if (res.headers['cache-control'] !== 'private, no-cache') problems.push(`${opts.method} ${opts.url} → ${res.statusCode}: Cache-Control ${res.headers['cache-control']}`);
      return res;
    }
    /** The request as the token of a user whose role may read contacts and nothing else, and without a token. */
    async function unauthorized(opts: InjectOptions & { url: string; method: string }): Promise<void> {
      assert.equal((await send({ ...opts, token: null })).statusCode, 401, `${opts.method} ${opts.url} without a token`);
      assert.equal((await send({ ...opts, token: readerToken })).statusCode, 403, `${opts.method} ${opts.url} as a reader of contacts`);
    }

    before(async () => {
      ctx = await testContextOn(store, { config: { adminKey: ADMIN_KEY } });
      doc = JSON.parse((await ctx.request({ method: 'GET', url: '/openapi.json', token: null })).body) as Document;
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'reader', grant: 'contact:read' });
      readerToken = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'reader@example.com', role: 'reader' } as never)).token as string;
    });
    after(() => ctx.close());

    test('the record routes: good requests, the documented failures and the conditional ones', async () => {
      const made = await send({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Acme Ltd' } });
      assert.equal(made.statusCode, 201);
      const id = made.json().data.Record.accountid as string;
      const one = `/api/record/account/${id}`;
      await send({ method: 'POST', url: '/api/record/account', payload: { acountname: 'x' } });
      await send({ method: 'POST', url: '/api/record/account', payload: '[1', headers: { 'content-type': 'application/json' } });
      await send({ method: 'POST', url: '/api/record/nosuchobject', payload: { name: 'x' } });
      await unauthorized({ method: 'POST', url: '/api/record/account', payload: { accountname: 'x' } });
      await send({ method: 'GET', url: '/api/record/account?pagesize=2' });
      await send({ method: 'GET', url: '/api/record/account?pagesize=0' });
      await unauthorized({ method: 'GET', url: '/api/record/account' });
      const got = await send({ method: 'GET', url: one });
      const etag = String(got.headers.etag);
      await send({ method: 'HEAD', url: one });
      await send({ method: 'GET', url: one, headers: { 'if-none-match': etag } });
      await send({ method: 'HEAD', url: one, headers: { 'if-none-match': etag } });
      await send({ method: 'GET', url: one, headers: { 'if-match': '"stale"' } });
      await send({ method: 'GET', url: `/api/record/account/${UNKNOWN_ID}` });
      await send({ method: 'GET', url: '/api/record/account/not-a-uuid' });
      await unauthorized({ method: 'GET', url: one });
      await send({ method: 'PUT', url: one, payload: { telephone1: '+1 555 0199' }, headers: { 'if-match': etag } });
      await send({ method: 'PUT', url: one, payload: { telephone1: '+1 555 0100' }, headers: { 'if-match': etag } });
      await send({ method: 'PUT', url: one, payload: { telephone1: '+1 555 0100' }, headers: { 'if-none-match': '*' } });
      await send({ method: 'PUT', url: one, payload: { telephone1: '1' }, headers: { 'if-none-match': 'not a tag' } });
      await send({ method: 'PUT', url: one, payload: { numberofemployees: 'many' } });
      await send({ method: 'PUT', url: `/api/record/account/${UNKNOWN_ID}`, payload: { telephone1: '1' } });
      await unauthorized({ method: 'PUT', url: one, payload: { telephone1: '1' } });
      await send({ method: 'GET', url: `${one}/history` });
      await send({ method: 'GET', url: `${one}/history?pagesize=x` });
      await send({ method: 'GET', url: `/api/record/account/${UNKNOWN_ID}/history` });
      await unauthorized({ method: 'GET', url: `${one}/history` });
      await send({ method: 'DELETE', url: one, headers: { 'if-none-match': '*' } });
      await unauthorized({ method: 'DELETE', url: one });
      await send({ method: 'DELETE', url: one });
      await send({ method: 'DELETE', url: one });
      assert.deepEqual(problems.splice(0), []);
    });

    test('the change feed, the query, export and import', async () => {
      const feed = await send({ method: 'GET', url: '/api/changes?pagesize=5' });
      await send({ method: 'GET', url: `/api/changes?since=${encodeURIComponent(feed.json().data.Cursor)}` });
      await send({ method: 'GET', url: '/api/changes?since=garbage' });
      await send({ method: 'GET', url: '/api/changes?objecttype=nosuchobject' });
      await unauthorized({ method: 'GET', url: '/api/changes?objecttype=account' });
      await send({ method: 'POST', url: '/api/query', payload: { objecttype: 'account', fields: 'accountname', query: '' } });
      await send({ method: 'POST', url: '/api/query', payload: { objecttype: 'account', query: 'nosuchfield = 1' } });
      await unauthorized({ method: 'POST', url: '/api/query', payload: { objecttype: 'account' } });
      for (const format of ['csv', 'ndjson']) await send({ method: 'GET', url: `/api/record/account/export?format=${format}` });
      await send({ method: 'GET', url: '/api/record/account/export?format=xml' });
      await unauthorized({ method: 'GET', url: '/api/record/account/export?format=csv' });
      await send({ method: 'POST', url: '/api/record/account/import?format=ndjson', payload: '{"accountname":"Imported"}\n{"nosuch":1}\n', headers: { 'content-type': 'application/x-ndjson' } });
      await send({ method: 'POST', url: '/api/record/account/import?format=csv', payload: 'accountname\nImported\n', headers: { 'content-type': 'text/csv' } });
      await unauthorized({ method: 'POST', url: '/api/record/account/import?format=csv', payload: 'accountname\nx\n', headers: { 'content-type': 'text/csv' } });
      assert.deepEqual(problems.splice(0), []);
    });

    test('the metadata, v2, v3, views and files routes', async () => {
      await send({ method: 'GET', url: '/metadata/records' });
      await send({ method: 'GET', url: '/metadata/records/1' });
      await send({ method: 'GET', url: '/metadata/records/424242' });
      await send({ method: 'GET', url: '/metadata/records/1/fields' });
      await send({ method: 'GET', url: '/metadata/records/1/fields/accounttypecode' });
      await send({ method: 'GET', url: '/metadata/records/1/fields/nosuchfield' });
      await send({ method: 'GET', url: '/metadata/records/1/fields/accounttypecode/values' });
      await send({ method: 'GET', url: '/metadata/records/1/fields', token: null });
      const made = await send({ method: 'POST', url: '/api/v2/record/account', payload: { accountname: 'V2 Ltd' } });
      const id = made.json()._id as string | undefined;
      assert.ok(id, made.body);
      await send({ method: 'POST', url: '/api/v2/record/account', payload: { nosuch: 1 } });
      await unauthorized({ method: 'POST', url: '/api/v2/record/account', payload: { accountname: 'x' } });
      await send({ method: 'PUT', url: `/api/v2/record/account/${id}`, payload: { telephone1: '2' } });
      await send({ method: 'PUT', url: `/api/v2/record/account/${id}`, payload: { telephone1: '3' }, headers: { 'if-match': '"stale"' } });
      await send({ method: 'PUT', url: `/api/v2/record/account/${UNKNOWN_ID}`, payload: { telephone1: '3' } });
      await unauthorized({ method: 'PUT', url: `/api/v2/record/account/${id}`, payload: { telephone1: '3' } });
      await send({ method: 'POST', url: '/api/v2/system-field/account/text', payload: { label: 'Conformance' } });
      await send({ method: 'POST', url: '/api/v2/system-field/account/nosuchtype', payload: {} });
      await unauthorized({ method: 'POST', url: '/api/v2/system-field/account/text', payload: {} });
      const boundary = 'conformance';
      const form = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
      const files = `/api/v2/record/account/${id}/files`;
      const up = await send({ method: 'POST', url: files, payload: form, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      const fileId = up.json()._id as string;
      await send({ method: 'POST', url: files, payload: `--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
      await send({ method: 'GET', url: files });
      await send({ method: 'GET', url: `${files}/${fileId}` });
      await send({ method: 'GET', url: `${files}/${UNKNOWN_ID}` });
      await send({ method: 'GET', url: `${files}/nope` });
      await unauthorized({ method: 'GET', url: `${files}/${fileId}` });
      await unauthorized({ method: 'DELETE', url: `${files}/${fileId}` });
      await send({ method: 'DELETE', url: `${files}/${fileId}` });
      const views = await send({ method: 'POST', url: '/api/v2/views/account', payload: { name: 'All' } });
      const viewId = (views.json().data?.viewid ?? views.json().data?.id ?? UNKNOWN_ID) as string;
      await send({ method: 'POST', url: '/api/v2/views/account', payload: {} });
      await send({ method: 'GET', url: '/api/v2/views/account' });
      await unauthorized({ method: 'GET', url: '/api/v2/views/account' });
      await send({ method: 'POST', url: `/api/v2/views/account/${viewId}` });
      await send({ method: 'POST', url: `/api/v2/views/account/${UNKNOWN_ID}` });
      await send({ method: 'DELETE', url: `/api/v2/views/account/${viewId}` });
      await send({ method: 'DELETE', url: `/api/v2/views/account/${UNKNOWN_ID}` });
      const doomed = (await send({ method: 'POST', url: '/api/v2/record/account', payload: { accountname: 'V2 deleted' } })).json()._id as string;
      await send({ method: 'DELETE', url: `/api/v2/record/account/${doomed}`, headers: { 'if-match': '"stale"' } });
      await unauthorized({ method: 'DELETE', url: `/api/v2/record/account/${doomed}` });
      await send({ method: 'DELETE', url: `/api/v2/record/account/${doomed}` });
      await send({ method: 'DELETE', url: `/api/v2/record/account/${doomed}` });
      for (const kind of ['create', 'update', 'delete']) {
        const data = kind === 'create' ? [{ accountname: 'B' }, 'not a record'] : kind === 'update' ? [{ id, record: { telephone1: '4' } }] : [id];
        await send({ method: 'POST', url: `/api/v3/record/account/batch/${kind}`, payload: { data } });
        await send({ method: 'POST', url: `/api/v3/record/account/batch/${kind}`, payload: { nodata: 1 } });
        await send({ method: 'POST', url: `/api/v3/record/nosuchobject/batch/${kind}`, payload: { data } });
        await unauthorized({ method: 'POST', url: `/api/v3/record/account/batch/${kind}`, payload: { data } });
      }
      const tooLarge = await send({ method: 'POST', url: '/api/v3/record/account/batch/create', payload: JSON.stringify({ data: [{ accountname: 'x'.repeat(21 * 1024 * 1024) }] }), headers: { 'content-type': 'application/json' } });
      assert.equal(tooLarge.statusCode, 413);
      await send({ method: 'POST', url: '/api/v3/query', payload: { objectType: 'account', fields: ['accountname'] } });
      await send({ method: 'POST', url: '/api/v3/query', payload: { objectType: 'account', fields: ['nosuchfield'] } });
      await unauthorized({ method: 'POST', url: '/api/v3/query', payload: { objectType: 'account' } });
      assert.deepEqual(problems.splice(0), []);
    });

    test('the organization\'s routes and the webhooks admin with its delivery log', async () => {
      for (const url of ['/api/me', '/api/objects', '/api/objects/account', '/api/objects/nosuchobject', '/api/usage']) {
        await send({ method: 'GET', url });
        await send({ method: 'GET', url, token: null });
      }
      const made = await send({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url: 'https://hooks.example.com/conformance' } });
      assert.equal(made.statusCode, 201, made.body);
      const hook = `/api/webhooks/${made.json().data.id}`;
      await send({ method: 'POST', url: '/api/webhooks', payload: { event: 'nosuchevent', url: 'https://hooks.example.com/x' } });
      await unauthorized({ method: 'POST', url: '/api/webhooks', payload: { event: 'created', url: 'https://hooks.example.com/x' } });
      for (const url of ['/api/webhooks', hook, `${hook}/deliveries`, `${hook}/deliveries?state=failed`, `${hook}/deliveries?state=nosuchstate`]) await send({ method: 'GET', url });
      await unauthorized({ method: 'GET', url: '/api/webhooks' });
      await send({ method: 'GET', url: `/api/webhooks/${UNKNOWN_ID}` });
      await send({ method: 'POST', url: `${hook}/enable` });
      await send({ method: 'POST', url: `${hook}/rotate-secret`, payload: { expiresInHours: 0 } });
      await send({ method: 'POST', url: `${hook}/rotate-secret`, payload: { expiresInHours: -1 } });
      const tested = await send({ method: 'POST', url: `${hook}/test` });
      assert.equal(tested.statusCode, 202, tested.body);
      const deliveryId = tested.json().data.id as string;
      // A delivery that has not failed cannot be retried: 409 DELIVERY_NOT_FAILED.
      const retry = await send({ method: 'POST', url: `${hook}/deliveries/${deliveryId}/retry` });
      assert.equal(retry.statusCode, 409, retry.body);
      await send({ method: 'POST', url: `${hook}/deliveries/${UNKNOWN_ID}/retry` });
      await unauthorized({ method: 'POST', url: `${hook}/deliveries/${deliveryId}/retry` });
      await unauthorized({ method: 'POST', url: `${hook}/test` });
      await send({ method: 'DELETE', url: hook });
      await send({ method: 'DELETE', url: hook });
      await send({ method: 'POST', url: `${hook}/enable` });
      assert.deepEqual(problems.splice(0), []);
    });

    test('over the minute limit, every route answers the documented 429 with Retry-After', async () => {
      const limited = await ctx.stores.admin.createOrganization({ name: 'Limited', plan: 'enterprise', email: 'limited@example.com', minuteLimit: 1 });
      const token = limited.token;
      await send({ method: 'GET', url: '/api/me', token });
      const res = await send({ method: 'GET', url: '/api/record/account', token });
      assert.equal(res.statusCode, 429, res.body);
      await send({ method: 'POST', url: '/api/v3/query', token, payload: { objectType: 'account' } });
      assert.deepEqual(problems.splice(0), []);
    });

    // The failures no request of a client provokes but every route can give (docs/api.md § Statuses):
    // the server failing (500), the database out of reach (503), the time limit (408). The control
    // API's fault rules give the real replies (docs/control-api.md § Faults).
    for (const status of [500, 503, 408]) {
      test(`every operation answers a documented ${status} when the server fails so`, async () => {
        await control(ctx, 'POST', '/faults', { orgId: ctx.orgId, status, count: 1_000_000 });
        try {
          for (const [op, opts] of driven) {
            const res = await send(opts);
            if (op !== 'GET /api/usage') assert.equal(res.statusCode, status, `${op}: ${res.body}`);
          }
        } finally {
          await control(ctx, 'DELETE', `/faults?orgId=${ctx.orgId}`);
        }
        assert.deepEqual(problems.splice(0), []);
      });
    }

    test('every operation of the document was driven, and every route the server has is documented or deliberately left out', () => {
      const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).filter((m) => HTTP_METHODS.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
      assert.deepEqual(documented.filter((op) => !driven.has(op)), [], 'operations no request reached');
      // docs/api.md § The OpenAPI documents: HEAD (as the GET), the probes, the metrics, the console, the docs UI and the document
      // itself; the control API has a document of its own (/_orchard/openapi.json).
      const leftOut = /^(HEAD .*|\w+ \/(live|ready|metrics|openapi\.json)|\w+ \/(console|docs)(\/.*|\*)?|\w+ \/_orchard(\/.*)?)$/;
      const registered = routesOf(ctx.app.printRoutes({ commonPrefix: false }));
      const missing = registered.filter((r) => !leftOut.test(r) && !documented.includes(r.replace(/:(\w+)/g, '{$1}')));
      assert.deepEqual(missing, [], 'routes neither documented nor left out on purpose');
      assert.ok(registered.includes('HEAD /api/record/{obj}/{id}'.replace(/\{(\w+)\}/g, ':$1')), 'the route list was read');
    });
  });
}

/** `METHOD /path` of every route in Fastify's printRoutes tree (commonPrefix false), its wildcards left as they are. */
function routesOf(tree: string): string[] {
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) out.push(`${method} ${stack.join('')}`);
  }
  return out;
}
