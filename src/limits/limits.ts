// The limits of a running server (docs/limits.md): the quotas of an organization and of a client address,
// the store that counts them (given: <data>/limits.db, or Redis with REDIS_URL), and the usage notices.

import path from 'node:path';
import type { Organization } from '../auth/identity.js';
import { DEFAULT_MINUTE_LIMIT, planOf } from '../auth/plans.js';
import type { Config } from '../config.js';
import { createMailer } from './mailer.js';
import type { MailMessage } from './mailer.js';
import { UsageNotices, type Notice, type NoticeLedger, type NoticeLog, type NoticeRecord, type UserDirectory } from './notices.js';
import { isoDay, DAYS_KEPT, type Quotas, type RateLimitStore, type WindowState } from './rate-limit-store.js';

/** An organization's usage as the console and the usage routes show it (docs/limits.md § Usage). */
export interface OrgUsage {
  /** The rolling minute: requests in it now, the quota, what is left, seconds until it gives quota back. */
  readonly minute: WindowState & { readonly used: number };
  /** The UTC day (YYYY-MM-DD) likewise; null when the organization has no daily cap. */
  readonly day: (WindowState & { readonly used: number; readonly day: string }) | null;
  /** Requests counted on each of the last DAYS_KEPT UTC days, oldest first, the current day last. */
  readonly days: ReadonlyArray<{ readonly day: string; readonly count: number }>;
  /** The usage notices of those days, newest first. */
  readonly notices: ReadonlyArray<Omit<NoticeRecord, 'orgId'>>;
}

export interface Limits {
  readonly store: RateLimitStore;
  readonly notices: UsageNotices;
  /** The minute limit (the organization's override, else the default) and its plan's daily cap (or DAILY_CAP). */
  quotasOf(org: Organization): Quotas;
  /** For requests whose token does not resolve: a minute window, no day. */
  readonly addressQuotas: Quotas;
  /** The limits' clock, milliseconds since the epoch (an organization's when given its id). */
  readonly clock: (orgId?: string) => number;
  /**
   * The organization's usage at `now` (a moved clock's time; else the store's), counting nothing:
   * reading it is not a request against the limits.
   */
  usage(org: Organization, now?: number): Promise<OrgUsage>;
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
  readonly clock: (orgId?: string) => number;
  readonly log: NoticeLog;
  /** Told each usage notice once sent. */
  readonly onNoticeSent?: (notice: Notice, message: MailMessage, at: string) => void;
}

/** The minute limit (the organization's override, else the default) and its plan's daily cap (or DAILY_CAP). */
export const quotasOf = (config: Config, org: Organization): Quotas => ({ minute: org.minuteLimit ?? DEFAULT_MINUTE_LIMIT, day: config.dailyCap ?? planOf(org.plan).dailyCap });

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
    quotasOf: (org) => quotasOf(config, org),
    async usage(org, now) {
      const state = await store.usage(orgKey(org.id), quotasOf(config, org), now);
      const first = state.lastDay - DAYS_KEPT + 1;
      return {
        minute: state.minute,
        day: state.day && { quota: state.day.quota, remaining: state.day.remaining, resetSeconds: state.day.resetSeconds, used: state.day.used, day: isoDay(state.day.dayNumber) },
        days: state.days.map((count, i) => ({ day: isoDay(first + i), count })),
        notices: (await ledger.list(org.id, isoDay(first))).map(({ orgId: _, ...notice }) => notice),
      };
    },
    async close() {
      await notices.close();
      await store.close();
    },
  };
}
