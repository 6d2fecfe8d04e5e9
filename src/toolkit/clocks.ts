// The clocks of a server (docs/control-api.md § Clock): the real one, and clocks a test suite moves —
// frozen, set or advanced — for the whole server or for one organization. Everything that reads the
// time of an organization's request asks `now(orgId)`, so a moved clock is followed everywhere.

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

  /** Stops the clock at `at` (ms), or where it stands now. */
  freeze(orgId: string | null, at?: number): ClockState {
    return this.put(orgId, { frozen: true, at: at ?? this.now(orgId ?? undefined) });
  }

  /** Sets the clock to `at` (ms); it keeps running from there unless it is (or `frozen` asks it to be) frozen. */
  set(orgId: string | null, at: number, frozen?: boolean): ClockState {
    const stop = frozen ?? this.entry(orgId)?.frozen ?? false;
    return this.put(orgId, stop ? { frozen: true, at } : { frozen: false, offsetMs: at - this.base() });
  }

  /** Moves the clock forward by `ms` (backward when negative); a frozen clock stays frozen. */
  advance(orgId: string | null, ms: number): ClockState {
    const current = this.entry(orgId);
    if (current?.frozen) return this.put(orgId, { frozen: true, at: current.at + ms });
    const offsetMs = (current && !current.frozen ? current.offsetMs : this.now(orgId ?? undefined) - this.base()) + ms;
    return this.put(orgId, { frozen: false, offsetMs });
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

  private put(orgId: string | null, moved: Moved): ClockState {
    if (orgId === null) this.server = moved;
    else this.orgs.set(orgId, moved);
    return this.state(orgId);
  }

  private timeOf(moved: Moved): number {
    return moved.frozen ? moved.at : this.base() + moved.offsetMs;
  }
}

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds of a duration such as `90s`, `25h`, `1d2h`, `-1h` or `500ms`; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const m = /^(-)?((?:\d+(?:ms|s|m|h|d))+)$/.exec(text.trim());
  if (!m) return undefined;
  let ms = 0;
  for (const part of m[2]!.matchAll(/(\d+)(ms|s|m|h|d)/g)) ms += Number(part[1]) * UNITS[part[2]!]!;
  return Number.isSafeInteger(ms) ? (m[1] ? -ms : ms) : undefined;
}

/** Milliseconds of an ISO 8601 date-time (UTC when it has no zone, as the API's), undefined when it is not one. */
export function parseInstant(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(text)) return undefined;
  const ms = Date.parse(/T.*(Z|[+-]\d{2}:\d{2})$/.test(text) ? text : text.includes('T') ? `${text}Z` : `${text}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : ms;
}
