// A read transaction that the main thread's read-only connection keeps open from one read to the
// next. A SQLite read transaction in WAL mode costs three system calls to begin and end (a lock on
// the -shm file, its release and a stat of the database file), about 7 µs each in the server's
// profile under load, more in all than the indexed read itself. Reads in a row share one snapshot,
// for as long as nothing is committed: whoever holds it ends it when the file's WalChangeSignal
// reports a change (see SqliteOrgRecords.schemaSync) and after every write of its own, so a read
// still sees everything committed before its request began.

import { prepared, type Db } from './sqlite-db.js';

/**
 * How long a snapshot is kept with no read: an idle server must not keep one, as a held snapshot
 * stops checkpoints from copying later commits (of the CLI's seed, another process) into the
 * database file, and the WAL would grow meanwhile.
 */
export const SNAPSHOT_IDLE_MS = 50;

export class HeldSnapshot {
  private db: Db | undefined;
  private timer: NodeJS.Timeout | undefined;
  private used = false;

  /** `open` makes the connection (read-only), on first use. */
  constructor(private readonly open: () => Db, private readonly idleMs = SNAPSHOT_IDLE_MS) {}

  /**
   * The connection, inside the held read transaction (begun now when none is). A read through it
   * sees the database as it was at the transaction's first read, so callers release() first
   * whenever something may have been committed since.
   */
  connection(): Db {
    const db = (this.db ??= this.open());
    // SQLite may have ended the transaction itself (a failed statement can roll it back), so the
    // connection, not a flag of ours, says whether one is open.
    if (!db.inTransaction) {
      prepared(db, 'BEGIN').run();
      if (this.timer) this.timer.refresh();
      else this.timer = setTimeout(() => this.idle(), this.idleMs).unref();
    }
    this.used = true;
    return db;
  }

  /** Ends the held transaction: the next read starts a new snapshot. */
  release(): void {
    if (this.db?.inTransaction) prepared(this.db, 'COMMIT').run();
  }

  /** Whether a read transaction is held now (for tests). */
  get holding(): boolean {
    return this.db?.inTransaction ?? false;
  }

  private idle(): void {
    if (!this.db?.inTransaction) return;
    if (this.used) {
      this.used = false;
      this.timer!.refresh();
    } else {
      this.release();
    }
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.release();
    this.db?.close();
    this.db = undefined;
  }
}
