// Reads and checks the environment once (README.md, Configuration); the result is frozen and passed down,
// so nothing below reads process.env.

import { isIP } from 'node:net';
import path from 'node:path';
import { AppError } from './errors.js';

/** A setting Orchard does not take: CONFIG_INVALID, its message naming the variable and what it takes. */
const configError = (message: string): AppError => new AppError('CONFIG_INVALID', message);

/**
 * Organizations a store keeps open by default (OPEN_ORGS). An open SQLite organization holds three
 * file descriptors, so 384 of a 1,024 limit, leaving the rest to sockets, the control files and
 * the reader threads' connections (64 files each at most).
 */
export const DEFAULT_OPEN_ORGANIZATIONS = 128;

/** Days change-log entries are kept by default (CHANGELOG_RETENTION_DAYS). */
export const DEFAULT_CHANGELOG_RETENTION_DAYS = 30;

/** Webhooks (docs/webhooks.md § Settings). */
export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE: targets on loopback and private networks are allowed (tests; a receiver on the same host). */
  readonly allowPrivate: boolean;
  /** WEBHOOK_TIMEOUT_MS: how long one attempt may take, connection to the reply's end. */
  readonly timeoutMs: number;
  /** WEBHOOK_RETRY_BASE_MS: the delay before the first retry; each next one doubles it. */
  readonly retryBaseMs: number;
  /** WEBHOOK_RETRY_CAP_MS: the longest delay between two attempts. */
  readonly retryCapMs: number;
  /** WEBHOOK_MAX_ATTEMPTS: attempts of one delivery before it is given up. */
  readonly maxAttempts: number;
  /** WEBHOOK_DISABLE_FAILURES and WEBHOOK_DISABLE_HOURS: a webhook is disabled after this many failed attempts in a row spanning this long. */
  readonly disableFailures: number;
  readonly disableHours: number;
  /** WEBHOOK_POLL_MS: how often a server looks for deliveries it was not told of (other processes' writes, retries come due). */
  readonly pollMs: number;
  /** WEBHOOK_GATHER_MS: under a stream of writes, how long the worker gathers deliveries into its next batch. */
  readonly gatherMs: number;
  /** WEBHOOK_CONCURRENCY: attempts under way at once in a process. */
  readonly concurrency: number;
  /** WEBHOOK_LOG_DAYS: days delivered and failed deliveries stay in the delivery log. */
  readonly logDays: number;
  /** WEBHOOK_DELIVER: this process attempts deliveries; false, it only writes them, and a process that delivers (on the same database) attempts them. */
  readonly deliver: boolean;
}

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
  /**
   * PG_CACHE: with DATABASE_URL, keep token identities and organizations' definitions in memory,
   * kept current by PostgreSQL LISTEN/NOTIFY (a change another process makes applies within 1 s);
   * off, both are read on every request (docs/scaling.md).
   */
  readonly pgCache: boolean;
  readonly redisUrl: string | undefined;
  /** How long a rate-limit call waits for Redis before the hit is decided in this process's memory (docs/limits.md). */
  readonly redisTimeoutMs: number;
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
  /** LOG_FORMAT: JSON lines, readable lines (pino-pretty), or `auto`: readable on a terminal, JSON otherwise. */
  readonly logFormat: LogFormat;
  /** CORS_ORIGINS: the origins browsers may call the API from (`*` for any); empty, CORS is off. */
  readonly corsOrigins: readonly string[];
  /**
   * TRUST_PROXY: which proxies' X-Forwarded-For (and -Proto, -Host) to believe, as Fastify's
   * trustProxy takes it: false (none; the default), true (any), a number of hops, or addresses and CIDR ranges.
   */
  readonly trustProxy: boolean | number | readonly string[];
  /** ADMIN_KEY: opens the control API under /_orchard/ (docs/control-api.md); unset, that API does not exist. */
  readonly adminKey: string | undefined;
  /** JOURNAL_SIZE: requests the journal keeps per organization (docs/control-api.md § Journal); 0, the default, records none. */
  readonly journalSize: number;
  /** JOURNAL_BODY_LIMIT: characters of a request or reply body the journal keeps. */
  readonly journalBodyLimit: number;
  /**
   * CHANGELOG_RETENTION_DAYS: days a change-log entry is kept at least (docs/history.md), on the
   * organization's clock; 0 keeps every entry.
   */
  readonly changeLogRetentionDays: number;
  /** Serve Prometheus metrics at /metrics (METRICS; docs/operations.md § Metrics). */
  readonly metrics: boolean;
  /** When set, /metrics answers only requests with `Authorization: Bearer <token>` (METRICS_TOKEN). */
  readonly metricsToken: string | undefined;
  /** Label request metrics with the organization's id (METRICS_ORG_LABEL): one series per organization, so off by default. */
  readonly metricsOrgLabel: boolean;
  readonly webhooks: WebhookConfig;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const LOG_FORMATS = ['pretty', 'json', 'auto'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

function logFormat(raw: string | undefined): LogFormat {
  if (raw === undefined || raw === '') return 'auto';
  if (!(LOG_FORMATS as readonly string[]).includes(raw)) throw configError(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}; got '${raw}'.`);
  return raw as LogFormat;
}

/** CORS_ORIGINS: `*`, or origins (scheme://host[:port]) separated by commas. */
function corsOrigins(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const origins = raw.split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean);
  for (const origin of origins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw configError(`CORS_ORIGINS must be * or origins such as https://app.example.com separated by commas; got '${origin}'.`);
    }
  }
  return origins;
}

/** TRUST_PROXY: off (default), on, a number of hops, or addresses and CIDR ranges separated by commas. */
function trustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || raw === '' || raw === 'off') return false;
  if (raw === 'on') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw.split(',').map((a) => a.trim()).filter(Boolean);
  for (const a of list) {
    const [address = '', prefix, extra] = a.split('/');
    const family = isIP(address);
    // A prefix no longer than the address: /33 on IPv4 would only fail later, in proxy-addr, unnamed.
    const prefixFits = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (family === 0 || extra !== undefined || !prefixFits) {
      throw configError(`TRUST_PROXY must be off, on, a number of hops, or addresses and CIDR ranges such as 10.0.0.0/8 separated by commas; got '${a}'.`);
    }
  }
  return list;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // Decimal digits only: Number() reads blanks as 0 (a PORT of spaces listened anywhere), and -0, 0x… or 8e3 as numbers.
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw configError(`${name} must be a whole number from ${min} to ${max}; got '${raw}'.`);
  }
  return n;
}

/** A whole-number setting from its variable, within its bounds (WHOLE_NUMBERS, WEBHOOK_WHOLE_NUMBERS). */
function wholeNumber(env: NodeJS.ProcessEnv, [name, min, max]: readonly [string, number, number], fallback: number): number {
  return integer(env, name, fallback, min, max);
}

/** The largest quota: the RateLimit header fields carry quotas as structured-field integers (15 digits). */
const MAX_QUOTA = 999_999_999_999_999;

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw configError(`${name} must be on or off; got '${raw}'.`);
}

function trueFalse(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw configError(`${name} must be true or false; got '${raw}'.`);
}

/**
 * WEBHOOK_GATHER_MS's default by store: on PostgreSQL a batch's claim and outcomes are round trips
 * and wake the database's processes, and a longer gather took a quarter off what a webhook adds to
 * a write; on SQLite they are calls within the process, and 50 ms measured no better than 10, for
 * three times the latency under load (bench/README.md, Webhooks, the run of 2026-11-24, 07:05).
 */
const GATHER_MS = { sqlite: 10, postgres: 50 } as const;

/** The webhook settings that are whole numbers: their variable and bounds, in the environment or in code. */
const WEBHOOK_WHOLE_NUMBERS = {
  timeoutMs: ['WEBHOOK_TIMEOUT_MS', 1, 300_000],
  retryBaseMs: ['WEBHOOK_RETRY_BASE_MS', 1, 86_400_000],
  retryCapMs: ['WEBHOOK_RETRY_CAP_MS', 1, 7 * 86_400_000],
  maxAttempts: ['WEBHOOK_MAX_ATTEMPTS', 1, 1_000],
  disableFailures: ['WEBHOOK_DISABLE_FAILURES', 1, 1_000_000],
  disableHours: ['WEBHOOK_DISABLE_HOURS', 0, 8_760],
  pollMs: ['WEBHOOK_POLL_MS', 10, 3_600_000],
  concurrency: ['WEBHOOK_CONCURRENCY', 1, 1_000],
  gatherMs: ['WEBHOOK_GATHER_MS', 0, 1_000],
  logDays: ['WEBHOOK_LOG_DAYS', 1, 3_650],
} as const satisfies Record<string, readonly [string, number, number]>;

/** The webhook settings of an environment (docs/webhooks.md § Settings), for the store `postgres` or not. */
function webhookConfig(env: NodeJS.ProcessEnv, postgres: boolean): WebhookConfig {
  const whole = (key: keyof typeof WEBHOOK_WHOLE_NUMBERS, fallback: number) => wholeNumber(env, WEBHOOK_WHOLE_NUMBERS[key], fallback);
  return {
    allowPrivate: trueFalse(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    timeoutMs: whole('timeoutMs', 10_000),
    retryBaseMs: whole('retryBaseMs', 10_000),
    retryCapMs: whole('retryCapMs', 3_600_000),
    maxAttempts: whole('maxAttempts', 30),
    disableFailures: whole('disableFailures', 20),
    disableHours: whole('disableHours', 24),
    pollMs: whole('pollMs', 5_000),
    concurrency: whole('concurrency', 32),
    gatherMs: whole('gatherMs', postgres ? GATHER_MS.postgres : GATHER_MS.sqlite),
    logDays: whole('logDays', 7),
    deliver: trueFalse(env, 'WEBHOOK_DELIVER', true),
  };
}

/** DATABASE_SCHEMA: lowercase letters, digits and '_', starting with a letter; PostgreSQL's 63-byte names leave room for `<schema>_org_` and an organization's 32 hex digits (26 at most). */
function schemaName(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'orchard';
  if (!/^[a-z][a-z0-9_]{0,25}$/.test(raw)) {
    throw configError(`DATABASE_SCHEMA must be 1 to 26 lowercase letters, digits or '_', starting with a letter; got '${raw}'.`);
  }
  return raw;
}

/**
 * DATABASE_URL, REDIS_URL, SMTP_URL: a form their client reads as the server meant. Each client reads
 * other text as something else (pg: `garbage` as a database on the host `base`; ioredis: `http://h`
 * as the host `http`; nodemailer: a server on localhost), which would fail only later, or never be
 * noticed. The message never repeats the value: it may hold a password.
 */
const SERVER_URLS = {
  databaseUrl: ['DATABASE_URL', /^(postgres(ql)?:\/\/|socket:)/i, /^\//, 'a PostgreSQL connection URL such as postgres://user:password@host:5432/database (postgresql:// and socket: too, socket://user:password@/var/run/postgresql for a Unix socket), or the directory of its Unix socket'],
  redisUrl: ['REDIS_URL', /^rediss?:\/\//i, /^\/(?!\/)/, 'a redis:// or rediss:// URL such as redis://cache.internal:6379 or rediss://:password@cache.internal:6380/0, or the path of its Unix socket'],
  smtpUrl: ['SMTP_URL', /^smtps?:\/\//i, null, 'an smtp:// or smtps:// URL such as smtp://user:password@mail.example.com:587'],
} as const satisfies Record<string, readonly [string, RegExp, RegExp | null, string]>;

/**
 * `raw` with a placeholder host where it has a user but no host (`socket://user:pass@/var/run/pgsql`,
 * `postgres://user@/db?host=/run/postgresql`: a Unix socket with credentials, as pg reads them), which
 * the URL parser refuses; only for the check, the value is kept as given.
 */
const withHost = (raw: string): string => raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/?#]*@)(?=[/?#]|$)/i, '$1localhost');

function serverUrl(key: keyof typeof SERVER_URLS, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const [name, scheme, socketPath, what] = SERVER_URLS[key];
  if (socketPath?.test(raw) || (scheme.test(raw) && URL.canParse(withHost(raw)))) return raw;
  const given = /^[a-z][a-z0-9+.-]*:/i.exec(raw)?.[0];
  const why = !given ? 'it has no scheme' : scheme.test(raw) ? 'it is not a valid URL (its port, or a character to percent-encode in its password?)' : `its scheme is ${given}`;
  throw configError(`${name} must be ${what}; ${why}. (Its value is not repeated here: it may hold a password.)`);
}

/**
 * MAIL_FROM: one address, alone or after a display name (`Orchard <orchard@example.com>`). nodemailer
 * sends text without one (`Orchard notices`) with no From header and a null envelope sender, which
 * mail servers refuse or file as spam: the notices would be lost unseen.
 */
function mailFrom(raw: string): string {
  if (!/^(?:[^<>@\x00-\x1f\x7f]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(raw.trim())) {
    throw configError(`MAIL_FROM must be an e-mail address, alone or after a name, such as Orchard <orchard@example.com>; got '${raw}'.`);
  }
  return raw;
}

/** ADMIN_KEY: 16 to 512 visible ASCII characters, so that it fits a Bearer header and cannot be guessed when chosen well. */
function adminKey(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^[\x21-\x7e]{16,512}$/.test(raw)) {
    throw configError('ADMIN_KEY must be 16 to 512 visible ASCII characters without spaces (e.g. the output of `openssl rand -hex 24`).');
  }
  return raw;
}

/** A host name as DNS spells one: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME_RE = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** What HOST takes, for the messages that refuse a value (here, and at listen in server.ts). */
export const HOST_TAKES = 'an IP address of this machine to listen on (127.0.0.1, 0.0.0.0 for every IPv4 address, :: for every address) or a name of this machine such as localhost';

/**
 * HOST: an IP address or a host name. Anything else (a URL, an address with its port, brackets)
 * would fail only at listen, with the resolver's message (getaddrinfo ENOTFOUND) and no setting named.
 */
function listenHost(raw: string): string {
  if (isIP(raw) !== 0 || HOST_NAME_RE.test(raw)) return raw;
  throw configError(`HOST must be ${HOST_TAKES}; got '${raw}'.`);
}

/** Settings given in code rather than the environment (tests, benchmarks); the webhook settings one by one. */
export type ConfigOverrides = Partial<Omit<Config, 'webhooks'>> & { readonly webhooks?: Partial<WebhookConfig> };

/** The whole-number settings: their variable and bounds, the same whether set in the environment or in code. */
const WHOLE_NUMBERS = {
  port: ['PORT', 0, 65535],
  redisTimeoutMs: ['REDIS_TIMEOUT_MS', 1, 60_000],
  requestTimeoutMs: ['REQUEST_TIMEOUT_MS', 1, 3_600_000],
  dailyCap: ['DAILY_CAP', 1, MAX_QUOTA],
  addressMinuteLimit: ['ADDRESS_MINUTE_LIMIT', 1, MAX_QUOTA],
  openOrganizations: ['OPEN_ORGS', 1, 1_000_000],
  journalSize: ['JOURNAL_SIZE', 0, 100_000],
  journalBodyLimit: ['JOURNAL_BODY_LIMIT', 0, 1_048_576],
  changeLogRetentionDays: ['CHANGELOG_RETENTION_DAYS', 0, 36_500],
} as const satisfies Record<string, readonly [string, number, number]>;

/**
 * Settings given in code are checked as their variables are (startOrchard, tests): a name that is
 * not a setting (a typo such as journalsize), a number out of bounds, a short admin key.
 */
function checkOverrides(overrides: ConfigOverrides, config: Config): void {
  const known = Object.keys(config);
  for (const key of Object.keys(overrides)) {
    if (!known.includes(key)) throw configError(`config.${key} is not a setting; the settings are ${known.join(', ')}.`);
  }
  const wholeNumbers = (given: object, bounds: Record<string, readonly [string, number, number]>, prefix: string) => {
    for (const [key, [name, min, max]] of Object.entries(bounds)) {
      const v = (given as Record<string, unknown>)[key];
      if (v === undefined || (key === 'dailyCap' && v === null)) continue;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
        throw configError(`${prefix}${key} (${name}) must be a whole number from ${min} to ${max}; got ${JSON.stringify(v)}.`);
      }
    }
  };
  wholeNumbers(overrides, WHOLE_NUMBERS, 'config.');
  if (typeof overrides.adminKey === 'string') adminKey(overrides.adminKey);
  if (overrides.databaseSchema !== undefined) schemaName(overrides.databaseSchema);
  if (Array.isArray(overrides.trustProxy)) trustProxy(overrides.trustProxy.join(','));
  const webhookKeys = Object.keys(webhookConfig({}, false));
  for (const key of Object.keys(overrides.webhooks ?? {})) {
    if (!webhookKeys.includes(key)) throw configError(`config.webhooks.${key} is not a webhook setting; they are ${webhookKeys.join(', ')}.`);
  }
  wholeNumbers(overrides.webhooks ?? {}, WEBHOOK_WHOLE_NUMBERS, 'config.webhooks.');
}

/** Builds the configuration from an environment (process.env by default); throws with a message naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): Config {
  const port = overrides.port ?? wholeNumber(env, WHOLE_NUMBERS.port, 8080);
  const host = listenHost(overrides.host ?? (env.HOST || '127.0.0.1'));
  const logLevel = overrides.logLevel ?? (env.LOG_LEVEL || 'info');
  if (!LOG_LEVELS.includes(logLevel)) {
    throw configError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got '${logLevel}'.`);
  }
  const baseUrl = (overrides.baseUrl ?? (env.BASE_URL || undefined))?.replace(/\/+$/, '');
  // Whole: each Location is this and a path, so a space, a query or a fragment would break every one.
  if (baseUrl !== undefined && !(/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(baseUrl) && URL.canParse(baseUrl))) {
    throw configError(`BASE_URL must be an absolute http(s) URL such as https://crm.example.com or https://example.com/crm, without spaces, query or fragment; got '${baseUrl}'.`);
  }
  const metricsToken = overrides.metricsToken ?? (env.METRICS_TOKEN || undefined);
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    throw configError('METRICS_TOKEN must be 16 to 256 visible ASCII characters (no spaces), such as the output of `openssl rand -hex 24`.');
  }
  const databaseUrl = serverUrl('databaseUrl', overrides.databaseUrl ?? (env.DATABASE_URL || undefined));
  const config: Config = {
    port,
    host,
    dataDir: path.resolve(overrides.dataDir ?? (env.DATA_DIR || './data')),
    baseUrl,
    databaseUrl,
    databaseSchema: overrides.databaseSchema ?? schemaName(env.DATABASE_SCHEMA),
    pgCache: overrides.pgCache ?? onOff(env, 'PG_CACHE', true),
    redisUrl: serverUrl('redisUrl', overrides.redisUrl ?? (env.REDIS_URL || undefined)),
    redisTimeoutMs: overrides.redisTimeoutMs ?? wholeNumber(env, WHOLE_NUMBERS.redisTimeoutMs, 250),
    smtpUrl: serverUrl('smtpUrl', overrides.smtpUrl ?? (env.SMTP_URL || undefined)),
    logLevel,
    requestTimeoutMs: overrides.requestTimeoutMs ?? wholeNumber(env, WHOLE_NUMBERS.requestTimeoutMs, 30_000),
    rateLimits: overrides.rateLimits ?? onOff(env, 'RATE_LIMITS', true),
    dailyCap: overrides.dailyCap !== undefined ? overrides.dailyCap : env.DAILY_CAP ? wholeNumber(env, WHOLE_NUMBERS.dailyCap, 0) : null,
    addressMinuteLimit: overrides.addressMinuteLimit ?? wholeNumber(env, WHOLE_NUMBERS.addressMinuteLimit, 30),
    mailFrom: mailFrom(overrides.mailFrom ?? (env.MAIL_FROM || 'Orchard <orchard@localhost>')),
    openOrganizations: overrides.openOrganizations ?? wholeNumber(env, WHOLE_NUMBERS.openOrganizations, DEFAULT_OPEN_ORGANIZATIONS),
    logFormat: overrides.logFormat ?? logFormat(env.LOG_FORMAT),
    corsOrigins: overrides.corsOrigins ?? corsOrigins(env.CORS_ORIGINS),
    trustProxy: overrides.trustProxy ?? trustProxy(env.TRUST_PROXY),
    adminKey: 'adminKey' in overrides ? overrides.adminKey : adminKey(env.ADMIN_KEY),
    journalSize: overrides.journalSize ?? wholeNumber(env, WHOLE_NUMBERS.journalSize, 0),
    journalBodyLimit: overrides.journalBodyLimit ?? wholeNumber(env, WHOLE_NUMBERS.journalBodyLimit, 4096),
    changeLogRetentionDays: overrides.changeLogRetentionDays ?? wholeNumber(env, WHOLE_NUMBERS.changeLogRetentionDays, DEFAULT_CHANGELOG_RETENTION_DAYS),
    metrics: overrides.metrics ?? onOff(env, 'METRICS', true),
    metricsToken,
    metricsOrgLabel: overrides.metricsOrgLabel ?? onOff(env, 'METRICS_ORG_LABEL', false),
    webhooks: Object.freeze({ ...webhookConfig(env, databaseUrl !== undefined), ...overrides.webhooks }),
  };
  checkOverrides(overrides, config);
  return Object.freeze(config);
}
