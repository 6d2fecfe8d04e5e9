// A restore of an organization, and an export of it as fixtures, wait for its requests under way
// (docs/testing.md § Between tests, docs/control-api.md): an import, whose route reads its body and
// writes batches long after the request began, is one request, so neither runs between its batches.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { IMPORT_BATCH } from '../../src/service/record-transfer.js';
import { eventually, type TestContext } from '../helpers.js';
import { HTTP_STORES } from '../query/http-stores.js';
import { ADMIN_KEY, control } from './control-helpers.js';

/** An import of one batch and a line whose body stays open until `end()`, once its first batch is written. */
async function importUnderWay(ctx: TestContext): Promise<{ end(): void; reply: Promise<{ statusCode: number; body: string; json(): any }> }> {
  const body = new PassThrough();
  const line = (i: number) => `${JSON.stringify({ accountname: `Imported ${i}` })}\n`;
  // One batch and a line: the batch is written, and the import waits for the rest of its body.
  for (let i = 0; i <= IMPORT_BATCH; i++) body.write(line(i));
  const reply = ctx.request({ method: 'POST', url: '/api/record/account/import', payload: body, headers: { 'content-type': 'application/x-ndjson' } });
  await eventually(async () => (await accounts(ctx)) === IMPORT_BATCH, 'the first batch written');
  return { end: () => body.end(line(IMPORT_BATCH + 1)), reply };
}

/** Whether `promise` settles within a moment; however long it is given, one held by a request under way cannot. */
async function settlesAtOnce(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 300));
  return settled;
}

const accounts = async (ctx: TestContext): Promise<number> => (await ctx.request({ method: 'GET', url: '/api/record/account?pagesize=1' })).json().data.Total_Records;

for (const store of HTTP_STORES) {
  test(`on ${store.name}: a restore waits for an import under way, and the state restored has none of it`, { skip: store.skip }, async () => {
    const ctx = await store.context({ config: { adminKey: ADMIN_KEY } });
    try {
      await control(ctx, 'POST', `/organizations/${ctx.orgId}/snapshots`, { name: 'empty' });
      const importing = await importUnderWay(ctx);
      const restoring = control(ctx, 'POST', `/organizations/${ctx.orgId}/snapshots/empty/restore`);
      assert.equal(await settlesAtOnce(restoring), false, 'the restore waits for the import under way');
      importing.end();
      const res = await importing.reply;
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.created, IMPORT_BATCH + 2, 'the whole import was written');
      await restoring;
      assert.equal(await accounts(ctx), 0, 'the state restored is the snapshot\'s, with no line of the import');
    } finally {
      await ctx.close();
    }
  });
}

for (const store of HTTP_STORES) {
  test(`on ${store.name}: an export of the organization as fixtures, and a copy, wait for an import under way and hold all of it`, { skip: store.skip }, async () => {
    const ctx = await store.context({ config: { adminKey: ADMIN_KEY } });
    try {
      const importing = await importUnderWay(ctx);
      const exporting = control(ctx, 'GET', `/organizations/${ctx.orgId}/fixture`);
      const copying = control(ctx, 'POST', `/organizations/${ctx.orgId}/copy`, { name: 'Copied' });
      assert.equal(await settlesAtOnce(exporting), false, 'the export waits for the import under way');
      importing.end();
      assert.equal((await importing.reply).statusCode, 200);
      assert.equal((await exporting).organizations[0].records.account.length, IMPORT_BATCH + 2, 'the export holds the whole import');
      const copied = await copying;
      const copy = await ctx.request({ method: 'GET', url: '/api/record/account?pagesize=1', token: copied.token });
      assert.equal(copy.json().data.Total_Records, IMPORT_BATCH + 2, 'the copy holds the whole import');
    } finally {
      await ctx.close();
    }
  });
}
