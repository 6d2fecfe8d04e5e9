// Throughput of `GET /api/record/account/{id}` (with a token) beside a bare Fastify hello-world
// in the same run, both loaded by autocannon on loopback; prints per-round figures, the median
// req/s of each and the ratio orchard/anchor (goal ≥ 0.5). A third target, the replay, is Fastify
// sending one of Orchard's GET replies (the same body and header fields) from memory: its ratio to
// the anchor is the ceiling of any server answering this request with this reply here, so the gap
// between it and Orchard is Orchard's own work (token, limits, the read, the JSON). A fourth, the
// floor, is a bare Fastify route doing Orchard's store work for the request and nothing else: the
// token's identity (its digest known), the schema check, the record's read and the reply text, sent
// with the replay's header fields. Its ratio is the most a server doing that work could reach here
// with an HTTP layer that cost nothing more than Fastify's; the same work is also timed in a loop
// of its own, without HTTP, before the load.
//
// Why child processes: autocannon is itself a busy JavaScript program. Sharing one event loop
// with the server under test, it would take a share of the server's time that depends on how
// cheap each reply is, so it would tax the fast anchor and the slower Orchard differently and
// skew the ratio. Each server therefore runs in its own process (this file with `--serve
// orchard|anchor`) and the parent only generates load: on the 2-core machine that is one core
// for autocannon, one for the server under load; the other server idles meanwhile. Rounds
// alternate anchor / orchard so drift on a shared, noisy machine hits both alike, and medians
// (not means) discount a disturbed round. `--in-process` runs both servers in this process,
// to show what the separation changes. Even so, on 2 cores the anchor tends to saturate
// autocannon's core before its own, so the ratio flatters Orchard; `--profile` (node
// --cpu-prof in both children; profiles kept under the printed data dir) reports CPU µs per
// request of each server, the steadier comparison on a noisy machine.
//
// `--versus DIR` compares this build with another (DIR: a checkout or copy holding its own built
// dist/ and node_modules): its Orchard and its floor are loaded in the same rounds, on a copy of the
// same data, each next to this build's in an order that alternates by round, and its store work is
// timed in a child process; the per-round ratios and their medians are printed.
//
// Usage: node dist/bench/get-record.js [--rounds 3] [--duration 5] [--warmup 2] [--connections 10]
//   [--pipelining 1] [--accounts 10000] [--ids 100] [--profile] [--in-process] [--versus DIR]
// Latency percentiles come from autocannon's histogram, which has 1 ms resolution (p50 "0 ms"
// means under 1 ms); the mean is derived by Little's law (connections × pipelining / req/s), as
// each connection keeps that many requests in flight.
// Exits 0 whatever the ratio (it is a measurement) but 1 if any request failed (non-2xx, socket
// error or timeout), since then the figures would measure errors.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import Fastify from 'fastify';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  announceAndServe, failures, formatMs, formatRate, median, runLoad, serveInChild, summarizeCpuProfiles,
  type LoadResult,
} from './lib.js';
import { hashToken } from '../src/auth/tokens.js';
import { loadConfig } from '../src/config.js';
import { okRecordPageText } from '../src/http/envelope.js';
import { etagOfText } from '../src/service/etags.js';
import { openStores, type Stores } from '../src/stores.js';
import { GET_BY_ID_OPTIONS, checkIds, pickIds, seedAccounts, startAnchor, startOrchard, wholeOption } from './orchard-target.js';

const GOAL_RATIO = 0.5;
const SCRIPT = fileURLToPath(import.meta.url);

const { values: opts } = parseArgs({
  options: {
    ...GET_BY_ID_OPTIONS,
    'in-process': { type: 'boolean', default: false },
    versus: { type: 'string' },
    /** In a child of a --versus run: time the store work on --data-dir and print the µs. */
    'time-store-work': { type: 'boolean', default: false },
  },
});

const positive = (name: keyof typeof opts): number => wholeOption(opts, name, 1);


type Target = 'anchor' | 'replay' | 'floor' | 'orchard' | 'versus' | 'versus-floor';

interface Round {
  readonly target: Target;
  readonly round: number;
  readonly result: LoadResult;
}

function printRound(r: Round, inFlight: number): void {
  const { requests, latency } = r.result;
  console.log(`  ${r.target.padEnd(8)} round ${r.round}  ${formatRate(requests.average)} req/s  mean ${formatMs((1000 * inFlight) / requests.average)}  p50 ${formatMs(latency.p50)}  p99 ${formatMs(latency.p99)}  ${requests.total.toLocaleString('en-US')} requests${failures(r.result) ? `  FAILED ${failures(r.result)}` : ''}`);
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

async function drive(): Promise<number> {
  const rounds = positive('rounds');
  const duration = positive('duration');
  const warmup = Number(opts.warmup);
  if (!Number.isInteger(warmup) || warmup < 0) throw new Error(`--warmup must be a whole number of seconds, 0 or more; got '${opts.warmup}'.`);
  const connections = positive('connections');
  const pipelining = positive('pipelining');
  const accountCount = positive('accounts');
  const idCount = positive('ids');

  const versus = opts.versus ? path.join(path.resolve(opts.versus), 'dist', 'bench', 'get-record.js') : undefined;
  if (versus && opts['in-process']) throw new Error('--versus runs the other build in child processes; leave out --in-process.');
  if (versus && !fs.existsSync(versus)) throw new Error(`--versus: no ${versus}; build that checkout first.`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-'));
  const versusDir = `${dataDir}-versus`;
  const profileDir = path.join(dataDir, 'profile');
  const targets: Array<{ name: string; url: string; stop: () => Promise<void> }> = [];
  try {
    const started = Date.now();
    const token = await seedAccounts(dataDir, accountCount);
    console.log(`Seeded ${accountCount.toLocaleString('en-US')} accounts in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    // The other build serves a copy, so neither server's writes (limit counters, token use) reach the other.
    if (versus) fs.cpSync(dataDir, versusDir, { recursive: true });

    const start = async (name: Round['target']): Promise<{ url: string; stop: () => Promise<void> }> => {
      let target: { url: string; stop: () => Promise<void> };
      if (opts['in-process']) {
        const { url, close } = name === 'anchor' ? await startAnchor()
          : name === 'replay' ? await startReplay(dataDir) : name === 'floor' ? await startFloor(dataDir)
          : await startOrchard(dataDir);
        target = { url, stop: close };
      } else {
        const nodeArgs = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, name)}`] : [];
        if (name === 'versus' || name === 'versus-floor') {
          target = await serveInChild(name, versus!, ['--serve', name === 'versus' ? 'orchard' : 'floor', '--data-dir', versusDir], nodeArgs);
        } else {
          const args = name === 'anchor' ? ['--serve', 'anchor'] : ['--serve', name, '--data-dir', dataDir];
          target = await serveInChild(name, SCRIPT, args, nodeArgs);
        }
      }
      targets.push({ name, ...target });
      return target;
    };
    const anchor = await start('anchor');
    const orchard = await start('orchard');
    const ids = await pickIds(orchard.url, token, accountCount, idCount);
    await checkIds(orchard.url, token, ids);
    await captureReply(orchard.url, token, ids[0]!, dataDir);
    fs.writeFileSync(path.join(dataDir, DIGEST_FILE), hashToken(token));
    fs.writeFileSync(path.join(dataDir, IDS_FILE), JSON.stringify(ids));
    const workUs = await storeWorkUs(dataDir, ids);
    const replay = await start('replay');
    const floor = await start('floor');
    console.log(`Requests to orchard, the replay and the floor rotate over ${ids.length} account ids spread over the table.`);
    console.log(`Orchard's store work for one GET (identity, schema check, read, reply text) in a loop of its own, without HTTP: ${workUs.toFixed(1)} µs.`);
    const rivals: Partial<Record<Target, { url: string }>> = {};
    if (versus) {
      for (const file of ['replay.json', DIGEST_FILE, IDS_FILE]) fs.copyFileSync(path.join(dataDir, file), path.join(versusDir, file));
      // Both builds in child processes, alternating which goes first.
      const mine: number[] = [];
      const theirs: number[] = [];
      for (let round = 1; round <= rounds; round++) {
        const pair = [() => mine.push(childStoreWorkUs(SCRIPT, dataDir)), () => theirs.push(childStoreWorkUs(versus, versusDir))];
        for (const run of round % 2 === 1 ? pair : pair.reverse()) run();
      }
      console.log(`The same store work, this build then --versus (${opts.versus}), each round in child processes: ${mine.map((m, i) => `${m.toFixed(1)} / ${theirs[i]!.toFixed(1)}`).join(', ')} µs`);
      console.log(`  this build / --versus: ${roundRatios(mine, theirs)}; medians ${median(mine).toFixed(1)} / ${median(theirs).toFixed(1)} µs`);
      rivals.versus = await start('versus');
      rivals['versus-floor'] = await start('versus-floor');
    }

    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`Servers ${opts['in-process'] ? 'in this process (--in-process)' : 'in child processes'}; autocannon: ${connections} connections, pipelining ${pipelining}, ${rounds} rounds of ${duration} s, each after a ${warmup} s warm-up.\n`);

    const common = { connections, pipelining };
    const gets = { ...common, requests: ids.map((id) => ({ path: `/api/record/account/${id}`, headers: { tokenid: token } })) };
    const load = {
      anchor: { url: anchor.url, ...common },
      orchard: { url: orchard.url, ...gets },
      replay: { url: replay.url, ...gets },
      floor: { url: floor.url, ...gets },
      versus: { url: rivals.versus?.url ?? '', ...gets },
      'versus-floor': { url: rivals['versus-floor']?.url ?? '', ...gets },
    };
    const results: Round[] = [];
    let failed = 0;
    const statusCodes = new Map<string, number>();
    const served = { anchor: 0, replay: 0, floor: 0, orchard: 0, versus: 0, 'versus-floor': 0 };
    const tally = (target: Round['target'], r: LoadResult) => {
      served[target] += r.requests.total;
      failed += failures(r);
      for (const [code, { count }] of Object.entries(r.statusCodeStats)) statusCodes.set(code, (statusCodes.get(code) ?? 0) + count);
    };
    for (let round = 1; round <= rounds; round++) {
      // Each build's target next to the other's, first in turn, so drift within a round hits both alike.
      const pairs: Target[] = !versus ? ['floor', 'orchard'] : round % 2 === 1 ? ['floor', 'versus-floor', 'orchard', 'versus'] : ['versus-floor', 'floor', 'versus', 'orchard'];
      for (const target of ['anchor', 'replay', ...pairs] as const) {
        if (warmup > 0) tally(target, await runLoad({ ...load[target], duration: warmup }));
        const result = await runLoad({ ...load[target], duration });
        tally(target, result);
        results.push({ target, round, result });
        printRound(results.at(-1)!, connections * pipelining);
      }
    }

    const medianOf = (target: Round['target']) => median(results.filter((r) => r.target === target).map((r) => r.result.requests.average));
    const anchorRate = medianOf('anchor');
    const orchardRate = medianOf('orchard');
    const replayRate = medianOf('replay');
    const floorRate = medianOf('floor');
    const ratio = orchardRate / anchorRate;
    console.log(`\nMedian req/s: anchor ${formatRate(anchorRate).trim()}, replay ${formatRate(replayRate).trim()}, floor ${formatRate(floorRate).trim()}, orchard ${formatRate(orchardRate).trim()}`);
    console.log(`Ratio orchard/anchor: ${ratio.toFixed(3)} — goal ≥ ${GOAL_RATIO}: ${ratio >= GOAL_RATIO ? 'MET' : 'NOT MET'}`);
    console.log(`Ratio replay/anchor: ${(replayRate / anchorRate).toFixed(3)} — the ceiling: Fastify sending Orchard's reply (its body and header fields) from memory, no token, limits or database`);
    console.log(`Ratio floor/anchor: ${(floorRate / anchorRate).toFixed(3)} — a bare Fastify route doing Orchard's store work and nothing else: the most a server doing that work could reach here`);
    if (versus) {
      for (const [mine, theirs] of [['orchard', 'versus'], ['floor', 'versus-floor']] as const) {
        const rates = (target: Target) => results.filter((r) => r.target === target).map((r) => r.result.requests.average);
        console.log(`This build / --versus, ${mine}: ${roundRatios(rates(mine), rates(theirs))}; medians ${formatRate(medianOf(mine)).trim()} / ${formatRate(medianOf(theirs)).trim()} req/s`);
      }
    }

    for (const t of targets.splice(0)) await t.stop();
    if (opts.profile && !opts['in-process']) {
      // Per-request figures compare the two servers; each idled while the other was loaded.
      const profiled: Target[] = versus ? ['orchard', 'versus', 'floor', 'versus-floor', 'replay', 'anchor'] : ['orchard', 'floor', 'replay', 'anchor'];
      for (const target of profiled) {
        console.log(`\nCPU profile of the ${target} server (${path.join(profileDir, target)}; warm-ups included):`);
        console.log(summarizeCpuProfiles(path.join(profileDir, target), target === 'orchard' || target === 'versus' ? 30 : 10, served[target]));
      }
    }

    if (failed > 0) {
      const codes = [...statusCodes].map(([c, n]) => `${c}: ${n}`).join(', ');
      console.error(`\n${failed} requests failed (status codes seen: ${codes}); the figures above measured errors.`);
      return 1;
    }
    return 0;
  } finally {
    for (const t of targets) await t.stop().catch(() => {});
    if (!opts.profile) fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(versusDir, { recursive: true, force: true });
  }
}

async function serve(kind: string): Promise<void> {
  if (kind === 'anchor') {
    const { url, close } = await startAnchor();
    announceAndServe(url, close);
  } else if (kind === 'replay' || kind === 'floor') {
    if (!opts['data-dir']) throw new Error(`--serve ${kind} needs --data-dir`);
    const { url, close } = kind === 'replay' ? await startReplay(opts['data-dir']) : await startFloor(opts['data-dir']);
    announceAndServe(url, close);
  } else if (kind === 'orchard') {
    if (!opts['data-dir']) throw new Error('--serve orchard needs --data-dir');
    const { url, close } = await startOrchard(opts['data-dir']);
    announceAndServe(url, close);
  } else {
    throw new Error(`--serve takes anchor, replay, floor or orchard; got '${kind}'`);
  }
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
