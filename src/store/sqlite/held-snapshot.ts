// A read transaction that the main thread's read-only connection keeps open from one read to the
// next within a turn of the event loop. A SQLite read transaction in WAL mode costs three system
// calls to begin and end (a lock on the -shm file, its release and a stat of the database file),
// about 7 µs each in the server's profile under load, more in all than the indexed read itself.
// The requests a loaded server handles in one turn share one snapshot instead; it ends when the
// turn ends, when the file's WalChangeSignal reports a change (see SqliteOrgRecords.schemaSync) and
// before every write of the server's own, so a read still sees everything committed before its
// request began.
//
// Why not longer than a turn: a checkpoint cannot copy into the database file the commits that a
// held snapshot predates, and a WAL that is never wholly copied is never restarted. A snapshot held
// from turn to turn under steady reads would always predate another process's latest commit when
// that process checkpoints, and the WAL would grow for as long as the reads and writes went on.

import { atTurnEnd, currentTurn } from './event-loop-turn.js';
import { prepared, type Db } from './sqlite-db.js';

export class HeldSnapshot {
  private db: Db | undefined;
  /** The turn at whose end release() is due (-1: none). */
  private releaseDueIn = -1;
  private readonly releaseNow = () => this.release();

  /** `open` makes the connection (read-only), on first use. */
  constructor(private readonly open: () => Db) {}

  /**
   * The connection, inside the held read transaction (begun now when none is; it ends with the
   * turn). A read through it sees the database as it was at the transaction's first read, so
   * callers release() first whenever something may have been committed since.
   */
  connection(): Db {
    const db = (this.db ??= this.open());
    // SQLite may have ended the transaction itself (a failed statement can roll it back), so the
    // connection, not a flag of ours, says whether one is open.
    if (!db.inTransaction) {
      prepared(db, 'BEGIN').run();
      const turn = currentTurn();
      if (this.releaseDueIn !== turn) {
        this.releaseDueIn = turn;
        atTurnEnd(this.releaseNow);
      }
    }
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

  close(): void {
    this.release();
    this.db?.close();
    this.db = undefined;
  }
}
