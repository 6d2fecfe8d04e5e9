// Object and field definitions: what an organization's records look like.
// Pure data types; stores persist them, http/ and query/ read them.

/** A field's value as stored and returned: text (dates as ISO text), a number, or null when unset. */
export type FieldValue = string | number | null;

/** A record as returned to clients: field name → value, every field of the object present (null when unset). */
export type RecordRow = Record<string, FieldValue>;

/** Custom objects are numbered from here (docs/api.md). */
export const FIRST_CUSTOM_OBJECT = 1000;

/** The eleven field types of the public service (docs/compat.md). There is no boolean: yes/no is a picklist. */
export type FieldType =
  | 'text' | 'number' | 'date' | 'datetime' | 'picklist' | 'lookup'
  | 'email' | 'telephone' | 'url' | 'textarea' | 'html';

/** `systemfieldtypeid` of each type, exactly as clients of the public service expect them (lowercase). */
export const FIELD_TYPE_IDS: Readonly<Record<FieldType, string>> = Object.freeze({
  text: 'a1e7ed6f-5083-477b-b44c-9943a6181359',
  number: '6a34bfe3-fece-4da1-9136-a7b1e5ae3319',
  date: '83bf530c-e04c-462b-9ffc-a46f750fc072',
  datetime: 'ce972d02-5013-46d4-9d1d-f09df1ac346a',
  picklist: 'b4919f2e-2996-48e4-a03c-ba39fb64386c',
  lookup: 'a8fcdf65-91bc-46fd-82f6-1234758345a1',
  email: 'c713d2f7-8fa9-43c3-8062-f07486eaf567',
  telephone: '3f62f67a-1cee-403a-bec6-aa02a9804edb',
  url: 'c820d32f-44df-4c2a-9c1e-18734e864fd5',
  textarea: '80108f9d-1e75-40fa-9fa9-02be4ddc1da1',
  html: 'ed2ad39d-32fc-4585-8f5b-2e93463f050a',
});

/** Types whose values are strings compared case-insensitively. */
export const TEXT_TYPES: ReadonlySet<FieldType> = new Set(['text', 'email', 'telephone', 'url', 'textarea', 'html']);

export interface PicklistOption {
  value: number;
  label: string;
}

/**
 * How a field is maintained:
 * - `key`: the record id (UUID); may be chosen on create, never changed.
 * - `system`: set by the server (createdon, modifiedon, createdby, modifiedby); ignored when sent.
 * - `derived`: the display name of a lookup's target (ownername), or in a query a related field
 *   (`ownerid_fullname`, any stored field of the target); not a column, read-only, ignored when sent.
 * - `data`: written by clients.
 */
export type FieldRole = 'key' | 'system' | 'derived' | 'data';

export interface FieldDef {
  /** System name, lowercase: the JSON key in records and the column name. */
  readonly name: string;
  readonly label: string;
  readonly type: FieldType;
  readonly role: FieldRole;
  /** Every record holds a value: a create must send one unless `hasDefault`, an update may not clear it. */
  readonly required: boolean;
  /** Left out of a create, the server fills it (ownerid: the caller; statecode, statuscode: 1). */
  readonly hasDefault?: boolean;
  /** Maximum length in characters for text-like types; null when none. */
  readonly maxLength: number | null;
  /** Decimal places kept for numbers; 0 makes an integer field. */
  readonly precision?: number;
  /** Allowed codes of a picklist. */
  readonly options?: readonly PicklistOption[];
  /** Object type a lookup (or the key) refers to. */
  readonly target?: number;
  /** For a derived name field: the lookup field it names. */
  readonly derivedFrom?: string;
  /** For a related field of a query (`primarycontactid_fullname`): the target's field it reads; else the target's primary field. */
  readonly targetField?: string;
  /** Whether the store keeps an index on the column. */
  readonly indexed?: boolean;
}

/**
 * A view: a named saved query of one object (docs/compat.md, views), in the terms of /api/query.
 * Kept in the object's definition, so it is the organization's and every process sees it at once.
 */
export interface ViewSpec {
  /** A UUID. */
  readonly id: string;
  readonly name: string;
  /** '*' or a comma-separated list of field names, as /api/query's `fields`. */
  readonly fields: string;
  /** A filter in the filter language, or null for every record. */
  readonly query: string | null;
  readonly sortBy: string;
  readonly sortType: 'asc' | 'desc';
  /** When it was defined: `YYYY-MM-DDThh:mm:ss`, UTC. */
  readonly createdon: string;
}

export interface ObjectDef {
  readonly objectType: number;
  /** Lowercase system name, e.g. `account`. */
  readonly systemName: string;
  /** PascalCase display name, e.g. `Account`. */
  readonly displayName: string;
  readonly keyField: string;
  readonly primaryField: string;
  /** Clients may not create, update or delete records (crmuser mirrors the organization's users). */
  readonly readOnly: boolean;
  /** Plural display name. */
  readonly collectionName: string;
  /** Custom objects: the id of the definition record (object 58) that created it. */
  readonly definitionId?: string;
  /** Fields in display order: key first, then data fields, then system and derived fields. */
  readonly fields: readonly FieldDef[];
  readonly fieldsByName: ReadonlyMap<string, FieldDef>;
  /** The views defined for the object, oldest first (its default view is not among them). */
  readonly views: readonly ViewSpec[];
}

/** Stored columns of an object: every field but the derived ones. */
export function storedFields(obj: ObjectDef): FieldDef[] {
  return obj.fields.filter((f) => f.role !== 'derived');
}

/** Name of the derived display-name field of a lookup: `ownerid` → `ownername`, `pcfsystemfield12` → `pcfsystemfield12name`. */
export function derivedNameField(lookupName: string): string {
  return (lookupName.endsWith('id') ? lookupName.slice(0, -2) : lookupName) + 'name';
}
