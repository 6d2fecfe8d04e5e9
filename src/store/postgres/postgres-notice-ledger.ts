// The shared notice ledger: one row per (organization, UTC day, threshold) in the control schema's
// `notices` table. Its primary key makes exactly one of several processes win a claim, and a
// claim is committed (durable) before the mail that follows it leaves.

import { CONTROL_MIGRATIONS, DEFAULT_CONTROL_SCHEMA, iso, isId, isoOrNull } from './postgres-control-ddl.js';
import { qi, schemaRunner, type Pool, type SchemaRunner } from './pg-db.js';
import { inClaimOrder, type Notice, type NoticeLedger, type NoticeRecord } from '../../limits/notices.js';

interface NoticeRow { org_id: string; day: string; threshold: number; used: number; cap: number }

export class PostgresNoticeLedger implements NoticeLedger {
  private readonly sql: SchemaRunner;
  private readonly table: string;

  /** A ledger in `schema` (migrated on first use, as PostgresControlStore does); close() leaves the pool to its owner. */
  constructor(readonly pool: Pool, readonly schema: string = DEFAULT_CONTROL_SCHEMA) {
    this.sql = schemaRunner(pool, schema, CONTROL_MIGRATIONS);
    this.table = `${qi(schema)}.notices`;
  }

  async claim(notice: Notice, at: string, lease = true): Promise<boolean> {
    const { rowCount } = await this.sql(`INSERT INTO ${this.table} (org_id, day, threshold, used, cap, claimed_at, leased_at) VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::boolean THEN now() END) ON CONFLICT DO NOTHING`,
      [notice.orgId, notice.day, notice.threshold, notice.used, notice.cap, at, lease]);
    return rowCount === 1;
  }

  async release(notice: Notice): Promise<void> {
    await this.sql(`UPDATE ${this.table} SET leased_at = NULL WHERE org_id = $1 AND day = $2 AND threshold = $3 AND sent_at IS NULL`,
      [notice.orgId, notice.day, notice.threshold]);
  }

  async markSent(notice: Notice, at: string): Promise<void> {
    await this.sql(`UPDATE ${this.table} SET sent_at = $4, attempts = attempts + 1, last_error = NULL WHERE org_id = $1 AND day = $2 AND threshold = $3`,
      [notice.orgId, notice.day, notice.threshold, at]);
  }

  async markFailed(notice: Notice, error: string): Promise<void> {
    await this.sql(`UPDATE ${this.table} SET attempts = attempts + 1, last_error = $4, leased_at = NULL WHERE org_id = $1 AND day = $2 AND threshold = $3`,
      [notice.orgId, notice.day, notice.threshold, error]);
  }

  async retake(day: string, maxAttempts: number, leaseMs: number): Promise<Notice[]> {
    // One statement: a row another process takes at the same moment is locked, then seen leased.
    // The lease by the database's clock, which every process shares. The day as text (a date column
    // would come back as a local-time Date).
    const { rows } = await this.sql<NoticeRow & { claimed_at: Date }>(`UPDATE ${this.table} SET leased_at = now()
      WHERE day = $1 AND sent_at IS NULL AND attempts < $2 AND (leased_at IS NULL OR leased_at <= now() - $3 * interval '1 millisecond')
      RETURNING org_id, to_char(day, 'YYYY-MM-DD') AS day, threshold, used, cap, claimed_at`, [day, maxAttempts, leaseMs]);
    return inClaimOrder(rows.map((r) => ({ ...r, claimed_at: iso(r.claimed_at) })));
  }

  async list(orgId: string, fromDay: string): Promise<NoticeRecord[]> {
    if (!isId(orgId)) return [];
    const { rows } = await this.sql<NoticeRow & { claimed_at: Date; sent_at: Date | null }>(`SELECT org_id, to_char(day, 'YYYY-MM-DD') AS day, threshold, used, cap, claimed_at, sent_at
      FROM ${this.table} WHERE org_id = $1 AND day >= $2 ORDER BY day DESC, threshold DESC`, [orgId, fromDay]);
    return rows.map((r) => ({ orgId: r.org_id, day: r.day, threshold: r.threshold, used: r.used, cap: r.cap, claimedAt: iso(r.claimed_at), sentAt: isoOrNull(r.sent_at) }));
  }

  /** Nothing to release: the pool is the caller's. */
  async close(): Promise<void> {}
}
