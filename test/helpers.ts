// Shared test fixtures: a temporary data directory with stores, an organization and a token,
// and the app built on them (driven with inject, never listening unless a test asks).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config, type ConfigOverrides } from '../src/config.js';
import { openStores, type Stores } from '../src/stores.js';

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
}

export async function testContext(options: TestContextOptions = {}): Promise<TestContext> {
  const dir = tempDir();
  const config = loadConfig({}, { dataDir: dir, baseUrl: 'http://orchard.test', logLevel: 'silent', addressMinuteLimit: UNREACHABLE, ...options.config });
  const stores = openStores(config);
  const clock = new TestClock();
  const { org, user, token } = await stores.admin.createOrganization({ name: 'Test Org', plan: options.plan ?? 'enterprise', email: 'owner@example.com',
    minuteLimit: options.minuteLimit === undefined ? UNREACHABLE : options.minuteLimit });
  const app = await buildApp({ ...stores, config, clock: clock.now, logger: false });
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

/** The author of store writes in tests that are not about the change log (a write no user made, at the TestClock's start). */
export const TEST_AUTHOR = { userId: null, at: '2026-03-01T12:00:00' } as const;
