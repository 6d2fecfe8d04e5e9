// Record history, the change feed and ETags over HTTP, on both stores (docs/history.md): every write
// route's entries with the user and the organization's clock; history newest first and paged, a
// deleted record's too; the feed followed by its cursor misses nothing and repeats nothing; fields
// hidden from the caller and objects it may not read are left out; an old or foreign cursor is
// refused; GET carries an ETag that If-None-Match and If-Match (PUT, DELETE, v2 PUT) compare.

import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.js';
import { loadFixtures } from '../../src/fixtures/load-fixtures.js';
import { parseFixtures } from '../../src/fixtures/parse-fixtures.js';
import { testContext, type TestContext } from '../helpers.js';
import { HTTP_STORES } from '../query/http-stores.js';

const DAY = 86_400_000;

for (const store of HTTP_STORES) {
  describe(`history, feed and ETags (${store.name})`, { skip: store.skip }, () => {
    let ctx: TestContext;
    const json = (res: { body: string }) => JSON.parse(res.body);
    const create = async (body: object, token?: string) => {
      const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: body, ...(token ? { token } : {}) });
      assert.equal(res.statusCode, 201, res.body);
      return json(res).data.Record.accountid as string;
    };
    const feed = async (query = '', token?: string) => {
      const res = await ctx.request({ method: 'GET', url: `/api/changes${query}`, ...(token ? { token } : {}) });
      return { status: res.statusCode, code: res.headers['x-error-code'], body: json(res) };
    };
    /** Follows the feed from `since` (absent: the start) to its end, a page of `size` at a time. */
    const follow = async (since: string | undefined, size: number, extra = '', token?: string) => {
      const entries: any[] = [];
      let cursor = since;
      for (;;) {
        const page = await feed(`?pagesize=${size}${cursor === undefined ? '' : `&since=${cursor}`}${extra}`, token);
        assert.equal(page.status, 200, JSON.stringify(page.body));
        entries.push(...page.body.data.Entries);
        cursor = page.body.data.Cursor;
        if (!page.body.data.HasMore && page.body.data.Entries.length < size) return { entries, cursor: cursor! };
      }
    };

    before(async () => {
      ctx = await store.context();
    });
    after(async () => ctx.close());

    test('each write route appends its entries, with the caller and the organization\'s clock', async () => {
      const start = (await feed('?since=now')).body.data.Cursor;
      ctx.clock.ms = Date.parse('2026-04-01T08:00:00Z');
      const id = await create({ accountname: 'Hist', telephone1: '1' });
      ctx.clock.advance(60_000);
      assert.equal((await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { telephone1: '2' } })).statusCode, 200);
      ctx.clock.advance(60_000);
      assert.equal((await ctx.request({ method: 'PUT', url: `/api/v2/record/1/${id}`, payload: { telephone1: '3' } })).statusCode, 200);
      const batch = json(await ctx.request({ method: 'POST', url: '/api/v3/record/account/batch/create', payload: { data: [{ accountname: 'B1' }, { bad: 1 }, { accountname: 'B2' }] } }));
      const made = batch.data.filter((d: any) => d.success).map((d: any) => d._id);
      await ctx.request({ method: 'POST', url: '/api/v3/record/account/batch/update', payload: { data: [{ id: made[0], record: { telephone1: '9' } }] } });
      await ctx.request({ method: 'POST', url: '/api/v3/record/account/batch/delete', payload: { data: [made[1]] } });
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}` })).statusCode, 200);
      const { entries } = await follow(start, 100);
      assert.deepEqual(entries.map((e: any) => [e.operation, e.recordid]), [
        ['create', id], ['update', id], ['update', id], ['create', made[0]], ['create', made[1]], ['update', made[0]], ['delete', made[1]], ['delete', id],
      ]);
      assert.ok(entries.every((e: any) => e.userid === ctx.userId && e.object === 'account' && e.objecttype === 1));
      assert.deepEqual(entries.slice(0, 3).map((e: any) => e.changedon), ['2026-04-01T08:00:00', '2026-04-01T08:01:00', '2026-04-01T08:02:00']);
      assert.deepEqual(entries[1].fields.telephone1, { old: '1', new: '2' });
      assert.deepEqual(entries[2].fields.modifiedon, { old: '2026-04-01T08:01:00', new: '2026-04-01T08:02:00' });
      const seqs = entries.map((e: any) => e.sequence);
      assert.deepEqual(seqs, [...seqs].sort((a: number, b: number) => a - b));
    });

    test('a record\'s history: newest first, paged, kept after the record is deleted; 404 for an id with neither', async () => {
      const id = await create({ accountname: 'Paged' });
      for (const n of [1, 2, 3]) await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: `N${n}` } });
      const page = async (q: string) => json(await ctx.request({ method: 'GET', url: `/api/record/Account/${id.toUpperCase()}/history${q}` })).data;
      const first = await page('?pagesize=3');
      assert.deepEqual([first.ObjectType, first.SystemName, first.RecordId, first.Page_Size, first.Page_Number, first.IsLastPage], [1, 'account', id, 3, 1, false]);
      assert.deepEqual(first.Entries.map((e: any) => e.fields.accountnumber?.new), ['N3', 'N2', 'N1']);
      const second = await page('?pagesize=3&pagenumber=2');
      assert.deepEqual([second.IsLastPage, second.Entries.map((e: any) => e.operation)], [true, ['create']]);
      await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}` });
      const gone = await page('');
      assert.deepEqual(gone.Entries.map((e: any) => e.operation), ['delete', 'update', 'update', 'update', 'create']);
      const none = await ctx.request({ method: 'GET', url: '/api/record/account/3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f/history' });
      assert.deepEqual([none.statusCode, none.headers['x-error-code'], Object.keys(json(none))], [404, 'RECORD_NOT_FOUND', ['Message']]);
      const noneLater = await ctx.request({ method: 'GET', url: '/api/record/account/3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f/history?pagenumber=2' });
      assert.deepEqual([noneLater.statusCode, noneLater.headers['x-error-code']], [404, 'RECORD_NOT_FOUND'], 'on any page, not a 200 of no entries');
      const past = await page('?pagesize=3&pagenumber=9');
      assert.deepEqual([past.IsLastPage, past.Entries], [true, []], 'past the last page of an id with entries: an empty page');
      const bad = await ctx.request({ method: 'GET', url: '/api/record/account/nope/history' });
      assert.equal(bad.headers['x-error-code'], 'RECORD_ID_MALFORMED');
    });

    test('the feed followed a page at a time gives every entry once, in order, and an object\'s alone when asked', async () => {
      const all = await follow(undefined, 1000);
      const paged = await follow(undefined, 2);
      assert.deepEqual(paged.entries, all.entries);
      assert.equal(new Set(all.entries.map((e: any) => e.sequence)).size, all.entries.length);
      const contact = json(await ctx.request({ method: 'POST', url: '/api/record/contact', payload: { firstname: 'Ada', lastname: 'Feed' } })).data.Record.contactid;
      const after = await follow(all.cursor, 2);
      assert.deepEqual(after.entries.map((e: any) => [e.object, e.recordid]), [['contact', contact]]);
      const onlyAccounts = await follow(undefined, 3, '&objecttype=1');
      assert.deepEqual(onlyAccounts.entries, all.entries.filter((e: any) => e.objecttype === 1));
      const onlyContacts = await follow(all.cursor, 3, '&objecttype=contact');
      assert.deepEqual(onlyContacts.entries.map((e: any) => e.recordid), [contact]);
      const caughtUp = await feed(`?since=${after.cursor}`);
      assert.deepEqual([caughtUp.body.data.Entries, caughtUp.body.data.HasMore, caughtUp.body.data.Cursor], [[], false, after.cursor]);
    });

    test('a record\'s history paged with before=<sequence> is stable while writes land; by page number it shifts', async () => {
      const id = await create({ accountname: 'Stable' });
      for (const n of [1, 2, 3, 4]) await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: `S${n}` } });
      const history = async (q: string) => {
        const res = await ctx.request({ method: 'GET', url: `/api/record/account/${id}/history${q}` });
        return { status: res.statusCode, code: res.headers['x-error-code'], body: json(res) };
      };
      const all = (await history('')).body.data.Entries.map((e: any) => e.sequence as number);
      assert.equal(all.length, 5);
      const first = (await history('?pagesize=2')).body.data;
      assert.deepEqual(first.Entries.map((e: any) => e.sequence), all.slice(0, 2));
      // A write lands between the client's pages.
      await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: 'S5' } });
      const byNumber = (await history('?pagesize=2&pagenumber=2')).body.data.Entries.map((e: any) => e.sequence);
      assert.deepEqual(byNumber, [all[1], all[2]], 'by page number the last entry of page 1 shows again');
      const last = first.Entries.at(-1).sequence;
      const second = (await history(`?pagesize=2&before=${last}`)).body.data;
      assert.deepEqual([second.Entries.map((e: any) => e.sequence), second.IsLastPage, second.Page_Number], [all.slice(2, 4), false, 1]);
      const third = (await history(`?pagesize=2&before=${second.Entries.at(-1).sequence}`)).body.data;
      assert.deepEqual([third.Entries.map((e: any) => e.operation), third.IsLastPage], [['create'], true]);
      assert.deepEqual((await history(`?pagesize=1&pagenumber=2&before=${last}`)).body.data.Entries.map((e: any) => e.sequence), [all[3]], 'pagenumber counts within before');
      const older = await history('?before=1');
      assert.deepEqual([older.status, older.body.data.Entries, older.body.data.IsLastPage], [200, [], true], 'before the oldest: an empty page of an id with entries');
      const none = await ctx.request({ method: 'GET', url: `/api/record/account/3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f/history?before=${last}` });
      assert.deepEqual([none.statusCode, none.headers['x-error-code']], [404, 'RECORD_NOT_FOUND']);
      for (const [bad, said] of [['abc', "'abc'"], ['0', "'0'"], ['1e3', "'1e3'"], ['9007199254740992', "'9007199254740992'"]] as const) {
        const refused = await history(`?before=${bad}`);
        assert.deepEqual([refused.status, refused.code], [400, 'PARAM_INVALID'], bad);
        assert.match(refused.body.Message, new RegExp(`^Invalid query parameter 'before' must be a whole number .*; got ${said}\\.$`), bad);
      }
    });

    test('the feed of crmuser, whose records are never logged, is refused with what to use instead rather than empty for ever', async () => {
      for (const ref of ['crmuser', '9', 'CrmUser']) {
        const res = await feed(`?objecttype=${ref}`);
        assert.deepEqual([res.status, res.code, Object.keys(res.body)], [400, 'PARAM_INVALID', ['Message']], ref);
        assert.equal(res.body.Message, 'Invalid query parameter \'objecttype\': crmuser (9) records are not in the change log, so its feed would never have an entry. '
          + 'They mirror the organization\'s users, which are changed through the control plane, not written as records. '
          + 'To follow the users, read GET /api/record/crmuser again (a user\'s change updates its record\'s modifiedon); to follow the other objects, leave \'objecttype\' out.');
      }
      const withCursor = await feed(`?objecttype=crmuser&since=${(await feed('?since=now')).body.data.Cursor}`);
      assert.equal(withCursor.code, 'PARAM_INVALID', 'with a cursor too');
      assert.equal((await feed('?objecttype=account')).status, 200, 'another read-write object\'s feed is served');
    });

    test('a cursor that is not one or is another organization\'s, and one into a log restored or pruned, are refused with what to do', async () => {
      const bad = await feed('?since=abc');
      assert.deepEqual([bad.status, bad.code, Object.keys(bad.body)], [400, 'CHANGES_CURSOR_INVALID', ['Message']]);
      assert.deepEqual([(await feed('?pagesize=1e400')).code, (await feed('?pagesize=0')).code], ['PARAM_INVALID', 'PARAM_INVALID']);
      const cursor = (await feed('?since=now')).body.data.Cursor;
      const other = await ctx.stores.admin.createOrganization({ name: 'Feed B', plan: 'enterprise', email: 'feed-b@example.com' });
      const foreign = await feed(`?since=${cursor}`, other.token);
      assert.deepEqual([foreign.status, foreign.code], [400, 'CHANGES_CURSOR_INVALID'], 'a cursor of another organization is not one of this feed, nor a restored log\'s');
      assert.equal(foreign.body.Message, 'This cursor was given to another organization\'s feed: follow a cursor with the token it came with. To start this organization\'s feed, leave \'since\' out (from the oldest entry kept) or send since=now.');
      // A cursor of the form given before cursors named their organization is still followed.
      const [, tag, epoch, seq] = Buffer.from(cursor, 'base64url').toString().split('.');
      assert.match(tag!, /^[0-9a-f]{8}$/);
      const older = await feed(`?since=${Buffer.from(`c1.${epoch}.${seq}`).toString('base64url')}`);
      assert.deepEqual([older.status, older.body.data.Cursor], [200, cursor]);
      await create({ accountname: 'Before snapshot' });
      await ctx.stores.records.snapshot(ctx.orgId, 'hist');
      await ctx.stores.records.restore(ctx.orgId, 'hist');
      const restored = await feed(`?since=${cursor}`);
      assert.deepEqual([restored.status, restored.code], [410, 'CHANGES_CURSOR_EXPIRED']);
      assert.match(restored.body.Message, /restored or reset.*since=now/);
      // Entries older than the retention (30 days) are pruned when the log is next read.
      const fresh = (await feed('?since=now')).body.data.Cursor;
      await create({ accountname: 'Old' });
      ctx.clock.advance(10 * DAY);
      await create({ accountname: 'Recent' });
      const kept = (await feed(`?since=${fresh}&pagesize=1`)).body.data.Cursor;
      ctx.clock.advance(25 * DAY);
      const pruned = await feed(`?since=${fresh}`);
      assert.deepEqual([pruned.status, pruned.code], [410, 'CHANGES_CURSOR_EXPIRED']);
      assert.match(pruned.body.Message, /pruned/);
      assert.equal((await feed(`?since=${kept}`)).status, 200, 'a cursor past the pruned entries still follows');
      const oldest = await follow(undefined, 100);
      assert.deepEqual(oldest.entries.map((e: any) => e.fields.accountname?.new), ['Recent'], 'from the oldest entry kept');
    });

    test('hidden fields and objects the role may not read are left out; a feed of an object it may not read is 403', async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'hist-sales', grant: 'account:read,create,update', hide: 'account:telephone1' });
      const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'hist-sales@example.com', role: 'hist-sales' });
      const start = (await feed('?since=now', token)).body.data.Cursor;
      const id = await create({ accountname: 'Secret', telephone1: '555' });
      await ctx.request({ method: 'POST', url: '/api/record/contact', payload: { firstname: 'Not', lastname: 'Shown' } });
      const { entries } = await follow(start, 100, '', token);
      assert.deepEqual(entries.map((e: any) => e.recordid), [id]);
      assert.equal('telephone1' in entries[0].fields, false);
      assert.deepEqual(entries[0].fields.accountname, { old: null, new: 'Secret' });
      const history = json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}/history`, token })).data.Entries;
      assert.equal('telephone1' in history[0].fields, false);
      const contacts = await feed('?objecttype=contact', token);
      assert.deepEqual([contacts.status, contacts.code], [403, 'PERMISSION_DENIED']);
    });

    test("an entry's time and user do not show a hidden modifiedon, createdon, modifiedby or createdby, whose values they are; a delete's do", async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'hist-nowho', grant: 'account:read', hide: 'account:modifiedby,account:createdon' });
      const noWho = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'hist-nowho@example.com', role: 'hist-nowho' })).token;
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'hist-nowhen', grant: 'account:read', hide: 'account:modifiedon' });
      const noWhen = (await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'hist-nowhen@example.com', role: 'hist-nowhen' })).token;
      const start = (await feed('?since=now')).body.data.Cursor;
      ctx.clock.ms = Date.parse('2026-05-01T08:00:00Z');
      const id = await create({ accountname: 'Who and when' });
      ctx.clock.advance(60_000);
      assert.equal((await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountname: 'Renamed' } })).statusCode, 200);
      ctx.clock.advance(60_000);
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}` })).statusCode, 200);
      const whoWhen = (entries: any[]) => entries.map((e) => [e.operation, e.changedon, e.userid]);
      const history = async (token?: string) => json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}/history`, ...(token ? { token } : {}) })).data.Entries;
      const u = ctx.userId;
      assert.deepEqual(whoWhen(await history()), [['delete', '2026-05-01T08:02:00', u], ['update', '2026-05-01T08:01:00', u], ['create', '2026-05-01T08:00:00', u]]);
      // createdon hidden: a create's time is its createdon; modifiedby hidden: a create's and an update's user is it.
      const expectNoWho = [['delete', '2026-05-01T08:02:00', u], ['update', '2026-05-01T08:01:00', null], ['create', null, null]];
      const expectNoWhen = [['delete', '2026-05-01T08:02:00', u], ['update', null, u], ['create', null, u]];
      assert.deepEqual(whoWhen(await history(noWho)), expectNoWho);
      assert.deepEqual(whoWhen(await history(noWhen)), expectNoWhen);
      assert.deepEqual(whoWhen((await follow(start, 100, '', noWho)).entries).reverse(), expectNoWho);
      assert.deepEqual(whoWhen((await follow(start, 100, '', noWhen)).entries).reverse(), expectNoWhen);
    });

    test('GET carries an ETag; If-None-Match with it is 304; If-Match guards GET, PUT, DELETE and v2 PUT with 412', async () => {
      const id = await create({ accountname: 'Tagged' });
      const get = await ctx.request({ method: 'GET', url: `/api/record/account/${id}` });
      const etag = get.headers.etag as string;
      assert.match(etag, /^"[A-Za-z0-9_-]{22}"$/);
      const same = await ctx.request({ method: 'GET', url: `/api/record/account/${id}`, headers: { 'if-none-match': `"other", W/${etag}` } });
      assert.deepEqual([same.statusCode, same.body, same.headers.etag], [304, '', etag]);
      // One caller's view, under a header no shared cache knows: stored by none but the client's own, revalidated each time.
      const unknown = await ctx.request({ method: 'GET', url: '/api/record/account/00000000-0000-4000-8000-000000000000' });
      assert.equal(unknown.statusCode, 404);
      for (const reply of [get, same, unknown]) assert.equal(reply.headers['cache-control'], 'private, no-cache');
      assert.equal((await ctx.request({ method: 'GET', url: `/api/record/account/${id}`, headers: { 'if-none-match': '"other"' } })).statusCode, 200);

      const put = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: 'E1' }, headers: { 'if-match': etag } });
      assert.equal(put.statusCode, 200);
      const newTag = put.headers.etag as string;
      // If-Match on the GET (and HEAD) too, RFC 9110 § 13.1.1, before If-None-Match (§ 13.2.2).
      for (const method of ['GET', 'HEAD'] as const) {
        const staleRead = await ctx.request({ method, url: `/api/record/account/${id}`, headers: { 'if-match': etag, 'if-none-match': newTag } });
        assert.deepEqual([staleRead.statusCode, staleRead.headers['x-error-code']], [412, 'RECORD_CHANGED'], method);
        if (method === 'GET') {
          assert.equal(staleRead.json().Message, `The account record '${id}' has changed since the version your If-Match names; it is now ${newTag}. GET it without If-Match to read it as it is now.`);
        }
        const current = await ctx.request({ method, url: `/api/record/account/${id}`, headers: { 'if-match': `"x", ${newTag}` } });
        assert.deepEqual([current.statusCode, current.headers.etag], [200, newTag], method);
      }
      assert.equal((await ctx.request({ method: 'GET', url: `/api/record/account/${id}`, headers: { 'if-match': '"unclosed' } })).headers['x-error-code'], 'IF_MATCH_MALFORMED');
      assert.notEqual(newTag, etag);
      assert.equal((await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).headers.etag, newTag, 'the PUT reply\'s ETag is the record\'s');

      const stale = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: 'LOST' }, headers: { 'if-match': etag } });
      assert.deepEqual([stale.statusCode, stale.headers['x-error-code'], Object.keys(json(stale))], [412, 'RECORD_CHANGED', ['Message']]);
      assert.ok(json(stale).Message.includes(newTag));
      const weak = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: 'LOST' }, headers: { 'if-match': `W/${newTag}` } });
      assert.equal(weak.statusCode, 412, 'If-Match compares strongly: a weak tag never matches');
      assert.equal(weak.json().Message, `If-Match names the account record '${id}'s current tag as a weak one (W/${newTag}); If-Match compares tags strongly (RFC 9110), so a weak tag never matches. Send it as the ETag header gives it: If-Match: ${newTag}.`);
      assert.match(stale.json().Message, /has changed since the version your If-Match names/);
      const v2 = await ctx.request({ method: 'PUT', url: `/api/v2/record/1/${id}`, payload: { accountnumber: 'LOST' }, headers: { 'if-match': etag } });
      assert.deepEqual([v2.statusCode, v2.headers['x-error-code'], Object.keys(json(v2))], [412, 'RECORD_CHANGED', ['Message']]);
      assert.equal(json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).data.Record.accountnumber, 'E1', 'nothing refused was written');
      const history = json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}/history` })).data.Entries;
      assert.deepEqual(history.map((e: any) => e.operation), ['update', 'create'], 'and nothing refused was logged');

      const staleDelete = await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}`, headers: { 'if-match': etag } });
      assert.equal(staleDelete.statusCode, 412);
      assert.equal((await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}`, headers: { 'if-match': `"x", ${newTag}` } })).statusCode, 200);
      const missing = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: 'X' }, headers: { 'if-match': '*' } });
      assert.deepEqual([missing.statusCode, missing.headers['x-error-code']], [404, 'RECORD_NOT_FOUND'], 'a record that is not there is 404, whatever the precondition');
      const star = await create({ accountname: 'Star' });
      assert.equal((await ctx.request({ method: 'PUT', url: `/api/record/account/${star}`, payload: { accountnumber: 'S' }, headers: { 'if-match': '*' } })).statusCode, 200);
    });

    test('a role that may write but not read gets no ETag, and an If-Match tag of its is 403: the key alone, all it sees, names no version', async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'hist-writer', grant: 'account:create,update,delete' });
      const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'hist-writer@example.com', role: 'hist-writer' });
      const made = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Blind' }, token });
      const id = json(made).data.Record.accountid;
      const v2 = await ctx.request({ method: 'POST', url: '/api/v2/record/1', payload: { accountname: 'Blind v2' }, token });
      const put = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { telephone1: '1' }, token });
      const v2put = await ctx.request({ method: 'PUT', url: `/api/v2/record/1/${id}`, payload: { telephone1: '2' }, token });
      assert.deepEqual([made, v2, put, v2put].map((r) => [r.statusCode, r.headers.etag]), [[201, undefined], [200, undefined], [200, undefined], [200, undefined]]);
      // Someone who may read changes the record; a tag of the key alone would still have "matched".
      const keyOnly = `"${createHash('sha256').update(JSON.stringify({ accountid: id })).digest('base64url').slice(0, 22)}"`;
      assert.equal((await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { telephone1: 'theirs' } })).statusCode, 200);
      for (const [method, url] of [['PUT', `/api/record/account/${id}`], ['PUT', `/api/v2/record/1/${id}`], ['DELETE', `/api/record/account/${id}`]] as const) {
        const res = await ctx.request({ method, url, ...(method === 'PUT' ? { payload: { telephone1: 'LOST' } } : {}), headers: { 'if-match': keyOnly }, token });
        assert.deepEqual([res.statusCode, res.headers['x-error-code']], [403, 'PERMISSION_DENIED'], `${method} ${url}`);
        assert.equal(json(res).Message, 'If-Match names entity tags, but your role \'hist-writer\' may not read account records, so no reply gives it their ETags to compare. Send If-Match: * (any version) or none, or grant account:read with orchard role set.');
      }
      // If-None-Match on a write alike: a tag is 403, * is evaluated (the record exists: 412).
      const noneTag = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { telephone1: 'LOST' }, headers: { 'if-none-match': '"older"' }, token });
      assert.deepEqual([noneTag.statusCode, json(noneTag).Message], [403, 'If-None-Match names entity tags, but your role \'hist-writer\' may not read account records, so no reply gives it their ETags to compare. Send If-None-Match: * (only if there is none) or none, or grant account:read with orchard role set.']);
      const noneStar = await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}`, headers: { 'if-none-match': '*' }, token });
      assert.deepEqual([noneStar.statusCode, noneStar.headers['x-error-code']], [412, 'RECORD_MATCHES']);
      assert.equal(json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).data.Record.telephone1, 'theirs', 'nothing refused was written');
      assert.equal((await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { telephone1: '3' }, headers: { 'if-match': '*' }, token })).statusCode, 200, '* needs no tag');
    });

    test('a create carries the new record\'s ETag (v1 201 and v2), the one a GET then gives', async () => {
      for (const url of ['/api/record/account', '/api/v2/record/1']) {
        const made = await ctx.request({ method: 'POST', url, payload: { accountname: `Tagged at birth ${url}` } });
        const id = url.includes('v2') ? json(made)._id : json(made).data.Record.accountid;
        assert.match(made.headers.etag as string, /^"[A-Za-z0-9_-]{22}"$/, url);
        assert.equal((await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).headers.etag, made.headers.etag, url);
        const put = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: 'B1' }, headers: { 'if-match': made.headers.etag as string } });
        assert.equal(put.statusCode, 200, url);
      }
    });

    test('an If-Match that is not entity tags is 400 IF_MATCH_MALFORMED, not 412, and nothing is written; a tag without its quotes is read as quoted', async () => {
      const id = await create({ accountname: 'Malformed' });
      const etag = (await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).headers.etag as string;
      for (const value of ['', '  ', '"unclosed', `${etag.slice(0, 5)}"x${etag.slice(5)}`, `${etag} ${etag}`, ', ,']) {
        const put = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: 'LOST' }, headers: { 'if-match': value } });
        assert.deepEqual([put.statusCode, put.headers['x-error-code'], Object.keys(json(put))], [400, 'IF_MATCH_MALFORMED', ['Message']], `If-Match: ${value}`);
        assert.equal(json(put).Message, `If-Match ${JSON.stringify(value)} is not an entity tag: send * alone or the ETag header of a GET of the record as it is, quotes included (If-Match: "q7yJd2WZ4m1fQm3lB0xk9A"), several separated by commas.`);
        const del = await ctx.request({ method: 'DELETE', url: `/api/record/account/${id}`, headers: { 'if-match': value } });
        assert.deepEqual([del.statusCode, del.headers['x-error-code']], [400, 'IF_MATCH_MALFORMED']);
        const v2 = await ctx.request({ method: 'PUT', url: `/api/v2/record/1/${id}`, payload: { accountnumber: 'LOST' }, headers: { 'if-match': value } });
        assert.deepEqual([v2.statusCode, v2.headers['x-error-code']], [400, 'IF_MATCH_MALFORMED']);
      }
      const record = json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).data.Record;
      assert.equal(record.accountnumber, null, 'nothing refused was written');
      const bare = await ctx.request({ method: 'PUT', url: `/api/record/account/${id}`, payload: { accountnumber: 'B' }, headers: { 'if-match': ` , ${etag.slice(1, -1)} ,` } });
      assert.equal(bare.statusCode, 200, 'empty list elements and a tag stripped of its quotes are read');
    });

    test('a * in a list (If-Match: *, "x") is malformed, RFC 9110 "*" / #entity-tag: If-Match 400 IF_MATCH_MALFORMED, If-None-Match not evaluated', async () => {
      const id = await create({ accountname: 'Starred' });
      const etag = (await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).headers.etag as string;
      for (const value of [`*, ${etag}`, `${etag}, *`, '*, "x"', '*,', `W/*`]) {
        for (const [method, url] of [['GET', `/api/record/account/${id}`], ['PUT', `/api/record/account/${id}`], ['PUT', `/api/v2/record/1/${id}`], ['DELETE', `/api/record/account/${id}`]] as const) {
          const res = await ctx.request({ method, url, ...(method === 'PUT' ? { payload: { accountnumber: 'LOST' } } : {}), headers: { 'if-match': value } });
          assert.deepEqual([res.statusCode, res.headers['x-error-code']], [400, 'IF_MATCH_MALFORMED'], `${method} ${url} If-Match: ${value}`);
        }
        // As any If-None-Match that is not entity tags ("unclosed too): the full reply, not a 304.
        for (const none of [value, `"unclosed, ${etag}`]) {
          const read = await ctx.request({ method: 'GET', url: `/api/record/account/${id}`, headers: { 'if-none-match': none } });
          assert.deepEqual([read.statusCode, json(read).data.Record.accountid], [200, id], `If-None-Match: ${none}`);
        }
      }
      assert.equal(json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).data.Record.accountnumber, null, 'nothing refused was written');
      assert.equal((await ctx.request({ method: 'GET', url: `/api/record/account/${id}`, headers: { 'if-none-match': ' * ' } })).statusCode, 304, '* alone is still any version');
    });

    test('If-None-Match on PUT and DELETE (v1 and v2) is evaluated, RFC 9110 § 13.1.2: * or the current tag is 412 RECORD_MATCHES and nothing is written', async () => {
      const id = await create({ accountname: 'Create-only client' });
      const etag = (await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).headers.etag as string;
      const writes = [['PUT', `/api/record/account/${id}`], ['PUT', `/api/v2/record/1/${id}`], ['DELETE', `/api/record/account/${id}`]] as const;
      const send = (method: 'PUT' | 'DELETE', url: string, headers: Record<string, string>) =>
        ctx.request({ method, url, ...(method === 'PUT' ? { payload: { accountnumber: 'LOST' } } : {}), headers });
      // * : the record exists, so "only if none" is false; a tag: weak comparison, as for a GET's 304.
      for (const value of ['*', etag, `"other", W/${etag}`, etag.slice(1, -1)]) {
        for (const [method, url] of writes) {
          const res = await send(method, url, { 'if-none-match': value });
          assert.deepEqual([res.statusCode, res.headers['x-error-code'], Object.keys(json(res))], [412, 'RECORD_MATCHES', ['Message']], `${method} ${url} If-None-Match: ${value}`);
        }
      }
      const star = await send('PUT', `/api/record/account/${id}`, { 'if-none-match': '*' });
      assert.equal(json(star).Message, `If-None-Match: * asks to write only if no account record has the id '${id}', and one has. Leave If-None-Match out to change the record that is there, or send If-Match with the ETag of a GET of it to change it only as that version.`);
      const tag = await send('DELETE', `/api/record/account/${id}`, { 'if-none-match': etag });
      assert.equal(json(tag).Message, `If-None-Match names the account record '${id}'s current version (${etag}): it is written only if it is no longer that version. Leave If-None-Match out to write it as it is now.`);
      // If-Match is evaluated first (§ 13.2.2): a stale If-Match is 412 RECORD_CHANGED whatever If-None-Match says.
      const both = await send('PUT', `/api/record/account/${id}`, { 'if-match': '"stale"', 'if-none-match': '*' });
      assert.equal(both.headers['x-error-code'], 'RECORD_CHANGED');
      for (const value of ['', '"unclosed', '*, "x"']) {
        const res = await send('PUT', `/api/record/account/${id}`, { 'if-none-match': value });
        assert.deepEqual([res.statusCode, res.headers['x-error-code']], [400, 'IF_NONE_MATCH_MALFORMED'], `If-None-Match: ${value}`);
      }
      const record = json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).data.Record;
      assert.equal(record.accountnumber, null, 'nothing refused was written');
      const history = json(await ctx.request({ method: 'GET', url: `/api/record/account/${id}/history` })).data.Entries;
      assert.deepEqual(history.map((e: any) => e.operation), ['create'], 'nothing refused was logged');
      // A tag the record no longer has: the condition holds, the write goes ahead.
      const put = await send('PUT', `/api/v2/record/1/${id}`, { 'if-none-match': '"older"' });
      assert.equal(put.statusCode, 200, put.body);
      assert.equal((await send('DELETE', `/api/record/account/${id}`, { 'if-none-match': etag })).statusCode, 200, 'the PUT changed its tag');
      const gone = await send('PUT', `/api/record/account/${id}`, { 'if-none-match': '*' });
      assert.deepEqual([gone.statusCode, gone.headers['x-error-code']], [404, 'RECORD_NOT_FOUND'], 'a record that is not there is 404, whatever the precondition');
    });

    test('a HEAD of a record answers as its GET: the 200\'s Content-Length and no body, and a 304 without Content-Length (RFC 9110 § 8.6)', async () => {
      const id = await create({ accountname: 'Headed' });
      const get = await ctx.request({ method: 'GET', url: `/api/record/account/${id}` });
      const head = await ctx.request({ method: 'HEAD', url: `/api/record/account/${id}` });
      assert.deepEqual([head.statusCode, head.body, head.headers.etag, head.headers['content-length'], head.headers['content-type']],
        [200, '', get.headers.etag, String(Buffer.byteLength(get.body)), get.headers['content-type']]);
      for (const method of ['GET', 'HEAD'] as const) {
        const same = await ctx.request({ method, url: `/api/record/account/${id}`, headers: { 'if-none-match': get.headers.etag as string } });
        // A 304 may carry Content-Length only as the 200's; Fastify's HEAD of a GET route wrote 0.
        assert.deepEqual([same.statusCode, same.body, same.headers.etag, same.headers['content-length']], [304, '', get.headers.etag, undefined], method);
      }
    });

    test('an ETag follows what the caller sees: a rename of the owner changes it', async () => {
      const id = await create({ accountname: 'Owned' });
      const before = (await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).headers.etag;
      await ctx.stores.records.upsertUser(ctx.orgId, { id: ctx.userId, fullname: 'Renamed Owner', email: 'owner@example.com' });
      const afterRename = (await ctx.request({ method: 'GET', url: `/api/record/account/${id}` })).headers.etag;
      assert.notEqual(afterRename, before);
    });
  });
}

describe('the history and feed routes go through the pipeline as any API route', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await testContext({ minuteLimit: 4, config: { journalSize: 10 } });
  });
  after(async () => ctx.close());

  test('a records-family fault rule fires on them, the journal records them, and they count against the minute limit', async () => {
    const id = JSON.parse((await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Piped' } })).body).data.Record.accountid;
    const rule = ctx.app.toolkit.faults.add({ families: ['records'], methods: ['GET'], status: 503, count: 2 });
    const faulted = [await ctx.request({ method: 'GET', url: '/api/changes' }), await ctx.request({ method: 'GET', url: `/api/record/account/${id}/history` })];
    assert.deepEqual(faulted.map((r) => [r.statusCode, r.headers['x-error-code']]), [[503, 'STORE_UNAVAILABLE'], [503, 'STORE_UNAVAILABLE']]);
    assert.equal(ctx.app.toolkit.faults.list().find((r) => r.id === rule.id), undefined, 'the rule fired its two times');
    assert.equal((await ctx.request({ method: 'GET', url: '/api/changes' })).statusCode, 200);
    const limited = await ctx.request({ method: 'GET', url: '/api/changes' });
    assert.deepEqual([limited.statusCode, limited.headers['x-error-code']], [429, 'LIMIT_MINUTE'], 'the fifth request of the minute');
    const journal = ctx.app.toolkit.journal.query(ctx.orgId).reverse().map((e) => `${e.method} ${e.path} ${e.status}`);
    assert.deepEqual(journal.slice(-4), [
      'GET /api/changes 503', `GET /api/record/account/${id}/history 503`, 'GET /api/changes 200', 'GET /api/changes 429',
    ]);
  });
});

describe('CHANGELOG_RETENTION_DAYS', () => {
  test('is a whole number of days, 30 by default, 0 for every entry kept', () => {
    assert.equal(loadConfig({}).changeLogRetentionDays, 30);
    assert.equal(loadConfig({ CHANGELOG_RETENTION_DAYS: '0' }).changeLogRetentionDays, 0);
    assert.throws(() => loadConfig({ CHANGELOG_RETENTION_DAYS: '1.5' }), /CHANGELOG_RETENTION_DAYS must be a whole number/);
  });

  test('0 keeps every entry however far the clock moves; 2 prunes what is older than two days', async () => {
    for (const days of [0, 2]) {
      const ctx = await testContext({ config: { changeLogRetentionDays: days } });
      try {
        const start = JSON.parse((await ctx.request({ method: 'GET', url: '/api/changes?since=now' })).body).data.Cursor;
        await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Kept?' } });
        await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Newest' } });
        ctx.clock.advance(3 * 86_400_000);
        const res = await ctx.request({ method: 'GET', url: `/api/changes?since=${start}` });
        assert.equal(res.statusCode, days === 0 ? 200 : 410, `${days} days: ${res.body}`);
      } finally {
        await ctx.close();
      }
    }
  });
});

for (const store of HTTP_STORES) {
  describe(`retention after an import (${store.name})`, { skip: store.skip }, () => {
    test('an import prunes the entries older than the retention, as a create does', async () => {
      const ctx = await store.context({ config: { changeLogRetentionDays: 2 } });
      try {
        const created = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Old' } });
        assert.equal(created.statusCode, 201, created.body);
        const records = await ctx.stores.records.org(ctx.orgId);
        const before = await records.changes({ after: 0, limit: 10 });
        assert.deepEqual([before.floor, before.entries.length], [0, 1]);
        ctx.clock.advance(3 * DAY);
        const imported = await ctx.request({ method: 'POST', url: '/api/record/account/import', payload: 'accountname\nNew\n', headers: { 'content-type': 'text/csv' } });
        assert.equal(imported.statusCode, 200, imported.body);
        // Read from the store, which prunes nothing itself: the import's reply came after its prune.
        const after = await records.changes({ after: 0, limit: 10 });
        assert.equal(after.floor, before.entries[0]!.seq, 'the entry older than two days is pruned');
        assert.deepEqual(after.entries.map((e) => e.fields.accountname?.new), ['New']);
      } finally {
        await ctx.close();
      }
    });
  });
}

describe('writes that come by other ways than the record routes', () => {
  let ctx: TestContext;
  before(async () => {
    ctx = await testContext();
  });
  after(async () => ctx.close());

  test('an import, orchard seed and a fixtures load each log their records, with their user and time', async () => {
    const feed = async (since: string, token?: string) => JSON.parse((await ctx.request({ method: 'GET', url: `/api/changes?since=${since}&pagesize=500`, ...(token ? { token } : {}) })).body).data;
    const start = (await feed('now')).Cursor;
    const imported = await ctx.request({ method: 'POST', url: '/api/record/account/import', payload: 'accountname\nImported 1\nImported 2\n', headers: { 'content-type': 'text/csv' } });
    assert.equal(imported.statusCode, 200, imported.body);
    await ctx.stores.admin.seed({ orgId: ctx.orgId, object: 'contact', count: 3, now: new Date('2026-02-02T02:02:02Z') });
    const { Entries } = await feed(start);
    assert.deepEqual(Entries.map((e: any) => [e.object, e.operation, e.userid, e.changedon]), [
      ['account', 'create', ctx.userId, '2026-03-01T12:00:00'], ['account', 'create', ctx.userId, '2026-03-01T12:00:00'],
      ...Array.from({ length: 3 }, () => ['contact', 'create', ctx.userId, '2026-02-02T02:02:02']),
    ]);
    assert.deepEqual(Entries.slice(0, 2).map((e: any) => e.fields.accountname.new), ['Imported 1', 'Imported 2']);

    // Loaded at a time within the log's 30 days of retention on the server's clock (2026-03-01).
    const [loaded] = await loadFixtures({ control: ctx.stores.control, records: ctx.stores.records, clock: () => Date.parse('2026-02-20T00:00:00Z') }, parseFixtures({
      organizations: [{
        name: 'Fixture Org', users: [{ email: 'fx@example.com', tokens: ['Tok-history-0123456789'] }],
        records: { account: [{ accountname: 'Parent' }, { accountname: 'Child', parentaccountid: '11111111-1111-4111-8111-111111111111' }].map((r, i) => ({ ...r, accountid: i === 0 ? '11111111-1111-4111-8111-111111111111' : '11111111-1111-4111-8111-111111111112' })) },
      }],
    }));
    const fx = JSON.parse((await ctx.request({ method: 'GET', url: '/api/changes', token: 'Tok-history-0123456789' })).body).data;
    assert.deepEqual(fx.Entries.map((e: any) => [e.operation, e.recordid, e.userid, e.changedon]), [
      ['create', '11111111-1111-4111-8111-111111111111', loaded!.users[0]!.id, '2026-02-20T00:00:00'],
      ['create', '11111111-1111-4111-8111-111111111112', loaded!.users[0]!.id, '2026-02-20T00:00:00'],
      // A lookup to another record is set once every record exists.
      ['update', '11111111-1111-4111-8111-111111111112', loaded!.users[0]!.id, '2026-02-20T00:00:00'],
    ]);
  });
});
