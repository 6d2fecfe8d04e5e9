// Reads and checks the environment once (README.md, Configuration); the result is frozen and passed down,
// so nothing below reads process.env.

import path from 'node:path';

/**
 * Organizations a store keeps open by default (OPEN_ORGS). An open SQLite organization holds three
 * file descriptors, so 384 of a 1,024 limit, leaving the rest to sockets, the control files and
 * the reader threads' connections (64 files each at most).
 */
export const DEFAULT_OPEN_ORGANIZATIONS = 128;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /**
   * Public base of the API for `Location` headers, no trailing slash; when unset, each reply
   * uses the address the request was sent to (its Host header).
   */
  readonly baseUrl: string | undefined;
  readonly databaseUrl: string | undefined;
  /**
   * With DATABASE_URL: the schema of the control plane; each organization's records live in a
   * schema named after it and the organization (`<schema>_org_<id>`). Several Orchard instances
   * can share one database under different names.
   */
  readonly databaseSchema: string;
  readonly redisUrl: string | undefined;
  readonly smtpUrl: string | undefined;
  readonly logLevel: string;
  /** Requests still running after this many milliseconds are answered 408 and their work stopped. */
  readonly requestTimeoutMs: number;
  /** Rate limits and usage notices (docs/limits.md); false only for benchmarks or behind a gateway that limits. */
  readonly rateLimits: boolean;
  /** Replaces every plan's daily cap when set (a self-hosted instance without quotas; benchmarks). */
  readonly dailyCap: number | null;
  /** Requests a minute from one client address whose token does not resolve. */
  readonly addressMinuteLimit: number;
  /** The From of usage notices. */
  readonly mailFrom: string;
  /** Organizations whose records a process keeps open at once (OPEN_ORGS); the least recently used beyond are closed. */
  readonly openOrganizations: number;
  /** Serve Prometheus metrics at /metrics (METRICS; docs/operations.md § Metrics). */
  readonly metrics: boolean;
  /** When set, /metrics answers only requests with `Authorization: Bearer <token>` (METRICS_TOKEN). */
  readonly metricsToken: string | undefined;
  /** Label request metrics with the organization's id (METRICS_ORG_LABEL): one series per organization, so off by default. */
  readonly metricsOrgLabel: boolean;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}; got '${raw}'.`);
  }
  return n;
}

/** The largest quota: the RateLimit header fields carry quotas as structured-field integers (15 digits). */
const MAX_QUOTA = 999_999_999_999_999;

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new Error(`${name} must be on or off; got '${raw}'.`);
}

/** DATABASE_SCHEMA: lowercase letters, digits and '_', starting with a letter; PostgreSQL's 63-byte names leave room for the org suffix. */
function schemaName(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'orchard';
  if (!/^[a-z][a-z0-9_]{0,19}$/.test(raw)) {
    throw new Error(`DATABASE_SCHEMA must be 1 to 20 lowercase letters, digits or '_', starting with a letter; got '${raw}'.`);
  }
  return raw;
}

/** Builds the configuration from an environment (process.env by default); throws with a message naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = overrides.port ?? integer(env, 'PORT', 8080, 0, 65535);
  const host = overrides.host ?? (env.HOST || '127.0.0.1');
  const logLevel = overrides.logLevel ?? (env.LOG_LEVEL || 'info');
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got '${logLevel}'.`);
  }
  const baseUrl = (overrides.baseUrl ?? (env.BASE_URL || undefined))?.replace(/\/+$/, '');
  if (baseUrl !== undefined && !/^https?:\/\/[^/]/.test(baseUrl)) {
    throw new Error(`BASE_URL must be an absolute http(s) URL such as https://crm.example.com; got '${baseUrl}'.`);
  }
  const metricsToken = overrides.metricsToken ?? (env.METRICS_TOKEN || undefined);
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    throw new Error('METRICS_TOKEN must be 16 to 256 visible ASCII characters (no spaces), such as the output of `openssl rand -hex 24`.');
  }
  return Object.freeze({
    port,
    host,
    dataDir: path.resolve(overrides.dataDir ?? (env.DATA_DIR || './data')),
    baseUrl,
    databaseUrl: overrides.databaseUrl ?? (env.DATABASE_URL || undefined),
    databaseSchema: overrides.databaseSchema ?? schemaName(env.DATABASE_SCHEMA),
    redisUrl: overrides.redisUrl ?? (env.REDIS_URL || undefined),
    smtpUrl: overrides.smtpUrl ?? (env.SMTP_URL || undefined),
    logLevel,
    requestTimeoutMs: overrides.requestTimeoutMs ?? integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1, 3_600_000),
    rateLimits: overrides.rateLimits ?? onOff(env, 'RATE_LIMITS', true),
    dailyCap: overrides.dailyCap !== undefined ? overrides.dailyCap : env.DAILY_CAP ? integer(env, 'DAILY_CAP', 0, 1, MAX_QUOTA) : null,
    addressMinuteLimit: overrides.addressMinuteLimit ?? integer(env, 'ADDRESS_MINUTE_LIMIT', 30, 1, MAX_QUOTA),
    mailFrom: overrides.mailFrom ?? (env.MAIL_FROM || 'Orchard <orchard@localhost>'),
    openOrganizations: overrides.openOrganizations ?? integer(env, 'OPEN_ORGS', DEFAULT_OPEN_ORGANIZATIONS, 1, 1_000_000),
    metrics: overrides.metrics ?? onOff(env, 'METRICS', true),
    metricsToken,
    metricsOrgLabel: overrides.metricsOrgLabel ?? onOff(env, 'METRICS_ORG_LABEL', false),
  });
}
