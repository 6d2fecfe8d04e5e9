// The change log as the service shows it (docs/history.md): feed cursors (opaque to clients, the
// log's epoch and a number inside), entries as a caller may see them, and the pruning of entries
// past the retention, due at most once an hour per organization and process.

import { createHash } from 'node:crypto';
import { AppError, errorOf } from '../errors.js';
import { withoutHidden, type ChangeEntry, type ChangeLogState } from '../schema/changes.js';
import type { ObjectDef, FieldValue } from '../schema/types.js';
import { formatDateTime } from '../schema/values.js';
import type { OrgRecords } from '../store/types.js';

/** A position in an organization's change log: its epoch and the number of the last entry read. */
export interface Cursor {
  readonly epoch: string;
  readonly seq: number;
}

/**
 * The organization a cursor was given to, as 8 hex digits of a digest of its id: a cursor sent with
 * another organization's token is told apart from one into a log restored since (c1 cursors, given
 * before the tag, carry none and are taken as the caller's).
 */
function orgTag(orgId: string): string {
  return createHash('sha256').update(orgId).digest('hex').slice(0, 8);
}

/** The cursor as clients get it: base64url text, stable across restarts (the epoch and number are stored). */
export function encodeCursor(orgId: string, cursor: Cursor): string {
  return Buffer.from(`c2.${orgTag(orgId)}.${cursor.epoch}.${cursor.seq}`).toString('base64url');
}

/**
 * The cursor a client of `orgId` sent back; 400 CHANGES_CURSOR_INVALID when it is not one this
 * server gives, or was given to another organization.
 */
export function decodeCursor(orgId: string, text: string): Cursor {
  const m = /^c(?:1|2\.([0-9a-f]{8}))\.([0-9a-f]{16})\.(0|[1-9]\d{0,15})$/.exec(/^[A-Za-z0-9_-]{1,80}$/.test(text) ? Buffer.from(text, 'base64url').toString('latin1') : '');
  if (!m || !Number.isSafeInteger(Number(m[3]))) {
    throw new AppError('CHANGES_CURSOR_INVALID', `'since' must be a cursor from a reply of GET /api/changes (its 'Cursor'), or 'now'; '${text.slice(0, 80)}' is not one. Leave 'since' out to start from the oldest entry kept.`);
  }
  if (m[1] !== undefined && m[1] !== orgTag(orgId)) {
    throw new AppError('CHANGES_CURSOR_INVALID', `This cursor was given to another organization's feed: follow a cursor with the token it came with. To start this organization's feed, leave 'since' out (from the oldest entry kept) or send since=now.`);
  }
  return { epoch: m[2]!, seq: Number(m[3]) };
}

/** 410 CHANGES_CURSOR_EXPIRED when entries after `cursor` may be missing from the log as it is. */
export function checkCursor(cursor: Cursor, state: ChangeLogState): void {
  if (cursor.epoch !== state.epoch || cursor.seq > state.last) {
    throw errorOf('CHANGES_CURSOR_EXPIRED', 'the organization\'s records were restored or reset since it was given');
  }
  if (cursor.seq < state.floor) throw errorOf('CHANGES_CURSOR_EXPIRED', 'the entries after it were pruned, being older than the retention');
}

/** An entry as replies show it: the fields hidden from the caller left out, and the time and user that repeat them. */
export interface ShownEntry {
  readonly sequence: number;
  readonly objecttype: number;
  readonly object: string;
  readonly recordid: string;
  readonly operation: ChangeEntry['operation'];
  /** null when the caller's role hides the field whose value it is (see REPEATED). */
  readonly changedon: string | null;
  readonly userid: string | null;
  readonly fields: Readonly<Record<string, { old: FieldValue; new: FieldValue }>>;
}

/**
 * The fields whose new value an entry's changedon and userid are (docs/history.md): a create's and an
 * update's time is the record's modifiedon (a create's its createdon too), their user its modifiedby
 * (createdby). A delete's time and user are held by no field.
 */
const REPEATED: Readonly<Record<ChangeEntry['operation'], { readonly when: readonly string[]; readonly who: readonly string[] }>> = {
  create: { when: ['createdon', 'modifiedon'], who: ['createdby', 'modifiedby'] },
  update: { when: ['modifiedon'], who: ['modifiedby'] },
  delete: { when: [], who: [] },
};

export function shownEntry(entry: ChangeEntry, obj: ObjectDef, hidden: ReadonlySet<string>): ShownEntry {
  const { when, who } = REPEATED[entry.operation];
  const shows = (names: readonly string[]) => hidden.size === 0 || !names.some((name) => hidden.has(name));
  return {
    sequence: entry.seq, objecttype: entry.objectType, object: obj.systemName, recordid: entry.recordId, operation: entry.operation,
    changedon: shows(when) ? entry.changedon : null, userid: shows(who) ? entry.userId : null, fields: withoutHidden(entry.fields, hidden),
  };
}

const DAY_MS = 86_400_000;

/** How often an organization's log is pruned at most, per process, on its clock. */
export const PRUNE_EVERY_MS = 3_600_000;

/** Organizations whose last prune a process remembers; past it, it forgets them all (each is then pruned on its next request). */
const REMEMBERED = 10_000;

/**
 * Prunes each organization's log of the entries older than the retention (CHANGELOG_RETENTION_DAYS)
 * on its clock: on its first change-log read or write in this process, then at most every
 * PRUNE_EVERY_MS of its clock (either way: a clock moved back counts too). Nothing with 0 days.
 */
export class ChangePruner {
  /** Per organization: when its last prune started (its clock), or the prune under way. */
  private readonly last = new Map<string, number | Promise<void>>();

  constructor(private readonly retentionDays: number, private readonly clock: (orgId: string) => number) {}

  /** Prunes when due; resolves once done (at once when not due, or with the prune under way). */
  run(orgId: string, records: OrgRecords): Promise<void> {
    if (this.retentionDays === 0) return Promise.resolve();
    const now = this.clock(orgId);
    const last = this.last.get(orgId);
    if (last instanceof Promise) return last;
    if (last !== undefined && Math.abs(now - last) < PRUNE_EVERY_MS) return Promise.resolve();
    if (this.last.size >= REMEMBERED) this.last.clear();
    const pruning = records.pruneChanges(formatDateTime(new Date(now - this.retentionDays * DAY_MS))).then(
      () => { this.last.set(orgId, now); },
      (err: unknown) => {
        this.last.delete(orgId);
        throw err;
      },
    );
    this.last.set(orgId, pruning);
    return pruning;
  }

  /** As run, in the background: a write does not wait for it, and a failure is left to the next try. */
  soon(orgId: string, records: OrgRecords): void {
    this.run(orgId, records).catch(() => {});
  }
}
