// `orchard export` of 1,000,000 accounts made by `orchard seed`, as CSV and as NDJSON to a file,
// each timed as the command a user runs (a child process, from start to exit), beside an anchor in
// the same run: the same SQL (every field, key order, the name joins) run in one statement on
// better-sqlite3, each row written as a JSON line to a file — the least a program can do to write
// these records out. Optionally (--http) GET /api/record/account/export of a served copy, read to the end.
// The data directory is kept under .bench-data/ and reused (seeding takes minutes); --fresh seeds again.
//
// Usage: node dist/bench/export.js [--accounts 1000000] [--rounds 2] [--http] [--fresh]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config.js';
import { selectScanPage } from '../src/store/record-sql.js';
import { FOLD_FUNCTION, fold } from '../src/store/sqlite/sqlite-db.js';
import { sqliteSql } from '../src/store/sqlite/sqlite-sql.js';
import { openStores } from '../src/stores.js';
import { median } from './lib.js';
import { cliDataSet, orchardCli, startOrchard } from './orchard-target.js';


const { values: opts } = parseArgs({
  options: {
    accounts: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '2' },
    http: { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
  },
});

/** Seconds `work` takes. */
async function timed(work: () => unknown): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** The anchor: Orchard's export SQL in one statement, a JSON line a row, to `file`. */
async function direct(dataDir: string, orgId: string, file: string): Promise<number> {
  const stores = openStores(loadConfig({}, { dataDir, logLevel: 'silent' }));
  let sql: string;
  try {
    const schema = await (await stores.records.org(orgId)).schema();
    const compiled = selectScanPage(sqliteSql, schema, schema.resolve('account'));
    sql = compiled.sql;
  } finally {
    await stores.close();
  }
  const db = new Database(path.join(dataDir, 'orgs', `${orgId}.db`), { readonly: true });
  db.function(FOLD_FUNCTION, { deterministic: true }, fold);
  const out = fs.createWriteStream(file);
  let n = 0;
  let chunk = '';
  for (const row of db.prepare(sql).iterate('', 1e12)) {
    chunk += JSON.stringify(row) + '\n';
    if (++n % 2000 === 0) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((r) => out.on('finish', () => r()));
  db.close();
  return n;
}

async function main(): Promise<void> {
  const count = Number(opts.accounts);
  const { dataDir, orgId, token } = cliDataSet(`export-${count}`, count, opts.fresh);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-export-'));
  const rounds = Number(opts.rounds);
  const figures: Record<string, number[]> = { direct: [], csv: [], ndjson: [], http: [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      let rows = 0;
      figures.direct!.push(await timed(async () => (rows = await direct(dataDir, orgId, path.join(tmp, 'direct.ndjson')))));
      for (const format of ['csv', 'ndjson'] as const) {
        const file = path.join(tmp, `accounts.${format}`);
        let summary: Record<string, unknown> = {};
        figures[format]!.push(await timed(() => (summary = orchardCli(dataDir, ['export', '--org', orgId, '--object', 'account', '--format', format, '--out', file]))));
        if (summary.records !== count || rows !== count) throw new Error(`exported ${String(summary.records)} (direct ${rows}) of ${count}`);
        console.log(`round ${round}: ${format} ${figures[format]!.at(-1)!.toFixed(1)} s, ${(fs.statSync(file).size / 1048576).toFixed(0)} MiB`);
      }
      console.log(`round ${round}: direct ${figures.direct!.at(-1)!.toFixed(1)} s`);
      if (opts.http) {
        const server = await startOrchard(dataDir, { requestTimeoutMs: 600_000 });
        try {
          let bytes = 0;
          figures.http!.push(await timed(async () => {
            const res = await fetch(`${server.url}/api/record/account/export?format=ndjson`, { headers: { tokenid: token } });
            if (res.status !== 200 || !res.body) throw new Error(`HTTP export answered ${res.status}`);
            for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
          }));
          console.log(`round ${round}: HTTP ndjson ${figures.http!.at(-1)!.toFixed(1)} s, ${(bytes / 1048576).toFixed(0)} MiB`);
        } finally {
          await server.close();
        }
      }
    }
    const d = median(figures.direct!);
    console.log(`\n${count.toLocaleString('en-US')} accounts, medians of ${rounds} rounds:`);
    console.log(`  direct (anchor)        ${d.toFixed(1)} s`);
    for (const k of ['csv', 'ndjson', 'http'] as const) {
      if (figures[k]!.length === 0) continue;
      const m = median(figures[k]!);
      console.log(`  ${(k === 'http' ? 'GET …/export ndjson' : `orchard export ${k}`).padEnd(22)} ${m.toFixed(1)} s (${Math.round(count / m).toLocaleString('en-US')} records/s), ${(m / d).toFixed(2)} × the anchor`);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
