// What rate limits cost: `GET /api/record/account/{id}` on two Orchard servers in the same run, one
// with limits on and one with RATE_LIMITS=off, each in its own child process (see get-record.ts for
// why), loaded by wrk in alternating rounds. Prints per-round figures, both medians and the
// overhead of limits per request (goal ≤ 10 %); --profile adds CPU µs per request of each server
// (node --cpu-prof), the steadier comparison on a shared, noisy machine.
//
// Each server serves its own copy of the same seeded data. "on" is the production path: every request is checked and counted in both windows of its
// organization and written behind to limits.db. Nothing is refused: the organization's minute limit
// is lifted (1,000,000,000) and the daily cap with DAILY_CAP (bench/orchard-target.ts), which keeps
// the day counted and checked on every request. "off" has no limit hooks at all.
//
// `--what journal` compares the request journal instead: both servers with limits on, "off" with
// JOURNAL_SIZE=0 (the default: no journal hook at all), "on" keeping the last 1,000 requests of the
// organization (docs/control-api.md § Journal), each GET then recorded with its masked header
// fields and its reply cut at 4,096 characters.
//
// Usage: node dist/bench/limits.js [--rounds 5] [--duration 5] [--warmup 2] [--connections 32]
//   [--threads 1] [--accounts 10000] [--ids 100] [--profile] [--what limits|journal]
// Exits 0 whatever the overhead (it is a measurement) but 1 if any request failed.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { announceAndServe, failures, formatRate, loadAverage, mainThreadBusyMicros, median, runLoad, serveInChild, type LoadResult } from './lib.js';
import { GET_BY_ID_OPTIONS, checkIds, pickIds, seedAccounts, startOrchard, wholeOption } from './orchard-target.js';

const GOAL_OVERHEAD = 0.1;
const SCRIPT = fileURLToPath(import.meta.url);
const MODES = ['off', 'on'] as const;
type Mode = (typeof MODES)[number];

const { values: opts } = parseArgs({
  options: { ...GET_BY_ID_OPTIONS, rounds: { type: 'string', default: '5' }, what: { type: 'string', default: 'limits' } },
});

const whole = (name: keyof typeof opts, min: number): number => wholeOption(opts, name, min);
if (opts.what !== 'limits' && opts.what !== 'journal') throw new Error(`--what takes limits or journal; got '${opts.what}'`);
/** What is switched off and on. */
const what = opts.what;

const percent = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} %`;

/** The RateLimit field of one request, to show that the "on" server really counted and "off" did not. */
async function rateLimitField(url: string, token: string, id: string): Promise<string> {
  const res = await fetch(`${url}/api/record/account/${id}`, { headers: { tokenid: token } });
  await res.arrayBuffer();
  return res.headers.get('ratelimit') ?? '(none)';
}

async function drive(): Promise<number> {
  const rounds = whole('rounds', 1);
  const duration = whole('duration', 1);
  const warmup = whole('warmup', 0);
  const connections = whole('connections', 1);
  const threads = whole('threads', 1);
  const accountCount = whole('accounts', 1);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-limits-'));
  const profileDir = path.join(dataDir, 'profile');
  const targets: Array<{ stop: () => Promise<void> }> = [];
  try {
    const token = await seedAccounts(path.join(dataDir, 'off'), accountCount);
    // Each server has its own copy of the data: two processes on one set of SQLite files make each
    // other's reads cost more or less from run to run (shared WAL and lock state), which swamped the figure.
    fs.cpSync(path.join(dataDir, 'off'), path.join(dataDir, 'on'), { recursive: true });
    const servers = {} as Record<Mode, { url: string }>;
    for (const mode of MODES) {
      const nodeArgs = opts.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, mode)}`] : [];
      const target = await serveInChild(`${what} ${mode}`, SCRIPT, ['--serve', mode, '--what', what, '--data-dir', path.join(dataDir, mode)], nodeArgs);
      targets.push(target);
      servers[mode] = target;
    }
    const ids = await pickIds(servers.off.url, token, accountCount, whole('ids', 1));
    await checkIds(servers.on.url, token, ids);
    console.log(`Seeded ${accountCount.toLocaleString('en-US')} accounts; requests rotate over ${ids.length} ids.`);
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), load average ${loadAverage()}`);
    console.log(`wrk: ${threads} thread(s), ${connections} connections, ${rounds} rounds of ${duration} s per mode, each after a ${warmup} s warm-up.\n`);

    const requests = ids.map((id) => ({ path: `/api/record/account/${id}`, headers: { tokenid: token } }));
    const rates: Record<Mode, number[]> = { off: [], on: [] };
    const served: Record<Mode, number> = { off: 0, on: 0 };
    let failed = 0;
    const tally = (mode: Mode, r: LoadResult) => {
      served[mode] += r.requests.total;
      failed += failures(r);
    };
    for (let round = 1; round <= rounds; round++) {
      for (const mode of MODES) {
        const load = { url: servers[mode].url, connections, threads, requests };
        if (warmup > 0) tally(mode, await runLoad({ ...load, duration: warmup }));
        const result = await runLoad({ ...load, duration });
        tally(mode, result);
        rates[mode].push(result.requests.average);
        console.log(`  ${what} ${mode.padEnd(3)} round ${round}  ${formatRate(result.requests.average)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${failures(result) ? `  FAILED ${failures(result)}` : ''}`);
      }
    }
    for (const mode of MODES) console.log(`\nRateLimit of a request to "${mode}" after the run: ${await rateLimitField(servers[mode].url, token, ids[0]!)}`);

    const off = median(rates.off);
    const on = median(rates.on);
    const overhead = off / on - 1; // extra time per request with limits on
    console.log(`\nMedian req/s: ${what} off ${formatRate(off).trim()}, ${what} on ${formatRate(on).trim()}`);
    console.log(`Overhead of ${what} per request (throughput): ${percent(overhead)} — goal ≤ ${100 * GOAL_OVERHEAD} %: ${overhead <= GOAL_OVERHEAD ? 'MET' : 'NOT MET'}`);

    for (const t of targets.splice(0)) await t.stop();
    if (opts.profile) {
      // Each server idled while the other was loaded, so busy time over requests served is its cost per request.
      const cpu = (mode: Mode) => mainThreadBusyMicros(path.join(profileDir, mode)) / served[mode];
      const cpuOff = cpu('off');
      const cpuOn = cpu('on');
      console.log(`CPU per request (main thread, warm-ups included): ${what} off ${cpuOff.toFixed(1)} µs, ${what} on ${cpuOn.toFixed(1)} µs — overhead ${percent(cpuOn / cpuOff - 1)}`);
      console.log(`Profiles kept in ${profileDir}`);
    }
    if (failed > 0) {
      console.error(`\n${failed} requests failed; the figures above measured errors.`);
      return 1;
    }
    return 0;
  } finally {
    for (const t of targets) await t.stop().catch(() => {});
    if (!opts.profile) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function serve(mode: string): Promise<void> {
  if (mode !== 'on' && mode !== 'off') throw new Error(`--serve takes on or off; got '${mode}'`);
  if (!opts['data-dir']) throw new Error('--serve needs --data-dir');
  const on = mode === 'on';
  const { url, close } = await startOrchard(opts['data-dir'], what === 'limits' ? { rateLimits: on } : { journalSize: on ? 1000 : 0 });
  announceAndServe(url, close);
}

if (opts.serve) {
  await serve(opts.serve);
} else {
  process.exitCode = await drive();
}
