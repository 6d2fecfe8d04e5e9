// `import { startOrchard } from 'orchard/testing'` (docs/fixtures.md): a server for a test suite,
// on a free port, from a fixtures object, keeping nothing once closed (an ephemeral data directory),
// with the tokens the fixtures gave and a client of its control API.

import { randomBytes } from 'node:crypto';
import { loadConfig, type ConfigOverrides } from './config.js';
import { ControlClient, type LoadedOrganizationSummary } from './control-client.js';
import { parseFixtures } from './fixtures/parse-fixtures.js';
import { ephemeralConfig, startServer } from './server.js';

export { ControlClient, ControlError } from './control-client.js';
export type {
  ClockState, FaultRule, FaultRuleInput, JournalEntry, JournalFilter, JournalPage, LoadedOrganizationSummary, OrganizationSummary, OrganizationUsage,
  OutboxMessage, RoleSummary, SnapshotSummary, TokenSummary, UsageWindow, UserSummary, WebhookSummary,
} from './control-client.js';
export { parseFixtures, type Fixtures } from './fixtures/parse-fixtures.js';

export interface StartOrchardOptions {
  /**
   * A fixtures value (docs/fixtures.md), loaded before the server listens; a bad one is refused
   * with FIXTURE_INVALID naming the bad member. Default: no organization at all (no demo either).
   */
  readonly fixtures?: unknown;
  /**
   * Settings beyond the defaults (REQUEST_TIMEOUT_MS, RATE_LIMITS, …, and DATABASE_URL to run on
   * PostgreSQL in a schema of its own). The environment is not read: a suite gets the same server
   * wherever it runs. The port is always a free one.
   */
  readonly config?: Omit<ConfigOverrides, 'port' | 'dataDir' | 'adminKey'>;
  /** The control API's key; default: a random one, returned as `adminKey`. */
  readonly adminKey?: string;
}

export interface StartedOrchard {
  /** The server's base URL, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** Each fixture user's first token, by the user's e-mail (a later organization's user wins a clash; all are in `organizations`). */
  readonly tokens: Readonly<Record<string, string>>;
  /** What loading the fixtures did: each organization with its users and their tokens. */
  readonly organizations: readonly LoadedOrganizationSummary[];
  readonly adminKey: string;
  /** The temporary data directory it serves from; close() removes it. */
  readonly dataDir: string;
  /** A client of the control API: a method for each of its calls (docs/control-api.md), and `call` for any call. */
  readonly control: ControlClient;
  /** Stops the server and removes everything it stored. */
  close(): Promise<void>;
}

/** Starts an Orchard server for a test suite; `close()` stops it and removes everything it stored. */
export async function startOrchard(options: StartOrchardOptions = {}): Promise<StartedOrchard> {
  const fixtures = parseFixtures(options.fixtures ?? { organizations: [] });
  const adminKey = options.adminKey ?? randomBytes(24).toString('hex');
  const config = ephemeralConfig(loadConfig({}, { logLevel: 'silent', ...options.config, host: options.config?.host ?? '127.0.0.1', port: 0, adminKey }));
  const server = await startServer(config, () => {}, { fixtures, ephemeral: true });
  const organizations = (server.fixtures ?? []).map((o) => ({ ...o, users: o.users.map((u) => ({ ...u, tokens: [...u.tokens] })) }));
  const tokens: Record<string, string> = {};
  for (const o of organizations) for (const u of o.users) if (u.tokens[0] !== undefined) tokens[u.email] = u.tokens[0];
  return {
    url: server.url,
    tokens,
    organizations,
    adminKey,
    dataDir: config.dataDir,
    control: new ControlClient({ url: server.url, adminKey }),
    close: () => server.close(),
  };
}
