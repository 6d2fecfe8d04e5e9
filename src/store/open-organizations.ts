// The organizations a record store keeps open: at most `max`, least recently used closed first,
// and any left unused for `idleMs` closed by an unreferenced timer. What is in use is leased and
// never closed under its user: a lease lasts as long as the call that took it (a read waiting on a
// reader thread, a write waiting for another process's lock), and an organization pushed past the
// cap while leased is closed when its last lease ends.

/** Organizations a store keeps open by default: the configuration's default (OPEN_ORGS). */
export { DEFAULT_OPEN_ORGANIZATIONS as OPEN_ORGANIZATIONS } from '../config.js';

/** How long an organization stays open unused by default. */
export const IDLE_CLOSE_MS = 5 * 60_000;

interface Entry<T> {
  readonly value: T;
  leases: number;
  /** When the last lease ended (ms since the epoch). */
  idleSince: number;
  /** Past the cap while leased: closed when its last lease ends, unless used again first. */
  evicted: boolean;
}

export interface OpenOrganizationsOptions<T> {
  /** Organizations kept open at most, beyond those leased at the moment. */
  readonly max: number;
  /** Milliseconds unused after which an organization is closed. */
  readonly idleMs: number;
  /** Opens an organization (its id checked by the caller); may throw, and nothing is kept then. */
  open(orgId: string): T;
  /** Releases what `open` took. */
  close(value: T, orgId: string): void;
}

export class OpenOrganizations<T> {
  /** Least recently used first (a Map keeps insertion order; a use moves an entry to the end). */
  private readonly entries = new Map<string, Entry<T>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: OpenOrganizationsOptions<T>) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(1, Math.floor(options.idleMs / 4)));
    // Idle organizations are closed while the process runs for other reasons; this never keeps it running.
    this.sweeper.unref();
  }

  /** Organizations open at this moment. */
  get size(): number {
    return this.entries.size;
  }

  /** Runs `work` with the organization open, opening it first if need be; it stays open until `work` settles. */
  async use<R>(orgId: string, work: (value: T) => R | Promise<R>): Promise<R> {
    const entry = this.lease(orgId);
    try {
      return await work(entry.value);
    } finally {
      entry.leases--;
      entry.idleSince = Date.now();
      if (entry.leases === 0 && entry.evicted) this.closeEntry(orgId, entry);
    }
  }

  private lease(orgId: string): Entry<T> {
    let entry = this.entries.get(orgId);
    if (entry) {
      this.entries.delete(orgId);
    } else {
      entry = { value: this.options.open(orgId), leases: 0, idleSince: 0, evicted: false };
    }
    this.entries.set(orgId, entry);
    entry.leases++;
    entry.evicted = false;
    this.closeOverCap();
    return entry;
  }

  /** Closes the least recently used past the cap, or marks them to be closed when their calls end. */
  private closeOverCap(): void {
    let excess = this.entries.size - this.options.max;
    for (const [orgId, entry] of this.entries) {
      if (excess-- <= 0) return;
      if (entry.leases === 0) this.closeEntry(orgId, entry);
      else entry.evicted = true;
    }
  }

  private closeIdle(): void {
    const now = Date.now();
    for (const [orgId, entry] of this.entries) {
      if (entry.leases === 0 && now - entry.idleSince >= this.options.idleMs) this.closeEntry(orgId, entry);
    }
  }

  private closeEntry(orgId: string, entry: Entry<T>): void {
    if (this.entries.get(orgId) === entry) this.entries.delete(orgId);
    this.options.close(entry.value, orgId);
  }

  /** Drops the organization if `value` is what is open for it (an open that failed later), without closing it. */
  forget(orgId: string, value: T): void {
    if (this.entries.get(orgId)?.value === value) this.entries.delete(orgId);
  }

  /**
   * Lets go of the organization (its data is being removed): closed now when no call is using it,
   * else when the last one ends; the next use opens it anew.
   */
  discard(orgId: string): void {
    const entry = this.entries.get(orgId);
    if (!entry) return;
    this.entries.delete(orgId);
    entry.evicted = true;
    if (entry.leases === 0) this.options.close(entry.value, orgId);
  }

  /** Closes every organization, leased or not (the store is closing), and stops the timer. */
  closeAll(): void {
    clearInterval(this.sweeper);
    for (const [orgId, entry] of this.entries) this.closeEntry(orgId, entry);
  }
}
