// Authentication (docs/access.md, docs/api.md): where the token may be sent, what happens without a
// valid one, revocation on the very next request, and isolation between two organizations that
// share a data directory, on every record route.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { RecordRow } from '../../src/schema/types.js';
import { testContext, type TestContext } from '../helpers.js';
import { assertErrorReply } from './error-reply.js';

const MISSING = 'No API token: send it in the tokenid header (or the tokenid query parameter).';
const INVALID = 'The API token is not valid: it is unknown or has been revoked. Create a new one with `orchard token create`.';

function body(res: LightMyRequestResponse): any {
  return JSON.parse(res.body);
}

/** Every record route, each with a request that would succeed with a valid token. */
function routes(id: string): Array<{ method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object }> {
  return [
    { method: 'GET', url: '/api/record/account' },
    { method: 'GET', url: `/api/record/account/${id}` },
    { method: 'POST', url: '/api/record/account', payload: { accountname: 'Unauthenticated' } },
    { method: 'PUT', url: `/api/record/account/${id}`, payload: { accountname: 'Unauthenticated' } },
    { method: 'DELETE', url: `/api/record/account/${id}` },
  ];
}

describe('the API token', () => {
  let ctx: TestContext;
  let record: RecordRow;

  before(async () => {
    ctx = await testContext();
    const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Guarded' } });
    record = body(res).data.Record;
  });

  after(async () => {
    await ctx.close();
  });

  const listAs = (opts: { url?: string; headers?: Record<string, string> }) =>
    ctx.request({ method: 'GET', url: opts.url ?? '/api/record/account', token: null, headers: opts.headers ?? {} });

  test('is read from the tokenid header however its name is spelled', async () => {
    for (const name of ['tokenid', 'tokenId', 'TokenID', 'TOKENID']) {
      const res = await listAs({ headers: { [name]: ctx.token } });
      assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
      assert.deepEqual(body(res).data.Records, [record], name);
    }
  });

  test('is read from a tokenid query parameter in any case', async () => {
    for (const name of ['tokenid', 'tokenId', 'TokenID']) {
      const res = await listAs({ url: `/api/record/account?${name}=${ctx.token}` });
      assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
      assert.deepEqual(body(res).data.Records, [record], name);
    }
    const one = await listAs({ url: `/api/record/account/${record.accountid}?tokenid=${ctx.token}` });
    assert.equal(body(one).data.Record.accountid, record.accountid);
    const withPaging = await listAs({ url: `/api/record/account?pagesize=1&tokenId=${ctx.token}&pagenumber=1` });
    assert.equal(body(withPaging).data.Page_Size, 1);
  });

  test('is compared case-insensitively, as UUIDs are', async () => {
    const res = await listAs({ headers: { tokenid: ctx.token.toUpperCase() } });
    assert.equal(res.statusCode, 200, res.body);
  });

  test('missing, empty or blank is answered 401 with a Message on every record route', async () => {
    for (const route of routes(record.accountid as string)) {
      assertErrorReply(await ctx.request({ ...route, token: null }), 401, MISSING);
      assertErrorReply(await ctx.request({ ...route, token: '' }), 401, MISSING);
      assertErrorReply(await ctx.request({ ...route, token: '   ' }), 401, MISSING);
      assertErrorReply(await ctx.request({ ...route, url: `${route.url}?tokenid=`, token: null }), 401, MISSING);
    }
    const unchanged = await ctx.request({ method: 'GET', url: `/api/record/account/${record.accountid}` });
    assert.deepEqual(body(unchanged).data.Record, record, 'no unauthenticated write happened');
  });

  test('unknown is answered 401 on every record route', async () => {
    for (const token of [randomUUID(), 'not-even-a-uuid', `${ctx.token}x`]) {
      for (const route of routes(record.accountid as string)) {
        assertErrorReply(await ctx.request({ ...route, token }), 401, INVALID);
      }
    }
    assertErrorReply(await listAs({ url: `/api/record/account?tokenid=${randomUUID()}` }), 401, INVALID);
    assert.equal(body(await ctx.request({ method: 'GET', url: '/api/record/account' })).data.Total_Records, 1, 'nothing was created');
  });

  test('is checked before anything else: no token and an unknown object is still 401', async () => {
    assertErrorReply(await ctx.request({ method: 'GET', url: '/api/record/nosuchobject', token: null }), 401, MISSING);
    assertErrorReply(await ctx.request({ method: 'GET', url: '/api/record/account/not-a-uuid', token: null }), 401, MISSING);
    assertErrorReply(await ctx.request({ method: 'GET', url: '/api/record/account?pagesize=0', token: null }), 401, MISSING);
  });

  test('revoked is refused on the very next request', async () => {
    const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'temp@example.com' });
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account', token })).statusCode, 200);
    assert.equal(await ctx.stores.admin.revokeToken(token), true);
    assertErrorReply(await ctx.request({ method: 'GET', url: '/api/record/account', token }), 401, INVALID);
    assertErrorReply(await ctx.request({ method: 'GET', url: `/api/record/account?tokenid=${token}`, token: null }), 401, INVALID);
    assertErrorReply(await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'After revoke' }, token }), 401, INVALID);
    assert.equal(await ctx.stores.admin.revokeToken(token), false, 'a token is revoked once');
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account' })).statusCode, 200, 'other tokens keep working');
  });

  test('a new token of the same user works beside the old one, and revoking one leaves the other', async () => {
    const extra = await ctx.stores.admin.createToken(ctx.userId);
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account', token: extra })).statusCode, 200);
    await ctx.stores.admin.revokeToken(extra);
    assertErrorReply(await ctx.request({ method: 'GET', url: '/api/record/account', token: extra }), 401, INVALID);
    assert.equal((await ctx.request({ method: 'GET', url: '/api/record/account' })).statusCode, 200);
  });
});

describe('two organizations in one data directory', () => {
  let ctx: TestContext;
  let tokenB: string;
  let userB: string;
  /** Records of organization B, created with B's token. */
  let b1: RecordRow;
  let b2: RecordRow;
  let a1: RecordRow;

  const asA = (opts: Parameters<TestContext['request']>[0]) => ctx.request(opts);
  const asB = (opts: Parameters<TestContext['request']>[0]) => ctx.request({ ...opts, token: tokenB });

  before(async () => {
    ctx = await testContext();
    const other = await ctx.stores.admin.createOrganization({ name: 'Org B', plan: 'enterprise', email: 'boss@b.example.com' });
    tokenB = other.token;
    userB = other.user.id;
    b1 = body(await asB({ method: 'POST', url: '/api/record/account', payload: { accountname: 'B one' } })).data.Record;
    b2 = body(await asB({ method: 'POST', url: '/api/record/account', payload: { accountname: 'B two' } })).data.Record;
    a1 = body(await asA({ method: 'POST', url: '/api/record/account', payload: { accountname: 'A one' } })).data.Record;
  });

  after(async () => {
    await ctx.close();
  });

  const notFound = (id: unknown) => `No account record has id '${id}'.`;

  async function assertBUnchanged(): Promise<void> {
    for (const r of [b1, b2]) {
      const res = await asB({ method: 'GET', url: `/api/record/account/${r.accountid}` });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(body(res).data.Record, r);
    }
  }

  test('each organization\'s own records carry its own user as owner', () => {
    assert.equal(b1.ownerid, userB);
    assert.equal(b1.ownername, 'Boss');
    assert.equal(a1.ownerid, ctx.userId);
    assert.equal(a1.ownername, 'Owner');
  });

  test('A\'s list never contains B\'s records, and B\'s never A\'s', async () => {
    const listA = body(await asA({ method: 'GET', url: '/api/record/account' })).data;
    assert.equal(listA.Total_Records, 1);
    assert.deepEqual(listA.Records, [a1]);
    const listB = body(await asB({ method: 'GET', url: '/api/record/1' })).data;
    assert.equal(listB.Total_Records, 2);
    assert.deepEqual(listB.Records.map((r: RecordRow) => r.accountid).sort(), [b1.accountid, b2.accountid].sort());
    const usersA = body(await asA({ method: 'GET', url: '/api/record/crmuser' })).data.Records as RecordRow[];
    assert.deepEqual(usersA.map((u) => u.crmuserid), [ctx.userId], 'A sees only its own users');
  });

  test('GET one: a token of A gets 404 for B\'s record ids', async () => {
    for (const r of [b1, b2]) {
      assertErrorReply(await asA({ method: 'GET', url: `/api/record/account/${r.accountid}` }), 404, notFound(r.accountid));
      assertErrorReply(await asA({ method: 'GET', url: `/api/record/account/${r.accountid}?tokenid=${tokenB}`, token: ctx.token }), 404, notFound(r.accountid));
    }
    assertErrorReply(await asB({ method: 'GET', url: `/api/record/account/${a1.accountid}` }), 404, notFound(a1.accountid));
  });

  test('PUT: a token of A gets 404 for B\'s record ids and B\'s records are unchanged', async () => {
    for (const r of [b1, b2]) {
      assertErrorReply(await asA({ method: 'PUT', url: `/api/record/account/${r.accountid}`, payload: { accountname: 'Hijacked' } }), 404, notFound(r.accountid));
    }
    await assertBUnchanged();
  });

  test('DELETE: a token of A gets 404 for B\'s record ids and B\'s records remain', async () => {
    for (const r of [b1, b2]) {
      assertErrorReply(await asA({ method: 'DELETE', url: `/api/record/account/${r.accountid}` }), 404, notFound(r.accountid));
    }
    await assertBUnchanged();
  });

  test('POST with a chosen id equal to B\'s record id creates a separate record in A', async () => {
    const res = await asA({ method: 'POST', url: '/api/record/account', payload: { accountid: b1.accountid, accountname: 'A twin' } });
    assert.equal(res.statusCode, 201, res.body);
    const twin = body(res).data.Record;
    assert.equal(twin.accountid, b1.accountid);
    assert.equal(twin.accountname, 'A twin');
    assert.equal(twin.ownerid, ctx.userId);
    assert.equal(res.headers.location, `http://orchard.test/api/record/account/${b1.accountid}`);
    await assertBUnchanged();

    // Each side now sees its own record under the shared id, and changes to one leave the other.
    assert.equal(body(await asA({ method: 'GET', url: `/api/record/account/${b1.accountid}` })).data.Record.accountname, 'A twin');
    const del = await asA({ method: 'DELETE', url: `/api/record/account/${b1.accountid}` });
    assert.equal(del.statusCode, 200);
    await assertBUnchanged();
  });

  test('lookups of A cannot point at B\'s records or users', async () => {
    assertErrorReply(await asA({ method: 'POST', url: '/api/record/account', payload: { accountname: 'x', parentaccountid: b2.accountid } }), 400,
      `'parentaccountid' refers to account '${b2.accountid}', which does not exist. Send the id of an existing account record.`);
    assertErrorReply(await asA({ method: 'POST', url: '/api/record/account', payload: { accountname: 'x', ownerid: userB } }), 400,
      `'ownerid' refers to crmuser '${userB}', which does not exist. Send the id of an existing crmuser record.`);
    assertErrorReply(await asA({ method: 'PUT', url: `/api/record/account/${a1.accountid}`, payload: { ownerid: userB } }), 400,
      `'ownerid' refers to crmuser '${userB}', which does not exist. Send the id of an existing crmuser record.`);
    assertErrorReply(await asA({ method: 'GET', url: `/api/record/crmuser/${userB}` }), 404, `No crmuser record has id '${userB}'.`);
  });

  test('isolation holds on every writable object, not only account', async () => {
    const objects = (await (await ctx.stores.records.org(ctx.orgId)).schema()).objects.filter((o) => !o.readOnly);
    for (const obj of objects) {
      const res = await asB({ method: 'POST', url: `/api/record/${obj.systemName}`, payload: { [obj.primaryField]: `B ${obj.systemName}` } });
      assert.equal(res.statusCode, 201, res.body);
      const id = body(res).data.Record[obj.keyField] as string;
      const message = `No ${obj.systemName} record has id '${id}'.`;
      assertErrorReply(await asA({ method: 'GET', url: `/api/record/${obj.systemName}/${id}` }), 404, message);
      assertErrorReply(await asA({ method: 'PUT', url: `/api/record/${obj.systemName}/${id}`, payload: { [obj.primaryField]: 'A' } }), 404, message);
      assertErrorReply(await asA({ method: 'DELETE', url: `/api/record/${obj.systemName}/${id}` }), 404, message);
      const listA = body(await asA({ method: 'GET', url: `/api/record/${obj.systemName}` })).data.Records as RecordRow[];
      assert.ok(!listA.some((r) => r[obj.keyField] === id), `${obj.systemName}: A's list holds B's record`);
      const still = await asB({ method: 'GET', url: `/api/record/${obj.systemName}/${id}` });
      assert.equal(body(still).data.Record[obj.primaryField], `B ${obj.systemName}`);
    }
  });
});
