// Rules some standard objects add to the field checks (docs/compat.md): a contact's or lead's
// fullname built from firstname and lastname, and a note's link to the record it is on
// (objectid of the object objecttypecode names). Pure: the write path applies them.

import { AppError } from '../errors.js';
import type { ObjectDef, RecordRow } from './types.js';
import { isUuid } from './values.js';

/** A field whose value is built from others when the client does not send it. */
export interface ComposedName {
  readonly field: string;
  readonly parts: readonly string[];
}

const PERSON_NAME: ComposedName = { field: 'fullname', parts: ['firstname', 'lastname'] };

/** Contacts (2) and leads (3): fullname from firstname and lastname. */
const COMPOSED_NAMES: ReadonlyMap<number, ComposedName> = new Map([[2, PERSON_NAME], [3, PERSON_NAME]]);

/** The composed name of `obj`, if it has one (and still has its fields). */
export function composedNameOf(obj: ObjectDef): ComposedName | undefined {
  const rule = COMPOSED_NAMES.get(obj.objectType);
  return rule && [rule.field, ...rule.parts].every((f) => obj.fieldsByName.has(f)) ? rule : undefined;
}

/**
 * The name `row`'s parts make, joined by a space (`Ada Lovelace`, or `Ada` alone), or null when
 * every part is empty. FIELD_TOO_LONG when it is over the field's maxlength.
 */
export function composeName(obj: ObjectDef, rule: ComposedName, row: RecordRow): string | null {
  const name = rule.parts.map((p) => row[p]).filter((v) => v !== null && v !== undefined && v !== '').join(' ');
  if (name === '') return null;
  const max = obj.fieldsByName.get(rule.field)!.maxLength;
  const length = [...name].length;
  if (max !== null && length > max) {
    throw new AppError('FIELD_TOO_LONG', `'${rule.field}', built from ${rule.parts.map((p) => `'${p}'`).join(' and ')}, would be ${length} characters long; its maxlength is ${max}. Send shorter parts, or a '${rule.field}' of its own.`);
  }
  return name;
}

/** The message of a composed name that is missing: it can be sent, or built from its parts. */
export function composedNameMissing(obj: ObjectDef, rule: ComposedName): AppError {
  const label = obj.fieldsByName.get(rule.field)!.label;
  return new AppError('FIELD_REQUIRED', `'${rule.field}' (${label}) is required; send it, or ${rule.parts.map((p) => `'${p}'`).join(' and/or ')} to build it from.`);
}

/** A record's link to another record: the id field and the field holding that record's object type. */
export interface RecordLink {
  readonly idField: string;
  readonly typeField: string;
}

/** Notes (7) are on a record: `objectid` of the object `objecttypecode`. */
const RECORD_LINKS: ReadonlyMap<number, RecordLink> = new Map([[7, { idField: 'objectid', typeField: 'objecttypecode' }]]);

/** The link of `obj`'s records, if it has one. */
export function recordLinkOf(obj: ObjectDef): RecordLink | undefined {
  const link = RECORD_LINKS.get(obj.objectType);
  return link && obj.fieldsByName.has(link.idField) && obj.fieldsByName.has(link.typeField) ? link : undefined;
}

/**
 * Checks the link fields among `values` (a create's row or an update's changes): the id a UUID,
 * stored lowercase. Which record it names is checked by the store, on the row as written.
 */
export function checkLinkValues(obj: ObjectDef, link: RecordLink, values: RecordRow): void {
  const id = values[link.idField];
  if (id === null || id === undefined) return;
  if (typeof id !== 'string' || !isUuid(id)) {
    throw new AppError('FIELD_TYPE', `'${link.idField}' must be the id (an RFC 4122 UUID) of the record the ${obj.systemName} is on; got '${String(id)}'.`);
  }
  values[link.idField] = id.toLowerCase();
}

/** FIELD_REQUIRED when a row has one half of its link and not the other. */
export function checkLinkComplete(obj: ObjectDef, link: RecordLink, row: RecordRow): void {
  const hasId = row[link.idField] !== null && row[link.idField] !== undefined;
  const hasType = row[link.typeField] !== null && row[link.typeField] !== undefined;
  if (hasId === hasType) return;
  const [missing, present] = hasId ? [link.typeField, link.idField] : [link.idField, link.typeField];
  throw new AppError('FIELD_REQUIRED', `'${missing}' is required with '${present}': a ${obj.systemName} on a record names the record's id ('${link.idField}') and its object type ('${link.typeField}', such as 1 for account); send both, or neither.`);
}
