// The embedded notice ledger: one row per (organization, UTC day, threshold) in <data>/limits.db,
// on a connection of its own with synchronous=FULL, so a claim is on disk before its mail leaves.

import { prepared, type Db } from './sqlite-db.js';
import { openLimitsDb } from './limits-db.js';
import { inClaimOrder, type Notice, type NoticeLedger, type NoticeRecord } from '../../limits/notices.js';

interface NoticeRow { org_id: string; day: string; threshold: number; used: number; cap: number; attempts: number }

export class SqliteNoticeLedger implements NoticeLedger {
  private opened: Db | undefined;

  constructor(private readonly dataDir: string) {}

  /** Opened on first use: the stores hold a ledger for the CLI too, whose commands never claim a notice. */
  private get db(): Db {
    return (this.opened ??= openLimitsDb(this.dataDir, 'full'));
  }

  async claim(notice: Notice, at: string, lease = true): Promise<boolean> {
    const { changes } = prepared(this.db, 'INSERT INTO notices (org_id, day, threshold, used, cap, claimed_at, leased_ms) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING')
      .run(notice.orgId, notice.day, notice.threshold, notice.used, notice.cap, at, lease ? Date.now() : null);
    return changes === 1;
  }

  async release(notice: Notice): Promise<void> {
    prepared(this.db, 'UPDATE notices SET leased_ms = NULL WHERE org_id = ? AND day = ? AND threshold = ? AND sent_at IS NULL')
      .run(notice.orgId, notice.day, notice.threshold);
  }

  async markSent(notice: Notice, at: string): Promise<void> {
    prepared(this.db, 'UPDATE notices SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE org_id = ? AND day = ? AND threshold = ?')
      .run(at, notice.orgId, notice.day, notice.threshold);
  }

  async markFailed(notice: Notice, error: string): Promise<void> {
    prepared(this.db, 'UPDATE notices SET attempts = attempts + 1, last_error = ?, leased_ms = NULL WHERE org_id = ? AND day = ? AND threshold = ?')
      .run(error, notice.orgId, notice.day, notice.threshold);
  }

  async retake(day: string, maxAttempts: number, leaseMs: number): Promise<Notice[]> {
    // The lease by this machine's clock: the processes sharing a data directory share it.
    const now = Date.now();
    const rows = prepared(this.db, `UPDATE notices SET leased_ms = ?
      WHERE day = ? AND sent_at IS NULL AND attempts < ? AND (leased_ms IS NULL OR leased_ms <= ?)
      RETURNING org_id, day, threshold, used, cap, claimed_at`).all(now, day, maxAttempts, now - leaseMs) as Array<NoticeRow & { claimed_at: string }>;
    return inClaimOrder(rows);
  }

  async list(orgId: string, fromDay: string): Promise<NoticeRecord[]> {
    const rows = prepared(this.db, 'SELECT org_id, day, threshold, used, cap, claimed_at, sent_at FROM notices WHERE org_id = ? AND day >= ? ORDER BY day DESC, threshold DESC')
      .all(orgId, fromDay) as Array<NoticeRow & { claimed_at: string; sent_at: string | null }>;
    return rows.map((r) => ({ orgId: r.org_id, day: r.day, threshold: r.threshold, used: r.used, cap: r.cap, claimedAt: r.claimed_at, sentAt: r.sent_at }));
  }

  async close(): Promise<void> {
    this.opened?.close();
    this.opened = undefined;
  }
}
