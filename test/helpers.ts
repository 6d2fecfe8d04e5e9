// Shared test fixtures: a temporary data directory with stores, an organization and a token,
// and the app built on them (driven with inject, never listening unless a test asks).

import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config, type ConfigOverrides } from '../src/config.js';
import type { LogStream } from '../src/http/log-options.js';
import { openStores, type Stores } from '../src/stores.js';
import { createPool } from '../src/store/postgres/pg-db.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from './services.js';

export function tempDir(prefix = 'orchard-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A clock tests can set and move; starts at a fixed instant. */
export class TestClock {
  constructor(public ms = Date.parse('2026-03-01T12:00:00Z')) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestContext {
  readonly dir: string;
  readonly config: Config;
  readonly stores: Stores;
  readonly app: FastifyInstance;
  readonly clock: TestClock;
  readonly orgId: string;
  readonly userId: string;
  readonly token: string;
  /** inject() with this context's token in the tokenid header (unless headers say otherwise). */
  request(opts: InjectOptions & { token?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * Tests that are not about limits send hundreds of requests while the test clock stands still, so by
 * default the organization's minute limit and the per-address limit are out of reach; limit tests
 * pass real values (minuteLimit null: the default 100). The enterprise plan's daily cap stays real.
 */
const UNREACHABLE = 1_000_000_000;

export interface TestContextOptions {
  readonly config?: ConfigOverrides;
  readonly plan?: string;
  readonly minuteLimit?: number | null;
  /** Fastify's logger option (loggerOptions with a captureLog stream); none by default. */
  readonly logger?: FastifyServerOptions['logger'];
}

export async function testContext(options: TestContextOptions = {}): Promise<TestContext> {
  const dir = tempDir();
  const config = loadConfig({}, { dataDir: dir, baseUrl: 'http://orchard.test', logLevel: 'silent', addressMinuteLimit: UNREACHABLE, ...options.config });
  const stores = openStores(config);
  const clock = new TestClock();
  const { org, user, token } = await stores.admin.createOrganization({ name: 'Test Org', plan: options.plan ?? 'enterprise', email: 'owner@example.com',
    minuteLimit: options.minuteLimit === undefined ? UNREACHABLE : options.minuteLimit });
  const app = await buildApp({ ...stores, config, clock: clock.now, logger: options.logger ?? false });
  await app.ready();
  return {
    dir, config, stores, app, clock, orgId: org.id, userId: user.id, token,
    request(opts) {
      const { token: t, ...rest } = opts;
      const headers = { ...(t === null ? {} : { tokenid: t ?? token }), ...(rest.headers ?? {}) };
      return app.inject({ ...rest, headers });
    },
    async close() {
      await app.close();
      await stores.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The stores an HTTP suite runs on: SQLite, and PostgreSQL when DATABASE_URL is set (else skipped). */
export const CONTEXT_STORES = [
  { name: 'SQLite', skip: false as false | string, config: (): ConfigOverrides => ({}) },
  { name: 'PostgreSQL', skip: needsPostgres, config: (): ConfigOverrides => ({ databaseUrl: DATABASE_URL, databaseSchema: uniqueName('ctx') }) },
] as const;

/** testContext on one of CONTEXT_STORES; closing it also drops its PostgreSQL schemas. */
export async function testContextOn(store: (typeof CONTEXT_STORES)[number], options: TestContextOptions = {}): Promise<TestContext> {
  const ctx = await testContext({ ...options, config: { ...options.config, ...store.config() } });
  return {
    ...ctx,
    async close() {
      await ctx.close();
      if (ctx.config.databaseUrl) {
        const pool = createPool(ctx.config.databaseUrl, { max: 1 });
        await dropSchemas(pool, ctx.config.databaseSchema).finally(() => pool.end());
      }
    },
  };
}

/** The author of store writes in tests that are not about the change log (a write no user made, at the TestClock's start). */
export const TEST_AUTHOR = { userId: null, at: '2026-03-01T12:00:00' } as const;

/** A log stream that keeps what is written, one entry a line. */
export function captureLog(isTTY = false): LogStream & { lines: string[] } {
  const lines: string[] = [];
  return { isTTY, lines, write: (text: string) => lines.push(...text.split('\n').filter((l) => l !== '')) };
}

/** JSON log lines as objects. */
export const logEntries = (lines: readonly string[]) => lines.map((l) => JSON.parse(l) as Record<string, any>);

/** The value of one series in Prometheus's exposition text, or undefined when it is absent. */
export function metricSample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Asks `check` every 10 ms until it holds; fails past `ms`, saying `what` was awaited (and what was found instead). */
export async function eventually(check: () => boolean | Promise<boolean>, what: string | (() => string), ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A connection to a listening server, written to by hand, whose client goes away when the test says. */
export interface RawConnection {
  write(text: string): void;
  /** Bytes received so far. */
  received(): number;
  /** Goes away: `destroy` closes the connection, `end` closes only the client's side; resolves once it is closed. */
  leave(how?: 'destroy' | 'end'): Promise<void>;
}

export async function rawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let bytes = 0;
  socket.on('data', (d: Buffer) => (bytes += d.length));
  // The server may answer a connection cut short with a reset.
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    write: (text) => void socket.write(text),
    received: () => bytes,
    async leave(how = 'destroy') {
      if (how === 'end') socket.end();
      else socket.destroy();
      await closed;
    },
  };
}
