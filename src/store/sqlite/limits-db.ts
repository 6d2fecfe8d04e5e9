// <data>/limits.db: the embedded rate-limit counters and the usage notices sent, in a file of their
// own (not control.db) so the counters' frequent writes never take the lock the CLI and token
// checks need, and its schema evolves by its own versioned migrations.

import fs from 'node:fs';
import path from 'node:path';
import { migrate, openDb, PRIVATE_DIR_MODE, type Db, type Migration } from './sqlite-db.js';

/** Versioned migrations of limits.db; append only. */
const LIMITS_MIGRATIONS: readonly Migration[] = [
  (db) => {
    db.exec(`
      -- The sliding logs, to the second: accepted requests per key and second of the last minute,
      -- ts being the last millisecond of that second.
      CREATE TABLE minute_log (
        key TEXT NOT NULL,
        ts INTEGER NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (key, ts)
      ) WITHOUT ROWID;
      -- Accepted requests per key and UTC day (days since the epoch).
      CREATE TABLE day_counts (
        key TEXT NOT NULL,
        day INTEGER NOT NULL,
        count INTEGER NOT NULL,
        PRIMARY KEY (key, day)
      ) WITHOUT ROWID;
      -- One row per usage notice: inserting it is what entitles a process to send it.
      CREATE TABLE notices (
        org_id TEXT NOT NULL,
        day TEXT NOT NULL,
        threshold INTEGER NOT NULL,
        used INTEGER NOT NULL,
        cap INTEGER NOT NULL,
        claimed_at TEXT NOT NULL,
        sent_at TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        PRIMARY KEY (org_id, day, threshold)
      ) WITHOUT ROWID;
    `);
  },
  // 2: when a notice was last claimed or taken for sending (ms since the epoch): a retry leaves
  // it to its sender until the lease ends (notices.ts, NOTICE_LEASE_MS).
  (db) => {
    db.exec('ALTER TABLE notices ADD COLUMN leased_ms INTEGER');
  },
  // 3: whether a second of the sliding log was counted on a clock of the key's own (an
  // organization's moved clock): such rows leave by the key's latest second, not the store's clock.
  (db) => {
    db.exec('ALTER TABLE minute_log ADD COLUMN own INTEGER NOT NULL DEFAULT 0');
  },
];

/**
 * Opens (creating and migrating) `<dataDir>/limits.db`. `durability` 'normal' is for the counters
 * (synchronous=NORMAL: in WAL mode a commit survives a process crash, only a power loss can undo the
 * last ones); 'full' for notice claims, which must survive anything before a mail goes out.
 */
export function openLimitsDb(dataDir: string, durability: 'normal' | 'full'): Db {
  fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const db = openDb(path.join(dataDir, 'limits.db'));
  if (durability === 'normal') db.pragma('synchronous = NORMAL');
  migrate(db, LIMITS_MIGRATIONS);
  return db;
}
