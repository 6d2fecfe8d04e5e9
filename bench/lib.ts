// Shared by the benchmark scripts: load from wrk (a C client, so the load generator takes a core of
// its own and no share of the server's event loop), child processes that serve one target each, and
// the figures a benchmark prints.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** One request the load cycles through; the requests are sent in order, the list over and over. */
export interface LoadRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  /** Seconds. */
  readonly duration: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Without: GET of the URL's path. */
  readonly requests?: readonly LoadRequest[];
  /** wrk threads (1: the server under load keeps the other core). */
  readonly threads?: number;
}

/** What the benchmarks read of a load run. Latencies are milliseconds. */
export interface LoadResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly average: number; readonly p50: number; readonly p99: number; readonly max: number };
  /** Seconds. */
  readonly duration: number;
  /** Socket errors: connect, read, write. */
  readonly errors: number;
  readonly timeouts: number;
  /** Replies with a status outside 2xx and 3xx. */
  readonly non2xx: number;
}

/** The line wrk's done() prints (the script below), then its summary as JSON. */
const WRK_PREFIX = 'WRK_RESULT ';

const luaString = (s: string): string => `"${[...Buffer.from(s, 'utf8')].map((b) => (b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : `\\${String(b).padStart(3, '0')}`)).join('')}"`;

/**
 * The wrk script of a run: the requests built once per thread with wrk.format and sent in turn
 * (each thread walks the list from its start), and done() printing the summary as one JSON line.
 */
function wrkScript(options: LoadOptions): string {
  const base = new URL(options.url);
  const requests = options.requests ?? [{ path: base.pathname + base.search }];
  const lines = ['local specs = {'];
  for (const r of requests) {
    const headers = { ...options.headers, ...r.headers };
    if (r.body === undefined) delete (headers as Record<string, string>)['content-type'];
    const h = Object.entries(headers).map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`).join(', ');
    lines.push(`  { ${luaString(r.method ?? 'GET')}, ${luaString(r.path)}, { ${h} }, ${r.body === undefined ? 'nil' : luaString(r.body)} },`);
  }
  lines.push('}', `
local built = {}
local i = 0
function init(args)
  for n, s in ipairs(specs) do built[n] = wrk.format(s[1], s[2], s[3], s[4]) end
end
function request()
  i = i % #built + 1
  return built[i]
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('${WRK_PREFIX}{"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"mean_us":%f,"p50_us":%d,"p99_us":%d,"max_us":%d}\\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency:percentile(50), latency:percentile(99), latency.max))
end
`);
  return lines.join('\n');
}

/**
 * Runs wrk once (`threads` threads, 1 by default, `connections` connections, for `duration` s) and
 * resolves with its summary. A request that takes more than 10 s counts as a timeout.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await runWrk(options);
  // wrk closes its connections at the end with requests in flight, which a server that cannot drop
  // them still works through: the next run would queue behind them (on a server that takes 100 ms a
  // request and 32 connections, 3 s of it). One more request, answered after them, waits them out.
  const first = options.requests?.[0] ?? { path: new URL(options.url).pathname };
  await oneRequest(options.url, { ...first, headers: { ...options.headers, ...first.headers } });
  return result;
}

/**
 * One request on a connection of its own (no keep-alive pool whose idle sockets a server may have
 * closed meanwhile): its status and body.
 */
export function oneRequest(url: string, request: LoadRequest): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(request.path, url), { method: request.method ?? 'GET', headers: request.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

function runWrk(options: LoadOptions): Promise<LoadResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-wrk-'));
  const script = path.join(dir, 'load.lua');
  fs.writeFileSync(script, wrkScript(options));
  const threads = Math.min(options.threads ?? 1, options.connections);
  const args = ['-t', String(threads), '-c', String(options.connections), '-d', `${options.duration}s`, '--timeout', '10s', '-s', script, options.url];
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { encoding: 'utf8', maxBuffer: 1 << 20 }, (err, stdout, stderr) => {
      fs.rmSync(dir, { recursive: true, force: true });
      const line = stdout.split('\n').find((l) => l.startsWith(WRK_PREFIX));
      if (err || !line) {
        const missing = (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
        reject(new Error(missing ? 'wrk is not installed: the benchmarks load servers with it (Debian: apt-get install wrk).' : `wrk ${args.join(' ')} failed: ${err?.message ?? ''} ${stderr} ${stdout}`.trim()));
        return;
      }
      const w = JSON.parse(line.slice(WRK_PREFIX.length)) as Record<string, number>;
      const seconds = w.duration_us! / 1e6;
      resolve({
        requests: { average: w.requests! / seconds, total: w.requests! },
        latency: { average: w.mean_us! / 1000, p50: w.p50_us! / 1000, p99: w.p99_us! / 1000, max: w.max_us! / 1000 },
        duration: seconds,
        errors: w.connect! + w.read! + w.write!,
        timeouts: w.timeout!,
        non2xx: w.status!,
      });
    });
  });
}

/** Requests that did not succeed: non-2xx replies, socket errors and timeouts. */
export function failures(result: LoadResult): number {
  return result.non2xx + result.errors + result.timeouts;
}

/** Clock ticks per second of /proc/<pid>/stat (Linux: 100 almost everywhere). */
const CLOCK_TICKS = 100;

/**
 * CPU time (user and system, every thread) a process has used so far, in microseconds, from
 * /proc/<pid>/stat; NaN where there is no /proc. Over a load run, the difference divided by the
 * requests answered is what one request costs the server: a steadier figure than req/s on a shared
 * machine, as time the machine gives other processes is not counted.
 */
export function processCpuMicros(pid: number | undefined, which: 'user+system' | 'user' = 'user+system'): number {
  return cpuMicrosOf(`/proc/${pid}/stat`, which);
}

/** CPU time of a process's main thread alone (its JavaScript event loop): user + system, microseconds. */
export function mainThreadCpuMicros(pid: number | undefined): number {
  return cpuMicrosOf(`/proc/${pid}/task/${pid}/stat`, 'user+system');
}

function cpuMicrosOf(statFile: string, which: 'user+system' | 'user'): number {
  try {
    return cpuMicrosIn(fs.readFileSync(statFile, 'utf8'), which);
  } catch {
    return Number.NaN;
  }
}

/** The CPU time a /proc stat line gives, microseconds. */
function cpuMicrosIn(stat: string, which: 'user+system' | 'user'): number {
  // Fields after the command (which may hold spaces) in parentheses; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + (which === 'user' ? 0 : Number(fields[12]))) * 1e6) / CLOCK_TICKS;
}

/** CPU time (user + system, microseconds) of each live process whose command is `name` (PostgreSQL's server and its backends: 'postgres'), by pid. */
export function cpuOfProcessesNamed(name: string): Map<number, number> {
  const out = new Map<number, number>();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === name) out.set(Number(pid), cpuMicrosIn(stat, 'user+system'));
    } catch {
      // Ended meanwhile.
    }
  }
  return out;
}

/** The CPU the processes of two readings used between them: each one's difference, one that started meanwhile counted whole (one that ended is not counted). */
export function cpuBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, micros] of after) total += micros - (before.get(pid) ?? 0);
  return total;
}

/** The machine's load average (1, 5, 15 minutes), as every benchmark prints it beside its figures. */
export function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' ');
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A server running in a child process, as the load generator must not share its event loop. */
export interface ServedTarget {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  /** Asks the child to close its server and exit (so a --cpu-prof profile is written); resolves when it has. */
  stop(): Promise<void>;
}

/** The line a serving child prints on stdout once it listens. */
export const READY_PREFIX = 'READY ';

/**
 * Spawns `node [nodeArgs] script args` and resolves once the child prints `READY <url>`. The child
 * stops when its stdin ends, so it also goes away if this process dies.
 */
export function serveInChild(name: string, script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<ServedTarget> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const onExit = (code: number | null) => reject(new Error(`the ${name} server exited (code ${code}) before it was ready`));
    child.once('exit', onExit);
    child.once('error', reject);
    lines.on('line', (line) => {
      if (!line.startsWith(READY_PREFIX)) {
        process.stdout.write(`[${name}] ${line}\n`);
        return;
      }
      child.off('exit', onExit);
      resolve({
        name,
        url: line.slice(READY_PREFIX.length).trim(),
        child,
        stop: () => {
          child.stdin!.end();
          return exited;
        },
      });
    });
  });
}

/** In a serving child: announce the URL, then run `close` and exit when the parent ends stdin or sends SIGTERM/SIGINT. */
export function announceAndServe(url: string, close: () => Promise<void>): void {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    close().then(() => process.exit(0), (err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  };
  process.stdin.on('end', stop).resume();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdout.write(`${READY_PREFIX}${url}\n`);
}

export function formatRate(n: number): string {
  return Math.round(n).toLocaleString('en-US').padStart(8);
}

export function formatMs(n: number): string {
  return `${Number.isInteger(n) ? n : n.toFixed(2)} ms`.padStart(8);
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }>;
  samples: number[];
  /** Microseconds. */
  startTime: number;
  endTime: number;
}

/** Where a function comes from: a package, Orchard's own code, Node internals or V8's pseudo-frames. */
function originOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node';
  const own = /\/dist\/(src|bench)\//.exec(url);
  return own ? `orchard ${own[1]}` : url;
}

/** Self-time samples of one profile, by function and by origin. */
function readCpuProfile(file: string): { byFunction: Map<string, number>; byOrigin: Map<string, number>; total: number; us: number } {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  for (const node of profile.nodes) {
    const n = hits.get(node.id) ?? 0;
    if (n === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}  ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + n);
    const origin = originOf(url, functionName);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + n);
  }
  return { byFunction, byOrigin, total: profile.samples.length, us: profile.endTime - profile.startTime };
}

/** The `.cpuprofile` files `node --cpu-prof` wrote to `dir`, and the main thread's among them. */
function profileFiles(dir: string): { files: string[]; main: string | undefined } {
  // File names are CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile; thread 0 is the main thread.
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).sort();
  return { files, main: files.find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f)) };
}

/** Microseconds the main thread of the profile in `dir` was busy (not idle); NaN without a profile. */
export function mainThreadBusyMicros(dir: string): number {
  const { main } = profileFiles(dir);
  if (!main) return Number.NaN;
  const { byOrigin, total, us } = readCpuProfile(path.join(dir, main));
  return ((total - (byOrigin.get('(idle)') ?? 0)) * us) / total;
}

/**
 * Reports the `.cpuprofile` files `node --cpu-prof` wrote to `dir`: self time of the main thread
 * by origin (package, orchard, node, GC) and its `top` functions, then the busy time of any
 * worker threads. With `requests`, the number of requests the profiled server answered, times
 * are also given per request, which compares across servers where shares of busy time do not.
 */
export function summarizeCpuProfiles(dir: string, top: number, requests?: number): string {
  const { files, main } = profileFiles(dir);
  if (!main) return `  no main-thread profile in ${dir}`;
  const { byFunction, byOrigin, total, us } = readCpuProfile(path.join(dir, main));
  const usPerSample = us / total;
  // Idle time is the server waiting for the next request, not a cost; shares of busy time say where work goes.
  const idle = byOrigin.get('(idle)') ?? 0;
  const busy = total - idle;
  const perRequest = (n: number) => ((n * usPerSample) / requests!).toFixed(1);
  const figure = (n: number) => {
    const share = `${((100 * n) / busy).toFixed(1).padStart(5)} %`;
    return requests ? `${share} ${perRequest(n).padStart(6)} µs/req` : share;
  };
  const lines = [`  Main thread: ${(us / 1e6).toFixed(1)} s, ${((100 * idle) / total).toFixed(1)} % idle; shares below are of busy time${
    requests ? `; over ${requests.toLocaleString('en-US')} requests, ${perRequest(busy)} µs of CPU each` : ''}.`, '  By origin (self time):'];
  for (const [origin, n] of [...byOrigin].filter(([o]) => o !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`    ${figure(n)}  ${origin}`);
  lines.push(`  Top ${top} functions (self time):`);
  for (const [key, n] of [...byFunction].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${figure(n)}  ${key}`);
  for (const worker of files.filter((f) => f !== main)) {
    const w = readCpuProfile(path.join(dir, worker));
    const wBusy = w.total - (w.byOrigin.get('(idle)') ?? 0);
    const wUs = (wBusy * w.us) / w.total;
    lines.push(`  Worker thread ${worker}: busy ${(wUs / 1e6).toFixed(2)} s${requests ? ` (${(wUs / requests).toFixed(1)} µs/req)` : ''}.`);
  }
  return lines.join('\n');
}
