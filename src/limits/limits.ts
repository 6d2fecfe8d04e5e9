// The limits of a running server (docs/limits.md): the quotas of an organization and of a client address,
// the store that counts them (given: <data>/limits.db, or Redis with REDIS_URL), and the usage notices.

import path from 'node:path';
import type { Organization } from '../auth/identity.js';
import { DEFAULT_MINUTE_LIMIT, planOf } from '../auth/plans.js';
import type { Config } from '../config.js';
import { createMailer } from './mailer.js';
import { UsageNotices, type NoticeLedger, type NoticeLog, type UserDirectory } from './notices.js';
import type { Quotas, RateLimitStore } from './rate-limit-store.js';

export interface Limits {
  readonly store: RateLimitStore;
  readonly notices: UsageNotices;
  /** The minute limit (the organization's override, else the default) and its plan's daily cap (or DAILY_CAP). */
  quotasOf(org: Organization): Quotas;
  /** For requests whose token does not resolve: a minute window, no day. */
  readonly addressQuotas: Quotas;
  /** The limits' clock, milliseconds since the epoch. */
  readonly clock: () => number;
  /** Flushes the counters and finishes the notice being sent. */
  close(): Promise<void>;
}

/** Store keys: organizations and client addresses never share a counter. */
export const orgKey = (orgId: string): string => `org:${orgId}`;
export const addressKey = (ip: string): string => `addr:${ip}`;

export interface LimitsDeps {
  readonly config: Config;
  /** Where notices read the organization and its primary user. */
  readonly directory: UserDirectory;
  /** Where notices are claimed, once per organization, day and threshold; owned by the stores, not closed here. */
  readonly ledger: NoticeLedger;
  /** The counters of both windows (<data>/limits.db, or Redis); closed with the limits. */
  readonly counters: RateLimitStore;
  readonly clock: () => number;
  readonly log: NoticeLog;
  /** Told after each usage notice sent (metrics). */
  readonly onNoticeSent?: () => void;
}

export function openLimits({ config, directory, ledger, counters: store, clock, log, onNoticeSent }: LimitsDeps): Limits {
  const notices = new UsageNotices({
    ledger,
    mailer: createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.mailFrom, clock }),
    directory,
    clock,
    log,
    ...(onNoticeSent ? { onSent: onNoticeSent } : {}),
  });
  void notices.retryUnsent(); // claims a previous run did not get to send
  const addressQuotas: Quotas = { minute: config.addressMinuteLimit, day: null };
  return {
    store,
    notices,
    addressQuotas,
    clock,
    quotasOf: (org) => ({ minute: org.minuteLimit ?? DEFAULT_MINUTE_LIMIT, day: config.dailyCap ?? planOf(org.plan).dailyCap }),
    async close() {
      await notices.close();
      await store.close();
    },
  };
}
