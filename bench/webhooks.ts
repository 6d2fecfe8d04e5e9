// Webhooks' cost to writes, and how soon a delivery reaches its receiver (docs/webhooks.md).
//
// Throughput: `POST /api/record/account` to one Orchard server, in rounds that alternate between
// two organizations of that server: one without webhooks ("off") and one with a webhook on every
// account created ("on"), so both are measured in the same run, the same process and the same files'
// directory. Orchard, the webhook receiver (answering 200 at once; see serveReceiver) and the load
// (wrk, a C program: a JavaScript load generator would take a core the server and its worker need
// on this 2-core machine) each run in a process of their own. An "on" round includes the worker
// delivering while the writes go on; its backlog is drained before the next round starts, so an
// "off" round never pays for it. The figure is the median of the rounds' ratios on/off (goal ≥ 0.85).
//
// Beside the rate, the server process's CPU time per write (user + system, from /proc, the worker's
// deliveries of an "on" round included up to its backlog's end): the steadier figure on a machine
// whose other tenants take the cores at random. Also the CPU the round took from the same cores in
// the receiver and, on PostgreSQL, in the database's processes (every process named postgres), and
// on PostgreSQL the WAL the cluster wrote per write. On SQLite also the bytes the server process had
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
// `--versus DIR` compares this build with another (DIR: a checkout holding its own built dist/):
// one server of each build, each with its own two organizations and receiver, and each round loads
// both builds' "off" and "on" in turn, interleaved (see versusTurns; use a multiple of 4 rounds),
// so both builds meet the same moments of a shared machine. It prints each build's on/off figures and the CPU a webhook adds to
// a write (on minus off, per round), and skips the latency figures.
//
// `--floor` also runs, in the same rounds, a second server started with WEBHOOK_DELIVER=false, with
// its own two organizations: its writes write their deliveries in their transactions, as every
// write with a webhook must (the durable outbox), and no delivery is attempted. Its on/off is the
// most any delivery worker could leave the writes: the cost of the outbox rows alone.
//
// Usage: node dist/bench/webhooks.js [--store sqlite|postgres] [--rounds 5] [--duration 8] [--warmup 3]
//   [--connections 8] [--idle 300] [--profile] [--versus DIR] [--floor] [--receiver lean|node]
// Exits 1 if a write failed or a delivery never arrived.

import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { ConfigOverrides } from '../src/config.js';
import { dropSchemasOf } from '../src/store/postgres/open-postgres-control.js';
import { announceAndServe, cpuBetween, cpuOfProcessesNamed, failures, formatMs, loadAverage, mainThreadCpuMicros, median, processCpuMicros, runLoad, serveInChild, summarizeCpuProfiles, type LoadResult, type ServedTarget } from './lib.js';
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
    versus: { type: 'string' },
    floor: { type: 'boolean', default: false },
    receiver: { type: 'string', default: 'lean' },
  },
});

/** The store settings of the run: the embedded store, or PostgreSQL (with Redis when REDIS_URL is set) in `schema`. */
function storeOverrides(schema: string | undefined): ConfigOverrides {
  if (!schema) return { databaseUrl: undefined, redisUrl: undefined };
  return { databaseUrl: process.env.DATABASE_URL, databaseSchema: schema, redisUrl: process.env.REDIS_URL || undefined };
}

/** PostgreSQL's WAL position, in bytes: what every database of the cluster wrote (this bench's alone, on a machine of its own). */
async function walPosition(): Promise<number> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return Number((await client.query<{ at: string }>("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS at")).rows[0]!.at);
  } finally {
    await client.end();
  }
}

/** `run` on a connection whose search path is the organization's schema (stores.ts: `<control schema>_org_<id without dashes>`). */
async function inOrgSchema<T>(schema: string, orgId: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${schema}_org_${orgId.replace(/-/g, '')}`);
    return await run(client);
  } finally {
    await client.end();
  }
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
  return inOrgSchema(schema, orgId, async (client) => {
    const { rows } = await client.query<{ id: string; written_ms: string }>(query);
    return new Map(rows.map((d) => [d.id, Number(d.written_ms)]));
  });
}

/**
 * PostgreSQL: the updates of the deliveries' rows (a claim's lease, an attempt's outcome) and how many
 * were HOT (the new version on the same page, no index entry written), read once the server stopped
 * and its sessions' statistics were flushed; and the rows' mean size on disk with their payload's
 * (each update writes the whole row again, the payload with it while it is stored inline).
 */
async function deliveryRows(schema: string, orgId: string): Promise<{ updates: number; hot: number; rowBytes: number; payloadBytes: number }> {
  return inOrgSchema(schema, orgId, async (client) => {
    const { rows: [stats] } = await client.query<{ upd: string; hot: string }>(
      "SELECT n_tup_upd::text AS upd, n_tup_hot_upd::text AS hot FROM pg_stat_user_tables WHERE relid = 'orchard_deliveries'::regclass");
    const { rows: [size] } = await client.query<{ row: string | null; payload: string | null }>(
      'SELECT avg(pg_column_size(d.*))::text AS row, avg(pg_column_size(d.payload))::text AS payload FROM orchard_deliveries d');
    return { updates: Number(stats?.upd ?? 0), hot: Number(stats?.hot ?? 0), rowBytes: Number(size?.row ?? 0), payloadBytes: Number(size?.payload ?? 0) };
  });
}

/**
 * The receiver: answers 200 at once and notes when each webhook-id arrived; GET /stats gives them.
 * It stands in for a system on another machine, yet shares this machine's two cores with the server,
 * so by default it does no more than HTTP/1.1 asks for what Orchard sends (a head, then a body of
 * Content-Length bytes, on kept-alive connections); `--receiver node` serves the same with Node's
 * HTTP server, which costs several times the CPU a delivery (bench/README.md § Webhooks).
 */
async function serveReceiver(kind: string): Promise<void> {
  const arrivals = new Map<string, number>();
  const stats = () => JSON.stringify({ count: arrivals.size, arrivals: [...arrivals] });
  const note = (id: string | undefined, at: number) => {
    if (id && !arrivals.has(id)) arrivals.set(id, at);
  };
  let server: http.Server | net.Server;
  if (kind === 'node') {
    server = http.createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/stats') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(stats());
        return;
      }
      const at = Date.now();
      const id = req.headers['webhook-id'];
      req.resume().on('end', () => {
        note(typeof id === 'string' ? id : undefined, at);
        res.writeHead(200).end();
      });
    });
    (server as http.Server).keepAliveTimeout = 60_000;
  } else if (kind === 'lean') {
    server = net.createServer((socket) => {
      let pending: Buffer | undefined;
      socket.on('data', (chunk: Buffer) => {
        const at = Date.now();
        let buffered = pending ? Buffer.concat([pending, chunk]) : chunk;
        let replies = '';
        for (;;) {
          const headEnd = buffered.indexOf('\r\n\r\n');
          if (headEnd < 0) break;
          const head = buffered.toString('latin1', 0, headEnd);
          // Orchard's attempts always say their length; anything else would be misread, so it fails loudly.
          if (/\r\ntransfer-encoding:/i.test(head)) {
            socket.destroy(new Error(`the bench's receiver reads bodies of a stated length only: ${head.split('\r\n')[0]}`));
            return;
          }
          const end = headEnd + 4 + Number(/\r\ncontent-length:[ \t]*(\d+)/i.exec(head)?.[1] ?? 0);
          if (buffered.length < end) break;
          buffered = buffered.subarray(end);
          if (head.startsWith('GET /stats ')) {
            const body = stats();
            replies += `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
            continue;
          }
          note(/\r\nwebhook-id:[ \t]*([^\r]*)/i.exec(head)?.[1], at);
          replies += 'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n';
        }
        pending = buffered.length > 0 ? buffered : undefined;
        if (replies) socket.write(replies);
      });
      socket.on('error', (err) => console.error(err.message));
    });
  } else {
    throw new Error(`--receiver is lean or node, not ${kind}`);
  }
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
  const body = await res.text();
  if (res.status !== 200) throw new Error(`the count of accounts was refused: ${res.status} ${body}`);
  return (JSON.parse(body) as { data: { Total_Records: number } }).data.Total_Records;
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

/** Per round, on/off, of figures kept for "off" and "on" rounds in turn. */
type OffOn = { readonly off: readonly number[]; readonly on: readonly number[] };
const roundRatios = (x: OffOn): number[] => x.on.map((v, i) => v / x.off[i]!);

/** `×median median of the rounds' ratios (×each …)` of `x`'s rounds. */
function ratiosText(x: OffOn): string {
  const ratios = roundRatios(x);
  return `×${median(ratios).toFixed(3)} median of the rounds' ratios (${ratios.map((r) => `×${r.toFixed(3)}`).join(' ')})`;
}

/** The "off" organization and the "on" one, whose every account created is sent to `hookUrl`, made in the stores of `dataDir` (or `schema`). */
async function makeOrganizations(dataDir: string, schema: string | undefined, hookUrl: string) {
  const stores = openStores(benchConfig(dataDir, storeOverrides(schema)));
  try {
    const made = async (name: string) => stores.admin.createOrganization({ name, plan: 'enterprise', email: `${name}@example.com`, minuteLimit: BENCH_DAILY_CAP });
    const off = await made('off');
    const on = await made('on');
    await stores.admin.createWebhook({ orgId: on.org.id, definition: { event: 'created', object: 'account', url: hookUrl }, allowPrivate: true });
    return { off, on };
  } finally {
    await stores.close();
  }
}

/** One build under --versus: its server, receiver and organizations, and what its rounds measured. */
interface Build {
  readonly name: string;
  readonly orchard: ServedTarget;
  readonly receiver: ServedTarget;
  readonly tokens: { readonly off: string; readonly on: string };
  readonly rates: { off: number[]; on: number[] };
  readonly cpu: { off: number[]; on: number[] };
  /** User time alone: the JavaScript and SQLite's work in the process, without the kernel's writes and syncs. */
  readonly user: { off: number[]; on: number[] };
  /** PostgreSQL: its processes' CPU per write in the build's rounds. */
  readonly db: { off: number[]; on: number[] };
}

/**
 * A round's turns under --versus: the builds' phases interleaved, so that each phase follows one of
 * the other build's, and in a cycle of four rounds (A off, B off, A on, B on; then B on, A on, B off,
 * A off; then the same with A and B swapped) in which each build meets the same predecessors. Phases
 * run as whole blocks of one build (A off, A on, B off, B on, then reversed) gave the build named
 * first its "on" after two phases idle every other round and the other build never: that "on" cost
 * it 100–250 µs more a write, and swapping the builds swapped the verdict (bench/README.md).
 */
function versusTurns<B>(builds: readonly B[], round: number): { b: B; kind: 'off' | 'on' }[] {
  const [a, b] = round % 4 === 3 || round % 4 === 0 ? [builds[1]!, builds[0]!] : [builds[0]!, builds[1]!];
  const turns = [{ b: a, kind: 'off' as const }, { b, kind: 'off' as const }, { b: a, kind: 'on' as const }, { b, kind: 'on' as const }];
  return round % 2 === 0 ? turns.reverse() : turns;
}

/** --versus: this build and the one in `dir`, round by round; see the opening comment. */
async function versus(dir: string, schemaOf: (i: number) => string | undefined): Promise<number> {
  const script = path.join(path.resolve(dir), 'dist', 'bench', 'webhooks.js');
  if (!fs.existsSync(script)) throw new Error(`--versus: no ${script}; build that checkout first.`);
  const rounds = wholeOption(opts, 'rounds', 1);
  const duration = wholeOption(opts, 'duration', 1);
  const connections = wholeOption(opts, 'connections', 1);
  const builds: Build[] = [];
  const dirs: string[] = [];
  let exit = 0;
  try {
    for (const [i, [name, serving]] of ([['this', SCRIPT], ['versus', script]] as const).entries()) {
      const schema = schemaOf(i);
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-webhooks-'));
      dirs.push(dataDir);
      const receiver = await serveInChild(`receiver ${i}`, SCRIPT, ['--serve', 'receiver', '--receiver', opts.receiver]);
      const { off, on } = await makeOrganizations(dataDir, schema, `${receiver.url}/hook`);
      const orchard = await serveInChild(`orchard ${i}`, serving, ['--serve', 'orchard', '--data-dir', dataDir, ...(schema ? ['--schema', schema] : [])]);
      builds.push({ name, orchard, receiver, tokens: { off: off.token, on: on.token }, rates: { off: [], on: [] }, cpu: { off: [], on: [] }, user: { off: [], on: [] }, db: { off: [], on: [] } });
    }
    for (const b of builds) {
      for (const token of [b.tokens.off, b.tokens.on]) await createLoad(b.orchard.url, token, wholeOption(opts, 'warmup', 1), connections);
      await drain(b.receiver.url, b.orchard.url, b.tokens.on);
    }
    for (let r = 1; r <= rounds; r++) {
      const turns = versusTurns(builds, r);
      for (const { b, kind } of turns) {
        const cpuStart = processCpuMicros(b.orchard.child.pid);
        const userStart = processCpuMicros(b.orchard.child.pid, 'user');
        const dbStart = cpuOfProcessesNamed('postgres');
        const result = await createLoad(b.orchard.url, b.tokens[kind], duration, connections);
        if (failures(result) > 0) exit = 1;
        if (kind === 'on') await drain(b.receiver.url, b.orchard.url, b.tokens.on);
        const perWrite = (processCpuMicros(b.orchard.child.pid) - cpuStart) / result.requests.total;
        const userPerWrite = (processCpuMicros(b.orchard.child.pid, 'user') - userStart) / result.requests.total;
        b.rates[kind].push(result.requests.average);
        b.cpu[kind].push(perWrite);
        b.user[kind].push(userPerWrite);
        const dbPerWrite = cpuBetween(dbStart, cpuOfProcessesNamed('postgres')) / result.requests.total;
        if (opts.store === 'postgres') b.db[kind].push(dbPerWrite);
        console.log(`  round ${r}  ${b.name.padEnd(6)}  webhooks ${kind.padEnd(3)}  ${result.requests.average.toFixed(0).padStart(6)} writes/s  ${perWrite.toFixed(0)} µs CPU/write (user ${userPerWrite.toFixed(0)})${opts.store === 'postgres' ? `  database ${dbPerWrite.toFixed(0)} µs CPU/write` : ''}  load ${loadAverage()}`);
      }
    }
    console.log('');
    const added = (b: Build) => b.cpu.on.map((x, i) => x - b.cpu.off[i]!);
    const addedUser = (b: Build) => b.user.on.map((x, i) => x - b.user.off[i]!);
    for (const b of builds) {
      const ratios = roundRatios(b.rates);
      const cpuRatios = roundRatios(b.cpu);
      console.log(`${b.name}: writes/s off ${median(b.rates.off).toFixed(0)}, on ${median(b.rates.on).toFixed(0)}; on/off ×${median(ratios).toFixed(3)} (${ratios.map((x) => `×${x.toFixed(3)}`).join(' ')})`);
      console.log(`  CPU per write off ${median(b.cpu.off).toFixed(0)} µs, on ${median(b.cpu.on).toFixed(0)} µs: ×${median(cpuRatios).toFixed(3)} (${cpuRatios.map((x) => `×${x.toFixed(3)}`).join(' ')}); added by a webhook ${median(added(b)).toFixed(0)} µs (${added(b).map((x) => x.toFixed(0)).join(' ')})`);
      console.log(`  user CPU per write off ${median(b.user.off).toFixed(0)} µs, on ${median(b.user.on).toFixed(0)} µs; added by a webhook ${median(addedUser(b)).toFixed(0)} µs (${addedUser(b).map((x) => x.toFixed(0)).join(' ')})`);
    }
    const [mine, theirs] = builds;
    const addedDb = (b: Build) => b.db.on.map((x, i) => x - b.db.off[i]!);
    if (opts.store === 'postgres') {
      for (const b of builds) console.log(`${b.name}: the database's CPU per write off ${median(b.db.off).toFixed(0)} µs, on ${median(b.db.on).toFixed(0)} µs; added by a webhook ${median(addedDb(b)).toFixed(0)} µs (${addedDb(b).map((x) => x.toFixed(0)).join(' ')})`);
    }
    for (const [what, of] of [['CPU', added], ['user CPU', addedUser], ...(opts.store === 'postgres' ? [['the database\'s CPU', addedDb] as const] : [])] as const) {
      const diffs = of(mine!).map((x, i) => x - of(theirs!)[i]!);
      console.log(`${what} a webhook adds, this build minus --versus, by round: ${diffs.map((x) => x.toFixed(0)).join(' ')} µs (median ${median(diffs).toFixed(0)})`);
    }
    console.log(`load average at the end: ${loadAverage()}`);
  } finally {
    for (const b of builds) {
      await b.orchard.stop();
      await b.receiver.stop();
    }
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  }
  return exit;
}

/** --floor: a server that writes deliveries and attempts none, with its own "off" and "on" organizations. */
async function startFloor(receiverUrl: string, schema: string | undefined): Promise<{ orchard: ServedTarget; tokens: { off: string; on: string }; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-webhooks-floor-'));
  const { off, on } = await makeOrganizations(dataDir, schema, `${receiverUrl}/floor`);
  const orchard = await serveInChild('orchard (not delivering)', SCRIPT, ['--serve', 'orchard-written', '--data-dir', dataDir, ...(schema ? ['--schema', schema] : [])]);
  const floor = {
    orchard, tokens: { off: off.token, on: on.token },
    async stop() {
      await orchard.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (schema) await dropSchemasOf(process.env.DATABASE_URL!, schema);
    },
  };
  try {
    for (const token of [off.token, on.token]) await createLoad(orchard.url, token, wholeOption(opts, 'warmup', 1), wholeOption(opts, 'connections', 1));
  } catch (err) {
    // Its caller has nothing to stop yet: a failed warm-up (wrk missing) would leave its schemas behind.
    await floor.stop();
    throw err;
  }
  return floor;
}

async function main(): Promise<void> {
  if (opts.serve === 'receiver') return serveReceiver(opts.receiver);
  if (opts.serve === 'orchard' || opts.serve === 'orchard-written') {
    const server = await startOrchard(opts['data-dir']!, { webhooks: { allowPrivate: true, deliver: opts.serve === 'orchard' }, ...storeOverrides(opts.schema) });
    return announceAndServe(server.url, server.close);
  }
  const rounds = wholeOption(opts, 'rounds', 1);
  const duration = wholeOption(opts, 'duration', 1);
  const connections = wholeOption(opts, 'connections', 1);
  const idleWrites = wholeOption(opts, 'idle', 10);
  if (opts.store !== 'sqlite' && opts.store !== 'postgres') throw new Error(`--store takes sqlite or postgres; got '${opts.store}'.`);
  if (opts.store === 'postgres' && !process.env.DATABASE_URL) throw new Error('--store postgres needs DATABASE_URL (postgres://user@host:port/database).');
  const schema = opts.store === 'postgres' ? `whbench_${process.pid}` : undefined;
  if (opts.versus) {
    console.log(`Store: ${opts.store}; this build against --versus ${opts.versus}; load average at the start: ${loadAverage()}`);
    try {
      process.exitCode = await versus(opts.versus, (i) => (schema ? `${schema}_${i}` : undefined));
    } finally {
      if (schema) for (const i of [0, 1]) await dropSchemasOf(process.env.DATABASE_URL!, `${schema}_${i}`);
    }
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-webhooks-'));
  const profileDir = opts.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-webhooks-prof-')) : undefined;
  console.log(`Store: ${opts.store}${schema ? ` (schema ${schema}${process.env.REDIS_URL ? ', Redis' : ''})` : ''}; load average at the start: ${loadAverage()}`);
  const receiver = await serveInChild('receiver', SCRIPT, ['--serve', 'receiver', '--receiver', opts.receiver]);
  let exit = 0;
  try {
    const { off, on } = await makeOrganizations(dataDir, schema, `${receiver.url}/hook`);

    const orchard = await serveInChild('orchard', SCRIPT, ['--serve', 'orchard', '--data-dir', dataDir, ...(schema ? ['--schema', schema] : [])],
      profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
    const floor = opts.floor ? await startFloor(receiver.url, schema ? `${schema}_floor` : undefined) : undefined;
    const floorRates = { off: [] as number[], on: [] as number[] };
    const floorCpu = { off: [] as number[], on: [] as number[] };
    const floorDb = { off: [] as number[], on: [] as number[] };
    let writes = 0;
    const rates = { off: [] as number[], on: [] as number[] };
    const cpu = { off: [] as number[], on: [] as number[] };
    const mainCpu = { off: [] as number[], on: [] as number[] };
    // The other processes a round keeps busy on the same cores: the database's (PostgreSQL), the receiver's.
    const dbCpu = { off: [] as number[], on: [] as number[] };
    const walPerWrite = { off: [] as number[], on: [] as number[] };
    const receiverCpu: number[] = [];
    const drains: number[] = [];
    const loadStart = Date.now();
    try {
      for (const token of [off.token, on.token]) writes += (await createLoad(orchard.url, token, wholeOption(opts, 'warmup', 1), connections)).requests.total;
      await drain(receiver.url, orchard.url, on.token);
      for (let r = 1; r <= rounds; r++) {
        const order = r % 2 === 1 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (const name of order) {
          const cpuStart = processCpuMicros(orchard.child.pid);
          const mainStart = mainThreadCpuMicros(orchard.child.pid);
          const ioStart = bytesWritten(orchard.child.pid);
          const dbStart = cpuOfProcessesNamed('postgres');
          const walStart = schema ? await walPosition() : 0;
          const receiverStart = processCpuMicros(receiver.child.pid);
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
          const mainPerWrite = (mainThreadCpuMicros(orchard.child.pid) - mainStart) / result.requests.total;
          mainCpu[name].push(mainPerWrite);
          const kbPerWrite = (bytesWritten(orchard.child.pid) - ioStart) / 1024 / result.requests.total;
          const dbPerWrite = cpuBetween(dbStart, cpuOfProcessesNamed('postgres')) / result.requests.total;
          dbCpu[name].push(dbPerWrite);
          const walKb = schema ? ((await walPosition()) - walStart) / 1024 / result.requests.total : 0;
          walPerWrite[name].push(walKb);
          if (name === 'on') receiverCpu.push((processCpuMicros(receiver.child.pid) - receiverStart) / result.requests.total);
          if (floor) {
            const floorCpuStart = processCpuMicros(floor.orchard.child.pid);
            const floorDbStart = cpuOfProcessesNamed('postgres');
            const floorResult = await createLoad(floor.orchard.url, floor.tokens[name], duration, connections);
            if (failures(floorResult) > 0) exit = 1;
            floorRates[name].push(floorResult.requests.average);
            const floorPerWrite = (processCpuMicros(floor.orchard.child.pid) - floorCpuStart) / floorResult.requests.total;
            floorCpu[name].push(floorPerWrite);
            const floorDbPerWrite = cpuBetween(floorDbStart, cpuOfProcessesNamed('postgres')) / floorResult.requests.total;
            floorDb[name].push(floorDbPerWrite);
            console.log(`  round ${r}  written, not attempted (WEBHOOK_DELIVER=false): webhooks ${name.padEnd(3)}  ${floorResult.requests.average.toFixed(0).padStart(6)} writes/s  ${floorPerWrite.toFixed(0)} µs CPU/write${schema ? `  database ${floorDbPerWrite.toFixed(0)} µs CPU/write` : ''}`);
          }
          console.log(`  round ${r}  webhooks ${name.padEnd(3)}  ${result.requests.average.toFixed(0).padStart(6)} writes/s  p50 ${formatMs(result.latency.p50)}  p99 ${formatMs(result.latency.p99)}  ${result.requests.total} writes  ${perWrite.toFixed(0)} µs CPU/write (main thread ${mainPerWrite.toFixed(0)})${schema ? `  database ${dbPerWrite.toFixed(0)} µs CPU/write, ${walKb.toFixed(1)} KiB of WAL/write` : `  ${kbPerWrite.toFixed(1)} KiB written/write`}${failed ? `  FAILED ${failed}` : ''}${drained}`);
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
      const rowStats = schema ? await deliveryRows(schema, on.org.id) : undefined;
      const missing = [...written.keys()].filter((id) => !arrivals.some(([a]) => a === id)).length;
      if (missing > 0) exit = 1;
      const latencies = (from: number, to: number) => arrivals.map(([id, at]) => ({ at, w: written.get(id) })).filter((x) => x.w !== undefined && x.w >= from && x.w < to).map((x) => x.at - x.w!);
      const loaded = latencies(loadStart, loadEnd);
      const idle = latencies(idleStart, Date.now());
      console.log('');
      console.log(`writes/s, median of ${rounds} rounds: webhooks off ${median(rates.off).toFixed(0)}, on ${median(rates.on).toFixed(0)}`);
      console.log(`on/off: ${ratiosText(rates)}; goal ≥ ${GOAL_RATIO}`);
      console.log(`server CPU per write: off ${median(cpu.off).toFixed(0)} µs, on ${median(cpu.on).toFixed(0)} µs: ${ratiosText(cpu)}`);
      if (floor) {
        console.log(`floor, deliveries written and none attempted: on/off ${ratiosText(floorRates)}; CPU per write off ${median(floorCpu.off).toFixed(0)} µs, on ${median(floorCpu.on).toFixed(0)} µs: ×${median(roundRatios(floorCpu)).toFixed(3)}${schema ? `; database's off ${median(floorDb.off).toFixed(0)} µs, on ${median(floorDb.on).toFixed(0)} µs` : ''}`);
      }
      console.log(`main thread's CPU per write: off ${median(mainCpu.off).toFixed(0)} µs, on ${median(mainCpu.on).toFixed(0)} µs: ${ratiosText(mainCpu)}`);
      if (schema) console.log(`database's CPU per write (PostgreSQL's processes): off ${median(dbCpu.off).toFixed(0)} µs, on ${median(dbCpu.on).toFixed(0)} µs: ${ratiosText(dbCpu)}`);
      if (schema) console.log(`WAL per write: off ${median(walPerWrite.off).toFixed(1)} KiB, on ${median(walPerWrite.on).toFixed(1)} KiB: ${ratiosText(walPerWrite)}`);
      if (rowStats) console.log(`deliveries' rows: ${rowStats.rowBytes.toFixed(0)} bytes on disk (payload ${rowStats.payloadBytes.toFixed(0)}); updates ${rowStats.updates}, of them HOT ${rowStats.hot} (${rowStats.updates ? ((100 * rowStats.hot) / rowStats.updates).toFixed(0) : 0} %)`);
      console.log(`receiver's CPU per write of an "on" round (the benchmark's own, on the same cores): ${median(receiverCpu).toFixed(0)} µs`);
      console.log(`backlog after an "on" round delivered within ${median(drains)} ms (median)`);
      console.log(`commit → receiver, idle (${idle.length} writes one at a time): median ${median(idle).toFixed(1)} ms, p99 ${percentile(idle, 99).toFixed(1)} ms`);
      console.log(`commit → receiver, under load (${loaded.length} deliveries of the "on" rounds): median ${median(loaded).toFixed(1)} ms, p99 ${percentile(loaded, 99).toFixed(1)} ms`);
      console.log(`deliveries made ${written.size}, received ${arrivals.length}${missing ? `, ${missing} NEVER ARRIVED` : ''}`);
      console.log(`load average at the end: ${loadAverage()}`);
      if (profileDir) console.log(`The server's profile over the whole run (${writes} writes), kept in ${profileDir}:\n${summarizeCpuProfiles(profileDir, 25, writes)}`);
    } catch (err) {
      await orchard.stop();
      throw err;
    } finally {
      await floor?.stop();
    }
  } finally {
    await receiver.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (schema) await dropSchemasOf(process.env.DATABASE_URL!, schema);
  }
  process.exitCode = exit;
}

await main();
