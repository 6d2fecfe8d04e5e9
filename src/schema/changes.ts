// The change log's entries (docs/history.md): each successful write of a record appends one, in the
// transaction of the write, naming the record, the operation, the fields it changed with their old
// and new values, the user and the time. Pure: the stores write and read them, the service shows them.

import type { FieldValue, ObjectDef, RecordRow } from './types.js';

export type ChangeOperation = 'create' | 'update' | 'delete';

/** A field's value before and after a write (null: empty, or no record). */
export interface FieldChange {
  readonly old: FieldValue;
  readonly new: FieldValue;
}

/** The fields a write changed, in the object's field order; the key is never among them. */
export type ChangedFields = Readonly<Record<string, FieldChange>>;

/**
 * Who writes, and when: every write of records carries one, and each entry it appends records it.
 * `at` is a stored datetime (`YYYY-MM-DDThh:mm:ss`, UTC) on the organization's clock; `userId` is
 * null for writes no user made.
 */
export interface ChangeAuthor {
  readonly userId: string | null;
  readonly at: string;
  /**
   * Whether a write of the object makes webhook events: the organization's plan includes it
   * (docs/webhooks.md § Events), so a webhook on every object made under an earlier plan sends
   * nothing of the objects the plan now lacks. Absent: every object does.
   */
  readonly makesEvents?: (obj: { readonly objectType: number; readonly systemName: string }) => boolean;
}

/** One entry of an organization's change log. */
export interface ChangeEntry {
  /**
   * Orders the organization's entries as their writes committed: a later commit has a higher
   * number, on every store and with any number of processes. Numbers may skip (never reused).
   */
  readonly seq: number;
  readonly objectType: number;
  /** The record's key (lowercase UUID). */
  readonly recordId: string;
  readonly operation: ChangeOperation;
  readonly fields: ChangedFields;
  readonly userId: string | null;
  /** When the write was made, as ChangeAuthor.at. */
  readonly changedon: string;
}

/**
 * What the change log holds at one moment: `epoch` names this log (a restore or reset of the
 * organization starts a new one); every entry numbered above `floor` and up to `last` is kept
 * (those at or below `floor` may have been pruned); `last` is the highest number committed.
 */
export interface ChangeLogState {
  readonly epoch: string;
  readonly floor: number;
  readonly last: number;
}

/**
 * The fields that differ between `before` and `after` (stored fields only; derived names and the
 * key left out). A create has no `before`, a delete no `after`: then every field with a value.
 */
export function changedFields(obj: ObjectDef, before: RecordRow | null, after: RecordRow | null): Record<string, FieldChange> {
  const out: Record<string, FieldChange> = {};
  for (const f of obj.fields) {
    if (f.role === 'derived' || f.role === 'key') continue;
    const old = before?.[f.name] ?? null;
    const now = after?.[f.name] ?? null;
    if (old !== now) out[f.name] = { old, new: now };
  }
  return out;
}

/** The entry's fields without those in `hidden` (the caller's role hides them). */
export function withoutHidden(fields: ChangedFields, hidden: ReadonlySet<string>): ChangedFields {
  if (hidden.size === 0) return fields;
  const out: Record<string, FieldChange> = {};
  for (const [name, change] of Object.entries(fields)) if (!hidden.has(name)) out[name] = change;
  return out;
}
