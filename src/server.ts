// Starts the HTTP server: opens the stores, creates the demo organization on an empty data
// directory, listens, and closes cleanly on SIGTERM/SIGINT.

import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { buildApp } from './app.js';
import { LISTENING_TEXT, loggerOptions, type LogStream } from './http/log-options.js';
import { VERSION } from './version.js';
import { HOST_TAKES, type Config } from './config.js';
import { AppError, isAppError } from './errors.js';
import { CLOSE_WITHIN_MS, openStores, removeStoreData, type Stores } from './stores.js';
import { loadFixtures, type LoadedOrganization } from './fixtures/load-fixtures.js';
import type { Fixtures } from './fixtures/parse-fixtures.js';

export interface RunningServer {
  readonly app: FastifyInstance;
  /** The address actually bound (useful with port 0). */
  readonly url: string;
  /** The stores it serves from; closed by close(). */
  readonly stores: Stores;
  /** The demo organization made on this start (empty data directory), with its one-time token and a ready curl line. */
  readonly demo: { readonly orgId: string; readonly userId: string; readonly token: string; readonly accounts: number; readonly curl: string } | null;
  /** What loading the fixtures given did, organization by organization; null without fixtures. */
  readonly fixtures: readonly LoadedOrganization[] | null;
  /** Closes the server, then, for an ephemeral one, removes everything it stored. */
  close(): Promise<void>;
}

export interface StartOptions {
  readonly logger?: FastifyServerOptions['logger'];
  /** Where the log goes when no logger is given (stdout by default). */
  readonly logStream?: LogStream;
  /**
   * Loaded before the server listens (docs/fixtures.md): organizations whose id exists are left as
   * they are. With fixtures no demo organization is made.
   */
  readonly fixtures?: Fixtures;
  /**
   * The configuration names storage of this server's own, removed when it closes (docs/fixtures.md,
   * --ephemeral): a new data directory, or with DATABASE_URL a new DATABASE_SCHEMA and its schemas.
   */
  readonly ephemeral?: boolean;
}

/**
 * The configuration of an ephemeral server (--ephemeral): a new temporary data directory, and with
 * DATABASE_URL a new DATABASE_SCHEMA (`eph_` and 12 hex digits); startServer removes both on close.
 */
export function ephemeralConfig(config: Config): Config {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orchard-ephemeral-'));
  return Object.freeze({ ...config, dataDir, ...(config.databaseUrl ? { databaseSchema: `eph_${randomBytes(6).toString('hex')}` } : {}) });
}

/** Receives the lines printed on start (one line per call, no newline); stdout by default. */
export type Announce = (line: string) => void;

/** The URL a local client should use for an address the server bound. */
function urlFor(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::') return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** `url`'s host, port and database, for an operator: never its user or password. */
function databaseAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || 5432}${u.pathname.length > 1 ? u.pathname : ''}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/**
 * On PostgreSQL, the database answers before anything else uses it (fixtures, the app's first
 * work): when it cannot be reached, the start fails once, naming where and why.
 */
async function reachable(config: Config, stores: Stores): Promise<void> {
  if (!config.databaseUrl) return;
  try {
    await stores.control.ping();
  } catch (err) {
    if (!isAppError(err) || err.code !== 'STORE_UNAVAILABLE') throw err;
    const cause = err.cause instanceof Error ? err.cause.message : err.message;
    throw new AppError('STORE_UNAVAILABLE', `PostgreSQL at ${databaseAddress(config.databaseUrl)} cannot be reached (${cause}), so Orchard did not start. Check DATABASE_URL, and that PostgreSQL runs and accepts connections from this host.`, { cause: err });
  }
}

/** What the resolver or the system says of a HOST that is no address of this machine. */
const HOST_REFUSALS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EADDRNOTAVAIL']);

/** `err` of a listen on HOST as the start reports it: a HOST that does not resolve, or names no address of this machine, as CONFIG_INVALID naming HOST. */
function hostRefused(err: unknown, config: Config): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === undefined || !HOST_REFUSALS.has(code)) return err;
  const why = code === 'EADDRNOTAVAIL' ? 'is not an address of this machine' : 'does not resolve to an address';
  return new AppError('CONFIG_INVALID', `HOST '${config.host}' ${why} (${(err as Error).message}), so Orchard did not start. HOST must be ${HOST_TAKES}.`, { cause: err });
}

/**
 * HOST checked before the stores are opened, by listening on it (any port) and closing at once: a
 * start refused for its HOST leaves nothing in the data directory (a fresh one is not made).
 */
async function checkHost(config: Config): Promise<void> {
  const probe = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host: config.host, port: 0 }, resolve);
    });
  } catch (err) {
    throw hostRefused(err, config);
  }
  await new Promise((resolve) => probe.close(resolve));
}

/** Listens on HOST and PORT; a HOST refused as checkHost does (it may stop resolving meanwhile). */
async function listenOn(app: FastifyInstance, config: Config): Promise<void> {
  try {
    // Fastify's line per address is dropped (log-options.ts): the server logs one line of its own.
    await app.listen({ port: config.port, host: config.host, listenTextResolver: () => LISTENING_TEXT });
  } catch (err) {
    throw hostRefused(err, config);
  }
}

/**
 * Checks HOST, opens the stores, listens, and creates the demo organization when the data
 * directory holds none. Announces the URL and, after creating the demo, a ready `curl` line with its token (the
 * only time that token is shown). On failure nothing is left open.
 */
export async function startServer(
  config: Config,
  announce: Announce = (l) => process.stdout.write(l + '\n'),
  options: StartOptions = {},
): Promise<RunningServer> {
  const removeData = async () => {
    if (options.ephemeral) await removeStoreData(config);
  };
  try {
    await checkHost(config);
  } catch (err) {
    await removeData().catch(() => {});
    throw err;
  }
  const stores = openStores(config);
  let app: FastifyInstance | undefined;
  const started = Date.now();
  try {
    await reachable(config, stores);
    const fixtures = options.fixtures ? await loadFixtures({ control: stores.control, records: stores.records, clock: Date.now, allowPrivateWebhooks: config.webhooks.allowPrivate }, options.fixtures) : null;
    for (const o of fixtures ?? []) announce(`Fixture organization "${o.name}" (${o.id}) ${o.status === 'created' ? `loaded with ${o.records} records` : o.status === 'reloaded' ? `was left half loaded by a load that never finished: removed and loaded again with ${o.records} records` : 'exists already: left as it is'}.`);
    const logger = options.logger ?? loggerOptions({ level: config.logLevel, format: config.logFormat, ...(options.logStream ? { stream: options.logStream } : {}) });
    app = await buildApp({ ...stores, config, clock: Date.now, logger });
    stores.logTo(app.log);
    for (const rule of options.fixtures?.faults ?? []) app.toolkit.faults.addOnce(rule);
    await listenOn(app, config);
    // Only once listening: a demo created before a failed listen (port taken) would never have
    // its token shown, and the next start, finding an organization, would not make another.
    const demo = fixtures ? null : await stores.admin.ensureDemo();
    const address = app.server.address();
    const url = urlFor(config.host, typeof address === 'object' && address ? address.port : config.port);
    const curl = demo ? `curl -s -H 'tokenid: ${demo.token}' '${url}/api/record/account?pagesize=2'` : '';
    if (demo) {
      // The user's id is what `orchard token create --user` takes when the token is lost.
      announce(`Created a demo organization "${demo.org.name}" (${demo.org.id}) with ${demo.accounts} sample accounts; its user is ${demo.user.id}.`);
      announce('Its API token is shown only now; keep it. Try it:');
      announce(`  ${curl}`);
    }
    announce(`Orchard listening on ${url} (${config.databaseUrl ? `records in PostgreSQL schema ${config.databaseSchema}` : `data in ${config.dataDir}`}); API docs at ${url}/docs, console at ${url}/console`);
    const running = app;
    running.log.info({ url, version: VERSION, ...(config.databaseUrl ? { store: 'postgres', schema: config.databaseSchema } : { store: 'sqlite', dataDir: config.dataDir }) }, 'Orchard started');
    let closing: Promise<void> | undefined;
    const close = () => (closing ??= closeWithin(running, stores).then(removeData).then(() => {
      running.log.info({ uptimeSeconds: Math.round((Date.now() - started) / 1000) }, 'Orchard stopped');
    }));
    return { app: running, url, stores, close, fixtures, demo: demo ? { orgId: demo.org.id, userId: demo.user.id, token: demo.token, accounts: demo.accounts, curl } : null };
  } catch (err) {
    await app?.close().catch(() => {});
    await stores.close().catch(() => {});
    await removeData().catch(() => {});
    throw err;
  }
}

/**
 * Closes the app, then the stores. Requests in flight finish (the time limit bounds them); what the
 * app does after them (webhook attempts and counters written) and the stores' close share
 * CLOSE_WITHIN_MS, past which the stores' connections are destroyed: a stalled database holds
 * neither a statement nor a goodbye for ever.
 */
async function closeWithin(app: FastifyInstance, stores: Stores): Promise<void> {
  const served = new Promise((resolve) => app.server.once('close', resolve));
  const appClosed = app.close();
  await Promise.race([served, appClosed]);
  const deadline = Date.now() + CLOSE_WITHIN_MS;
  let timer: NodeJS.Timeout | undefined;
  const inTime = await Promise.race([appClosed.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(resolve, CLOSE_WITHIN_MS, false)))]);
  clearTimeout(timer);
  if (!inTime) app.log.warn({ waitedMs: CLOSE_WITHIN_MS }, 'the app\'s closing work waits on the stores: closing them now');
  await stores.close({ withinMs: Math.max(0, deadline - Date.now()) });
  // Its statements have ended with the connections.
  await appClosed;
}

/** Closes the server on SIGTERM or SIGINT, then exits. */
export function closeOnSignals(server: RunningServer): void {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      server.app.log.info({ signal }, `${signal} received: closing (requests in flight finish, then the stores close)`);
      server.close().then(() => process.exit(0), (err) => {
        console.error(err);
        process.exit(1);
      });
    });
  }
}
