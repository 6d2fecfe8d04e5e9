// The clocks of a server (docs/control-api.md § Clock): the real one, and clocks a test suite moves —
// frozen, set or advanced — for the whole server or for one organization. Everything that reads the
// time of an organization's request asks `now(orgId)`, so a moved clock is followed everywhere.

import { AppError } from '../errors.js';
import { utcMs, validCalendarDate } from '../schema/values.js';

/** Milliseconds since the epoch; the time of `orgId`'s requests when given, else the server's. */
export type Clock = (orgId?: string) => number;

/** A moved clock: stopped at `at`, or running at the base clock plus `offsetMs`. */
type Moved = { readonly frozen: true; at: number } | { readonly frozen: false; offsetMs: number };

/** A clock as the control API shows it. */
export interface ClockState {
  /** null for the server's clock. */
  readonly orgId: string | null;
  /** real: the base clock; frozen: stopped; moved: running, at an offset from the base clock. */
  readonly mode: 'real' | 'frozen' | 'moved';
  /** The clock's time now, ISO 8601 with milliseconds. */
  readonly now: string;
  /** The clock minus the base clock, in milliseconds (0 when real). */
  readonly offsetMs: number;
  /** For an organization: true when it has no clock of its own and follows the server's. */
  readonly inherited: boolean;
}

export class Clocks {
  private server: Moved | null = null;
  private readonly orgs = new Map<string, Moved>();

  /** `base` is the real clock (Date.now; tests pass one they control). */
  constructor(readonly base: () => number = Date.now) {}

  /** The time for `orgId` (its own clock, else the server's), or the server's time. Cheap when nothing is moved. */
  readonly now: Clock = (orgId) => {
    if (this.server === null && this.orgs.size === 0) return this.base();
    const moved = (orgId !== undefined ? this.orgs.get(orgId) : undefined) ?? this.server;
    return moved === null ? this.base() : this.timeOf(moved);
  };

  /** The time for `orgId` when a moved clock applies to it, else undefined (the limits then count on their own clock, Redis's with REDIS_URL). */
  readonly movedNow = (orgId: string): number | undefined => {
    if (this.server === null && this.orgs.size === 0) return undefined;
    const moved = this.orgs.get(orgId) ?? this.server;
    return moved === null ? undefined : this.timeOf(moved);
  };

  /**
   * Real time while the server's clock is moved, else undefined (the reader's own clock is real then):
   * for what follows no moved clock but counts on a store's clock, the per-address limit.
   */
  readonly realIfMoved = (): number | undefined => (this.server === null ? undefined : this.base());

  /** Stops the clock at `at` (ms), or where it stands now. */
  freeze(orgId: string | null, at?: number): ClockState {
    return this.put(orgId, { frozen: true, at: at ?? this.now(orgId ?? undefined) });
  }

  /**
   * Sets the clock to `at` (ms); it keeps running from there unless it is (or `frozen` asks it to
   * be) frozen. An organization that follows a frozen server clock is frozen too.
   */
  set(orgId: string | null, at: number, frozen?: boolean): ClockState {
    const stop = frozen ?? this.followed(orgId)?.frozen ?? false;
    return this.put(orgId, stop ? { frozen: true, at } : { frozen: false, offsetMs: at - this.base() });
  }

  /**
   * Moves the clock forward by `ms` (backward when negative); a frozen clock stays frozen, and so
   * does an organization's that followed a frozen server clock.
   */
  advance(orgId: string | null, ms: number): ClockState {
    const current = this.followed(orgId);
    if (current?.frozen) return this.put(orgId, { frozen: true, at: current.at + ms });
    return this.put(orgId, { frozen: false, offsetMs: (current?.offsetMs ?? 0) + ms });
  }

  /** Back to real time: the organization follows the server's clock again, the server the base clock. */
  real(orgId: string | null): ClockState {
    if (orgId === null) this.server = null;
    else this.orgs.delete(orgId);
    return this.state(orgId);
  }

  /** Every clock back to real time. */
  resetAll(): void {
    this.server = null;
    this.orgs.clear();
  }

  state(orgId: string | null): ClockState {
    const own = this.entry(orgId);
    const moved = own ?? this.server ?? undefined;
    const now = this.now(orgId ?? undefined);
    return { orgId, mode: moved === undefined ? 'real' : moved.frozen ? 'frozen' : 'moved', now: new Date(now).toISOString(), offsetMs: now - this.base(), inherited: orgId !== null && own === undefined };
  }

  /** The server's clock and every organization's own clock. */
  list(): ClockState[] {
    return [this.state(null), ...[...this.orgs.keys()].sort().map((id) => this.state(id))];
  }

  private entry(orgId: string | null): Moved | undefined {
    return orgId === null ? this.server ?? undefined : this.orgs.get(orgId);
  }

  /** The clock `orgId` follows: its own, else the server's (undefined: real time). */
  private followed(orgId: string | null): Moved | undefined {
    return this.entry(orgId) ?? this.server ?? undefined;
  }

  /** Puts a clock, refused (PARAM_INVALID, nothing changed) when it would read outside the years records' dates can hold. */
  private put(orgId: string | null, moved: Moved): ClockState {
    const at = moved.frozen ? moved.at : this.base() + moved.offsetMs;
    if (!(at >= EARLIEST && at <= LATEST)) {
      const year = Number.isFinite(at) && Math.abs(at) <= 8.64e15 ? new Date(at).getUTCFullYear() : NaN;
      throw new AppError('PARAM_INVALID', `That would put the clock ${Number.isNaN(year) ? 'out of any date' : `in the year ${year}`}: a clock reads 0000-01-01 to 9999-12-31, the years a record's dates may hold. Move it by less.`);
    }
    if (orgId === null) this.server = moved;
    else this.orgs.set(orgId, moved);
    return this.state(orgId);
  }

  private timeOf(moved: Moved): number {
    // A running clock set near the end of 9999 stops there rather than run past it.
    return moved.frozen ? moved.at : Math.min(this.base() + moved.offsetMs, LATEST);
  }
}

/** The range a clock may read: the years 0000 to 9999, as records' dates (docs/decisions.md). */
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a duration such as `90s`, `25h`, `1d2h`, `-1h` or `500ms`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const m = /^(-)?((?:\d+(?:ms|s|m|h|d))+)$/.exec(text.trim());
  if (!m) return undefined;
  let ms = 0;
  for (const part of m[2]!.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(part[1]) * UNITS[part[2]!]!;
  return Number.isSafeInteger(ms) ? (m[1] ? -ms : ms) : undefined;
}

/**
 * Milliseconds of an ISO 8601 date-time (UTC when it has no zone, as the API's), undefined when it
 * is not one: a date, or a date and time with seconds' fractions of any length (cut to
 * milliseconds, as Python's isoformat writes microseconds) and a zone as Z, ±hh:mm, ±hhmm or ±hh.
 * A date the calendar lacks (February 30) is none.
 */
export function parseInstant(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = m.slice(1, 7).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  if (!validCalendarDate(year!, month!, day!) || hour > 23 || minute > 59 || second > 59) return undefined;
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offset = 0;
  const zone = m[8];
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const [, sign, hh, mm] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    if (Number(hh) > 23 || Number(mm ?? 0) > 59) return undefined;
    offset = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm ?? 0)) * 60_000;
  }
  return utcMs(year!, month!, day!, hour, minute, second, ms) - offset;
}
