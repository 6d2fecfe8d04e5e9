// Throughput of two reads beside what a user would pick instead and beside the practical limit, all
// in the same run, each server in its own process, loaded in turn by wrk (bench/lib.ts):
//
// - get: `GET /api/record/account/{id}` with a token, over --ids account ids spread over the table;
// - page: a filtered, sorted page of 50 records with every field, `POST /api/query` of
//   `(statecode = 1)` newest first with fields '*' (on json-server, `GET /account?statecode=1&
//   _sort=createdon&_order=desc&_limit=50`, which also gives every field).
//
// Targets:
// - limit (the practical limit): a bare Fastify route reading the same account with one
//   better-sqlite3 primary-key lookup on the account table (for the page, one statement: the same
//   filter, sort and page, every column of the table) and sending the envelope Orchard sends, with
//   Orchard's header fields. No token, limits, roles, derived names or hooks: what Orchard adds to
//   the read is the gap between the two (goal: Orchard ≥ 0.9 of it on get).
// - orchard: the server as deployed (limits on, the day cap lifted so nothing is refused).
// - json-server: json-server 0.17 (a devDependency) on the same accounts, every field as Orchard's
//   GET returns them, keyed by accountid, with its defaults but its request log (goal on page:
//   Orchard ≥ 15 × json-server).
// - with --with: anchor (a bare Fastify hello-world), replay (Fastify sending one of Orchard's GET
//   replies, the same body and header fields, from memory: the most any server could reach with this
//   reply here), floor (a bare Fastify route doing Orchard's store work for the GET and nothing else:
//   the token's identity, its digest known; the schema check; the read with its six name joins; the
//   reply text). The floor's store work is also timed in a loop of its own, without HTTP.
//
// Why child processes and wrk: a JavaScript load generator is itself a busy program; sharing the
// server's event loop or the machine's two cores it would take a share that depends on how cheap each
// reply is, taxing a fast target and a slow one differently. wrk (C, one thread by default) takes one
// core and leaves the server under load the other; the servers not under load idle. The targets'
// order rotates from round to round, so drift on a shared, noisy machine hits them alike, and medians
// (not means) discount a disturbed round. `--profile` (node --cpu-prof in every child; profiles kept
// under the printed data dir) reports CPU µs per request of each server, the steadier comparison on a
// noisy machine.
//
// `--versus DIR` compares this build with another (DIR: a checkout or copy holding its own built
// dist/ and node_modules): its Orchard (and, with --with floor, its floor) is loaded in the same
// rounds on a copy of the same data, and the per-round ratios and their medians are printed.
//
// Usage: node dist/bench/get-record.js [--rounds 5] [--duration 5] [--warmup 2] [--connections 32]
//   [--threads 1] [--accounts 10000] [--ids 100] [--what get,page] [--with anchor,replay,floor]
//   [--only limit,orchard,json-server] [--profile] [--versus DIR]
// Latency percentiles are wrk's; the load average of the machine is printed at the start and the end.
// Exits 0 whatever the ratios (they are measurements) but 1 if any request failed (non-2xx, socket
// error or timeout), since then the figures would measure errors.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import {
  announceAndServe, failures, formatMs, formatRate, loadAverage, median, oneRequest, processCpuMicros, runLoad, serveInChild, summarizeCpuProfiles,
  type LoadRequest, type LoadResult,
} from './lib.js';
import { hashToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { okRecordPageText } from '../src/http/envelope.js';
import { etagOfText } from '../src/service/etags.js';
import { openStores, type Stores } from '../src/stores.js';
import { GET_BY_ID_OPTIONS, checkIds, pickIds, seedAccounts, startAnchor, startOrchard, wholeOption } from './orchard-target.js';

const GOAL_GET = 0.9;
const GOAL_PAGE = 15;
const SCRIPT = fileURLToPath(import.meta.url);

const { values: opts } = parseArgs({
  options: {
    ...GET_BY_ID_OPTIONS,
    rounds: { type: 'string', default: '5' },
    what: { type: 'string', default: 'get,page' },
    with: { type: 'string', default: '' },
    /** Leaves out the main targets not named (e.g. `--only orchard,limit` while profiling). */
    only: { type: 'string' },
    versus: { type: 'string' },
    /** In a child of a --versus run: time the store work on --data-dir and print the µs. */
    'time-store-work': { type: 'boolean', default: false },
  },
});

const positive = (name: keyof typeof opts): number => wholeOption(opts, name, 1);

const EXTRAS = ['anchor', 'replay', 'floor'] as const;
type Target = 'limit' | 'orchard' | 'json-server' | (typeof EXTRAS)[number] | 'versus' | 'versus-floor';
const WORKLOADS = ['get', 'page'] as const;
type Workload = (typeof WORKLOADS)[number];

/** The page workload: Orchard's query, and the same page as json-server's query string. */
const PAGE_QUERY = { objecttype: 1, fields: '*', query: '(statecode = 1)', sort_by: 'createdon', sort_type: 'desc', page_size: 50 };
const JSON_SERVER_PAGE = '/account?statecode=1&_sort=createdon&_order=desc&_limit=50';
/**
 * The limit's page: the same filter, sort and page in one statement on the table, walking the
 * createdon index (the unary + keeps SQLite from reading statecode's index and sorting its matches).
 */
const LIMIT_PAGE_SQL = 'SELECT * FROM account WHERE +statecode = 1 ORDER BY createdon DESC, accountid DESC LIMIT 50';

interface Round {
  readonly workload: Workload;
  readonly target: Target;
  readonly round: number;
  readonly result: LoadResult;
  /** CPU µs the server process used per request answered (every thread; processCpuMicros). */
  readonly cpu: number;
}

function printRound(r: Round): void {
  const { requests, latency } = r.result;
  console.log(`  ${r.workload.padEnd(4)} ${r.target.padEnd(12)} round ${r.round}  ${formatRate(requests.average)} req/s  ${r.cpu.toFixed(0).padStart(5)} µs CPU/req  mean ${formatMs(latency.average)}  p50 ${formatMs(latency.p50)}  p99 ${formatMs(latency.p99)}  ${requests.total.toLocaleString('en-US')} requests${failures(r.result) ? `  FAILED ${failures(r.result)}` : ''}`);
}

/** What the replay target sends: one of Orchard's GET replies, its body and header fields. */
interface CapturedReply {
  readonly headers: Record<string, string>;
  readonly body: string;
}

const REPLAYED_HEADERS = ['content-type', 'x-request-id', 'ratelimit-policy', 'ratelimit'];

/** Keeps one of Orchard's GET replies in `dataDir` for the replay target. */
async function captureReply(url: string, token: string, id: string, dataDir: string): Promise<void> {
  const res = await fetch(`${url}/api/record/account/${id}`, { headers: { tokenid: token } });
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) headers[name] = res.headers.get(name) ?? '';
  fs.writeFileSync(path.join(dataDir, 'replay.json'), JSON.stringify({ headers, body: await res.text() } satisfies CapturedReply));
}

/**
 * The replay target: Fastify answering GET /api/record/account/:id with the captured reply, the
 * same bytes and header fields Orchard sends, from memory. Its rate is the most any server could
 * reach with this reply here, without reading a token, counting limits or touching a database.
 */
async function startReplay(dataDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const { headers, body } = JSON.parse(fs.readFileSync(path.join(dataDir, 'replay.json'), 'utf8')) as CapturedReply;
  const app = Fastify({ logger: false });
  app.get('/api/record/:obj/:id', async (_request, reply) => {
    reply.headers(headers);
    return body;
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

/** Where the bench keeps the digest of its token, for the floor (which has no auth hook of its own). */
const DIGEST_FILE = 'token-digest';

/** Where the bench keeps the account ids requested, for a --versus build timing its store work. */
const IDS_FILE = 'ids.json';

/** Prefix of the line of a --time-store-work child. */
const STORE_WORK_PREFIX = 'STORE_WORK_US ';

/** storeWorkUs timed in a child process running `script`, this build's or the --versus build's. */
function childStoreWorkUs(script: string, dataDir: string): number {
  const out = execFileSync(process.execPath, [script, '--time-store-work', '--data-dir', dataDir], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.startsWith(STORE_WORK_PREFIX));
  if (!line) throw new Error(`${script} printed no store work: ${out.slice(0, 200)}`);
  return Number(line.slice(STORE_WORK_PREFIX.length));
}

/** The ratios a/b of the rounds, and their median, as printed. */
function roundRatios(a: readonly number[], b: readonly number[]): string {
  const ratios = a.map((x, i) => x / b[i]!);
  return `×${median(ratios).toFixed(3)} median of the rounds' ratios (${ratios.map((r) => `×${r.toFixed(3)}`).join(' ')})`;
}

/**
 * Orchard's store work for GET /api/record/{obj}/{id}, as the server does it once the token's
 * digest is known: the identity, the schema check and the object, the record's read, its reply text and ETag.
 */
function storeWork(stores: Stores, digest: string): (ref: string, id: string) => Promise<string> {
  return async (ref, id) => {
    const identity = await stores.control.resolveToken(digest);
    if (!identity) throw new Error('the bench token does not resolve');
    const records = await stores.records.org(identity.org.id);
    const obj = (await records.schema()).resolve(ref);
    const row = await records.get(obj, id);
    if (!row) throw new Error(`no ${ref} has id ${id}`);
    const text = JSON.stringify(row);
    etagOfText(text);
    return okRecordPageText({ PrimaryKey: obj.keyField, PrimaryField: obj.primaryField, Total_Records: 1, Page_Size: 50, Page_Number: 1 }, true, text);
  };
}

/** The floor target: a bare Fastify route doing storeWork, replying with the replay's header fields. */
async function startFloor(dataDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const { headers } = JSON.parse(fs.readFileSync(path.join(dataDir, 'replay.json'), 'utf8')) as CapturedReply;
  const stores = openStores(loadConfig({}, { dataDir, logLevel: 'silent' }));
  const work = storeWork(stores, fs.readFileSync(path.join(dataDir, DIGEST_FILE), 'utf8'));
  const app = Fastify({ logger: false });
  app.get<{ Params: { obj: string; id: string } }>('/api/record/:obj/:id', async (request, reply) => {
    const text = await work(request.params.obj, request.params.id);
    reply.headers(headers);
    return text;
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: async () => {
    await app.close();
    await stores.close();
  } };
}

/**
 * CPU µs of storeWork in a loop of its own in this process, without HTTP: over `ids` in turn, the
 * median of 30 blocks of 2,000 after a warm-up of 20,000. CPU time (user and system, the store's
 * system calls included), not elapsed time: what the machine gives other processes meanwhile is not
 * counted, so a busy machine moves it less.
 */
async function storeWorkUs(dataDir: string, ids: readonly string[]): Promise<number> {
  const stores = openStores(loadConfig({}, { dataDir, logLevel: 'silent' }));
  try {
    const work = storeWork(stores, fs.readFileSync(path.join(dataDir, DIGEST_FILE), 'utf8'));
    let i = 0;
    const one = () => work('account', ids[i++ % ids.length]!);
    for (let n = 0; n < 20_000; n++) await one();
    const blocks: number[] = [];
    for (let b = 0; b < 30; b++) {
      const started = process.cpuUsage();
      for (let n = 0; n < 2_000; n++) await one();
      const spent = process.cpuUsage(started);
      blocks.push((spent.user + spent.system) / 2_000);
    }
    return median(blocks);
  } finally {
    await stores.close();
  }
}

/** Reads the captured reply's header fields, which the limit sends too. */
function capturedHeaders(dataDir: string): Record<string, string> {
  return (JSON.parse(fs.readFileSync(path.join(dataDir, 'replay.json'), 'utf8')) as CapturedReply).headers;
}

/** The one organization file under `dataDir`. */
function orgFileOf(dataDir: string): string {
  const dir = path.join(dataDir, 'orgs');
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.db'));
  if (!file) throw new Error(`no organization file under ${dir}`);
  return path.join(dir, file);
}

/**
 * The practical limit: Fastify reading the account with one primary-key lookup on better-sqlite3
 * (the row as an array, the object built in JavaScript as Orchard builds it) and sending Orchard's
 * envelope with Orchard's header fields; the page, one statement of the same filter, sort and page.
 */
async function startLimit(dataDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const headers = capturedHeaders(dataDir);
  const db = new Database(orgFileOf(dataDir));
  const byId = db.prepare('SELECT * FROM account WHERE accountid = ?').raw(true);
  const page = db.prepare(LIMIT_PAGE_SQL).raw(true);
  const objects = (columns: string[], rows: unknown[][]) => rows.map((row) => {
    const o: Record<string, unknown> = {};
    for (let j = 0; j < columns.length; j++) o[columns[j]!] = row[j];
    return o;
  });
  const idColumns = byId.columns().map((c) => c.name);
  const pageColumns = page.columns().map((c) => c.name);
  const head = { PrimaryKey: 'accountid', PrimaryField: 'accountname', Total_Records: 1, Page_Size: 50, Page_Number: 1 };
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/api/record/account/:id', async (request, reply) => {
    const row = byId.get(request.params.id) as unknown[] | undefined;
    reply.headers(headers);
    if (!row) return reply.code(404).send({ Message: 'not found' });
    return okRecordPageText(head, true, JSON.stringify(objects(idColumns, [row])[0]));
  });
  app.post('/api/query', async (_request, reply) => {
    reply.headers(headers);
    return `{"success":true,"data":{"Data":${JSON.stringify(objects(pageColumns, page.all() as unknown[][]))}},"message":""}`;
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: async () => {
    await app.close();
    db.close();
  } };
}

/** The file json-server serves: `{"account": [every account, every field as Orchard's GET gives it]}`. */
const JSON_SERVER_FILE = 'json-server.json';

async function writeJsonServerData(orchardDir: string, file: string): Promise<number> {
  const stores = openStores(loadConfig({}, { dataDir: orchardDir, logLevel: 'silent' }));
  try {
    const [org] = await stores.control.listOrganizations();
    const records = await stores.records.org(org!.id);
    const obj = (await records.schema()).resolve('account');
    const accounts: unknown[] = [];
    for (let after: string | null = null; ;) {
      const rows = await records.scan(obj, after, 2000);
      if (rows.length === 0) break;
      accounts.push(...rows);
      after = rows.at(-1)![obj.keyField] as string;
    }
    fs.writeFileSync(file, JSON.stringify({ account: accounts }));
    return accounts.length;
  } finally {
    await stores.close();
  }
}

interface JsonServer {
  create(): { use(handler: unknown): void; listen(port: number, host: string, ready: () => void): import('node:http').Server };
  router(file: string): { db: { _: { id: string } } };
  defaults(options: { logger: boolean }): unknown;
}

/**
 * json-server 0.17 as its documentation runs it (`json-server db.json --id accountid`), from its
 * package, with its defaults but the request log (--quiet): each request logged to the terminal
 * would be its cost, not the read's.
 */
async function startJsonServer(dataDir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const jsonServer = createRequire(import.meta.url)('json-server') as JsonServer;
  const app = jsonServer.create();
  const router = jsonServer.router(path.join(dataDir, JSON_SERVER_FILE));
  router.db._.id = 'accountid';
  app.use(jsonServer.defaults({ logger: false }));
  app.use(router);
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  }) };
}

/** Fails fast, before any load, when a target does not answer the workload as it should. */
async function checkTarget(target: Target, workload: Workload, url: string, request: LoadRequest): Promise<void> {
  const { status, body: text } = await oneRequest(url, request);
  const res = { status };
  const fail = (why: string) => new Error(`${target} answered ${workload} (${request.path}) with ${res.status}: ${why} ${text.slice(0, 200)}; not benchmarking errors.`);
  if (res.status !== 200) throw fail('not 200');
  const body = JSON.parse(text) as { data?: { Record?: { accountid?: string }; Data?: unknown[] }; accountid?: string } | unknown[];
  if (workload === 'page') {
    const rows = Array.isArray(body) ? body : body.data?.Data;
    if (!Array.isArray(rows) || rows.length !== 50 || rows.some((r) => (r as { statecode?: unknown }).statecode !== 1)) throw fail('not 50 records of statecode 1');
  } else if (target !== 'anchor' && !Array.isArray(body)) {
    const id = request.path.split('/').at(-1);
    if ((body.data?.Record?.accountid ?? body.accountid) !== id) throw fail(`not the account ${id}`);
  }
}

async function drive(): Promise<number> {
  const rounds = positive('rounds');
  const duration = positive('duration');
  const warmup = wholeOption(opts, 'warmup', 0);
  const connections = positive('connections');
  const threads = positive('threads');
  const accountCount = positive('accounts');
  const idCount = positive('ids');
  const workloads = opts.what.split(',').filter(Boolean) as Workload[];
  for (const w of workloads) if (!WORKLOADS.includes(w)) throw new Error(`--what takes ${WORKLOADS.join(', ')}; got '${w}'`);
  const extras = opts.with.split(',').filter(Boolean) as Target[];
  for (const e of extras) if (!(EXTRAS as readonly string[]).includes(e)) throw new Error(`--with takes ${EXTRAS.join(', ')}; got '${e}'`);

  const versus = opts.versus ? path.join(path.resolve(opts.versus), 'dist', 'bench', 'get-record.js') : undefined;
  if (versus && !fs.existsSync(versus)) throw new Error(`--versus: no ${versus}; build that checkout first.`);

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-'));
  // Each server has its own copy of the data: two processes on one set of SQLite files make each
  // other's reads cost more or less from run to run (shared WAL and lock state).
  const dirOf = (t: Target) => path.join(root, t === 'versus-floor' ? 'versus' : t === 'replay' || t === 'anchor' ? 'orchard' : t);
  const profileDir = path.join(root, 'profile');
  const targets: Array<{ name: Target; url: string; pid: number | undefined; stop: () => Promise<void> }> = [];
  try {
    const started = Date.now();
    const token = await seedAccounts(dirOf('orchard'), accountCount);
    console.log(`Seeded ${accountCount.toLocaleString('en-US')} accounts in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    const copies: Target[] = ['limit', 'json-server', ...(extras.includes('floor') ? ['floor' as const] : []), ...(versus ? ['versus' as const] : [])];
    for (const t of copies) fs.cpSync(dirOf('orchard'), dirOf(t), { recursive: true });
    console.log(`json-server serves ${(await writeJsonServerData(dirOf('orchard'), path.join(dirOf('json-server'), JSON_SERVER_FILE))).toLocaleString('en-US')} accounts, every field.`);

    const start = async (name: Target): Promise<{ url: string }> => {
      const nodeArgs = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, name)}`] : [];
      const serve = name === 'versus' ? 'orchard' : name === 'versus-floor' ? 'floor' : name;
      const target = await serveInChild(name, name.startsWith('versus') ? versus! : SCRIPT, ['--serve', serve, '--data-dir', dirOf(name)], nodeArgs);
      targets.push({ ...target, name, pid: target.child.pid });
      return target;
    };
    const orchard = await start('orchard');
    const ids = await pickIds(orchard.url, token, accountCount, idCount);
    await checkIds(orchard.url, token, ids);
    await captureReply(orchard.url, token, ids[0]!, dirOf('orchard'));
    for (const t of copies) {
      fs.copyFileSync(path.join(dirOf('orchard'), 'replay.json'), path.join(dirOf(t), 'replay.json'));
      fs.writeFileSync(path.join(dirOf(t), DIGEST_FILE), hashToken(token));
      fs.writeFileSync(path.join(dirOf(t), IDS_FILE), JSON.stringify(ids));
    }
    const loaded: Record<Workload, Target[]> = { get: ['limit', 'orchard', 'json-server', ...extras], page: ['limit', 'orchard', 'json-server'] };
    if (opts.only) {
      const only = opts.only.split(',');
      for (const w of WORKLOADS) loaded[w] = loaded[w].filter((t) => only.includes(t) || (extras as string[]).includes(t));
    }
    if (versus) {
      loaded.get.push('versus', ...(extras.includes('floor') ? ['versus-floor' as const] : []));
      loaded.page.push('versus');
    }
    const urls = { orchard: orchard.url } as Record<Target, string>;
    for (const t of new Set(workloads.flatMap((w) => loaded[w]))) if (t !== 'orchard') urls[t] = (await start(t)).url;

    if (extras.includes('floor')) {
      console.log(`Orchard's store work for one GET (identity, schema check, read, reply text) in a loop of its own, without HTTP: ${(await storeWorkUs(dirOf('floor'), ids)).toFixed(1)} µs.`);
      if (versus) {
        const mine: number[] = [];
        const theirs: number[] = [];
        for (let round = 1; round <= rounds; round++) {
          const pair = [() => mine.push(childStoreWorkUs(SCRIPT, dirOf('floor'))), () => theirs.push(childStoreWorkUs(versus, dirOf('versus')))];
          for (const run of round % 2 === 1 ? pair : pair.reverse()) run();
        }
        console.log(`The same store work, this build then --versus (${opts.versus}), each round in child processes: ${mine.map((m, i) => `${m.toFixed(1)} / ${theirs[i]!.toFixed(1)}`).join(', ')} µs`);
        console.log(`  this build / --versus: ${roundRatios(mine, theirs)}; medians ${median(mine).toFixed(1)} / ${median(theirs).toFixed(1)} µs`);
      }
    }

    const withToken = { tokenid: token };
    const requestsOf = (workload: Workload, target: Target): LoadRequest[] => {
      if (workload === 'page') {
        return target === 'json-server' ? [{ path: JSON_SERVER_PAGE }]
          : [{ method: 'POST', path: '/api/query', headers: { ...withToken, 'content-type': 'application/json' }, body: JSON.stringify(PAGE_QUERY) }];
      }
      if (target === 'anchor') return [{ path: '/' }];
      if (target === 'json-server') return ids.map((id) => ({ path: `/account/${id}` }));
      return ids.map((id) => ({ path: `/api/record/account/${id}`, headers: withToken }));
    };
    for (const w of workloads) for (const t of loaded[w]) await checkTarget(t, w, urls[t], requestsOf(w, t)[0]!);

    console.log(`Requests by id rotate over ${ids.length} account ids spread over the table.`);
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${loadAverage()} at the start`);
    console.log(`Servers in child processes; wrk: ${threads} thread(s), ${connections} connections, ${rounds} rounds of ${duration} s per target and workload, each after a ${warmup} s warm-up; the targets' order rotates by round.\n`);

    const results: Round[] = [];
    let failed = 0;
    const served = {} as Record<Target, number>;
    const tally = (target: Target, r: LoadResult) => {
      served[target] = (served[target] ?? 0) + r.requests.total;
      failed += failures(r);
    };
    for (let round = 1; round <= rounds; round++) {
      for (const workload of workloads) {
        const list = loaded[workload];
        const shift = (round - 1) % list.length;
        for (const target of [...list.slice(shift), ...list.slice(0, shift)]) {
          const load = { url: urls[target], connections, threads, requests: requestsOf(workload, target) };
          if (warmup > 0) tally(target, await runLoad({ ...load, duration: warmup }));
          const pid = targets.find((t) => t.name === target)!.pid;
          const cpuBefore = processCpuMicros(pid);
          const result = await runLoad({ ...load, duration });
          const cpu = (processCpuMicros(pid) - cpuBefore) / result.requests.total;
          tally(target, result);
          results.push({ workload, target, round, result, cpu });
          printRound(results.at(-1)!);
        }
      }
    }

    const rates = (workload: Workload, target: Target) => results.filter((r) => r.workload === workload && r.target === target).map((r) => r.result.requests.average);
    const medianOf = (workload: Workload, target: Target) => median(rates(workload, target));
    const cpus = (workload: Workload, target: Target) => results.filter((r) => r.workload === workload && r.target === target).map((r) => r.cpu);
    const cpuOf = (workload: Workload, target: Target) => median(cpus(workload, target));
    const ratio = (workload: Workload, a: Target, b: Target) => medianOf(workload, a) / medianOf(workload, b);
    console.log(`\nLoad average ${loadAverage()} at the end.`);
    for (const workload of workloads) {
      console.log(`\n${workload === 'get' ? 'GET by id' : 'Filtered, sorted page of 50, every field'} — median req/s: ${loaded[workload].map((t) => `${t} ${formatRate(medianOf(workload, t)).trim()}`).join(', ')}`);
      console.log(`  median CPU µs per request: ${loaded[workload].map((t) => `${t} ${cpuOf(workload, t).toFixed(1)}`).join(', ')}`);
      if (workload === 'get') {
        const r = ratio('get', 'orchard', 'limit');
        console.log(`  orchard/limit ${r.toFixed(3)} — goal ≥ ${GOAL_GET}: ${r >= GOAL_GET ? 'MET' : 'NOT MET'}; orchard/json-server ${ratio('get', 'orchard', 'json-server').toFixed(2)}; json-server/limit ${ratio('get', 'json-server', 'limit').toFixed(3)}`);
        for (const e of extras) console.log(`  ${e}/limit ${ratio('get', e, 'limit').toFixed(3)}`);
      } else {
        const r = ratio('page', 'orchard', 'json-server');
        console.log(`  orchard/json-server ${r.toFixed(2)} — goal ≥ ${GOAL_PAGE}: ${r >= GOAL_PAGE ? 'MET' : 'NOT MET'}; orchard/limit ${ratio('page', 'orchard', 'limit').toFixed(3)}`);
      }
      if (versus) {
        const pairs: Array<[Target, Target]> = [['orchard', 'versus'], ...(workload === 'get' && extras.includes('floor') ? [['floor', 'versus-floor'] as [Target, Target]] : [])];
        for (const [mine, theirs] of pairs) {
          console.log(`  this build / --versus, ${mine}: ${roundRatios(rates(workload, mine), rates(workload, theirs))}; medians ${formatRate(medianOf(workload, mine)).trim()} / ${formatRate(medianOf(workload, theirs)).trim()} req/s`);
          console.log(`    CPU per request: ${roundRatios(cpus(workload, mine), cpus(workload, theirs))}; medians ${cpuOf(workload, mine).toFixed(1)} / ${cpuOf(workload, theirs).toFixed(1)} µs`);
        }
      }
    }

    for (const t of targets.splice(0)) await t.stop();
    if (opts.profile) {
      // Per-request figures compare the servers; each idled while another was loaded.
      if (workloads.length > 1) console.log('\n(Profiles span both workloads: run with --what get or --what page for per-request figures of one.)');
      for (const target of Object.keys(urls) as Target[]) {
        console.log(`\nCPU profile of the ${target} server (${path.join(profileDir, target)}; warm-ups included):`);
        console.log(summarizeCpuProfiles(path.join(profileDir, target), target === 'orchard' || target === 'versus' ? 30 : 10, served[target]));
      }
    }

    if (failed > 0) {
      console.error(`\n${failed} requests failed; the figures above measured errors.`);
      return 1;
    }
    return 0;
  } finally {
    for (const t of targets) await t.stop().catch(() => {});
    if (!opts.profile) fs.rmSync(root, { recursive: true, force: true });
  }
}

async function serve(kind: string): Promise<void> {
  const dataDir = opts['data-dir'];
  if (kind !== 'anchor' && !dataDir) throw new Error(`--serve ${kind} needs --data-dir`);
  const starters: Record<string, () => Promise<{ url: string; close: () => Promise<void> }>> = {
    anchor: startAnchor,
    replay: () => startReplay(dataDir!),
    floor: () => startFloor(dataDir!),
    limit: () => startLimit(dataDir!),
    'json-server': () => startJsonServer(dataDir!),
    orchard: () => startOrchard(dataDir!),
  };
  const starter = starters[kind];
  if (!starter) throw new Error(`--serve takes ${Object.keys(starters).join(', ')}; got '${kind}'`);
  const { url, close } = await starter();
  announceAndServe(url, close);
}

if (opts['time-store-work']) {
  if (!opts['data-dir']) throw new Error('--time-store-work needs --data-dir');
  const ids = JSON.parse(fs.readFileSync(path.join(opts['data-dir'], IDS_FILE), 'utf8')) as string[];
  console.log(`${STORE_WORK_PREFIX}${await storeWorkUs(opts['data-dir'], ids)}`);
} else if (opts.serve) {
  await serve(opts.serve);
} else {
  process.exitCode = await drive();
}
