// Webhooks' cost to writes, and how soon a delivery reaches its receiver (docs/webhooks.md).
//
// Throughput: `POST /api/record/account` to one Orchard server, in rounds that alternate between
// two organizations of that server: one without webhooks ("off") and one with a webhook on every
// account created ("on"), so both are measured in the same run, the same process and the same files'
// directory. Orchard, the webhook receiver (a bare Node HTTP server answering 200) and the load
// (wrk, a C program: a JavaScript load generator would take a core the server and its worker need
// on this 2-core machine) each run in a process of their own. An "on" round includes the worker
// delivering while the writes go on; its backlog is drained before the next round starts, so an
// "off" round never pays for it. The figure is the median of the rounds' ratios on/off (goal ≥ 0.85).
//
// Beside the rate, the server process's CPU time per write (user + system, from /proc, the worker's
// deliveries of an "on" round included up to its backlog's end): the steadier figure on a machine
// whose other tenants take the cores at random. On SQLite also the bytes the server process had
// written to storage per write (/proc/<pid>/io: the WAL, and the database file at checkpoints).
//
// Latency: from the commit of a write to the receiver, per delivery: the receiver notes when each
// `webhook-id` arrives (Date.now), and the delivery's row holds the real time it was written in the
// write's transaction (`written_ms`, just before the commit), read from the organization's file
// once the server stopped. Both clocks are this machine's. Reported for writes one at a time, 20 a
// second ("idle"), and for the deliveries of the "on" rounds ("under load"): median and p99.
//
// `--store postgres` runs the server on DATABASE_URL (and REDIS_URL when set), in a control schema of
// its own dropped after; the deliveries' `written_ms` is then read from the organization's schema.
// `--profile` runs the server under `node --cpu-prof` and prints where its main thread's time went,
// per write, over the whole run (off and on rounds, the idle writes).
//
// Usage: node dist/bench/webhooks.js [--store sqlite|postgres] [--rounds 5] [--duration 8] [--warmup 3]
//   [--connections 8] [--idle 300] [--profile]
// Exits 1 if a write failed or a delivery never arrived.

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { ConfigOverrides } from '../src/config.js';
import { dropSchemasOf } from '../src/store/postgres/open-postgres-control.js';
import { announceAndServe, failures, formatMs, loadAverage, median, processCpuMicros, runLoad, serveInChild, summarizeCpuProfiles, type LoadResult } from './lib.js';
import { benchConfig, BENCH_DAILY_CAP, startOrchard, wholeOption } from './orchard-target.js';
import { openStores } from '../src/stores.js';

const GOAL_RATIO = 0.85;
const SCRIPT = fileURLToPath(import.meta.url);

const { values: opts } = parseArgs({
  options: {
    serve: { type: 'string' },
    'data-dir': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '8' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '8' },
    idle: { type: 'string', default: '300' },
    store: { type: 'string', default: 'sqlite' },
    /** The control schema of a --store postgres run (given to the serving child). */
    schema: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});

/** The store settings of the run: the embedded store, or PostgreSQL (with Redis when REDIS_URL is set) in `schema`. */
function storeOverrides(schema: string | undefined): ConfigOverrides {
  if (!schema) return { databaseUrl: undefined, redisUrl: undefined };
  return { databaseUrl: process.env.DATABASE_URL, databaseSchema: schema, redisUrl: process.env.REDIS_URL || undefined };
}

/** Each delivery's id and `written_ms` (the real time of its write, just before the commit), from the organization's store. */
async function writtenTimes(dataDir: string, orgId: string, schema: string | undefined): Promise<Map<string, number>> {
  const query = 'SELECT id, written_ms FROM orchard_deliveries';
  if (!schema) {
    const db = new Database(path.join(dataDir, 'orgs', `${orgId}.db`), { readonly: true });
    try {
      return new Map((db.prepare(query).all() as Array<{ id: string; written_ms: number }>).map((d) => [d.id, d.written_ms]));
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    // The schema of an organization's records (stores.ts: `<control schema>_org_<id without dashes>`).
    await client.query(`SET search_path TO ${schema}_org_${orgId.replace(/-/g, '')}`);
    const { rows } = await client.query<{ id: string; written_ms: string }>(query);
    return new Map(rows.map((d) => [d.id, Number(d.written_ms)]));
  } finally {
    await client.end();
  }
}

/** The receiver: answers 200 at once and notes when each webhook-id arrived; GET /stats gives them. */
async function serveReceiver(): Promise<void> {
  const arrivals = new Map<string, number>();
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ count: arrivals.size, arrivals: [...arrivals] }));
      return;
    }
    const at = Date.now();
    const id = String(req.headers['webhook-id'] ?? '');
    req.resume().on('end', () => {
      if (id && !arrivals.has(id)) arrivals.set(id, at);
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  announceAndServe(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, () => new Promise((resolve) => server.close(() => resolve())));
}

/** One wrk run (bench/lib.ts runLoad) of POST /api/record/account with the token. */
function createLoad(url: string, token: string, seconds: number, connections: number): Promise<LoadResult> {
  const headers = { tokenid: token, 'content-type': 'application/json' };
  return runLoad({ url, connections, duration: seconds, requests: [{ method: 'POST', path: '/api/record/account', headers, body: '{"accountname":"Bench account","telephone1":"+1 555 0100"}' }] });
}

async function receiverStats(url: string): Promise<{ count: number; arrivals: Array<[string, number]> }> {
  return (await fetch(`${url}/stats`)).json() as Promise<{ count: number; arrivals: Array<[string, number]> }>;
}

async function accountCount(url: string, token: string): Promise<number> {
  const res = await fetch(`${url}/api/record/account?pagesize=1`, { headers: { tokenid: token } });
  return ((await res.json()) as { data: { Total_Records: number } }).data.Total_Records;
}

/** Waits until the receiver has a delivery for every account of the "on" organization; the milliseconds it took. */
async function drain(receiver: string, orchard: string, token: string): Promise<number> {
  const started = Date.now();
  const owed = await accountCount(orchard, token);
  while ((await receiverStats(receiver)).count < owed) {
    if (Date.now() - started > 180_000) throw new Error(`the receiver got ${(await receiverStats(receiver)).count} of ${owed} deliveries in 3 minutes`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** Bytes the process has had written to storage (write_bytes of /proc/<pid>/io); NaN where there is none. */
function bytesWritten(pid: number | undefined): number {
  try {
    return Number(/^write_bytes: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1]);
  } catch {
    return Number.NaN;
  }
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function main(): Promise<void> {
  if (opts.serve === 'receiver') return serveReceiver();
  if (opts.serve === 'orchard') {
    const server = await startOrchard(opts['data-dir']!, { webhooks: { allowPrivate: true }, ...storeOverrides(opts.schema) });
    return announceAndServe(server.url, server.close);
  }
  const rounds = wholeOption(opts, 'rounds', 1);
  const duration = wholeOption(opts, 'duration', 1);
  const connections = wholeOption(opts, 'connections', 1);
  const idleWrites = wholeOption(opts, 'idle', 10);
  if (opts.store !== 'sqlite' && opts.store !== 'postgres') throw new Error(`--store takes sqlite or postgres; got '${opts.store}'.`);
  if (opts.store === 'postgres' && !process.env.DATABASE_URL) throw new Error('--store postgres needs DATABASE_URL (postgres://user@host:port/database).');
  const schema = opts.store === 'postgres' ? `whbench_${process.pid}` : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-webhooks-'));
  const profileDir = opts.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-webhooks-prof-')) : undefined;
  console.log(`Store: ${opts.store}${schema ? ` (schema ${schema}${process.env.REDIS_URL ? ', Redis' : ''})` : ''}; load average at the start: ${loadAverage()}`);
  const receiver = await serveInChild('receiver', SCRIPT, ['--serve', 'receiver']);
  let exit = 0;
  try {
    const stores = openStores(benchConfig(dataDir, storeOverrides(schema)));
    const made = async (name: string) => stores.admin.createOrganization({ name, plan: 'enterprise', email: `${name}@example.com`, minuteLimit: BENCH_DAILY_CAP });
    const off = await made('off');
    const on = await made('on');
    await stores.admin.createWebhook({ orgId: on.org.id, definition: { event: 'created', object: 'account', url: `${receiver.url}/hook` }, allowPrivate: true });
    await stores.close();

    const orchard = await serveInChild('orchard', SCRIPT, ['--serve', 'orchard', '--data-dir', dataDir, ...(schema ? ['--schema', schema] : [])],
      profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
    let writes = 0;
    const rates = { off: [] as number[], on: [] as number[] };
    const cpu = { off: [] as number[], on: [] as number[] };
    const drains: number[] = [];
    const loadStart = Date.now();
    try {
      for (const token of [off.token, on.token]) writes += (await createLoad(orchard.url, token, wholeOption(opts, 'warmup', 1), connections)).requests.total;
      await drain(receiver.url, orchard.url, on.token);
      for (let r = 1; r <= rounds; r++) {
        const order = r % 2 === 1 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (const name of order) {
          const cpuStart = processCpuMicros(orchard.child.pid);
          const ioStart = bytesWritten(orchard.child.pid);
          const result = await createLoad(orchard.url, name === 'on' ? on.token : off.token, duration, connections);
          const failed = failures(result);
          if (failed > 0) exit = 1;
          writes += result.requests.total;
          rates[name].push(result.requests.average);
          let drained = '';
          if (name === 'on') {
            const ms = await drain(receiver.url, orchard.url, on.token);
            drains.push(ms);
            drained = `  backlog delivered ${ms} ms after the round`;
          }
          const perWrite = (processCpuMicros(orchard.child.pid) - cpuStart) / result.requests.total;
          cpu[name].push(perWrite);
          const kbPerWrite = (bytesWritten(orchard.child.pid) - ioStart) / 1024 / result.requests.total;
          console.log(`  round ${r}  webhooks ${name.padEnd(3)}  ${result.requests.average.toFixed(0).padStart(6)} writes/s  p50 ${formatMs(result.latency.p50)}  p99 ${formatMs(result.latency.p99)}  ${result.requests.total} writes  ${perWrite.toFixed(0)} µs CPU/write${schema ? '' : `  ${kbPerWrite.toFixed(1)} KiB written/write`}${failed ? `  FAILED ${failed}` : ''}${drained}`);
        }
      }
      const loadEnd = Date.now();
      // Writes one at a time, 20 a second: the latency of a delivery with nothing else going on.
      const idleStart = Date.now();
      for (let i = 0; i < idleWrites; i++) {
        const res = await fetch(`${orchard.url}/api/record/account`, { method: 'POST', headers: { tokenid: on.token, 'content-type': 'application/json' }, body: '{"accountname":"Idle"}' });
        if (res.status !== 201) exit = 1;
        writes++;
        await res.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await drain(receiver.url, orchard.url, on.token);
      const { arrivals } = await receiverStats(receiver.url);
      await orchard.stop();

      const written = await writtenTimes(dataDir, on.org.id, schema);
      const missing = [...written.keys()].filter((id) => !arrivals.some(([a]) => a === id)).length;
      if (missing > 0) exit = 1;
      const latencies = (from: number, to: number) => arrivals.map(([id, at]) => ({ at, w: written.get(id) })).filter((x) => x.w !== undefined && x.w >= from && x.w < to).map((x) => x.at - x.w!);
      const loaded = latencies(loadStart, loadEnd);
      const idle = latencies(idleStart, Date.now());
      const ratios = rates.on.map((x, i) => x / rates.off[i]!);
      console.log('');
      console.log(`writes/s, median of ${rounds} rounds: webhooks off ${median(rates.off).toFixed(0)}, on ${median(rates.on).toFixed(0)}`);
      console.log(`on/off: ×${median(ratios).toFixed(3)} median of the rounds' ratios (${ratios.map((x) => `×${x.toFixed(3)}`).join(' ')}); goal ≥ ${GOAL_RATIO}`);
      const cpuRatios = cpu.on.map((x, i) => x / cpu.off[i]!);
      console.log(`server CPU per write: off ${median(cpu.off).toFixed(0)} µs, on ${median(cpu.on).toFixed(0)} µs: ×${median(cpuRatios).toFixed(3)} median of the rounds' ratios (${cpuRatios.map((x) => `×${x.toFixed(3)}`).join(' ')})`);
      console.log(`backlog after an "on" round delivered within ${median(drains)} ms (median)`);
      console.log(`commit → receiver, idle (${idle.length} writes one at a time): median ${median(idle).toFixed(1)} ms, p99 ${percentile(idle, 99).toFixed(1)} ms`);
      console.log(`commit → receiver, under load (${loaded.length} deliveries of the "on" rounds): median ${median(loaded).toFixed(1)} ms, p99 ${percentile(loaded, 99).toFixed(1)} ms`);
      console.log(`deliveries made ${written.size}, received ${arrivals.length}${missing ? `, ${missing} NEVER ARRIVED` : ''}`);
      console.log(`load average at the end: ${loadAverage()}`);
      if (profileDir) console.log(`The server's profile over the whole run (${writes} writes), kept in ${profileDir}:\n${summarizeCpuProfiles(profileDir, 25, writes)}`);
    } catch (err) {
      await orchard.stop();
      throw err;
    }
  } finally {
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) await dropSchemasOf(process.env.DATABASE_URL!, schema);
  }
  process.exitCode = exit;
}

await main();
