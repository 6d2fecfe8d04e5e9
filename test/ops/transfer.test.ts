// Import and export of an object's records, over HTTP and with the CLI, on both stores: CSV and
// NDJSON streamed out in key order with the fields the role may read, and back in with each
// refused line reported by number while the valid ones are written; a client that goes away
// midway is a closed request (499), not a failure.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { Readable } from 'node:stream';
import type { InStream } from '../../src/cli-confirm.js';
import { runCli } from '../../src/cli.js';
import type { Config } from '../../src/config.js';
import http from 'node:http';
import type { OrgRecords } from '../../src/store/types.js';
import { createPool } from '../../src/store/postgres/pg-db.js';
import { openDb } from '../../src/store/sqlite/sqlite-db.js';
import { EXPORT_PAGE, IMPORT_BATCH } from '../../src/service/record-transfer.js';
import { eventually, metricSample, rawConnection, tempDir, testContext, type TestContext } from '../helpers.js';
import { assertClosedByClient, journalEntries, loggedContext } from './closed-by-client.js';
import { HTTP_STORES } from '../query/http-stores.js';

const TRICKY = 'Quote " comma , and\nnewline';

/** The environment that points the CLI at the context's store. */
const envOf = (config: Config): NodeJS.ProcessEnv => (config.databaseUrl
  ? { DATABASE_URL: config.databaseUrl, DATABASE_SCHEMA: config.databaseSchema, DATA_DIR: config.dataDir }
  : { DATA_DIR: config.dataDir });

/** Runs `orchard …` in this process on the context's store; `input` is its standard input (empty by default). */
async function cli(config: Config, args: string[], input: InStream = Readable.from([])): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const output = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const code = await runCli(args, { env: envOf(config), output, input });
  return { code, stdout, stderr };
}

async function accounts(ctx: TestContext): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (let page = 1; ; page++) {
    const res = await ctx.request({ method: 'GET', url: `/api/record/account?pagesize=50&pagenumber=${page}` });
    out.push(...res.json().data.Records);
    if (res.json().data.Records.length < 50) return out.sort((a, b) => String(a.accountid).localeCompare(String(b.accountid)));
  }
}

/**
 * The planner's statistics of the organization's account table, as a count that a new set of them
 * moves: PostgreSQL's ANALYZEs of it run by Orchard (autovacuum's are counted apart); SQLite, the
 * rows its statistics were counted on (0: none).
 */
async function accountStatistics(ctx: TestContext): Promise<number> {
  const { config } = ctx;
  if (config.databaseUrl) {
    const pool = createPool(config.databaseUrl, { max: 1 });
    try {
      const schema = `${config.databaseSchema}_org_${ctx.orgId.replace(/-/g, '')}`;
      const { rows } = await pool.query("SELECT analyze_count FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'account'", [schema]);
      return Number(rows[0]?.analyze_count ?? 0);
    } finally {
      await pool.end();
    }
  }
  const db = openDb(path.join(config.dataDir, 'orgs', `${ctx.orgId}.db`), { readonly: true });
  try {
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get() === undefined) return 0;
    const stat = db.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'account' LIMIT 1").pluck().get() as string | undefined;
    return stat === undefined ? 0 : Number.parseInt(stat, 10);
  } finally {
    db.close();
  }
}

const importBody = (ctx: TestContext, url: string, payload: string, contentType: string) =>
  ctx.request({ method: 'POST', url, payload, headers: { 'content-type': contentType } });

for (const store of HTTP_STORES) {
  describe(`import and export on ${store.name}`, { skip: store.skip }, () => {
    let ctx: TestContext;
    const dirs: string[] = [];
    after(async () => {
      await ctx?.close();
      dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
    });

    test('exports every record over HTTP as CSV and NDJSON, in key order, as GET shows them', async () => {
      ctx = await store.context();
      for (let i = 0; i < 7; i++) {
        const res = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: i === 3 ? TRICKY : `Acme ${i}`, accounttypecode: 1, ...(i % 2 ? { telephone1: '+1 555 0100' } : {}) } });
        assert.equal(res.statusCode, 201);
      }
      const all = await accounts(ctx);
      const csv = await ctx.request({ method: 'GET', url: '/api/record/account/export?format=csv' });
      assert.equal(csv.statusCode, 200);
      assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(csv.headers['content-disposition'], 'attachment; filename="account.csv"');
      assert.ok(csv.headers['x-request-id']);
      const rows = parse(csv.body) as string[][];
      const header = rows[0]!;
      assert.deepEqual(header, Object.keys(all[0]!));
      assert.equal(rows.length, 1 + all.length);
      rows.slice(1).forEach((row, i) => header.forEach((name, j) => assert.equal(row[j], all[i]![name] === null ? '' : String(all[i]![name]), `${name} of row ${i}`)));
      assert.ok(rows.some((r) => r.includes(TRICKY)), 'quotes, commas and newlines survive');

      const nd = await ctx.request({ method: 'GET', url: '/api/record/account/export?format=ndjson' });
      assert.equal(nd.headers['content-type'], 'application/x-ndjson; charset=utf-8');
      assert.deepEqual(nd.body.trimEnd().split('\n').map((l) => JSON.parse(l)), all);
    });

    test('imports over HTTP, reporting each refused line by number and writing the others', async () => {
      const before = (await accounts(ctx)).length;
      const csv = [
        'accountname,telephone1,accounttypecode',
        'Imported One,+1 555 0101,1', // line 2
        'Bad Type,,99', // 3: FIELD_TYPE
        ',,1', // 4: FIELD_REQUIRED
        'Too,many,cells,here', // 5
        '"Imported, Two",,', // 6
      ].join('\n');
      const res = await importBody(ctx, '/api/record/account/import', csv, 'text/csv');
      assert.equal(res.statusCode, 200, res.body);
      const data = res.json().data;
      assert.equal(data.object, 'account');
      assert.equal(data.created, 2);
      assert.equal(data.failed, 3);
      assert.deepEqual(data.errors.map((e: { line: number; code: string }) => [e.line, e.code]), [[3, 'FIELD_TYPE'], [4, 'FIELD_REQUIRED'], [5, 'BODY_INVALID']]);
      const now = await accounts(ctx);
      assert.equal(now.length, before + 2);
      assert.ok(now.some((a) => a.accountname === 'Imported, Two' && a.telephone1 === null));

      const nd = ['{"accountname": "From NDJSON"}', 'not json', '', '[1]', '{"accountname": "Second", "nosuchfield": 1}'].join('\n');
      const r2 = (await importBody(ctx, '/api/record/account/import', nd, 'application/x-ndjson')).json().data;
      assert.equal(r2.created, 1);
      assert.deepEqual(r2.errors.map((e: { line: number; code: string }) => [e.line, e.code]), [[2, 'BODY_INVALID'], [4, 'BODY_INVALID'], [5, 'FIELD_UNKNOWN']]);
      // A byte-order mark, as Windows editors write one, is no part of line 1, as in a CSV.
      const r3 = (await importBody(ctx, '/api/record/account/import', '\uFEFF{"accountname": "After a BOM"}\n', 'application/x-ndjson')).json().data;
      assert.deepEqual([r3.created, r3.errors], [1, []]);
    });

    test('an import of 1,000 records or more leaves the planner statistics of the table when it answers, not a minute later', async () => {
      const before = await accountStatistics(ctx);
      const lines = Array.from({ length: 1_000 }, (_, i) => JSON.stringify({ accountname: `Bulk ${i}`, accounttypecode: 1 + (i % 3) }));
      const res = await importBody(ctx, '/api/record/account/import', lines.join('\n'), 'application/x-ndjson');
      assert.equal(res.json().data.created, 1_000, res.body);
      // PostgreSQL's ANALYZE runs before the reply (the stats' view may show it a moment later);
      // SQLite counts its own once the table passes 1,000 rows, on a reader thread after the write.
      await eventually(async () => (await accountStatistics(ctx)) > before, () => `the account table's statistics moved from ${before}`);
    });

    test('refuses a CSV header naming an unknown field before writing anything, and a body of no known type', async () => {
      const before = (await accounts(ctx)).length;
      const res = await importBody(ctx, '/api/record/account/import', 'accountname,acountnumber\nA,1\n', 'text/csv');
      assert.equal(res.statusCode, 400);
      assert.equal(res.headers['x-error-code'], 'FIELD_UNKNOWN');
      assert.match(res.json().Message, /'acountnumber' in the CSV header/);
      const other = await importBody(ctx, '/api/record/account/import', '{"accountname": "A"}', 'application/json');
      assert.equal(other.statusCode, 400);
      assert.match(other.json().Message, /Content-Type text\/csv or application\/x-ndjson/);
      assert.equal((await accounts(ctx)).length, before);
    });

    test('CSV lines are numbered as an editor numbers them, a CRLF inside a quoted cell counting once', async () => {
      const csv = [
        'accountname,accounttypecode', // line 1
        '"Multi\r\nline",1', // 2-3
        'Bad,99', // 4: FIELD_TYPE
        '"Also\r\nmulti\r\nline",99', // 5-7: FIELD_TYPE
        '', // 8
        'Short', // 9: one cell of two
      ].join('\r\n') + '\r\n';
      const res = await importBody(ctx, '/api/record/account/import', csv, 'text/csv');
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(res.json().data.errors.map((e: { line: number; code: string }) => [e.line, e.code]), [[4, 'FIELD_TYPE'], [7, 'FIELD_TYPE'], [9, 'BODY_INVALID']]);
      assert.match(res.json().data.errors[2].message, /^Line 9 has 1 cells/);
      // Where a CSV cannot be read on, the line to fix is the one after the last record read.
      const broken = await importBody(ctx, '/api/record/account/import', 'accountname\r\n"Before\r\nbroken"\r\n"x"y\r\n', 'text/csv');
      assert.equal(broken.statusCode, 400);
      assert.match(broken.json().Message, /^The CSV cannot be read past line 3: Invalid Closing Quote: got "y" at line 4 .* Fix the file after line 3 and import the lines after it\.$/);
    });

    test('a CSV header naming a field twice (in any case) is refused before anything is written', async () => {
      const before = (await accounts(ctx)).length;
      const res = await importBody(ctx, '/api/record/account/import', 'accountname,telephone1,AccountName\nFirst,,Second\n', 'text/csv');
      assert.deepEqual([res.statusCode, res.headers['x-error-code']], [400, 'BODY_INVALID']);
      assert.equal(res.json().Message, "The CSV header names the field 'accountname' twice, in columns 1 and 3. Keep one of the two columns, and import the file again; nothing was imported.");
      assert.equal((await accounts(ctx)).length, before);
    });

    test('an export imported back restores lookups to records of the same object further down the file, and refuses those to none', async () => {
      const own = await store.context();
      try {
        // Key order grandchild, child, parent: each names a record written after it.
        const [grandchild, child, parent, orphan] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'ffffffff-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000003'];
        const create = async (accountid: string, parentaccountid: string | null) => assert.equal((await own.request({ method: 'POST', url: '/api/record/account', payload: { accountid, accountname: accountid.slice(0, 8), parentaccountid } })).statusCode, 201);
        const remove = async (id: unknown) => assert.equal((await own.request({ method: 'DELETE', url: `/api/record/account/${String(id)}` })).statusCode, 200);
        for (const format of ['csv', 'ndjson'] as const) {
          for (const a of await accounts(own)) await remove(a.accountid);
          await create(parent, null);
          await create(child, parent);
          await create(grandchild, child);
          // A delete leaves the lookups naming the record: the orphan's names none.
          const gone = 'eeeeeeee-0000-4000-8000-000000000001';
          await create(gone, null);
          await create(orphan, gone);
          await remove(gone);
          const all = await accounts(own);
          const file = (await own.request({ method: 'GET', url: `/api/record/account/export?format=${format}` })).body;
          for (const a of all) await remove(a.accountid);
          const res = await importBody(own, '/api/record/account/import', file, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
          const data = res.json().data;
          assert.equal(data.created, 3, res.body);
          // Lines grandchild, child, orphan, parent (after a CSV's header): the orphan's is refused.
          assert.deepEqual(data.errors.map((e: { line: number; code: string }) => [e.line, e.code]), [[format === 'csv' ? 4 : 3, 'LOOKUP_TARGET_MISSING']]);
          const links = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.accountid, r.parentaccountid]);
          assert.deepEqual(links(await accounts(own)), links(all.filter((a) => a.accountid !== orphan)));
        }
      } finally {
        await own.close();
      }
    });

    test('a record that is its own parent (an update makes one) is exported and imported back as it was, in either format', async () => {
      const own = await store.context();
      try {
        const self = '00000000-0000-4000-8000-0000000000a4';
        assert.equal((await own.request({ method: 'POST', url: '/api/record/account', payload: { accountid: self, accountname: 'Self' } })).statusCode, 201);
        assert.equal((await own.request({ method: 'PUT', url: `/api/record/account/${self}`, payload: { parentaccountid: self } })).statusCode, 200);
        for (const format of ['csv', 'ndjson'] as const) {
          const file = (await own.request({ method: 'GET', url: `/api/record/account/export?format=${format}` })).body;
          assert.equal((await own.request({ method: 'DELETE', url: `/api/record/account/${self}` })).statusCode, 200);
          const res = await importBody(own, '/api/record/account/import', file, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
          assert.deepEqual([res.json().data.created, res.json().data.errors], [1, []], res.body);
          assert.deepEqual((await accounts(own)).map((a) => [a.accountid, a.parentaccountid, a.parentaccountname]), [[self, self, 'Self']]);
        }
      } finally {
        await own.close();
      }
    });

    test('records of one object in a cycle (A\'s parent C, C\'s parent B, B\'s parent A) import back as they were; a line naming a record gone is refused, and so is one naming it', async () => {
      const own = await store.context();
      try {
        const [a, b, c, orphan, child] = ['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2', 'ffffffff-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-0000000000a5', '00000000-0000-4000-8000-0000000000a6'];
        const write = async (method: 'POST' | 'PUT', url: string, payload: object) => assert.ok((await own.request({ method, url, payload })).statusCode < 300);
        for (const id of [a, b, c]) await write('POST', '/api/record/account', { accountid: id, accountname: `n-${id.slice(-2)}` });
        await write('PUT', `/api/record/account/${a}`, { parentaccountid: c });
        await write('PUT', `/api/record/account/${c}`, { parentaccountid: b });
        await write('PUT', `/api/record/account/${b}`, { parentaccountid: a });
        const gone = 'eeeeeeee-0000-4000-8000-000000000001';
        await write('POST', '/api/record/account', { accountid: gone, accountname: 'gone' });
        await write('POST', '/api/record/account', { accountid: orphan, accountname: 'orphan', parentaccountid: gone });
        await write('POST', '/api/record/account', { accountid: child, accountname: 'child', parentaccountid: orphan });
        assert.equal((await own.request({ method: 'DELETE', url: `/api/record/account/${gone}` })).statusCode, 200);
        const all = await accounts(own);
        for (const format of ['csv', 'ndjson'] as const) {
          const file = (await own.request({ method: 'GET', url: `/api/record/account/export?format=${format}` })).body;
          for (const r of await accounts(own)) assert.equal((await own.request({ method: 'DELETE', url: `/api/record/account/${String(r.accountid)}` })).statusCode, 200);
          const res = await importBody(own, '/api/record/account/import', file, format === 'csv' ? 'text/csv' : 'application/x-ndjson');
          const data = res.json().data;
          // Key order a, b, orphan, child, c: the orphan and its child are refused.
          const first = format === 'csv' ? 2 : 1;
          assert.deepEqual([data.created, data.errors.map((e: { line: number; code: string }) => [e.line, e.code])],
            [3, [[first + 2, 'LOOKUP_TARGET_MISSING'], [first + 3, 'LOOKUP_TARGET_MISSING']]], res.body);
          const view = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.accountid, r.accountname, r.parentaccountid, r.parentaccountname]);
          assert.deepEqual(view(await accounts(own)), view(all.filter((r) => r.accountid !== orphan && r.accountid !== child)));
          // The orphan and child come back for the next format's export.
          await write('POST', '/api/record/account', { accountid: gone, accountname: 'gone' });
          await write('POST', '/api/record/account', { accountid: orphan, accountname: 'orphan', parentaccountid: gone });
          await write('POST', '/api/record/account', { accountid: child, accountname: 'child', parentaccountid: orphan });
          assert.equal((await own.request({ method: 'DELETE', url: `/api/record/account/${gone}` })).statusCode, 200);
        }
      } finally {
        await own.close();
      }
    });

    test('applies the role: hidden fields are left out of an export, and an import needs create permission', async () => {
      await ctx.stores.admin.setRole({ orgId: ctx.orgId, role: 'reader', grant: 'account:read', hide: 'account:telephone1' });
      const { token } = await ctx.stores.admin.createUser({ orgId: ctx.orgId, email: 'reader@example.com', role: 'reader' });
      const csv = await ctx.request({ method: 'GET', url: '/api/record/account/export', token });
      assert.equal(csv.statusCode, 200);
      const header = (parse(csv.body) as string[][])[0]!;
      assert.ok(header.includes('accountname') && !header.includes('telephone1'));
      const refused = await ctx.request({ method: 'POST', url: '/api/record/account/import', token, payload: 'accountname\nX\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.headers['x-error-code'], 'PERMISSION_DENIED');
    });

    for (const how of ['destroy', 'end'] as const) {
      test(`a client that goes away mid-import (${how === 'end' ? 'closing its side' : 'closing the connection'}) is logged once as a closed request (499), never as a failure, and leaves only the whole batches written before`, async () => {
        const { ctx: c, entries } = await loggedContext(store.context);
        try {
          const url = await c.app.listen({ port: 0, host: '127.0.0.1' });
          const total = async () => (await c.request({ method: 'GET', url: '/api/record/account?pagesize=1' })).json().data.Total_Records as number;
          const csv = ['accountname', ...Array.from({ length: 2 * IMPORT_BATCH + 200 }, (_, i) => `Left ${i}`)].join('\n') + '\n';
          const conn = await rawConnection(url);
          // Chunked, and never its last chunk: the body is not over when the client goes.
          conn.write(`POST /api/record/account/import HTTP/1.1\r\nHost: x\r\ntokenid: ${c.token}\r\nContent-Type: text/csv\r\nTransfer-Encoding: chunked\r\n\r\n`
            + `${Buffer.byteLength(csv).toString(16)}\r\n${csv}\r\n`);
          // Two batches' writes, not a speed check: on a loaded machine PostgreSQL took more than 5 s.
          await eventually(async () => (await total()) === 2 * IMPORT_BATCH, 'two batches written', 30_000);
          await conn.leave(how);
          await assertClosedByClient(c, entries, 'POST', '/api/record/account/import');
          assert.equal(await total(), 2 * IMPORT_BATCH, 'the 200 lines after the last whole batch are not written');
        } finally {
          await c.close();
        }
      });
    }

    test('orchard export and import: a CSV export imported back after a delete restores the same ids and fields', async () => {
      const dir = tempDir('orchard-transfer-');
      dirs.push(dir);
      const file = path.join(dir, 'accounts.csv');
      const all = await accounts(ctx);
      const ex = await cli(ctx.config, ['--json', 'export', '--org', ctx.orgId, '--object', 'account', '--format', 'csv', '--out', file]);
      assert.equal(ex.code, 0, ex.stdout + ex.stderr);
      const summary = JSON.parse(ex.stdout);
      assert.deepEqual({ ...summary, seconds: 0 }, { object: 'account', format: 'csv', records: all.length, out: file, seconds: 0 });
      for (const a of all) assert.equal((await ctx.request({ method: 'DELETE', url: `/api/record/account/${String(a.accountid)}` })).statusCode, 200);
      const im = await cli(ctx.config, ['--json', 'import', '--org', ctx.orgId, '--object', '1', '--format', 'csv', '--in', file]);
      assert.equal(im.code, 0, im.stdout + im.stderr);
      const result = JSON.parse(im.stdout);
      assert.equal(result.created, all.length);
      assert.deepEqual(result.errors, []);
      const back = await accounts(ctx);
      const data = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => !['createdon', 'modifiedon'].includes(k)));
      assert.deepEqual(back.map(data), all.map(data));
    });

    test('orchard export to stdout writes the records there and the summary to stderr; import reports lines', async () => {
      const dir = tempDir('orchard-transfer-');
      dirs.push(dir);
      const ex = await cli(ctx.config, ['--json', 'export', '--org', ctx.orgId, '--object', 'account', '--format', 'ndjson']);
      assert.equal(ex.code, 0, ex.stderr);
      const lines = ex.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines.length, (await accounts(ctx)).length);
      assert.equal(JSON.parse(ex.stderr).records, lines.length);
      const file = path.join(dir, 'in.ndjson');
      fs.writeFileSync(file, '{"accountname": "CLI one"}\n{"accountname": ""}\n');
      const im = await cli(ctx.config, ['--json', 'import', '--org', ctx.orgId, '--object', 'account', '--format', 'ndjson', '--in', file]);
      const result = JSON.parse(im.stdout);
      assert.equal(result.created, 1);
      assert.deepEqual(result.errors.map((e: { line: number; code: string }) => [e.line, e.code]), [[2, 'FIELD_REQUIRED']]);
      // A named pipe is read as it comes (no size, so no progress bar).
      const fifo = path.join(dir, 'in.fifo');
      execFileSync('mkfifo', [fifo]);
      const writing = fs.promises.writeFile(fifo, '{"accountname": "From a pipe"}\n');
      const piped = await cli(ctx.config, ['--json', 'import', '--org', ctx.orgId, '--object', 'account', '--format', 'ndjson', '--in', fifo]);
      await writing;
      assert.equal(piped.code, 0, piped.stdout + piped.stderr);
      assert.equal(JSON.parse(piped.stdout).created, 1);
      const missing = await cli(ctx.config, ['--json', 'import', '--org', ctx.orgId, '--object', 'account', '--format', 'ndjson', '--in', path.join(dir, 'nope.ndjson')]);
      assert.equal(missing.code, 1);
      assert.deepEqual(JSON.parse(missing.stdout).error, { code: 'PARAM_INVALID', message: `Cannot read --in ${path.join(dir, 'nope.ndjson')}: no such file. Give the path of a CSV or NDJSON file, or - for standard input.` });
    });

    // Read from the process's stdin instead, it may never end: a timeout makes that a failure, not a hang.
    test('orchard import --in - reads CSV and NDJSON from the input the CLI was given', { timeout: 60_000 }, async () => {
      const before = (await accounts(ctx)).length;
      const csv = await cli(ctx.config, ['--json', 'import', '--org', ctx.orgId, '--object', 'account', '--format', 'csv', '--in', '-'],
        Readable.from(['accountname,telephone1\nStdin CSV 1,+1 555 0101\n', 'Stdin CSV 2,\n']));
      assert.equal(csv.code, 0, csv.stdout + csv.stderr);
      assert.deepEqual([JSON.parse(csv.stdout).created, JSON.parse(csv.stdout).errors], [2, []]);
      const nd = await cli(ctx.config, ['--json', 'import', '--org', ctx.orgId, '--object', 'account', '--format', 'ndjson', '--in', '-'],
        Readable.from(['{"accountname": "Stdin NDJSON"}\n{"accountname": ""}\n']));
      assert.equal(nd.code, 0, nd.stdout + nd.stderr);
      assert.deepEqual([JSON.parse(nd.stdout).created, JSON.parse(nd.stdout).errors.map((e: { line: number; code: string }) => [e.line, e.code])], [1, [[2, 'FIELD_REQUIRED']]]);
      const names = (await accounts(ctx)).map((a) => a.accountname);
      assert.equal(names.length, before + 3);
      for (const name of ['Stdin CSV 1', 'Stdin CSV 2', 'Stdin NDJSON']) assert.ok(names.includes(name), name);
    });

    test('a CSV that cannot be read past a line writes every line before it, the pending batch too, and says how many (HTTP and CLI)', async () => {
      const dir = tempDir('orchard-transfer-');
      dirs.push(dir);
      // 503 good rows (a whole batch of 500 and 3 pending), one refused, then an unclosed quote.
      const rows = Array.from({ length: 503 }, (_, i) => `Broken ${i}`);
      const csv = `accountname\n${rows.join('\n')}\n""\n"unclosed,\nNever\n`;
      const before = (await accounts(ctx)).length;
      const res = await importBody(ctx, '/api/record/account/import', csv, 'text/csv');
      assert.deepEqual([res.statusCode, res.headers['x-error-code']], [400, 'BODY_INVALID']);
      assert.match(res.json().Message, /^The CSV cannot be read past line 505: Quote Not Closed: .*\. The lines before it were imported: 503 record\(s\) created, 1 line\(s\) refused\. Fix the file after line 505 and import the lines after it\.$/);
      assert.equal((await accounts(ctx)).length, before + 503, 'every line before the unreadable one is written, as the message says');
      const file = path.join(dir, 'broken.csv');
      fs.writeFileSync(file, 'accountname\nCLI Broken 1\nCLI Broken 2\n\n\n"unclosed,\n');
      const im = await cli(ctx.config, ['--json', 'import', '--org', ctx.orgId, '--object', 'account', '--format', 'csv', '--in', file]);
      assert.equal(im.code, 1);
      assert.match(JSON.parse(im.stdout).error.message, /^The CSV cannot be read past line 3: .*The lines before it were imported: 2 record\(s\) created, 0 line\(s\) refused/, 'the last line read, whatever blank lines follow it');
      assert.equal((await accounts(ctx)).length, before + 505);
    });
  });
}

test('a request refused before its body is read keeps its connection (Node reads the body and drops it)', async () => {
  const ctx = await testContext();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const post = (tokenid: string) => new Promise<{ status: number; connection: string | undefined; socket: unknown }>((resolve, reject) => {
      const req = http.request(`${url}/api/record/account`, { method: 'POST', agent, headers: { 'content-type': 'application/json', tokenid } }, (r) => {
        r.resume().on('end', () => resolve({ status: r.statusCode!, connection: r.headers.connection, socket: req.socket }));
      });
      req.on('error', reject);
      req.end(JSON.stringify({ accountname: 'Kept' }));
    });
    const refused = await post('not-a-token');
    const made = await post(ctx.token);
    assert.deepEqual([refused.status, refused.connection, made.status], [401, 'keep-alive', 201]);
    assert.equal(made.socket, refused.socket, 'the next request went on the same connection');
  } finally {
    agent.destroy();
    await ctx.close();
  }
});

test('an HTTP import on a plan without batches is 402 saying that an import is one', async () => {
  const ctx = await testContext({ plan: 'free' });
  try {
    const res = await importBody(ctx, '/api/record/account/import', 'accountname\nFree\n', 'text/csv');
    assert.deepEqual([res.statusCode, res.headers['x-error-code'], res.json().Message],
      [402, 'PLAN_EXCLUDES', 'The free plan does not include batch requests (the v3 batch routes, and imports over HTTP); upgrade to standard or higher.']);
  } finally {
    await ctx.close();
  }
});

test('an HTTP import streamed past the 20 MB limit writes every line read before it, the pending batch too, says how many, and closes the connection', async () => {
  const ctx = await testContext();
  try {
    // Lines of about 10 KB (a description at its longest): about 2,000 lines to pass the limit,
    // sent chunked (no Content-Length), so only the stream's count stops it, by a client that
    // goes on sending: the reply closes the connection, or it would wait on a server not reading.
    const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const description = 'd'.repeat(9_900);
    const res = await new Promise<{ status: number; connection: string | undefined; json: () => Promise<unknown> }>((resolve, reject) => {
      let reply: { status: number; connection: string | undefined; json: () => Promise<unknown> } | undefined;
      const req = http.request(`${url}/api/record/account/import`, { method: 'POST', headers: { tokenid: ctx.token, 'content-type': 'text/csv' } }, (r) => {
        let text = '';
        r.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => (reply = { status: r.statusCode!, connection: r.headers.connection, json: async () => JSON.parse(text) }));
      });
      // The request ends once the server closed the connection: resolved then, with the reply.
      req.on('close', () => (reply ? resolve(reply) : reject(new Error('the connection closed without a reply'))));
      req.on('error', (err: NodeJS.ErrnoException) => { if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err); });
      req.write('accountname,description\n');
      let sent = 0;
      const timer = setInterval(() => {
        if (req.destroyed || sent >= 4_000) {
          clearInterval(timer);
          if (!req.destroyed) req.end();
          return;
        }
        req.write(Array.from({ length: 20 }, (_, i) => `Big ${sent + i},${description}\n`).join(''));
        sent += 20;
      }, 2);
    });
    assert.equal(res.connection, 'close');
    assert.equal(res.status, 413);
    const message = ((await res.json()) as { Message: string }).Message;
    const m = /^The file is over the 20 MB request limit\. Split the file, or use orchard import, which has no limit\. The lines before the limit were imported: (\d+) record\(s\) created, 0 line\(s\) refused\.$/.exec(message);
    assert.ok(m, message);
    const stored = (await ctx.request({ method: 'GET', url: '/api/record/account?pagesize=1' })).json().data.Total_Records as number;
    assert.equal(stored, Number(m[1]), 'as many stored as the message says');
    assert.ok(stored > 2_000 && stored % 500 !== 0, `${stored}: the last, partial batch was written too`);
  } finally {
    await ctx.close();
  }
});

/**
 * Makes the context's store answer every export page with EXPORT_PAGE copies of one account, a
 * little slowly (and fail at page `failAt`, when given); returns the pages read so far.
 */
async function endlessExport(ctx: TestContext, failAt?: number): Promise<() => number> {
  const created = await ctx.request({ method: 'POST', url: '/api/record/account', payload: { accountname: 'Endless' } });
  const row = created.json().data.Record;
  let pages = 0;
  const records = ctx.stores.records;
  const org = records.org.bind(records);
  records.org = async (id) => {
    const real = await org(id);
    return Object.assign(Object.create(real) as OrgRecords, {
      scan: async () => {
        await new Promise((r) => setTimeout(r, 20));
        pages++;
        if (pages === failAt) throw new Error('the disk is gone');
        return Array.from({ length: EXPORT_PAGE }, () => row);
      },
    });
  };
  return () => pages;
}

/** GET of an NDJSON export over HTTP, to the end of the connection. */
function exportOverHttp(url: string, token: string): Promise<{ status: number; complete: boolean; bytes: number }> {
  return new Promise((resolve, reject) => {
    http.get(`${url}/api/record/account/export?format=ndjson`, { headers: { tokenid: token } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('close', () => resolve({ status: res.statusCode!, complete: res.complete, bytes }));
    }).on('error', reject);
  });
}

test('an HTTP export cut by the request time limit ends as an incomplete transfer, never as a whole-looking file, logged, counted and journaled as 408', async () => {
  const { ctx, entries } = await loggedContext((options) => testContext({ ...options, config: { ...options.config, requestTimeoutMs: 300 } }));
  try {
    // Pages that never end: only the time limit stops the export.
    await endlessExport(ctx);
    const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const outcome = await exportOverHttp(url, ctx.token);
    assert.equal(outcome.status, 200);
    assert.ok(outcome.bytes > 0, 'records were sent before the limit');
    assert.equal(outcome.complete, false, 'the reply ends without its last chunk');
    const series = 'orchard_http_request_duration_seconds_count{family="records",method="GET",status="408"}';
    await eventually(async () => metricSample((await ctx.request({ method: 'GET', url: '/metrics', token: null })).body, series) === 1, 'the export counted under 408');
    const metrics = (await ctx.request({ method: 'GET', url: '/metrics', token: null })).body;
    assert.doesNotMatch(metrics, /status="499"/, 'the server cut it, not the client');
    assert.deepEqual(entries().filter((e) => e.level >= 40).map((e) => [e.level, e.msg, e.code, e.res?.statusCode]), [[40, 'export cut short', 'REQUEST_TIMEOUT', 408]]);
    assert.deepEqual(await journalEntries(ctx, '/api/record/account/export'), [{ method: 'GET', status: 408 }], 'the journal keeps it under the status it was cut with');
  } finally {
    await ctx.close();
  }
});

test('an HTTP export cut by a failure of the store is an error line with its stack, counted and journaled as a 500', async () => {
  const { ctx, entries } = await loggedContext(testContext);
  try {
    await endlessExport(ctx, 3);
    const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const outcome = await exportOverHttp(url, ctx.token);
    assert.deepEqual([outcome.status, outcome.complete], [200, false]);
    const series = 'orchard_http_request_duration_seconds_count{family="records",method="GET",status="500"}';
    await eventually(async () => metricSample((await ctx.request({ method: 'GET', url: '/metrics', token: null })).body, series) === 1, 'the export counted under 500');
    const errors = entries().filter((e) => e.level >= 40);
    assert.deepEqual(errors.map((e) => [e.level, e.msg, e.err?.message, e.res?.statusCode]), [[50, 'export cut short by a failure', 'the disk is gone', 500]]);
    assert.match(errors[0]!.err.stack, /the disk is gone/);
    assert.deepEqual(await journalEntries(ctx, '/api/record/account/export'), [{ method: 'GET', status: 500 }]);
  } finally {
    await ctx.close();
  }
});

test('a client that goes away during an HTTP export is logged once as a closed request (499), and the export stops reading', async () => {
  const { ctx, entries } = await loggedContext(testContext);
  try {
    const pages = await endlessExport(ctx);
    const url = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const conn = await rawConnection(url);
    conn.write(`GET /api/record/account/export?format=ndjson HTTP/1.1\r\nHost: x\r\ntokenid: ${ctx.token}\r\n\r\n`);
    await eventually(() => conn.received() > 0, 'the export under way');
    await conn.leave();
    await assertClosedByClient(ctx, entries, 'GET', '/api/record/account/export?format=ndjson');
    // A page being read as the client left may still end; none after it begins.
    const read = pages();
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(pages() <= read + 1, `${pages() - read} pages read after the client left`);
  } finally {
    await ctx.close();
  }
});
