// Files on records (docs/compat.md), on both stores: upload as multipart with a part named `file`,
// list, download, remove; the filename made safe and the content type kept; the 20 MB limit, declared
// or streamed; a missing `file` part and a JSON body refused naming what to send; multipart sent to a
// JSON route refused as such; the role (update to attach, read to list and download); and a
// record's files gone with it, content included (on disk for SQLite, in the database for PostgreSQL).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import type { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import { DATABASE_URL } from '../services.js';
import { assertErrorReply } from './error-reply.js';
import { MULTIPART, multipartBody, type Part } from './multipart-body.js';


const ADMIN_KEY = 'test-admin-key-0123456789abcdef';

for (const store of HTTP_STORES) {
  describe(`files on records (${store.name})`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let accountId: string;

    const upload = (url: string, parts: Part[], token?: string) =>
      ctx.request({ method: 'POST', url, payload: multipartBody(parts), headers: { 'content-type': MULTIPART }, ...(token ? { token } : {}) });
    const json = async (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string) => {
      const res = await ctx.request({ method, url, ...(token ? { token } : {}) });
      return { res, body: JSON.parse(res.body) };
    };
    const newAccount = async (name: string): Promise<string> =>
      JSON.parse((await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: name } })).body).data.Record.accountid;

    /** The file contents the store keeps for the organization: files on disk (SQLite) or rows (PostgreSQL). */
    async function storedContents(): Promise<number> {
      if (!ctx.config.databaseUrl) {
        const dir = path.join(ctx.dir, 'files', ctx.orgId);
        return fs.existsSync(dir) ? fs.readdirSync(dir).length : 0;
      }
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      try {
        const schema = (ctx.stores.records as PostgresRecordStore).schemaName(ctx.orgId);
        return (await client.query(`SELECT count(*)::int AS n FROM "${schema}".orchard_files`)).rows[0].n;
      } finally {
        await client.end();
      }
    }

    before(async () => {
      ctx = await store.context({ config: { adminKey: ADMIN_KEY } });
      accountId = await newAccount('Filed Ltd');
    });
    after(() => ctx.close());

    test('attaches a file sent in the part named file, lists it and downloads it as sent', async () => {
      const content = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0a]);
      const res = await upload(`/api/v2/record/account/${accountId}/files`, [
        { name: 'note', content: 'ignored field' },
        { name: 'file', filename: 'C:\\Users\\me\\Q3 report.pdf', type: 'application/pdf', content },
      ]);
      assert.equal(res.statusCode, 200, res.body);
      const b = JSON.parse(res.body);
      const expected = {
        fileid: b._id, objectid: accountId, objecttypecode: 1, filename: 'Q3 report.pdf', contenttype: 'application/pdf', size: content.length,
        createdon: new Date(ctx.clock.ms).toISOString().slice(0, 19), createdby: ctx.userId,
      };
      assert.deepEqual(b, { success: true, _id: expected.fileid, file: expected });
      const listed = await json('GET', `/api/v2/record/1/${accountId.toUpperCase()}/files`);
      assert.deepEqual(listed.body, { success: true, data: [expected], message: '' });
      const got = await ctx.request({ method: 'GET', url: `/api/v2/record/account/${accountId}/files/${b._id}` });
      assert.equal(got.statusCode, 200);
      assert.equal(got.headers['content-type'], 'application/pdf');
      assert.equal(got.headers['content-disposition'], `attachment; filename="Q3 report.pdf"; filename*=UTF-8''Q3%20report.pdf`);
      assert.deepEqual(got.rawPayload, content);
    });

    test('keeps a safe name and a well-formed content type: path parts, control characters and a bad type go', async () => {
      const res = await upload(`/api/v2/record/account/${accountId}/files`, [{ name: 'file', filename: '../../etc/pa\u0007sswd ', type: 'not a type', content: 'x' }]);
      const file = JSON.parse(res.body).file;
      assert.deepEqual([file.filename, file.contenttype], ['passwd', 'application/octet-stream']);
      const unicode = await upload(`/api/v2/record/account/${accountId}/files`, [{ name: 'file', filename: 'חשבונית 1.txt', type: 'text/plain; charset=UTF-8', content: 'x' }]);
      const f2 = JSON.parse(unicode.body).file;
      assert.deepEqual([f2.filename, f2.contenttype], ['חשבונית 1.txt', 'text/plain']);
      const got = await ctx.request({ method: 'GET', url: `/api/v2/record/account/${accountId}/files/${f2.fileid}` });
      assert.equal(got.headers['content-disposition'], `attachment; filename="_______ 1.txt"; filename*=UTF-8''${encodeURIComponent('חשבונית 1.txt')}`);      // A quote or bracket in the name is percent-encoded in filename*, whose value RFC 8187 limits to attr-chars.
      const quoted = JSON.parse((await upload(`/api/v2/record/account/${accountId}/files`, [{ name: 'file', filename: "O'Brien (draft)*.txt", content: 'x' }])).body).file;
      const header = (await ctx.request({ method: 'GET', url: `/api/v2/record/account/${accountId}/files/${quoted.fileid}` })).headers['content-disposition'];
      assert.equal(header, `attachment; filename="O'Brien (draft)*.txt"; filename*=UTF-8''O%27Brien%20%28draft%29%2A.txt`);
    });

    test('refuses a body without a part named file, a JSON body and a raw one, naming the part to send', async () => {
      const url = `/api/v2/record/account/${accountId}/files`;
      const other = await upload(url, [{ name: 'attachment', filename: 'a.txt', content: 'x' }, { name: 'file', content: 'not a file' }]);
      assertErrorReply(other, 400, "The multipart body has no part named 'file' holding a file. Send multipart/form-data with the file in a part named 'file' (curl -F file=@report.pdf).");
      const notMultipart = "The body is not multipart/form-data. Send multipart/form-data with the file in a part named 'file' (curl -F file=@report.pdf).";
      const asJson = await ctx.request({ method: 'POST', url, payload: { file: 'x' } });
      assertErrorReply(asJson, 400, notMultipart);
      // A file sent raw (curl --data-binary) is not JSON either: the reply still says what to send.
      for (const type of ['text/plain', 'application/octet-stream', 'application/json']) {
        assertErrorReply(await ctx.request({ method: 'POST', url, payload: 'hello, not JSON', headers: { 'content-type': type } }), 400, notMultipart);
      }
    });

    test('refuses multipart sent to a JSON route as such, not as "not valid JSON"', async () => {
      const res = await upload('/api/record/account', [{ name: 'accountname', content: 'Acme' }]);
      assertErrorReply(res, 400, "This route takes a JSON body; multipart/form-data is taken only by POST /api/v2/record/{object}/{id}/files, with the file in a part named 'file'.");
    });

    test('answers a record or file that does not exist with 404 and a malformed id with 400', async () => {
      const absent = randomUUID();
      assertErrorReply(await upload(`/api/v2/record/account/${absent}/files`, [{ name: 'file', filename: 'a', content: 'x' }]), 404, `No account record has id '${absent}'.`);
      assertErrorReply((await json('GET', `/api/v2/record/account/${absent}/files`)).res, 404, `No account record has id '${absent}'.`);
      assertErrorReply((await json('GET', `/api/v2/record/account/${accountId}/files/${absent}`)).res, 404,
        `The account record '${accountId}' has no file with id '${absent}'. List its files with GET /api/v2/record/account/${accountId}/files.`);
      assertErrorReply((await json('GET', `/api/v2/record/account/${accountId}/files/nope`)).res, 400, /^'nope' is not a valid file id/);
      assertErrorReply((await json('GET', '/api/v2/record/account/nope/files')).res, 400, /^'nope' is not a valid account id/);
    });

    test('needs update on the object to attach or remove a file, and read to list or download', async () => {
      const file = JSON.parse((await upload(`/api/v2/record/account/${accountId}/files`, [{ name: 'file', filename: 'r.txt', content: 'r' }])).body).file;
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'viewer', grant: 'account:read' });
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'blind', grant: 'contact:read' });
      const viewer = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'viewer@example.com', role: 'viewer' })).token;
      const blind = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'blind@example.com', role: 'blind' })).token;
      assert.equal((await json('GET', `/api/v2/record/account/${accountId}/files`, viewer)).res.statusCode, 200);
      assert.equal((await ctx.request({ method: 'GET', url: `/api/v2/record/account/${accountId}/files/${file.fileid}`, token: viewer })).body, 'r');
      const refused = await upload(`/api/v2/record/account/${accountId}/files`, [{ name: 'file', filename: 'r.txt', content: 'r' }], viewer);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.headers['x-error-code'], 'PERMISSION_DENIED');
      assert.equal((await json('DELETE', `/api/v2/record/account/${accountId}/files/${file.fileid}`, viewer)).res.statusCode, 403);
      assert.equal((await json('GET', `/api/v2/record/account/${accountId}/files`, blind)).res.statusCode, 403);
      assert.equal((await json('GET', `/api/v2/record/account/${accountId}/files/${file.fileid}`, blind)).res.statusCode, 403);
    });

    test('removes a file, its content with it', async () => {
      const id = await newAccount('Remover');
      const before = await storedContents();
      const file = JSON.parse((await upload(`/api/v2/record/account/${id}/files`, [{ name: 'file', filename: 'gone.txt', content: 'bye' }])).body).file;
      assert.equal(await storedContents(), before + 1);
      const removed = await json('DELETE', `/api/v2/record/account/${id}/files/${file.fileid}`);
      assert.deepEqual(removed.body, { success: true, data: null, message: '' });
      assert.equal(await storedContents(), before);
      assert.deepEqual((await json('GET', `/api/v2/record/account/${id}/files`)).body.data, []);
      assert.equal((await json('DELETE', `/api/v2/record/account/${id}/files/${file.fileid}`)).res.statusCode, 404);
    });

    test('deletes a record\'s files with it, through DELETE and the v3 batch delete, leaving no content behind', async () => {
      const before = await storedContents();
      const ids = [await newAccount('Doomed one'), await newAccount('Doomed two')];
      for (const id of ids) {
        for (const name of ['a.txt', 'b.txt']) await upload(`/api/v2/record/account/${id}/files`, [{ name: 'file', filename: name, content: name }]);
      }
      assert.equal(await storedContents(), before + 4);
      assert.equal((await json('DELETE', `/api/record/account/${ids[0]}`)).res.statusCode, 200);
      assert.equal(await storedContents(), before + 2);
      const batch = await ctx.request({ method: 'POST', url: '/api/v3/record/account/batch/delete', payload: { data: [ids[1]] } });
      assert.equal(JSON.parse(batch.body).successCount, 1, batch.body);
      assert.equal(await storedContents(), before);
      assertErrorReply((await json('GET', `/api/v2/record/account/${ids[0]}/files`)).res, 404, `No account record has id '${ids[0]}'.`);
    });

    test("dates a file by the organization's own clock, as its records are", async () => {
      const admin = { authorization: `Bearer ${ADMIN_KEY}` };
      const clock = `/_orchard/organizations/${ctx.orgId}/clock`;
      const frozen = await ctx.request({ method: 'POST', url: `${clock}/freeze`, token: null, headers: admin, payload: { at: '2030-05-06T07:08:09Z' } });
      assert.equal(frozen.statusCode, 200, frozen.body);
      try {
        const id = await newAccount('Dated');
        const file = JSON.parse((await upload(`/api/v2/record/account/${id}/files`, [{ name: 'file', filename: 'dated.txt', content: 'x' }])).body).file;
        const record = JSON.parse((await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).body).data.Record;
        assert.deepEqual([record.createdon, file.createdon], ['2030-05-06T07:08:09', '2030-05-06T07:08:09']);
      } finally {
        await ctx.request({ method: 'DELETE', url: clock, token: null, headers: admin });
      }
    });

    test('holds the 20 MB request limit, declared or streamed', async () => {
      const big = Buffer.alloc(20 * 1024 * 1024 + 1, 0x61);
      const declared = await upload(`/api/v2/record/account/${accountId}/files`, [{ name: 'file', filename: 'big.bin', content: big }]);
      assertErrorReply(declared, 413, 'The file is over the 20 MB request limit. Send a smaller file.');
      // Chunked, without Content-Length: stopped by the part's size limit. (Listening; ctx.close() closes it.)
      const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const body = multipartBody([{ name: 'file', filename: 'big.bin', content: big }]);
      const stream = new ReadableStream({
        start(controller) {
          for (let i = 0; i < body.length; i += 1 << 20) controller.enqueue(body.subarray(i, i + (1 << 20)));
          controller.close();
        },
      });
      const res = await fetch(`${base}/api/v2/record/account/${accountId}/files`, {
        method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': MULTIPART, tokenid: ctx.token },
      } as RequestInit);
      assert.equal(res.status, 413);
      assert.equal(res.headers.get('x-error-code'), 'BODY_TOO_LARGE');
      assert.equal(res.headers.get('connection'), 'close', 'the rest of the body is never read: the connection closes');
      assert.equal(declared.headers.connection, 'close', 'nor the body of one declared too large');
      assert.equal((await json('GET', `/api/v2/record/account/${accountId}/files`)).body.data.some((f: { filename: string }) => f.filename === 'big.bin'), false);
    });
  });
}
