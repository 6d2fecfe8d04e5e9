// Opens the stores the configuration asks for (SQLite under DATA_DIR, or PostgreSQL), shared by
// the server and the CLI so both always see the same data: the control plane, the data plane, the
// usage-notice ledger and, for a server, the rate-limit counters.

import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import { AppError } from './errors.js';
import { AdminService } from './admin/admin-service.js';
import type { NoticeLedger, NoticeLog } from './limits/notices.js';
import type { RateLimitStore } from './limits/rate-limit-store.js';
import { RedisRateLimitStore } from './limits/redis-rate-limit-store.js';
import { CLOSE_WITHIN_MS, dropSchemasOf, openPostgresControl } from './store/postgres/open-postgres-control.js';

export { CLOSE_WITHIN_MS };
import { CacheListener, type ListenerLog } from './store/postgres/cache-listener.js';
import { PostgresRecordStore } from './store/postgres/postgres-record-store.js';
import { backupSqlite, holdsSqliteData, refuseHalfRestored, restoreSqlite, type BackupManifest, type BackupProgress } from './store/sqlite/sqlite-backup.js';
import { SqliteControlStore } from './store/sqlite/sqlite-control-store.js';
import { SqliteNoticeLedger } from './store/sqlite/sqlite-notice-ledger.js';
import { SqliteRateLimitStore } from './store/sqlite/sqlite-rate-limit-store.js';
import { SqliteRecordStore } from './store/sqlite/sqlite-record-store.js';
import type { ControlStore, RecordStore } from './store/types.js';

export interface Stores {
  readonly control: ControlStore;
  readonly records: RecordStore;
  /** Where usage notices are claimed: the control schema (PostgreSQL, shared by every process) or <data>/limits.db. */
  readonly ledger: NoticeLedger;
  /**
   * Opens the rate-limit counters (the caller closes them): with REDIS_URL in Redis, on Redis's
   * clock so every process agrees, and in this process's memory while Redis does not answer
   * (docs/limits.md § Redis unreachable); else in <data>/limits.db on `clock`.
   */
  openCounters(clock: () => number, log: NoticeLog): RateLimitStore;
  readonly admin: AdminService;
  /** Where the stores tell of their connections' state (PostgreSQL: the cache listener lost and back, a close cut short) and of work they do on their own and could not do (SQLite: planner statistics not counted). */
  logTo(log: ListenerLog): void;
  /**
   * Closes every store. On PostgreSQL, waits at most `withinMs` (CLOSE_WITHIN_MS by default) for
   * statements under way and the connections' goodbyes, then destroys the connections still open.
   */
  close(options?: { withinMs?: number }): Promise<void>;
}

function openCounters(config: Config, clock: () => number, log: NoticeLog): RateLimitStore {
  if (config.redisUrl) {
    return new RedisRateLimitStore({
      redis: config.redisUrl,
      commandTimeoutMs: config.redisTimeoutMs,
      onError: (err) => log.error({ err }, 'Redis does not answer: rate limits are counted in this process\'s memory until it does'),
      onRecovered: (outageMs) => log.info({ outageMs }, 'Redis answers again: rate limits are counted in Redis'),
    });
  }
  return new SqliteRateLimitStore({
    dataDir: config.dataDir,
    clock,
    onError: (err) => log.error({ err }, 'rate-limit counters not written to limits.db; retrying'),
  });
}

export interface OpenStoresOptions {
  /**
   * PostgreSQL: keep token identities and organizations' definitions in memory, checked by the
   * cache listener (store/postgres/cache-listener.ts), rather than read on every call. PG_CACHE for a
   * server (the default); a command that runs once has nothing to gain from it.
   */
  readonly keepInMemory?: boolean;
  /**
   * SQLite: open the data directory only if it holds Orchard data, else DATA_DIR_EMPTY, rather than
   * make an empty one (a command run from another directory than the server's). PostgreSQL: no check.
   */
  readonly existing?: boolean;
}

/**
 * With DATABASE_URL: the control plane in the schema DATABASE_SCHEMA and each organization's
 * records in a schema of its own, all on one pool (docs/scaling.md). Otherwise SQLite files under DATA_DIR.
 */
export function openStores(config: Config, options: OpenStoresOptions = {}): Stores {
  const counters = (clock: () => number, log: NoticeLog) => openCounters(config, clock, log);
  if (config.databaseUrl) {
    const changes = (options.keepInMemory ?? config.pgCache) ? new CacheListener(config.databaseUrl, config.databaseSchema) : undefined;
    const pg = openPostgresControl(config.databaseUrl, { schema: config.databaseSchema, ...(changes ? { changes } : {}) });
    const records = new PostgresRecordStore(pg.pool, {
      schemaPrefix: `${config.databaseSchema}_org_`, requestTimeoutMs: config.requestTimeoutMs, openOrganizations: config.openOrganizations,
      // Every process tells of the changes it makes, whether or not it keeps anything itself (the CLI).
      channel: config.databaseSchema, ...(changes ? { changes } : {}),
    });
    let log: ListenerLog | undefined;
    return {
      control: pg.control,
      records,
      ledger: pg.ledger,
      openCounters: counters,
      admin: new AdminService(pg.control, records),
      logTo(to) {
        log = to;
        changes?.logTo(to);
      },
      async close({ withinMs = CLOSE_WITHIN_MS } = {}) {
        await records.close();
        const [, destroyed] = await Promise.all([changes?.close(), pg.close(withinMs)]);
        if (destroyed > 0) log?.warn({ destroyed, withinMs }, `PostgreSQL did not answer the close in time: its ${destroyed} connections left were destroyed`);
      },
    };
  }
  refuseHalfRestored(config.dataDir);
  if (options.existing && !holdsSqliteData(config.dataDir)) {
    throw new AppError('DATA_DIR_EMPTY', `${path.resolve(config.dataDir)} holds no Orchard data (no control.db). Run the command where the server was started, or give its data directory with --data-dir or DATA_DIR (on PostgreSQL, DATABASE_URL); orchard org create or orchard serve starts one here.`);
  }
  const control = new SqliteControlStore(config.dataDir);
  const records = new SqliteRecordStore(config.dataDir, { openOrganizations: config.openOrganizations });
  const ledger = new SqliteNoticeLedger(config.dataDir);
  return {
    control,
    records,
    ledger,
    openCounters: counters,
    admin: new AdminService(control, records),
    logTo: (to) => records.logTo(to),
    async close() {
      await records.close();
      await ledger.close();
      await control.close();
    },
  };
}

/**
 * Removes everything stored under the configuration (an ephemeral server's, once closed): the
 * data directory, and with DATABASE_URL every schema of DATABASE_SCHEMA (the control plane, the
 * organizations and their snapshots).
 */
export async function removeStoreData(config: Config): Promise<void> {
  if (config.databaseUrl) await dropSchemasOf(config.databaseUrl, config.databaseSchema);
  fs.rmSync(config.dataDir, { recursive: true, force: true });
}

function embeddedOnly(config: Config, command: string): void {
  if (config.databaseUrl) {
    throw new AppError('BACKUP_UNSUPPORTED', `orchard ${command} copies the embedded store's files; with DATABASE_URL the data is in PostgreSQL: back it up with pg_dump and restore it with pg_restore as docs/operations.md (Backups, PostgreSQL) shows.`);
  }
}

/** `orchard backup`: an online copy of every database of the data directory into `toDir` (SQLite only). */
export function backupData(config: Config, toDir: string, progress?: BackupProgress): Promise<BackupManifest> {
  embeddedOnly(config, 'backup');
  return backupSqlite(config.dataDir, toDir, progress);
}

/** `orchard restore`: a backup put into the data directory, which no process may have open (SQLite only). */
export function restoreData(config: Config, fromDir: string, options: { force: boolean }): Promise<BackupManifest> {
  embeddedOnly(config, 'restore');
  return restoreSqlite(fromDir, config.dataDir, options);
}
