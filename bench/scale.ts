// GET by id and query (a) — equality on an indexed field, sort, a page of 50 — on SQLite beside
// PostgreSQL + Redis, in one run: one PostgreSQL process as deployed (PG_CACHE on: token identities
// and definitions kept in memory, docs/scaling.md), one with PG_CACHE=off (read on every request),
// and two processes at once. The SQLite path is the anchor of the PostgreSQL one: goal, a GET on
// PostgreSQL at 0.5 of it or more. Same data in both stores (`--accounts` accounts made by the admin
// seed), cached under .bench-data/ (SQLite) and in DATABASE_SCHEMA `orchbench` (PostgreSQL); --fresh
// seeds again. Needs DATABASE_URL; with REDIS_URL the PostgreSQL processes count their limits in
// Redis, as a deployment would.
//
// Throughput: wrk (one thread), --connections connections for --duration seconds, the targets' order
// rotating by round; two processes are loaded at once, half the connections each, and their rates
// summed. Latency: --samples sequential requests on one connection with the lean client of
// http-client.ts after 2 s of warm-up, median, of GET by id and of query (a). On the 2-core machine
// PostgreSQL, Redis, the API processes and wrk share the cores, so the two-process figure shows the
// cost of coordination more than a gain: read it as "no loss", not as scaling.
//
// `--versus DIR` adds another build's PostgreSQL process (DIR holds its own dist/ and node_modules)
// on the same data: its schema must be one this build's migrations made (a build of this tree).
//
// Usage: node dist/bench/scale.js [--accounts 100000] [--duration 5] [--rounds 5] [--connections 32]
//   [--samples 201] [--fresh] [--versus DIR]

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig, type Config, type ConfigOverrides } from '../src/config.js';
import { openStores } from '../src/stores.js';
import { medianRoundTrip } from './http-client.js';
import { announceAndServe, failures, formatRate, loadAverage, median, runLoad, serveInChild, type LoadRequest, type ServedTarget } from './lib.js';
import { BENCH_DAILY_CAP, checkIds, pickIds, startAnchor, startOrchard, wholeOption } from './orchard-target.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SCRIPT), '../..');
const PG_SCHEMA = 'orchbench';

const { values: opts } = parseArgs({
  options: {
    serve: { type: 'string' },
    'data-dir': { type: 'string' },
    accounts: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    samples: { type: 'string', default: '201' },
    fresh: { type: 'boolean', default: false },
    versus: { type: 'string' },
  },
});

const QUERY_A = { objecttype: 1, fields: 'accountid,accountname,emailaddress1,telephone1,statecode,createdon,ownername', query: '(statecode = 1)', sort_by: 'createdon', sort_type: 'desc', page_size: 50 };

type Store = 'sqlite' | 'postgres' | 'postgres-uncached';

/** The configuration of a bench server on `store`. */
function configOf(store: Store, dataDir: string): ConfigOverrides {
  if (store === 'sqlite') return { databaseUrl: undefined, redisUrl: undefined };
  return { databaseUrl: process.env.DATABASE_URL, databaseSchema: PG_SCHEMA, redisUrl: process.env.REDIS_URL || undefined, dataDir, pgCache: store === 'postgres' };
}

/** An organization of `count` accounts on `store`, made once and cached; its token. */
async function dataSet(store: 'sqlite' | 'postgres', count: number): Promise<{ dataDir: string; token: string }> {
  const dataDir = path.join(ROOT, '.bench-data', `scale-${store}-${count}`);
  const marker = path.join(dataDir, 'bench.json');
  const config = loadConfig({}, { dataDir, logLevel: 'silent', ...configOf(store, dataDir) });
  if (!opts.fresh && fs.existsSync(marker)) {
    const set = JSON.parse(fs.readFileSync(marker, 'utf8')) as { orgId: string; token: string };
    const stores = openStores(config);
    const found = await stores.control.getOrganization(set.orgId).finally(() => stores.close());
    if (found) return { dataDir, token: set.token };
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  if (store === 'postgres') {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname = $1 OR nspname LIKE $1 || '\\_org\\_%'", [PG_SCHEMA]);
    for (const r of rows) await client.query(`DROP SCHEMA "${r.nspname}" CASCADE`);
    await client.end();
  }
  const stores = openStores(config);
  try {
    const started = Date.now();
    const { org, token } = await stores.admin.createOrganization({ name: 'Bench', plan: 'enterprise', email: 'bench@example.com', minuteLimit: 1_000_000_000 });
    await stores.admin.seed({ orgId: org.id, object: 'account', count, seed: 1 });
    console.log(`Seeded ${count.toLocaleString('en-US')} accounts on ${store} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    fs.writeFileSync(marker, JSON.stringify({ orgId: org.id, token }));
    return { dataDir, token };
  } finally {
    await stores.close();
  }
}

if (opts.serve) {
  const dataDir = opts['data-dir']!;
  const server = opts.serve === 'anchor'
    ? await startAnchor()
    : await startOrchard(dataDir, { ...configOf(opts.serve as Store, dataDir), dailyCap: BENCH_DAILY_CAP });
  announceAndServe(server.url, server.close);
} else {
  await main();
}

interface Target {
  readonly name: string;
  readonly servers: ServedTarget[];
  readonly token: string;
  readonly ids: string[];
}

/** req/s of `requests` spread over the target's processes at once (connections split between them). */
async function throughput(t: Target, requests: (t: Target) => LoadRequest[], connections: number, duration: number): Promise<number> {
  const each = Math.max(1, Math.floor(connections / t.servers.length));
  const results = await Promise.all(t.servers.map((s) => runLoad({
    url: s.url, connections: each, duration, headers: { tokenid: t.token, 'content-type': 'application/json' }, requests: requests(t),
  })));
  const failed = results.reduce((n, r) => n + failures(r), 0);
  if (failed > 0) throw new Error(`${t.name}: ${failed} requests failed; not reporting figures of errors.`);
  return results.reduce((n, r) => n + r.requests.total / r.duration, 0);
}

/** Median ms of `req`, sequential on one connection to the first process, with the lean client after 2 s of warm-up. */
function latency(t: Target, req: { method: string; path: string; body?: string }, samples: number): Promise<number> {
  return medianRoundTrip(t.servers[0]!.url, { ...req, headers: { tokenid: t.token, 'content-type': 'application/json' } }, samples, 2000);
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) {
    console.error('bench/scale needs DATABASE_URL (and, for the processes as deployed, REDIS_URL).');
    process.exit(2);
  }
  const accounts = wholeOption(opts, 'accounts', 1);
  const duration = wholeOption(opts, 'duration', 1);
  const rounds = wholeOption(opts, 'rounds', 1);
  const connections = wholeOption(opts, 'connections', 2);
  const samples = wholeOption(opts, 'samples', 1);
  const versus = opts.versus ? path.join(path.resolve(opts.versus), 'dist', 'bench', 'scale.js') : undefined;
  if (versus && !fs.existsSync(versus)) throw new Error(`--versus: no ${versus}; build that checkout first.`);

  const sqlite = await dataSet('sqlite', accounts);
  const postgres = await dataSet('postgres', accounts);
  const serve = (name: string, store: Store, dataDir: string, script = SCRIPT) => serveInChild(name, script, ['--serve', store, '--data-dir', dataDir]);
  const targets: Target[] = [];
  const kinds: Array<[string, Store, { dataDir: string; token: string }, number, string?]> = [
    ['sqlite', 'sqlite', sqlite, 1],
    ['postgres', 'postgres', postgres, 1],
    ['postgres, PG_CACHE=off', 'postgres-uncached', postgres, 1],
    ['postgres, 2 processes', 'postgres', postgres, 2],
    ...(versus ? [['postgres, --versus', 'postgres', postgres, 1, versus] as [string, Store, { dataDir: string; token: string }, number, string]] : []),
  ];
  for (const [name, store, set, n, script] of kinds) {
    const servers: ServedTarget[] = [];
    for (let i = 0; i < n; i++) servers.push(await serve(`${name} #${i + 1}`, store, set.dataDir, script));
    const ids = await pickIds(servers[0]!.url, set.token, accounts, 100);
    for (const s of servers) await checkIds(s.url, set.token, ids.slice(0, 5));
    targets.push({ name, servers, token: set.token, ids });
  }

  const getById = (t: Target): LoadRequest[] => t.ids.map((id) => ({ path: `/api/record/account/${id}` }));
  const queryA = (): LoadRequest[] => [{ method: 'POST', path: '/api/query', body: JSON.stringify(QUERY_A) }];
  console.log(`${accounts.toLocaleString('en-US')} accounts; wrk, ${connections} connections, ${rounds} rounds of ${duration} s, the targets' order rotating; load average ${loadAverage()} at the start`);
  const rates: Record<string, { get: number[]; query: number[] }> = {};
  for (let round = 1; round <= rounds; round++) {
    const shift = (round - 1) % targets.length;
    for (const t of [...targets.slice(shift), ...targets.slice(0, shift)]) {
      const r = (rates[t.name] ??= { get: [], query: [] });
      r.get.push(await throughput(t, getById, connections, duration));
      r.query.push(await throughput(t, queryA, connections, duration));
    }
    console.log(`round ${round}: ${targets.map((t) => `${t.name}: GET ${formatRate(rates[t.name]!.get.at(-1)!).trim()}, query ${formatRate(rates[t.name]!.query.at(-1)!).trim()}`).join('; ')}`);
  }
  const latencies = new Map<string, { get: number; query: number }>();
  for (const t of targets) {
    latencies.set(t.name, {
      get: await latency(t, { method: 'GET', path: `/api/record/account/${t.ids[0]}` }, samples),
      query: await latency(t, { method: 'POST', path: '/api/query', body: JSON.stringify(QUERY_A) }, samples),
    });
  }

  const sqliteGet = median(rates.sqlite!.get);
  console.log(`\nMedians of ${rounds} rounds; load average ${loadAverage()} at the end.\n`);
  console.log('| target | GET by id req/s | ratio to SQLite | GET median ms (1 connection) | query (a) req/s | query (a) median ms |');
  console.log('|---|---|---|---|---|---|');
  for (const t of targets) {
    const g = median(rates[t.name]!.get);
    const l = latencies.get(t.name)!;
    console.log(`| ${t.name} | ${formatRate(g).trim()} | ${(g / sqliteGet).toFixed(2)} | ${l.get.toFixed(2)} | ${formatRate(median(rates[t.name]!.query)).trim()} | ${l.query.toFixed(2)} |`);
  }
  const ratio = median(rates.postgres!.get) / sqliteGet;
  console.log(`\nGET by id, PostgreSQL / SQLite: ${ratio.toFixed(2)} — goal ≥ 0.5: ${ratio >= 0.5 ? 'MET' : 'NOT MET'}`);
  const perRound = rates.postgres!.get.map((g, i) => g / rates['postgres, PG_CACHE=off']!.get[i]!);
  console.log(`PG_CACHE on / off, GET req/s by round: ${perRound.map((r) => `×${r.toFixed(2)}`).join(' ')} (median ×${median(perRound).toFixed(2)})`);
  if (versus) {
    const vs = rates.postgres!.get.map((g, i) => g / rates['postgres, --versus']!.get[i]!);
    console.log(`This build / --versus, GET req/s by round: ${vs.map((r) => `×${r.toFixed(2)}`).join(' ')} (median ×${median(vs).toFixed(2)})`);
  }
  for (const s of targets.flatMap((t) => t.servers)) await s.stop();
}
