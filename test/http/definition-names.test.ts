// What a definition may say, on either store: object 58 takes its two members only (a camelCase
// collectionName was dropped and the default plural used) and system-field those clients send, an organization has at most 100 custom
// objects, names and labels hold no bidirectional or invisible controls (a name could display as
// another), and a picklist's labels are unique without regard to case (show_real_value names by label).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { DEFINITION_LIMITS } from '../../src/schema/custom-definitions.js';
import { CONTEXT_STORES, testContextOn, type TestContext } from '../helpers.js';

const body = (res: LightMyRequestResponse): any => JSON.parse(res.body);

for (const store of CONTEXT_STORES) describe(`on ${store.name}`, { skip: store.skip }, () => {
  describe('definitions refused with 400 DEFINITION_INVALID', () => {
    let ctx: TestContext;
    const post = (url: string, payload: unknown) => ctx.request({ method: 'POST', url, payload: payload as object });
    const refused = async (url: string, payload: unknown, message: string) => {
      const res = await post(url, payload);
      assert.equal(res.statusCode, 400, `${url} ${JSON.stringify(payload)}: ${res.body}`);
      assert.equal(res.headers['x-error-code'], 'DEFINITION_INVALID');
      assert.deepEqual(body(res), { Message: message });
    };
    const objectNames = async () => body(await ctx.request({ method: 'GET', url: '/metadata/records' })).data.map((o: { name: string }) => o.name);

    before(async () => (ctx = await testContextOn(store)));
    after(() => ctx.close());

    test('object 58 refuses a member it does not take (collectionName) rather than dropping it, naming the two it takes', async () => {
      await refused('/api/v2/record/58', { name: 'Property', collectionName: 'Estates' },
        "'collectionName' is not a member of an object's definition; its members are name, collectionname (did you mean 'collectionname'?).");
      await refused('/api/v2/record/58', { name: 'Property', description: 'Houses' },
        "'description' is not a member of an object's definition; its members are name, collectionname.");
      assert.ok(!(await objectNames()).includes('Property'));
      const made = body(await post('/api/v2/record/58', { name: 'Property', collectionname: 'Estates' }));
      assert.equal(made.record.collectionname, 'Estates');
    });

    test('system-field refuses a member it does not take rather than dropping it, naming those it takes', async () => {
      const fieldNames = async () => body(await ctx.request({ method: 'GET', url: '/metadata/records/1/fields' })).data.map((f: { fieldName: string }) => f.fieldName);
      const members = 'label, fieldName, precision, options, values, relatedObjectType, relatedObjectId, maxLength';
      await refused('/api/v2/system-field/1/text', { label: 'Region', FieldName: 'pcfregion' },
        `'FieldName' is not a member of a field's definition; its members are ${members} (did you mean 'fieldName'?).`);
      await refused('/api/v2/system-field/1/text', { label: 'Region', fieldName: 'pcfregion', required: true },
        `'required' is not a member of a field's definition; its members are ${members}.`);
      assert.ok(!(await fieldNames()).includes('pcfregion'));
      // What the MCP client and the other clients send, in either spelling the service reads.
      const made = await post('/api/v2/system-field/1/text', { label: 'Region', fieldname: 'pcfregion', maxlength: 20 });
      assert.equal(made.statusCode, 200, made.body);
      assert.equal((await post('/api/v2/system-field/1/number', { label: 'Size', fieldName: 'pcfsize', precision: 0 })).statusCode, 200);
      assert.equal((await post('/api/v2/system-field/1/lookup', { label: 'Main', relatedObjectType: 2, relatedObjectId: '2' })).statusCode, 200);
      assert.equal((await post('/api/v2/system-field/1/picklist', { label: 'Tier', options: [{ label: 'Gold', value: 1, order: 1, color: '#fc0' }] })).statusCode, 200);
      assert.equal((await post('/api/v2/system-field/1/picklist', { label: 'Band', values: [{ name: 'A', value: '1' }] })).statusCode, 200);
    });

    test('refuses bidirectional and invisible controls in object, field, option and view names, and keeps Hebrew', async () => {
      await refused('/api/v2/record/58', { name: 'Invoices\u202Efdp.exe' },
        "'name': it contains U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control that can make a name display as another, at position 8. Remove it: names and labels take visible text only (right-to-left text such as Hebrew needs no control characters).");
      await refused('/api/v2/record/58', { name: 'Gadget', collectionname: 'Gad\u2066gets' },
        "'collectionname': it contains U+2066 LEFT-TO-RIGHT ISOLATE, a bidirectional control that can make a name display as another, at position 3. Remove it: names and labels take visible text only (right-to-left text such as Hebrew needs no control characters).");
      await refused('/api/v2/system-field/1/text', { label: 'Re\u200Bgion' },
        "'label': it contains U+200B ZERO WIDTH SPACE, which shows as nothing, at position 2. Remove it: names and labels take visible text only (right-to-left text such as Hebrew needs no control characters).");
      await refused('/api/v2/system-field/1/picklist', { label: 'Tier', options: [{ label: 'Gold\nSilver' }] },
        "'label': it contains the control character U+000A at position 4. Remove it: names and labels take visible text only (right-to-left text such as Hebrew needs no control characters).");
      await refused('/api/v2/views/1', { name: 'Mine\u202B' },
        "'name': it contains U+202B RIGHT-TO-LEFT EMBEDDING, a bidirectional control that can make a name display as another, at position 4. Remove it: names and labels take visible text only (right-to-left text such as Hebrew needs no control characters).");
      for (const c of ['\u202A', '\u202C', '\u202D', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C', '\uFEFF', '\u2060', '\u0007', '\u0085']) {
        const res = await post('/api/v2/record/58', { name: `Spoof${c}ed` });
        assert.equal(res.statusCode, 400, `U+${c.codePointAt(0)!.toString(16)}: ${res.body}`);
      }
      // Hebrew, and the joiners scripts and emoji need, are names like any other.
      const hebrew = await post('/api/v2/record/58', { name: 'פרויקט', collectionname: 'פרויקטים' });
      assert.equal(hebrew.statusCode, 200, hebrew.body);
      assert.equal(body(hebrew).record.collectionname, 'פרויקטים');
      assert.equal((await post('/api/v2/system-field/1/text', { label: 'می\u200Cخواهم 👩\u200D💻' })).statusCode, 200);
      assert.equal((await post('/api/v2/views/1', { name: 'לקוחות בתל אביב' })).statusCode, 200);
    });

    test("refuses a picklist whose options share a label, without regard to case, in either spelling", async () => {
      await refused('/api/v2/system-field/1/picklist', { label: 'Tier', options: [{ label: 'Gold', value: 1 }, { label: 'Gold', value: 2 }] },
        "Two options have the label 'Gold', labels being compared without regard to case; give each option its own label.");
      await refused('/api/v2/system-field/1/picklist', { label: 'Tier', values: [{ name: 'Gold', value: '1' }, { name: ' gold ', value: '2' }] },
        "Two options have the label 'Gold' ('gold'), labels being compared without regard to case; give each option its own label.");
      const res = await post('/api/v2/system-field/1/picklist', { label: 'Tier', fieldName: 'pcftier', options: [{ label: 'Gold' }, { label: 'Golden' }] });
      assert.equal(res.statusCode, 200, res.body);
    });
  });

  describe('the custom objects of an organization', () => {
    test(`are at most ${DEFINITION_LIMITS.customObjects}: one more is 400 DEFINITION_INVALID, and nothing is made`, async () => {
      const ctx = await testContextOn(store);
      try {
        for (let i = 0; i < DEFINITION_LIMITS.customObjects; i++) {
          const res = await ctx.request({ method: 'POST', url: '/api/v2/record/58', payload: { name: `Kind ${i}` } });
          assert.equal(res.statusCode, 200, res.body);
        }
        const res = await ctx.request({ method: 'POST', url: '/api/v2/record/58', payload: { name: 'One Too Many' } });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.headers['x-error-code'], 'DEFINITION_INVALID');
        assert.deepEqual(body(res), { Message: 'The organization has 100 custom objects, the most it may have; an object cannot be added to it.' });
        assert.equal((await ctx.request({ method: 'POST', url: '/api/record/1100', payload: { name: 'X' } })).statusCode, 404);
      } finally {
        await ctx.close();
      }
    });
  });
});
