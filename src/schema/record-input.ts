// Turns a client's flat field → value map into the row to store (create) or the changes to
// apply (update): unknown fields, types, lengths and required fields are checked here; system
// fields are set here; the store only checks what needs the database (taken ids, lookup targets).

import { randomUUID } from 'node:crypto';
import { AppError, quoteText } from '../errors.js';
import type { FieldDef, ObjectDef, RecordRow } from './types.js';
import { formatDateTime, isUuid, normalizeValue } from './values.js';
import { suggestName } from './suggest.js';
import { checkLinkComplete, checkLinkValues, composedNameMissing, composedNameOf, composeName, recordLinkOf } from './record-rules.js';

/** Who writes and when: becomes createdby/modifiedby, the default ownerid, createdon/modifiedon. */
export interface WriteContext {
  readonly userId: string;
  readonly now: Date;
}

function checkBody(body: unknown): asserts body is Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('BODY_INVALID', 'The request body must be a JSON object of field names and values, such as {"accountname": "Acme"}.');
  }
}

/**
 * FIELD_UNKNOWN naming the field, where it was found (e.g. " in 'sort_by'") and the nearest real
 * field among `candidates` (every field of the object unless the caller may see fewer).
 */
export function unknownFieldError(obj: ObjectDef, name: string, where = '', candidates: Iterable<string> = obj.fieldsByName.keys()): AppError {
  const near = suggestName(name, candidates);
  const hint = near ? ` Did you mean '${near}'?` : ` The ${obj.systemName} object has no such field.`;
  return new AppError('FIELD_UNKNOWN', `Invalid field name: ${quoteText(name)}${where}.${hint}`);
}

function missing(field: FieldDef): AppError {
  return new AppError('FIELD_REQUIRED', `'${field.name}' (${field.label}) is required; send a non-empty value.`);
}

/** Field names are matched case-insensitively, as the public service does; client-writable fields only are returned. */
function writableEntries(obj: ObjectDef, body: Record<string, unknown>): Array<[FieldDef, unknown]> {
  const out: Array<[FieldDef, unknown]> = [];
  for (const [rawName, value] of Object.entries(body)) {
    const field = obj.fieldsByName.get(rawName.toLowerCase());
    if (!field) throw unknownFieldError(obj, rawName);
    // docs/api.md: system-managed and derived fields are ignored when sent; the key is handled by the caller.
    if (field.role === 'data') out.push([field, value]);
  }
  return out;
}

/** The full row to insert for a create: every stored field, checked. */
export function prepareCreate(obj: ObjectDef, body: unknown, ctx: WriteContext): RecordRow {
  checkBody(body);
  const row: RecordRow = {};
  for (const f of obj.fields) if (f.role !== 'derived') row[f.name] = null;
  for (const [field, value] of writableEntries(obj, body)) row[field.name] = normalizeValue(field, value);

  const keyEntry = Object.entries(body).find(([k]) => k.toLowerCase() === obj.keyField);
  const chosen = keyEntry?.[1];
  if (chosen !== undefined && chosen !== null && chosen !== '') {
    if (typeof chosen !== 'string' || !isUuid(chosen)) {
      throw new AppError('RECORD_ID_MALFORMED', `'${obj.keyField}' must be an RFC 4122 UUID such as '${randomUUID()}', or left out to let the server choose one.`);
    }
    row[obj.keyField] = chosen.toLowerCase();
  } else {
    row[obj.keyField] = randomUUID();
  }

  const stamp = formatDateTime(ctx.now);
  row.createdon = stamp;
  row.modifiedon = stamp;
  row.createdby = ctx.userId;
  row.modifiedby = ctx.userId;
  if (row.ownerid === null) row.ownerid = ctx.userId;
  if (row.statecode === null) row.statecode = 1;
  if (row.statuscode === null) row.statuscode = 1;

  // docs/compat.md: a contact's or lead's fullname, when not sent, is built from its parts.
  const name = composedNameOf(obj);
  if (name && row[name.field] === null) {
    row[name.field] = composeName(obj, name, row);
    if (row[name.field] === null) throw composedNameMissing(obj, name);
  }
  const link = recordLinkOf(obj);
  if (link) {
    checkLinkValues(obj, link, row);
    checkLinkComplete(obj, link, row);
  }

  for (const f of obj.fields) if (f.required && row[f.name] === null) throw missing(f);
  return row;
}

/**
 * The changes of a partial update: only fields sent, checked; the key and system fields sent are
 * ignored. A composed name left out, or sent empty beside one of its parts, is not among the
 * changes: the store builds it from the parts as they then are (record-writes.ts).
 */
export function prepareUpdate(obj: ObjectDef, body: unknown, ctx: WriteContext): RecordRow {
  checkBody(body);
  const changes: RecordRow = {};
  const name = composedNameOf(obj);
  const entries = writableEntries(obj, body);
  const partSent = name !== undefined && entries.some(([f]) => name.parts.includes(f.name));
  for (const [field, value] of entries) {
    const v = normalizeValue(field, value);
    if (v === null && field.name === name?.field) {
      if (partSent) continue;
      throw composedNameMissing(obj, name);
    }
    if (v === null && field.required) throw missing(field);
    changes[field.name] = v;
  }
  const link = recordLinkOf(obj);
  if (link) checkLinkValues(obj, link, changes);
  changes.modifiedon = formatDateTime(ctx.now);
  changes.modifiedby = ctx.userId;
  return changes;
}
