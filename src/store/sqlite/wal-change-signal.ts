// Tells, for one system call, whether anything may have been committed to a SQLite database in WAL
// mode since the last look, by any connection of any process: the caches of the control plane and
// of an organization's schema are checked with it on every request instead of with a read transaction.

import fs from 'node:fs';

/**
 * The first copy of the wal-index header: the first 48 bytes of the `-shm` file (SQLite's
 * documented WAL-index format). Every commit rewrites it: its change counter, the last valid frame,
 * checksums and, when the WAL restarts, the salts. Checkpoints and recovery rewrite it too, which
 * only makes a look report a change that was not one.
 */
const HEADER_BYTES = 48;

/**
 * A cheap "did anything change?" for a WAL database this process keeps open (so its `-shm` file is
 * not removed under it). `changed()` reads the header with one pread: a commit that a read
 * transaction started now would see has rewritten it since the last look, so an unchanged header
 * means whatever was read after the last look that reported a change is still current. Where the
 * header cannot be read (no `-shm` file: another locking mode, another VFS), every look reports a
 * change and callers fall back to their exact check.
 *
 * One signal serves one consumer: a look that reports a change consumes it.
 */
export class WalChangeSignal {
  private fd: number | undefined;
  private readonly last = Buffer.alloc(HEADER_BYTES);
  private readonly now = Buffer.alloc(HEADER_BYTES);
  private looked = false;

  /** `dbFile` is the database's path; open the signal after the connection that keeps it in WAL mode. */
  constructor(dbFile: string) {
    try {
      this.fd = fs.openSync(`${dbFile}-shm`, 'r');
    } catch {
      this.fd = undefined;
    }
  }

  /** True when something may have been committed since the last look that returned true (and on the first look). */
  changed(): boolean {
    if (this.fd === undefined) return true;
    let n: number;
    try {
      n = fs.readSync(this.fd, this.now, 0, HEADER_BYTES, 0);
    } catch {
      return true;
    }
    if (n === HEADER_BYTES && this.looked && this.now.equals(this.last)) return false;
    this.now.copy(this.last);
    this.looked = n === HEADER_BYTES;
    return true;
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
