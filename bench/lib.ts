// Shared by the benchmark scripts: a typed wrapper over autocannon (which ships no types),
// child processes that serve one target each, and the figures a benchmark prints.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** One request autocannon cycles through; each connection walks the list in order. */
export interface LoadRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly pipelining: number;
  /** Seconds. */
  readonly duration: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly requests?: readonly LoadRequest[];
}

/** The part of autocannon's result the benchmarks read. Latencies are milliseconds. */
export interface LoadResult {
  readonly requests: { readonly average: number; readonly total: number; readonly sent: number };
  readonly latency: { readonly average: number; readonly p50: number; readonly p99: number; readonly max: number };
  readonly duration: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly '2xx': number;
  readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>;
}

type Autocannon = (opts: Record<string, unknown>, done: (err: Error | null, result: LoadResult) => void) => unknown;

// autocannon is CommonJS without type declarations; createRequire loads it under the
// minimal type above instead of silencing the compiler with an untyped import.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Runs autocannon once and resolves with its result; never prints a progress bar. */
export function runLoad(options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon({ ...options, requests: options.requests?.map((r) => ({ method: 'GET', ...r })) }, (err, result) => {
      if (err) reject(err);
      else resolve(result);
    });
  });
}

/** Requests that did not succeed: non-2xx replies, socket errors and timeouts. */
export function failures(result: LoadResult): number {
  return result.non2xx + result.errors + result.timeouts;
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
