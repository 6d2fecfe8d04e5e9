// What the change log costs on the write path (docs/history.md): write throughput of this build
// beside another build (`--versus DIR`, e.g. a checkout of the main branch before the change log)
// in the same run, each server in its own child process (`orchard serve` of its own build, on its
// own data: its own CLI made the organization and seeded it), loaded by wrk in rounds that
// alternate the builds, beside a bare Fastify anchor that answers the same requests. Cases: `create`
// (POST /api/record/account), `update` (PUT /api/record/account/{id} over a rotation of ids),
// `rename` (PUT /api/record/contact/{id} of a lastname, which the contact's fullname is built from,
// over a rotation of `--ids` contacts) and `delete` (DELETE /api/record/contact/{id}: contacts
// seeded for it, `--deletes` of them for each run and warm-up, none deleted twice; a run that used
// them all would count 404s as failures).
// `--store postgres` runs both builds on DATABASE_URL, each in schemas of its own (dropped after).
//
// Usage: node dist/bench/writes.js [--versus DIR] [--store sqlite|postgres] [--rounds 3]
//   [--duration 5] [--warmup 1] [--connections 10] [--accounts 2000] [--ids 200] [--cases create,update]
//   [--deletes 8000] [--profile]
// Prints per-round req/s, the medians, each build's ratio to the anchor, and this build's ratio to
// the other's per round and its median; --profile runs the servers under node --cpu-prof and adds
// each build's main-thread CPU µs per request (warm-ups and the setup's reads included), steadier
// than req/s on a shared machine. Exits 0 whatever the figures, 1 if any request failed.

import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import pg from 'pg';
import { announceAndServe, failures, formatRate, mainThreadBusyMicros, median, runLoad, serveInChild, type LoadRequest } from './lib.js';
import { BENCH_DAILY_CAP, pickIds, wholeOption } from './orchard-target.js';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const { values: opts } = parseArgs({
  options: {
    anchor: { type: 'boolean', default: false },
    versus: { type: 'string' },
    store: { type: 'string', default: 'sqlite' },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    connections: { type: 'string', default: '10' },
    accounts: { type: 'string', default: '2000' },
    ids: { type: 'string', default: '200' },
    cases: { type: 'string', default: 'create,update' },
    deletes: { type: 'string', default: '8000' },
    profile: { type: 'boolean', default: false },
  },
});

const whole = (name: keyof typeof opts, min: number): number => wholeOption(opts, name, min);

/** A build of Orchard: its checkout (with dist/ and node_modules) and the data its server writes. */
interface Build {
  readonly name: string;
  readonly root: string;
  readonly dataDir: string;
  /** DATABASE_SCHEMA with --store postgres. */
  readonly schema: string | undefined;
}

function buildEnv(b: Build): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: b.dataDir, LOG_LEVEL: 'silent', DAILY_CAP: String(BENCH_DAILY_CAP) };
  delete env.REDIS_URL;
  if (b.schema) Object.assign(env, { DATABASE_URL: process.env.DATABASE_URL, DATABASE_SCHEMA: b.schema });
  else delete env.DATABASE_URL;
  return env;
}

/** `orchard --json …` of the build; its JSON. */
function cli(b: Build, args: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, [path.join(b.root, 'bin/orchard.js'), '--json', ...args], { env: buildEnv(b), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out) as Record<string, unknown>;
}

/** `orchard serve` of the build in a child process (under --cpu-prof into `profileDir` when given); resolves with its URL once it listens. */
function serveBuild(b: Build, profileDir?: string): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(process.execPath, [...nodeArgs, path.join(b.root, 'bin/orchard.js'), '--json', 'serve'], { env: { ...buildEnv(b), PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${b.name}: orchard serve exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve({ url: (JSON.parse(line) as { url: string }).url, child, stop: () => { child.kill('SIGTERM'); return exited; } });
    });
  });
}

/** The anchor, in a child: answers the cases' requests with a small JSON body, as fast as Fastify can. */
async function serveAnchor(): Promise<void> {
  const app = Fastify({ logger: false });
  app.post('/api/record/account', async (_request, reply) => reply.code(201).send({ success: true, data: { Record: {} }, message: '' }));
  app.put('/api/record/account/:id', async () => ({ success: true, data: { Record: {} }, message: '' }));
  app.put('/api/record/contact/:id', async () => ({ success: true, data: { Record: {} }, message: '' }));
  app.delete('/api/record/contact/:id', async () => ({ success: true, data: {}, message: '' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  announceAndServe(url, () => app.close());
}

/** The ids of every contact (the delete case's), through POST /api/query, 500 a page. */
async function contactIds(url: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${url}/api/query`, {
      method: 'POST', headers: { tokenid: token, 'content-type': 'application/json' },
      body: JSON.stringify({ objecttype: 2, fields: 'contactid', sort_by: 'createdon', sort_type: 'asc', page_size: 500, page_number: page }),
    });
    const body = (await res.json()) as { data?: { Data?: Array<{ contactid?: string }>; IsLastPage?: boolean } };
    if (res.status !== 200 || !body.data?.Data) throw new Error(`POST /api/query (contacts, page ${page}) answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    for (const r of body.data.Data) ids.push(String(r.contactid));
    if (body.data.IsLastPage) return ids;
  }
}

async function dropSchemas(schemas: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    for (const s of schemas) {
      const { rows } = await client.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname = $1 OR starts_with(nspname, $1 || '_org_')", [s]);
      for (const r of rows) await client.query(`DROP SCHEMA "${r.nspname}" CASCADE`);
    }
  } finally {
    await client.end();
  }
}

async function drive(): Promise<number> {
  const rounds = whole('rounds', 1);
  const duration = whole('duration', 1);
  const warmup = whole('warmup', 0);
  const connections = whole('connections', 1);
  const accounts = whole('accounts', 1);
  const cases = opts.cases.split(',').map((c) => c.trim());
  if (cases.some((c) => !['create', 'update', 'rename', 'delete'].includes(c))) throw new Error(`--cases takes create, update, rename and delete; got '${opts.cases}'`);
  const deletes = whole('deletes', 1);
  const renamed = cases.includes('rename') ? whole('ids', 1) : 0;
  // Each run of the delete case, warm-ups included, deletes contacts no run deleted before.
  const contactsPerBuild = renamed + (cases.includes('delete') ? rounds * (warmup > 0 ? 2 : 1) * deletes : 0);
  if (opts.store !== 'sqlite' && opts.store !== 'postgres') throw new Error(`--store takes sqlite or postgres; got '${opts.store}'`);
  if (opts.store === 'postgres' && !process.env.DATABASE_URL) throw new Error('--store postgres needs DATABASE_URL');
  const versus = opts.versus ? path.resolve(opts.versus) : undefined;
  if (versus && !fs.existsSync(path.join(versus, 'dist/src/cli.js'))) throw new Error(`--versus: no ${versus}/dist/src/cli.js; build that checkout first.`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-bench-writes-'));
  const tag = `bw${process.pid}`;
  const builds: Build[] = [{ name: 'this', root: ROOT, dataDir: path.join(work, 'this'), schema: opts.store === 'postgres' ? `${tag}_this` : undefined }];
  if (versus) builds.push({ name: 'versus', root: versus, dataDir: path.join(work, 'versus'), schema: opts.store === 'postgres' ? `${tag}_versus` : undefined });
  const stops: Array<() => Promise<void>> = [];
  try {
    const targets: Array<{ name: string; url: string; token: string; ids: string[]; renamed: string[]; contacts: string[]; stop?: () => Promise<void> }> = [];
    const profileOf = (b: Build) => path.join(work, 'profile', b.name);
    for (const b of builds) {
      fs.mkdirSync(b.dataDir, { recursive: true });
      const org = cli(b, ['org', 'create', '--name', 'Bench', '--plan', 'enterprise', '--email', 'bench@example.com', '--minute-limit', '1000000000']);
      cli(b, ['seed', '--org', String(org.id), '--object', 'account', '--count', String(accounts)]);
      if (contactsPerBuild > 0) cli(b, ['seed', '--org', String(org.id), '--object', 'contact', '--count', String(contactsPerBuild)]);
      const server = await serveBuild(b, opts.profile ? profileOf(b) : undefined);
      stops.push(server.stop);
      const ids = await pickIds(server.url, String(org.token), accounts, whole('ids', 1));
      const contacts = contactsPerBuild > 0 ? await contactIds(server.url, String(org.token)) : [];
      targets.push({ name: b.name, url: server.url, token: String(org.token), ids, renamed: contacts.splice(0, renamed), contacts, stop: server.stop });
    }
    const anchor = await serveInChild('anchor', SCRIPT, ['--anchor']);
    stops.push(() => anchor.stop());
    targets.unshift({ name: 'anchor', url: anchor.url, token: 'anchor', ids: targets[0]!.ids, renamed: targets[0]!.renamed, contacts: [...targets[0]!.contacts] });

    console.log(`Store: ${opts.store}; ${accounts.toLocaleString('en-US')} accounts seeded per build; this build: ${ROOT}${versus ? `; versus: ${versus}` : ''}`);
    console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    console.log(`wrk: ${connections} connections, ${rounds} rounds of ${duration} s per target and case, each after a ${warmup} s warm-up; targets alternate by round.\n`);

    /** A run's requests: for the delete case, the next `deletes` of the target's contacts, taken from its list. */
    const requestsOf = (t: (typeof targets)[number], c: string): LoadRequest[] => {
      const headers = { tokenid: t.token, 'content-type': 'application/json' };
      if (c === 'delete') {
        const slice = t.contacts.splice(0, deletes);
        if (slice.length < deletes) throw new Error(`${t.name}: ${slice.length} contacts left for a delete run of ${deletes}`);
        return slice.map((id) => ({ method: 'DELETE', path: `/api/record/contact/${id}`, headers: { tokenid: t.token } }));
      }
      if (c === 'rename') return t.renamed.map((id, i) => ({ method: 'PUT', path: `/api/record/contact/${id}`, headers, body: JSON.stringify({ lastname: `Renamed ${i}` }) }));
      return c === 'create'
        ? [{ method: 'POST', path: '/api/record/account', headers, body: JSON.stringify({ accountname: 'Bench write', telephone1: '+1 555 0100' }) }]
        : t.ids.map((id, i) => ({ method: 'PUT', path: `/api/record/account/${id}`, headers, body: JSON.stringify({ telephone1: `+1 555 ${String(i).padStart(4, '0')}` }) }));
    };
    const rates = new Map<string, number[]>();
    const served = new Map<string, number>();
    let failed = 0;
    for (let round = 1; round <= rounds; round++) {
      // Alternate the order of the targets by round, so drift hits them alike.
      const order = round % 2 === 1 ? targets : [...targets].reverse();
      for (const c of cases) {
        for (const t of order) {
          const load = { url: t.url, connections, pipelining: 1, requests: requestsOf(t, c) };
          if (warmup > 0) {
            const warm = await runLoad({ ...load, ...(c === 'delete' ? { requests: requestsOf(t, c) } : {}), duration: warmup });
            failed += failures(warm);
            served.set(t.name, (served.get(t.name) ?? 0) + warm.requests.total);
          }
          const result = await runLoad({ ...load, duration });
          failed += failures(result);
          served.set(t.name, (served.get(t.name) ?? 0) + result.requests.total);
          const key = `${c} ${t.name}`;
          rates.set(key, [...(rates.get(key) ?? []), result.requests.average]);
          console.log(`  ${c.padEnd(6)} ${t.name.padEnd(7)} round ${round}  ${formatRate(result.requests.average)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${failures(result) ? `  FAILED ${failures(result)}` : ''}`);
        }
      }
    }
    console.log('');
    for (const c of cases) {
      const anchorRate = median(rates.get(`${c} anchor`)!);
      for (const t of targets) {
        const m = median(rates.get(`${c} ${t.name}`)!);
        console.log(`${c.padEnd(6)} ${t.name.padEnd(7)} median ${formatRate(m).trim()} req/s  (×${(m / anchorRate).toFixed(3)} of the anchor)`);
      }
      if (versus) {
        const mine = rates.get(`${c} this`)!;
        const theirs = rates.get(`${c} versus`)!;
        const ratios = mine.map((x, i) => x / theirs[i]!);
        console.log(`${c.padEnd(6)} this / versus: ×${median(ratios).toFixed(3)} median of the rounds' ratios (${ratios.map((r) => `×${r.toFixed(3)}`).join(' ')})`);
      }
    }
    if (opts.profile) {
      // Stopped so their profiles are written; each idled while the others were loaded.
      for (const t of targets) if (t.stop) await t.stop();
      const cpu = builds.map((b) => ({ name: b.name, us: mainThreadBusyMicros(profileOf(b)) / served.get(b.name)! }));
      console.log(`\nMain-thread CPU per request (both cases, warm-ups included): ${cpu.map((c) => `${c.name} ${c.us.toFixed(0)} µs`).join(', ')}${cpu.length === 2 ? ` — this / versus ×${(cpu[0]!.us / cpu[1]!.us).toFixed(3)}` : ''}`);
    }
    if (failed > 0) {
      console.error(`\n${failed} requests failed; the figures above measured errors.`);
      return 1;
    }
    return 0;
  } finally {
    for (const stop of stops) await stop().catch(() => {});
    if (opts.store === 'postgres') await dropSchemas(builds.map((b) => b.schema!));
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (opts.anchor) {
  await serveAnchor();
} else {
  process.exitCode = await drive();
}
