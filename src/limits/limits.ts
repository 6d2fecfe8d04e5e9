// The limits of a running server (DESIGN §5), opened from the configuration: the quotas of an
// organization and of a client address, the store that counts them (<data>/limits.db, or Redis with
// REDIS_URL), and the usage notices.

import path from 'node:path';
import { DEFAULT_MINUTE_LIMIT, planOf } from '../auth/plans.js';
import type { Config } from '../config.js';
import type { ControlStore, Organization } from '../store/types.js';
import { createMailer } from './mailer.js';
import { UsageNotices, type NoticeLedger, type NoticeLog } from './notices.js';
import type { Quotas, RateLimitStore } from './rate-limit-store.js';
import { RedisRateLimitStore } from './redis-rate-limit-store.js';
import { SqliteNoticeLedger } from './sqlite-notice-ledger.js';
import { SqliteRateLimitStore } from './sqlite-rate-limit-store.js';

export interface Limits {
  readonly store: RateLimitStore;
  readonly notices: UsageNotices;
  /** The minute limit (the organization's override, else the default) and its plan's daily cap (or DAILY_CAP). */
  quotasOf(org: Organization): Quotas;
  /** For requests whose token does not resolve: a minute window, no day. */
  readonly addressQuotas: Quotas;
  /** Flushes the counters and finishes the notice being sent. */
  close(): Promise<void>;
}

/** Store keys: organizations and client addresses never share a counter. */
export const orgKey = (orgId: string): string => `org:${orgId}`;
export const addressKey = (ip: string): string => `addr:${ip}`;

/**
 * With REDIS_URL every process counts in Redis, on Redis's clock (`TIME`) so they all agree; while
 * Redis does not answer each counts in its own memory (docs/limits.md § Redis unreachable).
 */
function openRedisStore(url: string, log: NoticeLog): RateLimitStore {
  return new RedisRateLimitStore({
    redis: url,
    onError: (err) => log.error({ err }, 'Redis does not answer: rate limits are counted in this process\'s memory until it does'),
    onRecovered: (outageMs) => log.info({ outageMs }, 'Redis answers again: rate limits are counted in Redis'),
  });
}

export interface LimitsDeps {
  readonly config: Config;
  readonly control: ControlStore;
  /**
   * Where notices are claimed: the stores' shared ledger (PostgreSQL, so several processes send
   * each notice once); by default one in <data>/limits.db. Owned by the stores, not closed here.
   */
  readonly ledger?: NoticeLedger;
  readonly clock: () => number;
  readonly log: NoticeLog;
}

export function openLimits({ config, control, clock, log, ledger }: LimitsDeps): Limits {
  const store = config.redisUrl ? openRedisStore(config.redisUrl, log) : new SqliteRateLimitStore({
    dataDir: config.dataDir,
    clock,
    onError: (err) => log.error({ err }, 'rate-limit counters not written to limits.db; retrying'),
  });
  const notices = new UsageNotices({
    ledger: ledger ?? new SqliteNoticeLedger(config.dataDir),
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom, clock }),
    directory: control,
    clock,
    log,
  });
  void notices.retryUnsent(); // claims a previous run did not get to send
  const addressQuotas: Quotas = { minute: config.addressMinuteLimit, day: null };
  return {
    store,
    notices,
    addressQuotas,
    quotasOf: (org) => ({ minute: org.minuteLimit ?? DEFAULT_MINUTE_LIMIT, day: config.dailyCap ?? planOf(org.plan).dailyCap }),
    async close() {
      await notices.close();
      await store.close();
    },
  };
}
