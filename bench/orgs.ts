// Ten thousand organizations in one process: GET by id with a token of each organization in turn,
// so that nearly every request finds its organization closed (OPEN_ORGS, 128 by default, are kept
// open) and opens its file; p99, errors and the server's RSS (VmHWM, VmRSS of /proc/<pid>/status).
// Anchor, in the same run: the same server and load restricted to 100 organizations, which all stay
// open: the ratio is what the churn of opening organizations costs.
//
// Data: --orgs enterprise organizations (minute limit lifted) of --records sample accounts each,
// made once in this process through the stores and kept under .bench-data/orgs-<orgs>-<records>/
// (--fresh makes them again): the first with the admin seed, every other one a control-plane
// organization, user and token like `orchard org create` makes, whose file starts as a copy of the
// first's (so every organization holds the same account ids, and its own user).
//
// Each round starts every target's server in a process of its own (so VmHWM is that run's peak),
// sets every token's last use to "never" beforehand (as after a restart, or with organizations
// that each send less than a request a minute: every first use of a token writes its time), warms
// up for --warmup s on the anchor's organizations (the last 100), then loads with
// wrk (one thread, --connections connections, --duration s) walking the organizations in order.
// The targets' order rotates by round; figures are medians of --rounds rounds.
//
// `--versus DIR` adds the same two loads on another build (DIR holds its own dist/ and
// node_modules) on the same data, or with `--versus-layout every-index` on a data set made the
// same way but with every field index on every object table, as builds before indexes came with a
// table's rows made files. `--create N` instead times `createOrganization` (control rows,
// the file made and migrated, the first user and token) for N organizations in a new data
// directory, in a process of its own per round, this build beside --versus.
//
// Usage: node dist/bench/orgs.js [--orgs 10000] [--records 300] [--anchor-orgs 100] [--rounds 3]
//   [--duration 10] [--warmup 2] [--connections 4] [--fresh] [--versus DIR [--versus-layout every-index]] [--profile]
//   node dist/bench/orgs.js --create 100 [--rounds 5] [--versus DIR]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { execFileSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config.js';
import { openStores } from '../src/stores.js';
import { buildObject } from '../src/schema/build-object.js';
import { indexSql, readSpecs } from '../src/store/sqlite/sqlite-ddl.js';
import { openDb } from '../src/store/sqlite/sqlite-db.js';
import { announceAndServe, failures, loadAverage, median, processCpuMicros, runLoad, serveInChild, summarizeCpuProfiles, type LoadRequest, type LoadResult } from './lib.js';
import { startOrchard, wholeOption } from './orchard-target.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SCRIPT), '../..');

const { values: opts } = parseArgs({
  options: {
    serve: { type: 'boolean', default: false },
    'create-child': { type: 'string' },
    'data-dir': { type: 'string' },
    orgs: { type: 'string', default: '10000' },
    records: { type: 'string', default: '300' },
    'anchor-orgs': { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '4' },
    fresh: { type: 'boolean', default: false },
    versus: { type: 'string' },
    'versus-layout': { type: 'string', default: 'same' },
    create: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});

/** What bench.json keeps of a data set: each organization's id and token, and account ids every organization holds. */
interface DataSet {
  readonly orgs: ReadonlyArray<{ readonly id: string; readonly token: string }>;
  readonly ids: readonly string[];
}

const ENTERPRISE = { plan: 'enterprise', minuteLimit: 1_000_000_000 } as const;

/**
 * `everyIndex`: files as builds before field indexes came with a table's rows made them, every
 * field index on every object table (the same SQL), for a --versus build of that kind.
 */
async function dataSet(orgCount: number, records: number, fresh: boolean, everyIndex = false): Promise<{ dataDir: string; set: DataSet }> {
  const dataDir = path.join(ROOT, '.bench-data', `orgs-${orgCount}-${records}${everyIndex ? '-every-index' : ''}`);
  const marker = path.join(dataDir, 'bench.json');
  if (!fresh && fs.existsSync(marker)) return { dataDir, set: JSON.parse(fs.readFileSync(marker, 'utf8')) as DataSet };
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const started = Date.now();
  const config = loadConfig({}, { dataDir, logLevel: 'silent' });
  let stores = openStores(config);
  const orgs: Array<{ id: string; token: string }> = [];
  let ids: string[];
  try {
    const { org, token } = await stores.admin.createOrganization({ name: 'Bench 0', email: 'bench0@example.com', ...ENTERPRISE });
    await stores.admin.seed({ orgId: org.id, object: 'account', count: records, seed: 1 });
    const first = await stores.records.org(org.id);
    const accounts = (await first.schema()).resolve('account');
    const rows = (await first.list(accounts, { limit: records, offset: 0 })).records;
    // Ten ids spread over the table.
    ids = Array.from({ length: Math.min(10, rows.length) }, (_, i) => String(rows[Math.floor((i * rows.length) / Math.min(10, rows.length))]!.accountid));
    orgs.push({ id: org.id, token });
  } finally {
    await stores.close(); // the first file checkpointed and whole, to be copied
  }
  const template = path.join(dataDir, 'template.db');
  fs.copyFileSync(path.join(dataDir, 'orgs', `${orgs[0]!.id}.db`), template);
  if (everyIndex) {
    for (const file of [template, path.join(dataDir, 'orgs', `${orgs[0]!.id}.db`)]) {
      const db = openDb(file);
      try {
        for (const obj of readSpecs(db).map(buildObject)) for (const f of obj.fields) if (f.indexed && f.role !== 'derived') db.exec(indexSql(obj, f));
      } finally {
        db.close();
      }
    }
  }
  console.log(`Made the first organization with ${records} accounts in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  stores = openStores(config);
  try {
    for (let i = 1; i < orgCount; i++) {
      const org = await stores.control.createOrganization({ name: `Bench ${i}`, plan: ENTERPRISE.plan, minuteLimit: ENTERPRISE.minuteLimit });
      fs.copyFileSync(template, path.join(dataDir, 'orgs', `${org.id}.db`));
      const { user, token } = await stores.admin.createUser({ orgId: org.id, email: `bench${i}@example.com`, role: 'admin' });
      await stores.control.setPrimaryUser(org.id, user.id);
      orgs.push({ id: org.id, token });
      if (i % 1000 === 0) console.log(`  ${i.toLocaleString('en-US')} organizations, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
  } finally {
    await stores.close();
  }
  fs.rmSync(template);
  const set: DataSet = { orgs, ids };
  fs.writeFileSync(marker, JSON.stringify(set));
  console.log(`Made ${orgCount.toLocaleString('en-US')} organizations of ${records} accounts in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  return { dataDir, set };
}

/** Every token's last use set to none, so that each first use in the next server writes it (the server is stopped). */
function forgetTokenUses(dataDir: string): void {
  const db = new Database(path.join(dataDir, 'control.db'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE tokens SET last_used_at = NULL').run();
  } finally {
    db.close();
  }
}

/** kB of a /proc/<pid>/status field (VmHWM: peak resident set; VmRSS: now). */
function procStatusKb(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : Number.NaN;
}

/** GET by id of each organization in `orgs` in turn, with its token. */
function walk(set: DataSet, orgs: ReadonlyArray<{ id: string; token: string }>): LoadRequest[] {
  return orgs.map((o, i) => ({ path: `/api/record/account/${set.ids[i % set.ids.length]}`, headers: { tokenid: o.token } }));
}

/** Latencies in ms; cpuUs: the server's CPU time (every thread) per request of the measured load, steadier than req/s on a shared machine. */
interface Figures { p50: number; p99: number; max: number; rate: number; failed: number; hwmMb: number; rssMb: number; cpuUs: number }

if (opts.serve) {
  const server = await startOrchard(opts['data-dir']!);
  announceAndServe(server.url, server.close);
} else if (opts['create-child']) {
  await createChild(Number(opts['create-child']));
} else if (opts.create) {
  await compareCreation();
} else {
  await main();
}

async function main(): Promise<void> {
  const orgCount = wholeOption(opts, 'orgs', 2);
  const records = wholeOption(opts, 'records', 1);
  const anchorOrgs = wholeOption(opts, 'anchor-orgs', 1);
  const rounds = wholeOption(opts, 'rounds', 1);
  const duration = wholeOption(opts, 'duration', 1);
  const warmup = wholeOption(opts, 'warmup', 0);
  const connections = wholeOption(opts, 'connections', 1);
  if (orgCount <= anchorOrgs) throw new Error('--orgs must be more than --anchor-orgs.');
  const versus = versusScript();
  const layout = opts['versus-layout'];
  if (layout !== 'same' && layout !== 'every-index') throw new Error('--versus-layout is same or every-index.');
  const mine = await dataSet(orgCount, records, opts.fresh);
  const theirs = versus && layout === 'every-index' ? await dataSet(orgCount, records, opts.fresh, true) : mine;

  // The anchor's organizations are the last ones; both loads warm up on them, so the anchor is
  // measured with them open, and the walk over all reaches them last (closed again by then).
  const loadsOf = ({ set }: { set: DataSet }) => ({ all: walk(set, set.orgs), anchor: walk(set, set.orgs.slice(-anchorOrgs)) });
  const loads = loadsOf(mine);
  const theirLoads = loadsOf(theirs);
  const targets = [
    { name: `${orgCount.toLocaleString('en-US')} organizations`, load: loads.all, warm: loads.anchor, script: SCRIPT, kind: 'all', dataDir: mine.dataDir },
    { name: `${anchorOrgs} organizations (anchor)`, load: loads.anchor, warm: loads.anchor, script: SCRIPT, kind: 'anchor', dataDir: mine.dataDir },
    ...(versus ? [
      { name: `${orgCount.toLocaleString('en-US')} organizations, --versus`, load: theirLoads.all, warm: theirLoads.anchor, script: versus, kind: 'all', dataDir: theirs.dataDir },
      { name: `${anchorOrgs} organizations, --versus`, load: theirLoads.anchor, warm: theirLoads.anchor, script: versus, kind: 'anchor', dataDir: theirs.dataDir },
    ] : []),
  ];
  if (theirs !== mine) console.log(`--versus loads ${theirs.dataDir} (every field index, as earlier builds made files).`);
  console.log(`${orgCount.toLocaleString('en-US')} organizations of ${records} accounts; GET by id, wrk, ${connections} connections, ${rounds} rounds of ${duration} s after ${warmup} s of warm-up, the targets' order rotating; load average ${loadAverage()} at the start`);
  const results = new Map<string, Figures[]>();
  for (let round = 1; round <= rounds; round++) {
    const shift = (round - 1) % targets.length;
    const line: string[] = [];
    for (const t of [...targets.slice(shift), ...targets.slice(0, shift)]) {
      forgetTokenUses(t.dataDir);
      const profileDir = opts.profile ? fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-orgs-prof-')) : undefined;
      const server = await serveInChild(t.name, t.script, ['--serve', '--data-dir', t.dataDir], profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
      const pid = server.child.pid!;
      try {
        if (warmup > 0) await runLoad({ url: server.url, connections, duration: warmup, requests: t.warm });
        const cpuBefore = processCpuMicros(pid);
        const r: LoadResult = await runLoad({ url: server.url, connections, duration, requests: t.load });
        const cpuUs = (processCpuMicros(pid) - cpuBefore) / r.requests.total;
        const f: Figures = {
          p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, rate: r.requests.average, failed: failures(r),
          hwmMb: procStatusKb(pid, 'VmHWM') / 1024, rssMb: procStatusKb(pid, 'VmRSS') / 1024, cpuUs,
        };
        (results.get(t.name) ?? results.set(t.name, []).get(t.name)!).push(f);
        line.push(`${t.name}: p99 ${f.p99.toFixed(1)} ms, ${Math.round(f.rate)} req/s, ${Math.round(f.cpuUs)} µs CPU/req, HWM ${f.hwmMb.toFixed(0)} MB, ${f.failed} failed`);
      } finally {
        await server.stop();
      }
      if (profileDir) {
        console.log(`Profile of ${t.name}, round ${round}:\n${summarizeCpuProfiles(profileDir, 25)}`);
        fs.rmSync(profileDir, { recursive: true, force: true });
      }
    }
    console.log(`round ${round}: ${line.join('; ')}`);
  }

  const med = (name: string, k: keyof Figures) => median(results.get(name)!.map((f) => f[k]));
  console.log(`\nMedians of ${rounds} rounds; load average ${loadAverage()} at the end.\n`);
  console.log('| target | p50 ms | p99 ms | max ms | req/s | server CPU µs/req | failed (all rounds) | VmHWM MB | VmRSS MB at the end |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const t of targets) {
    const failed = results.get(t.name)!.reduce((n, f) => n + f.failed, 0);
    console.log(`| ${t.name} | ${med(t.name, 'p50').toFixed(2)} | ${med(t.name, 'p99').toFixed(2)} | ${med(t.name, 'max').toFixed(1)} | ${Math.round(med(t.name, 'rate'))} | ${Math.round(med(t.name, 'cpuUs'))} | ${failed} | ${med(t.name, 'hwmMb').toFixed(0)} | ${med(t.name, 'rssMb').toFixed(0)} |`);
  }
  const [all, anchor] = [targets[0]!.name, targets[1]!.name];
  const ratios = results.get(all)!.map((f, i) => f.p99 / results.get(anchor)![i]!.p99);
  console.log(`\np99, ${all} / ${anchor}, by round: ${ratios.map((r) => `×${r.toFixed(2)}`).join(' ')} (median ×${median(ratios).toFixed(2)})`);
  const p99 = med(all, 'p99');
  const hwm = med(all, 'hwmMb');
  const failed = results.get(all)!.reduce((n, f) => n + f.failed, 0);
  // Figures are measurements (exit 0 whatever they are), but figures of failed requests are not.
  if (targets.some((t) => results.get(t.name)!.some((f) => f.failed > 0))) process.exitCode = 1;
  console.log(`Goal: p99 ≤ 20 ms (${p99.toFixed(1)}: ${p99 <= 20 ? 'MET' : 'NOT MET'}), RSS ≤ 400 MB (peak ${hwm.toFixed(0)}: ${hwm <= 400 ? 'MET' : 'NOT MET'}), no errors (${failed}: ${failed === 0 ? 'MET' : 'NOT MET'}).`);
  if (versus) {
    for (const kind of ['all', 'anchor']) {
      const [mine, theirs] = targets.filter((t) => t.kind === kind).map((t) => results.get(t.name)!);
      const byRound = mine!.map((f, i) => f.p99 / theirs![i]!.p99);
      const rates = mine!.map((f, i) => f.rate / theirs![i]!.rate);
      const cpu = mine!.map((f, i) => f.cpuUs / theirs![i]!.cpuUs);
      console.log(`This build / --versus, ${kind === 'all' ? all : anchor}: p99 by round ${byRound.map((r) => `×${r.toFixed(2)}`).join(' ')} (median ×${median(byRound).toFixed(2)}); req/s median ×${median(rates).toFixed(2)}; CPU µs/req by round ${cpu.map((r) => `×${r.toFixed(2)}`).join(' ')} (median ×${median(cpu).toFixed(2)})`);
    }
  }
}

/** --versus: the other build's copy of this script. */
function versusScript(): string | undefined {
  if (!opts.versus) return undefined;
  const script = path.join(path.resolve(opts.versus), 'dist', 'bench', 'orgs.js');
  if (!fs.existsSync(script)) throw new Error(`--versus: no ${script}; build that checkout first.`);
  return script;
}

/** In a child: creates `count` organizations in a new data directory; prints the milliseconds each took, on average. */
async function createChild(count: number): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-orgs-create-'));
  const stores = openStores(loadConfig({}, { dataDir, logLevel: 'silent' }));
  try {
    const started = performance.now();
    for (let i = 0; i < count; i++) await stores.admin.createOrganization({ name: `Org ${i}`, plan: 'free', email: `owner${i}@example.com`, minuteLimit: null });
    console.log(`CREATE ${(performance.now() - started) / count}`);
  } finally {
    await stores.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** --create: ms per organization created, this build beside --versus, alternating by round. */
async function compareCreation(): Promise<void> {
  const count = wholeOption(opts, 'create', 1);
  const rounds = wholeOption(opts, 'rounds', 1);
  const versus = versusScript();
  const builds = [{ name: 'this build', script: SCRIPT }, ...(versus ? [{ name: '--versus', script: versus }] : [])];
  console.log(`createOrganization × ${count} in a new data directory, ${rounds} rounds, the builds alternating; load average ${loadAverage()} at the start`);
  const times = new Map<string, number[]>(builds.map((b) => [b.name, []]));
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? builds : [...builds].reverse();
    for (const b of order) {
      const out = execFileSync(process.execPath, [b.script, '--create-child', String(count)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      times.get(b.name)!.push(Number(/^CREATE (\S+)$/m.exec(out)![1]));
    }
    console.log(`round ${round}: ${builds.map((b) => `${b.name} ${times.get(b.name)!.at(-1)!.toFixed(1)} ms`).join(', ')}`);
  }
  console.log(`\nMedians, ms per organization; load average ${loadAverage()} at the end: ${builds.map((b) => `${b.name} ${median(times.get(b.name)!).toFixed(1)}`).join(', ')}`);
  if (versus) {
    const ratios = times.get('this build')!.map((t, i) => t / times.get('--versus')![i]!);
    console.log(`This build / --versus by round: ${ratios.map((r) => `×${r.toFixed(2)}`).join(' ')} (median ×${median(ratios).toFixed(2)})`);
  }
}
