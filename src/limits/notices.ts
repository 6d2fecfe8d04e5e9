// Usage notices (docs/limits.md): at 90 % and at 100 % of the day's cap, one e-mail to the
// organization's primary user per threshold per UTC day. A durable claim in the ledger decides who
// sends; a queue keeps sending off the request path; claims whose mail failed are retried.

import type { Organization, User } from '../auth/identity.js';
import type { Mailer, MailMessage } from './mailer.js';
import { DAY_MS, isoDay, utcDay } from './rate-limit-store.js';

/** Percentages of the daily cap that send a notice, ascending. */
export const NOTICE_THRESHOLDS = [90, 100] as const;
/** Sends tried per notice before it is given up (each failure is logged). */
export const MAX_ATTEMPTS = 10;
/** How often unsent notices of the current UTC day are retried. */
export const RETRY_EVERY_MS = 5 * 60_000;
/**
 * How long a claimed or retaken notice stays with the process sending it before another may take
 * it: past the mailer's time limits (mailer.ts), so a send in flight is never doubled by a retry.
 */
export const NOTICE_LEASE_MS = 2 * 60_000;

export interface Notice {
  readonly orgId: string;
  /** The UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  /** A member of NOTICE_THRESHOLDS. */
  readonly threshold: number;
  /** Requests counted that day when the threshold was reached. */
  readonly used: number;
  readonly cap: number;
}

/** A notice as the ledger holds it: claimed, and sent or not yet. */
export interface NoticeRecord extends Notice {
  /** When a process claimed it (ISO 8601 UTC). */
  readonly claimedAt: string;
  /** When its mail left; null while unsent (being sent, or failing). */
  readonly sentAt: string | null;
}

/** Durable, shared record of notices: one per (organization, day, threshold), whoever writes it. */
export interface NoticeLedger {
  /**
   * Records the notice unless it exists; true only for the one caller that recorded it, who must
   * send it. `lease` false records it free for the next retake instead (a process closing before it
   * could send it).
   */
  claim(notice: Notice, at: string, lease?: boolean): Promise<boolean>;
  /** Ends the lease of a notice taken but not sent (a process closing): the next retake may take it at once. */
  release(notice: Notice): Promise<void>;
  markSent(notice: Notice, at: string): Promise<void>;
  /** Counts a failed attempt; the notice stays unsent, and free for the next retake. */
  markFailed(notice: Notice, error: string): Promise<void>;
  /**
   * Takes the claimed notices of `day` not yet sent, with fewer than `maxAttempts` attempts, that no
   * process claimed or took in the last `leaseMs` (by the ledger's clock), in the order they were
   * claimed. Each is given to one caller only, who sends it: a retry on one process never doubles
   * a send in flight on another.
   */
  retake(day: string, maxAttempts: number, leaseMs: number): Promise<Notice[]>;
  /** The organization's notices of `fromDay` (YYYY-MM-DD) and later, newest day first, then the higher threshold first. */
  list(orgId: string, fromDay: string): Promise<NoticeRecord[]>;
  close(): Promise<void>;
}

/** Retaken rows as notices, in the order they were claimed (RETURNING keeps none). */
export function inClaimOrder(rows: ReadonlyArray<{ org_id: string; day: string; threshold: number; used: number; cap: number; claimed_at: string }>): Notice[] {
  return [...rows]
    .sort((a, b) => (a.claimed_at < b.claimed_at ? -1 : a.claimed_at > b.claimed_at ? 1 : a.org_id < b.org_id ? -1 : a.org_id > b.org_id ? 1 : a.threshold - b.threshold))
    .map((r) => ({ orgId: r.org_id, day: r.day, threshold: r.threshold, used: r.used, cap: r.cap }));
}

/** The part of pino (Fastify's logger) notices use. */
export interface NoticeLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Where notices find the organization and its primary user (the control store). */
export interface UserDirectory {
  getOrganization(id: string): Promise<Organization | null>;
  getUser(id: string): Promise<User | null>;
}

export interface UsageNoticesOptions {
  readonly ledger: NoticeLedger;
  readonly mailer: Mailer;
  /** Where the organization's name and primary user's address are read at sending time. */
  readonly directory: UserDirectory;
  /** The time of an organization's notices when given its id (its clock may be moved), else the server's. */
  readonly clock: (orgId?: string) => number;
  readonly log: NoticeLog;
  readonly retryEveryMs?: number;
  /** Told each notice once its mail is sent (the control API's outbox). */
  readonly onSent?: (notice: Notice, message: MailMessage, at: string) => void;
}

const keyOf = (n: Notice) => `${n.orgId} ${n.day} ${n.threshold}`;
const seenKey = (orgId: string, threshold: number) => `${orgId} ${threshold}`;

export class UsageNotices {
  /**
   * The UTC day on which this process last handled each threshold of an organization (org id +
   * threshold → day), so observe() stays cheap; a day per organization, as each may have its own clock.
   */
  private readonly seen = new Map<string, number>();
  private readonly inFlight = new Set<string>();
  private tail: Promise<void> = Promise.resolve();
  private closing = false;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: UsageNoticesOptions) {
    this.timer = setInterval(() => void this.retryUnsent(), options.retryEveryMs ?? RETRY_EVERY_MS);
    this.timer.unref();
  }

  /**
   * Told the day's usage of an organization after each of its requests (counted or refused). Queues a
   * notice for each threshold reached that this process has not handled today; never blocks or throws.
   */
  observe(orgId: string, day: { readonly used: number; readonly quota: number; readonly dayNumber: number }): void {
    if (day.used * 100 < NOTICE_THRESHOLDS[0] * day.quota) return;
    for (const threshold of NOTICE_THRESHOLDS) {
      if (day.used * 100 < threshold * day.quota) return;
      const key = seenKey(orgId, threshold);
      if (this.seen.get(key) === day.dayNumber) continue;
      this.seen.set(key, day.dayNumber);
      this.enqueue({ orgId, day: isoDay(day.dayNumber), threshold, used: day.used, cap: day.quota }, true);
    }
  }

  /**
   * Queues the notices of the current UTC day that were claimed but not sent (on start, then
   * periodically). Runs in the queue, so idle() also waits for what it finds.
   */
  retryUnsent(): Promise<void> {
    const step = this.tail.then(async () => {
      if (this.closing) return;
      try {
        const today = isoDay(utcDay(this.options.clock()));
        for (const notice of await this.options.ledger.retake(today, MAX_ATTEMPTS, NOTICE_LEASE_MS)) this.enqueue(notice, false);
      } catch (err) {
        this.options.log.error({ err }, 'could not read the unsent usage notices');
      }
    });
    this.tail = step;
    return step;
  }

  /** Resolves once every queued notice has been handled. */
  async idle(): Promise<void> {
    let tail: Promise<void>;
    do {
      tail = this.tail;
      await tail;
    } while (tail !== this.tail);
  }

  /**
   * Finishes the notice being sent; the queued ones are not sent but left in the ledger, claimed and
   * free, so the next start (or another process's retry) sends them.
   */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.timer);
    await this.idle();
    this.options.mailer.close();
  }

  private enqueue(notice: Notice, claim: boolean): void {
    const key = keyOf(notice);
    if (this.inFlight.has(key)) return;
    this.inFlight.add(key);
    this.tail = this.tail.then(() => this.deliver(notice, claim)).finally(() => this.inFlight.delete(key));
  }

  private async deliver(notice: Notice, claim: boolean): Promise<void> {
    const { ledger, log } = this.options;
    if (this.closing) {
      // Not sent now, so as not to hold the close for a mail: recorded for the next retake instead.
      try {
        if (claim) await ledger.claim(notice, new Date(this.options.clock(notice.orgId)).toISOString(), false);
        else await ledger.release(notice);
      } catch (err) {
        log.error({ err, notice }, 'usage notice left unrecorded at close; it is queued again at the organization\'s next request');
      }
      return;
    }
    const now = () => new Date(this.options.clock(notice.orgId)).toISOString();
    if (claim) {
      let claimed: boolean;
      try {
        claimed = await ledger.claim(notice, now());
      } catch (err) {
        // Nothing recorded, so no retry would find it: the organization's next request queues it again.
        const key = seenKey(notice.orgId, notice.threshold);
        if (this.seen.get(key) === utcDay(Date.parse(notice.day))) this.seen.delete(key);
        log.error({ err, notice }, 'usage notice not claimed; it is tried again at the organization\'s next request');
        return;
      }
      if (!claimed) return; // claimed before: by an earlier run or another process
    }
    try {
      const to = await this.recipientOf(notice.orgId);
      const message = { ...composeNotice(notice, to), date: new Date(this.options.clock(notice.orgId)) };
      await this.options.mailer.send(message);
      const at = now();
      await ledger.markSent(notice, at);
      this.options.onSent?.(notice, message, at);
      log.info({ notice, to: to.email }, 'usage notice sent');
    } catch (err) {
      log.error({ err, notice }, 'usage notice not sent; it is retried');
      await ledger.markFailed(notice, err instanceof Error ? err.message : String(err)).catch(() => {});
    }
  }

  private async recipientOf(orgId: string): Promise<{ email: string; orgName: string }> {
    const { directory } = this.options;
    const org = await directory.getOrganization(orgId);
    const user = org?.primaryUserId ? await directory.getUser(org.primaryUserId) : null;
    if (!org || !user) throw new Error(`organization ${orgId} has no primary user to notify`);
    return { email: user.email, orgName: org.name };
  }
}

/** The e-mail of a notice: the usage, the cap, and when it resets. */
export function composeNotice(notice: Notice, to: { email: string; orgName: string }): MailMessage {
  const n = (x: number) => x.toLocaleString('en-US');
  const resets = isoDay(utcDay(Date.parse(`${notice.day}T00:00:00Z`) + DAY_MS));
  const full = notice.threshold >= 100;
  const percent = Math.floor((notice.used * 100) / notice.cap);
  const subject = full
    ? `Orchard: ${to.orgName} has reached its daily cap of ${n(notice.cap)} API requests`
    : `Orchard: ${to.orgName} has used ${percent} % of its daily API requests`;
  const text = [
    'Hello,',
    '',
    `The organization "${to.orgName}" (${notice.orgId}) has made ${n(notice.used)} API requests on ${notice.day} (UTC): ${percent} % of its daily cap of ${n(notice.cap)}.`,
    // A 90 % notice sent at or past the cap (reached in one jump) says what is, not what will be.
    full || notice.used >= notice.cap
      ? 'Further requests are refused with 429 Too Many Requests until the cap resets.'
      : `Once ${n(notice.cap)} requests are reached, further requests are refused with 429 Too Many Requests until the cap resets.`,
    `The cap resets at 00:00 UTC on ${resets}.`,
    '',
    'A plan with a larger daily cap avoids this; requests per minute are limited separately.',
    '',
    'Orchard',
    '',
  ].join('\n');
  return { to: to.email, subject, text };
}
