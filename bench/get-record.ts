// Throughput of `GET /api/record/account/{id}` (with a token) beside a bare Fastify hello-world
// in the same run, both loaded by autocannon on loopback; prints per-round figures, the median
// req/s of each and the ratio orchard/anchor (goal ≥ 0.5). A third target, the replay, is Fastify
// sending one of Orchard's GET replies (the same body and header fields) from memory: its ratio to
// the anchor is the ceiling of any server answering this request with this reply here, so the gap
// between it and Orchard is Orchard's own work (token, limits, the read, the JSON). A fourth, the
// floor, is the replay spending as much CPU on each request as Orchard's store work for it takes
// in-process (the token's identity, the schema check, the record's read and its reply text, timed
// here without HTTP before the load starts): its ratio is the most any server doing that work here
// could reach, whatever its HTTP layer.
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
// Usage: node dist/bench/get-record.js [--rounds 3] [--duration 5] [--warmup 2] [--connections 10]
//   [--pipelining 1] [--accounts 10000] [--ids 100] [--profile] [--in-process]
// Latency percentiles come from autocannon's histogram, which has 1 ms resolution (p50 "0 ms"
// means under 1 ms); the mean is derived by Little's law (connections × pipelining / req/s), as
// each connection keeps that many requests in flight.
// Exits 0 whatever the ratio (it is a measurement) but 1 if any request failed (non-2xx, socket
// error or timeout), since then the figures would measure errors.

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
import { openStores } from '../src/stores.js';
import { GET_BY_ID_OPTIONS, checkIds, pickIds, seedAccounts, startAnchor, startOrchard, wholeOption } from './orchard-target.js';

const GOAL_RATIO = 0.5;
const SCRIPT = fileURLToPath(import.meta.url);

const { values: opts } = parseArgs({
  options: { ...GET_BY_ID_OPTIONS, 'in-process': { type: 'boolean', default: false }, 'work-us': { type: 'string' } },
});

const positive = (name: keyof typeof opts): number => wholeOption(opts, name, 1);


interface Round {
  readonly target: 'anchor' | 'replay' | 'floor' | 'orchard';
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
 * With `workUs`, the floor target: the same after spinning the CPU for that many µs per request.
 */
async function startReplay(dataDir: string, workUs = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const { headers, body } = JSON.parse(fs.readFileSync(path.join(dataDir, 'replay.json'), 'utf8')) as CapturedReply;
  const app = Fastify({ logger: false });
  const work = BigInt(Math.round(workUs * 1000));
  app.get('/api/record/:obj/:id', async (_request, reply) => {
    if (work > 0n) {
      const until = process.hrtime.bigint() + work;
      while (process.hrtime.bigint() < until);
    }
    reply.headers(headers);
    return body;
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

/**
 * CPU µs of Orchard's store work for one GET by id, in this process and without HTTP: the token's
 * identity (its digest known, as the server keeps it), the schema check and the record's read, and
 * the reply text; over `ids` in turn, the median of 30 blocks of 2,000 after a warm-up of 20,000.
 * It runs in one turn of the event loop, so the once-a-turn looks at the files are not in it: a
 * lower bound of what the server does for these steps.
 */
async function storeWorkUs(dataDir: string, token: string, ids: readonly string[]): Promise<number> {
  const stores = openStores(loadConfig({}, { dataDir, logLevel: 'silent' }));
  try {
    const digest = hashToken(token);
    const identity = await stores.control.resolveToken(digest);
    if (!identity) throw new Error('the bench token does not resolve');
    const records = await stores.records.org(identity.org.id);
    const obj = (await records.schema()).resolve('account');
    const head = { PrimaryKey: obj.keyField, PrimaryField: obj.primaryField, Total_Records: 1, Page_Size: 50, Page_Number: 1 };
    let i = 0;
    let bytes = 0;
    const one = async () => {
      await stores.control.resolveToken(digest);
      await records.schema();
      const row = await records.get(obj, ids[i++ % ids.length]!);
      bytes += okRecordPageText(head, true, row).length;
    };
    for (let n = 0; n < 20_000; n++) await one();
    const blocks: number[] = [];
    for (let b = 0; b < 30; b++) {
      const started = process.hrtime.bigint();
      for (let n = 0; n < 2_000; n++) await one();
      blocks.push(Number(process.hrtime.bigint() - started) / 2_000 / 1_000);
    }
    if (bytes === 0) throw new Error('no reply text was made');
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

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-'));
  const profileDir = path.join(dataDir, 'profile');
  const targets: Array<{ name: string; url: string; stop: () => Promise<void> }> = [];
  try {
    const started = Date.now();
    const token = await seedAccounts(dataDir, accountCount);
    console.log(`Seeded ${accountCount.toLocaleString('en-US')} accounts in ${((Date.now() - started) / 1000).toFixed(1)} s.`);

    let workUs = 0;
    const start = async (name: Round['target']): Promise<{ url: string; stop: () => Promise<void> }> => {
      let target: { url: string; stop: () => Promise<void> };
      if (opts['in-process']) {
        const { url, close } = name === 'anchor' ? await startAnchor()
          : name === 'replay' || name === 'floor' ? await startReplay(dataDir, name === 'floor' ? workUs : 0)
          : await startOrchard(dataDir);
        target = { url, stop: close };
      } else {
        const args = name === 'anchor' ? ['--serve', 'anchor'] : ['--serve', name, '--data-dir', dataDir, ...(name === 'floor' ? ['--work-us', String(workUs)] : [])];
        const nodeArgs = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, name)}`] : [];
        target = await serveInChild(name, SCRIPT, args, nodeArgs);
      }
      targets.push({ name, ...target });
      return target;
    };
    const anchor = await start('anchor');
    const orchard = await start('orchard');
    const ids = await pickIds(orchard.url, token, accountCount, idCount);
    await checkIds(orchard.url, token, ids);
    await captureReply(orchard.url, token, ids[0]!, dataDir);
    workUs = await storeWorkUs(dataDir, token, ids);
    const replay = await start('replay');
    const floor = await start('floor');
    console.log(`Requests to orchard, the replay and the floor rotate over ${ids.length} account ids spread over the table.`);
    console.log(`Orchard's store work for one GET, in-process without HTTP (identity, schema check, read, reply text): ${workUs.toFixed(1)} µs; the floor spends that on each request.`);

    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`Servers ${opts['in-process'] ? 'in this process (--in-process)' : 'in child processes'}; autocannon: ${connections} connections, pipelining ${pipelining}, ${rounds} rounds of ${duration} s, each after a ${warmup} s warm-up.\n`);

    const common = { connections, pipelining };
    const load = {
      anchor: { url: anchor.url, ...common },
      orchard: { url: orchard.url, ...common, requests: ids.map((id) => ({ path: `/api/record/account/${id}`, headers: { tokenid: token } })) },
      replay: { url: replay.url, ...common, requests: ids.map((id) => ({ path: `/api/record/account/${id}`, headers: { tokenid: token } })) },
      floor: { url: floor.url, ...common, requests: ids.map((id) => ({ path: `/api/record/account/${id}`, headers: { tokenid: token } })) },
    };
    const results: Round[] = [];
    let failed = 0;
    const statusCodes = new Map<string, number>();
    const served = { anchor: 0, replay: 0, floor: 0, orchard: 0 };
    const tally = (target: Round['target'], r: LoadResult) => {
      served[target] += r.requests.total;
      failed += failures(r);
      for (const [code, { count }] of Object.entries(r.statusCodeStats)) statusCodes.set(code, (statusCodes.get(code) ?? 0) + count);
    };
    for (let round = 1; round <= rounds; round++) {
      for (const target of ['anchor', 'replay', 'floor', 'orchard'] as const) {
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
    console.log(`Ratio floor/anchor: ${(floorRate / anchorRate).toFixed(3)} — the replay after ${workUs.toFixed(1)} µs of CPU a request, Orchard's store work: the most a server doing that work could reach here`);

    for (const t of targets.splice(0)) await t.stop();
    if (opts.profile && !opts['in-process']) {
      // Per-request figures compare the two servers; each idled while the other was loaded.
      for (const target of ['orchard', 'floor', 'replay', 'anchor'] as const) {
        console.log(`\nCPU profile of the ${target} server (${path.join(profileDir, target)}; warm-ups included):`);
        console.log(summarizeCpuProfiles(path.join(profileDir, target), target === 'orchard' ? 30 : 10, served[target]));
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
  }
}

async function serve(kind: string): Promise<void> {
  if (kind === 'anchor') {
    const { url, close } = await startAnchor();
    announceAndServe(url, close);
  } else if (kind === 'replay' || kind === 'floor') {
    if (!opts['data-dir']) throw new Error(`--serve ${kind} needs --data-dir`);
    const workUs = kind === 'floor' ? Number(opts['work-us']) : 0;
    if (!(workUs >= 0)) throw new Error(`--serve floor needs --work-us, a number of µs; got '${opts['work-us']}'`);
    const { url, close } = await startReplay(opts['data-dir'], workUs);
    announceAndServe(url, close);
  } else if (kind === 'orchard') {
    if (!opts['data-dir']) throw new Error('--serve orchard needs --data-dir');
    const { url, close } = await startOrchard(opts['data-dir']);
    announceAndServe(url, close);
  } else {
    throw new Error(`--serve takes anchor, replay, floor or orchard; got '${kind}'`);
  }
}

if (opts.serve) {
  await serve(opts.serve);
} else {
  process.exitCode = await drive();
}
