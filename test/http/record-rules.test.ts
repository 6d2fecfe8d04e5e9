// The rules some standard objects add (docs/compat.md), on both stores and through every write route
// (v1, v2, v3 batch): a note is on a record (objectid, objecttypecode), a note on a record that does
// not exist is 400 NOTE_RECORD_MISSING naming it; a contact's or lead's fullname is built from
// firstname and lastname when not sent, and kept in step on update.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { HTTP_STORES } from '../query/http-stores.js';
import type { TestContext } from '../helpers.js';
import { assertErrorReply } from './error-reply.js';

for (const store of HTTP_STORES) {
  describe(`notes on records and composed names (${store.name})`, { skip: store.skip }, () => {
    let ctx: TestContext;
    let accountId: string;

    const send = async (method: string, url: string, payload?: unknown) => {
      const res = await ctx.request({ method: method as 'POST', url, ...(payload === undefined ? {} : { payload: payload as object }) });
      return { res, body: JSON.parse(res.body) };
    };

    before(async () => {
      ctx = await store.context();
      accountId = (await send('POST', '/api/record/account', { accountname: 'Noted Ltd' })).body.data.Record.accountid;
    });
    after(() => ctx.close());

    test('creates a note on a record with notetext as rich text and no subject, through v1 and v2', async () => {
      const html = '<p>Called <b>twice</b></p>';
      const v1 = await send('POST', '/api/record/note', { notetext: html, objectid: accountId.toUpperCase(), objecttypecode: 1 });
      assert.equal(v1.res.statusCode, 201, v1.res.body);
      assert.deepEqual([v1.body.data.Record.notetext, v1.body.data.Record.objectid, v1.body.data.Record.objecttypecode, v1.body.data.Record.subject], [html, accountId, 1, null]);
      const v2 = await send('POST', '/api/v2/record/7', { notetext: 'second', objectid: accountId, objecttypecode: '1' });
      assert.equal(v2.res.statusCode, 200, v2.res.body);
      assert.deepEqual([v2.body.record.objectid, v2.body.record.objecttypecode], [accountId, 1]);
      const fields = await send('GET', '/metadata/records/7/fields/notetext');
      assert.equal(fields.body.data.systemFieldTypeId, 'ed2ad39d-32fc-4585-8f5b-2e93463f050a', 'notetext is html (rich text)');
      const query = await send('POST', '/api/query', { objecttype: 7, fields: 'notetext', query: `objectid = '${accountId}' and objecttypecode = 1`, sort_by: 'notetext' });
      assert.deepEqual(query.body.data.Data, [{ notetext: html }, { notetext: 'second' }]);
    });

    test('refuses a note on a record that does not exist with 400 naming the record, on v1 and v2', async () => {
      const absent = randomUUID();
      for (const url of ['/api/record/note', '/api/v2/record/note']) {
        const { res } = await send('POST', url, { notetext: 'x', objectid: absent, objecttypecode: 1 });
        assertErrorReply(res, 400, `The note is on account '${absent}', which does not exist: send the id of an existing account record as 'objectid'.`);
        assert.equal(res.headers['x-error-code'], 'NOTE_RECORD_MISSING');
      }
      const { res: wrongType } = await send('POST', '/api/record/note', { notetext: 'x', objectid: accountId, objecttypecode: 2 });
      assertErrorReply(wrongType, 400, `The note is on contact '${accountId}', which does not exist: send the id of an existing contact record as 'objectid'.`);
      const { res: noObject } = await send('POST', '/api/record/note', { notetext: 'x', objectid: accountId, objecttypecode: 999 });
      assertErrorReply(noObject, 400, /^The note is on object type 999 '.*', which does not exist: 'objecttypecode' names no object of this organization/);
      const { res: halfLink } = await send('POST', '/api/record/note', { notetext: 'x', objectid: accountId });
      assertErrorReply(halfLink, 400, /^'objecttypecode' is required with 'objectid'/);
      const { res: notId } = await send('POST', '/api/record/note', { notetext: 'x', objectid: 'acme', objecttypecode: 1 });
      assertErrorReply(notId, 400, /^'objectid' must be the id \(an RFC 4122 UUID\) of the record the note is on/);
      const count = await send('POST', '/api/query', { objecttype: 7, fields: 'noteid', query: "notetext = 'x'" });
      assert.deepEqual(count.body.data.Data, [], 'nothing was written');
    });

    test('moves a note to another record on update and refuses a move to a record that does not exist', async () => {
      const note = (await send('POST', '/api/record/note', { notetext: 'mover', objectid: accountId, objecttypecode: 1 })).body.data.Record;
      const contact = (await send('POST', '/api/record/contact', { fullname: 'Moved To' })).body.data.Record;
      const moved = await send('PUT', `/api/record/note/${note.noteid}`, { objectid: contact.contactid, objecttypecode: 2 });
      assert.equal(moved.res.statusCode, 200, moved.res.body);
      assert.deepEqual([moved.body.data.Record.objectid, moved.body.data.Record.objecttypecode], [contact.contactid, 2]);
      const absent = randomUUID();
      const refused = await send('PUT', `/api/v2/record/note/${note.noteid}`, { objectid: absent });
      assertErrorReply(refused.res, 400, `The note is on contact '${absent}', which does not exist: send the id of an existing contact record as 'objectid'.`);
      const unlinked = await send('PUT', `/api/record/note/${note.noteid}`, { objecttypecode: null });
      assertErrorReply(unlinked.res, 400, /^'objecttypecode' is required with 'objectid'/);
      const got = await send('GET', `/api/record/note/${note.noteid}`);
      assert.deepEqual([got.body.data.Record.objectid, got.body.data.Record.objecttypecode], [contact.contactid, 2], 'the refused updates changed nothing');
    });

    test('writes notes through v3 batches, skipping the one on a missing record', async () => {
      const absent = randomUUID();
      const created = await send('POST', '/api/v3/record/note/batch/create', { data: [
        { notetext: 'batch one', objectid: accountId, objecttypecode: 1 },
        { notetext: 'batch two', objectid: absent, objecttypecode: 1 },
      ] });
      assert.equal(created.res.statusCode, 200, created.res.body);
      assert.deepEqual(created.body.data.map((d: { success: boolean }) => d.success), [true, false]);
      assert.equal(created.body.data[1].message, `The note is on account '${absent}', which does not exist: send the id of an existing account record as 'objectid'.`);
      const id = created.body.data[0]._id;
      const updated = await send('POST', '/api/v3/record/note/batch/update', { data: [
        { id, record: { objectid: absent } }, { id, record: { notetext: '<i>edited</i>' } },
      ] });
      assert.deepEqual(updated.body.data.map((d: { success: boolean }) => d.success), [false, true]);
      assert.deepEqual([updated.body.data[1].record.objectid, updated.body.data[1].record.notetext], [accountId, '<i>edited</i>']);
    });

    test('builds a contact\'s and a lead\'s fullname from firstname and lastname on create, through v1, v2 and v3 batch', async () => {
      for (const obj of ['contact', 'lead']) {
        const v1 = await send('POST', `/api/record/${obj}`, { firstname: 'Ada', lastname: 'Lovelace' });
        assert.equal(v1.res.statusCode, 201, v1.res.body);
        assert.equal(v1.body.data.Record.fullname, 'Ada Lovelace');
        const v2 = await send('POST', `/api/v2/record/${obj}`, { lastname: 'Hopper' });
        assert.equal(v2.body.record.fullname, 'Hopper');
        const sent = await send('POST', `/api/record/${obj}`, { firstname: 'Grace', lastname: 'Hopper', fullname: 'Rear Admiral Hopper' });
        assert.equal(sent.body.data.Record.fullname, 'Rear Admiral Hopper', 'a fullname sent is kept');
        const batch = await send('POST', `/api/v3/record/${obj}/batch/create`, { data: [{ firstname: 'Alan', lastname: 'Turing' }, { jobtitle: 'nameless' }] });
        assert.deepEqual(batch.body.data.map((d: { success: boolean }) => d.success), [true, false]);
        assert.equal(batch.body.data[0].record.fullname, 'Alan Turing');
        assert.equal(batch.body.data[1].message, "'fullname' (Full Name) is required; send it, or 'firstname' and/or 'lastname' to build it from.");
      }
    });

    test('keeps fullname in step when firstname or lastname changes, unless fullname is sent, through v1, v2 and v3 batch', async () => {
      for (const obj of ['contact', 'lead']) {
        const created = (await send('POST', `/api/record/${obj}`, { firstname: 'Ada', lastname: 'Byron' })).body.data.Record;
        const id = created[`${obj}id`];
        const v1 = await send('PUT', `/api/record/${obj}/${id}`, { lastname: 'Lovelace' });
        assert.equal(v1.body.data.Record.fullname, 'Ada Lovelace');
        const v2 = await send('PUT', `/api/v2/record/${obj}/${id}`, { firstname: 'Augusta Ada' });
        assert.equal(v2.body.record.fullname, 'Augusta Ada Lovelace');
        const own = await send('PUT', `/api/record/${obj}/${id}`, { firstname: 'Countess', fullname: 'The Countess of Lovelace' });
        assert.equal(own.body.data.Record.fullname, 'The Countess of Lovelace', 'a fullname sent wins');
        const emptied = await send('PUT', `/api/record/${obj}/${id}`, { firstname: null, fullname: '' });
        assert.equal(emptied.body.data.Record.fullname, 'Lovelace', 'an empty fullname beside a part is built again');
        const cleared = await send('PUT', `/api/record/${obj}/${id}`, { lastname: '' });
        assert.equal(cleared.body.data.Record.fullname, 'Lovelace', 'with every part empty the name stays');
        const untouched = await send('PUT', `/api/record/${obj}/${id}`, { fullname: 'Set By Hand', jobtitle: 'Analyst' });
        assert.equal(untouched.body.data.Record.fullname, 'Set By Hand');
        const other = await send('PUT', `/api/record/${obj}/${id}`, { jobtitle: 'Mathematician' });
        assert.equal(other.body.data.Record.fullname, 'Set By Hand', 'an update of neither part keeps the name');
        const batch = await send('POST', `/api/v3/record/${obj}/batch/update`, { data: [{ id, record: { firstname: 'Ada', lastname: 'King' } }] });
        assert.equal(batch.body.data[0].record.fullname, 'Ada King');
        assertErrorReply((await send('PUT', `/api/record/${obj}/${id}`, { fullname: null })).res, 400,
          "'fullname' (Full Name) is required; send it, or 'firstname' and/or 'lastname' to build it from.");
        assert.equal((await send('GET', `/api/record/${obj}/${id}`)).body.data.Record.fullname, 'Ada King');
      }
    });

    test('refuses a built fullname over its maxlength, naming the parts', async () => {
      const { res } = await send('POST', '/api/record/contact', { firstname: 'a'.repeat(150), lastname: 'b'.repeat(150) });
      assertErrorReply(res, 400, "'fullname', built from 'firstname' and 'lastname', would be 301 characters long; its maxlength is 200. Send shorter parts, or a 'fullname' of its own.");
    });
  });
}
