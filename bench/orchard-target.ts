// Shared by the benchmark scripts that load an Orchard server: its configuration, an organization
// seeded with sample accounts (in this process, or with the CLI and cached), and account ids a client would see.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ParseArgsConfig } from 'node:util';
import Fastify from 'fastify';
import { loadConfig, type Config, type ConfigOverrides } from '../src/config.js';
import { startServer } from '../src/server.js';
import { openStores } from '../src/stores.js';

/** Command-line options of the benchmarks that load GET by id: a child serving (`--serve`) and the load. */
export const GET_BY_ID_OPTIONS = {
  serve: { type: 'string' },
  'data-dir': { type: 'string' },
  rounds: { type: 'string', default: '3' },
  duration: { type: 'string', default: '5' },
  warmup: { type: 'string', default: '2' },
  connections: { type: 'string', default: '32' },
  threads: { type: 'string', default: '1' },
  accounts: { type: 'string', default: '10000' },
  ids: { type: 'string', default: '100' },
  profile: { type: 'boolean', default: false },
} as const satisfies ParseArgsConfig['options'];

/** The whole number an option holds, at least `min`; throws naming the option otherwise. */
export function wholeOption(opts: Readonly<Record<string, unknown>>, name: string, min: number): number {
  const n = Number(opts[name]);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min}; got '${String(opts[name])}'.`);
  return n;
}

/**
 * The daily cap of bench servers: far above any run (a run sends about 500,000 requests), and like
 * real caps a small integer (V8 Smi), so writing the RateLimit field costs what it does in production.
 */
export const BENCH_DAILY_CAP = 1_000_000_000;

export function benchConfig(dataDir: string, overrides: ConfigOverrides = {}): Config {
  return loadConfig({}, { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', dailyCap: BENCH_DAILY_CAP, ...overrides });
}

/**
 * An Orchard server on `dataDir` as the benchmarks run it. logLevel silent: the figure is the request
 * path, not pino writing a line per request. The daily cap is lifted (DAILY_CAP) but still counted and
 * checked on every request: a run sends more requests to one organization than any plan allows a day.
 */
export async function startOrchard(dataDir: string, overrides: ConfigOverrides = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const server = await startServer(benchConfig(dataDir, overrides), () => {});
  return { url: server.url, close: () => server.close() };
}

/** The anchor: the least a Fastify server can do per request, on the same machine and Node. */
/**
 * How long a bench server keeps an idle connection: a benchmark's client may sit idle while another
 * target is timed (bench:query's contains scans took over a minute on a loaded machine, past
 * Fastify's default of 72 s, and the anchor closed the connection under the client).
 */
export const IDLE_KEEP_ALIVE_MS = 30 * 60_000;

export async function startAnchor(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false, keepAliveTimeout: IDLE_KEEP_ALIVE_MS });
  app.get('/', async () => ({ hello: 'world' }));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

/** Creates an enterprise organization (minute limit lifted) holding `count` sample accounts; returns its token. */
export async function seedAccounts(dataDir: string, count: number): Promise<string> {
  const stores = openStores(loadConfig({}, { dataDir, logLevel: 'silent' }));
  try {
    const { org, token } = await stores.admin.createOrganization({
      name: 'Bench', plan: 'enterprise', email: 'bench@example.com', minuteLimit: 1_000_000_000,
    });
    await stores.admin.seed({ orgId: org.id, object: 'account', count, seed: 1 });
    return token;
  } finally {
    await stores.close();
  }
}

/**
 * `idCount` account ids spread evenly over the table, read through the API's own list route
 * (one record per page), so the ids are whatever a client would see.
 */
export async function pickIds(url: string, token: string, count: number, idCount: number): Promise<string[]> {
  const ids: string[] = [];
  const n = Math.min(idCount, count);
  for (let i = 0; i < n; i++) {
    const page = 1 + Math.floor((i * count) / n);
    const res = await fetch(`${url}/api/record/account?pagesize=1&pagenumber=${page}`, { headers: { tokenid: token } });
    const body = (await res.json()) as { data?: { PrimaryKey: string; Records: Array<Record<string, unknown>> } };
    const id = body.data?.Records[0]?.[body.data.PrimaryKey];
    if (res.status !== 200 || typeof id !== 'string') {
      throw new Error(`GET /api/record/account?pagesize=1&pagenumber=${page} answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    }
    ids.push(id);
  }
  return ids;
}

/** Fails fast, before any load, if an id does not answer 200 with its own record. */
export async function checkIds(url: string, token: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const res = await fetch(`${url}/api/record/account/${id}`, { headers: { tokenid: token } });
    const body = (await res.json()) as { data?: { Record?: { accountid?: string } } };
    if (res.status !== 200 || body.data?.Record?.accountid !== id) {
      throw new Error(`GET /api/record/account/${id} answered ${res.status} ${JSON.stringify(body).slice(0, 200)}; not benchmarking errors.`);
    }
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `orchard --data-dir <dataDir> --json …` as a child process on the embedded store; returns its JSON. */
export function orchardCli(dataDir: string, args: string[]): Record<string, unknown> {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/orchard.js'), '--data-dir', dataDir, '--json', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out) as Record<string, unknown>;
}

/**
 * An organization of `count` accounts made with the CLI under .bench-data/<name>, cached with its
 * token (seeding a million records takes minutes); `fresh` seeds again.
 */
export function cliDataSet(name: string, count: number, fresh: boolean): { dataDir: string; orgId: string; token: string } {
  const dataDir = path.join(ROOT, '.bench-data', name);
  const marker = path.join(dataDir, 'bench.json');
  if (!fresh && fs.existsSync(marker)) return { dataDir, ...(JSON.parse(fs.readFileSync(marker, 'utf8')) as { orgId: string; token: string }) };
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const org = orchardCli(dataDir, ['org', 'create', '--name', 'Bench', '--plan', 'enterprise', '--email', 'bench@example.com', '--minute-limit', '1000000000']);
  const seeded = orchardCli(dataDir, ['seed', '--org', String(org.id), '--object', 'account', '--count', String(count)]);
  console.log(`Seeded ${count.toLocaleString('en-US')} accounts with orchard seed in ${Number(seeded.seconds).toFixed(1)} s.`);
  const set = { orgId: String(org.id), token: String(org.token) };
  fs.writeFileSync(marker, JSON.stringify(set));
  return { dataDir, ...set };
}
