// A restore of an organization waits for its requests under way (docs/testing.md § Between tests):
// an import, whose route reads its body and writes batches long after the request began, is one
// request, so a restore neither cuts it in two nor runs between its batches.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { IMPORT_BATCH } from '../../src/service/record-transfer.js';
import { eventually, type TestContext } from '../helpers.js';
import { HTTP_STORES } from '../query/http-stores.js';
import { ADMIN_KEY, control } from './control-helpers.js';

const accounts = async (ctx: TestContext): Promise<number> => (await ctx.request({ method: 'GET', url: '/api/record/account?pagesize=1' })).json().data.Total_Records;

for (const store of HTTP_STORES) {
  test(`on ${store.name}: a restore waits for an import under way, and the state restored has none of it`, { skip: store.skip }, async () => {
    const ctx = await store.context({ config: { adminKey: ADMIN_KEY } });
    try {
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'empty' });
      const body = new PassThrough();
      const line = (i: number) => `${JSON.stringify({ accountname: `Imported ${i}` })}\n`;
      // One batch and a line: the batch is written, and the import waits for the rest of its body.
      for (let i = 0; i <= IMPORT_BATCH; i++) body.write(line(i));
      const importing = ctx.request({ method: 'POST', url: '/api/record/account/import', payload: body, headers: { 'content-type': 'application/x-ndjson' } });
      await eventually(async () => (await accounts(ctx)) === IMPORT_BATCH, 'the first batch written');
      let restored = false;
      const restoring = control(ctx, 'POST', `/organizations/${ctx.orgId}/snapshots/empty/restore`).then(() => (restored = true));
      // However long it is given, the restore cannot end before the import does.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(restored, false, 'the restore waits for the import under way');
      body.end(line(IMPORT_BATCH + 1));
      const res = await importing;
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.created, IMPORT_BATCH + 2, 'the whole import was written');
      await restoring;
      assert.equal(await accounts(ctx), 0, 'the state restored is the snapshot\'s, with no line of the import');
    } finally {
      await ctx.close();
    }
  });
}
