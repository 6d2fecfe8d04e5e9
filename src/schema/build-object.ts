// Builds a complete ObjectDef from the fields a caller declares: adds the key, the system
// fields every object has (docs/api.md) and the derived name field of every lookup.

import { derivedNameField, type FieldDef, type FieldType, type ObjectDef, type PicklistOption, type ViewSpec } from './types.js';

export const CRMUSER_OBJECT_TYPE = 9;

/** Default maxlength per text-like type when a definition gives none. */
export const DEFAULT_MAX_LENGTH: Readonly<Partial<Record<FieldType, number>>> = {
  text: 200, email: 100, telephone: 50, url: 2000, textarea: 10000, html: 1000000,
};

export const STATECODE_OPTIONS: readonly PicklistOption[] = [
  { value: 1, label: 'Active' },
  { value: 2, label: 'Inactive' },
];
export const STATUSCODE_OPTIONS: readonly PicklistOption[] = [{ value: 1, label: 'Default' }];

/** A field as declared: everything but the name and type has a default. */
export interface FieldSpec {
  name: string;
  type: FieldType;
  label?: string;
  required?: boolean;
  hasDefault?: boolean;
  maxLength?: number | null;
  precision?: number;
  options?: readonly PicklistOption[];
  target?: number;
  indexed?: boolean;
}

export interface ObjectSpec {
  objectType: number;
  systemName: string;
  displayName: string;
  keyField: string;
  primaryField: string;
  readOnly?: boolean;
  /** Plural display name (custom objects: the `collectionname` sent); default: displayName + 's'. */
  collectionName?: string;
  /** The `_id` of a custom object's definition (the record of object 58 that created it). */
  definitionId?: string;
  /** Data fields, the primary field among them; the key and system fields are added. */
  fields: readonly FieldSpec[];
  /** Views defined for the object, oldest first. */
  views?: readonly ViewSpec[];
}

/** Turns `emailaddress1` into `Emailaddress1` when no label is given: a plain, predictable default. */
function defaultLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function makeField(spec: FieldSpec, role: FieldDef['role'] = 'data'): FieldDef {
  const field: FieldDef = {
    name: spec.name,
    label: spec.label ?? defaultLabel(spec.name),
    type: spec.type,
    role,
    required: spec.required ?? false,
    ...(spec.hasDefault ? { hasDefault: true } : {}),
    maxLength: spec.maxLength !== undefined ? spec.maxLength : (DEFAULT_MAX_LENGTH[spec.type] ?? null),
    ...(spec.precision !== undefined ? { precision: spec.precision } : {}),
    ...(spec.options ? { options: spec.options } : {}),
    ...(spec.target !== undefined ? { target: spec.target } : {}),
    // Every lookup and picklist field is indexed (docs/internals/sqlite.md).
    indexed: spec.indexed ?? (spec.type === 'lookup' || spec.type === 'picklist'),
  };
  return field;
}

/** The derived, read-only display-name field of a lookup (`ownerid` → `ownername`). */
function derivedField(lookup: FieldDef, taken: ReadonlySet<string>): FieldDef {
  const label = lookup.label.replace(/ ?id$/i, '');
  const preferred = derivedNameField(lookup.name);
  return {
    // crmorderitem's productid would name 'productname', its primary field: fall back to 'productidname'.
    name: taken.has(preferred) ? `${lookup.name}name` : preferred,
    label: `${label} Name`,
    type: 'text',
    role: 'derived',
    required: false,
    maxLength: null,
    derivedFrom: lookup.name,
  };
}

export function buildObject(spec: ObjectSpec): ObjectDef {
  const key = makeField(
    { name: spec.keyField, type: 'lookup', label: `${spec.displayName} Id`, target: spec.objectType, indexed: false },
    'key',
  );
  const data = spec.fields.map((f) =>
    makeField(f.name === spec.primaryField ? { indexed: true, ...f } : f),
  );
  const has = new Set(data.map((f) => f.name));
  // Every record has them (an update cannot clear them); a create that leaves them out gets the default.
  const standardData: FieldSpec[] = [
    { name: 'ownerid', type: 'lookup', label: 'Owner', target: CRMUSER_OBJECT_TYPE, required: true, hasDefault: true },
    { name: 'statecode', type: 'picklist', label: 'Status', options: STATECODE_OPTIONS, required: true, hasDefault: true },
    { name: 'statuscode', type: 'picklist', label: 'Status Reason', options: STATUSCODE_OPTIONS, required: true, hasDefault: true },
  ];
  for (const f of standardData) if (!has.has(f.name)) data.push(makeField(f));
  const system: FieldDef[] = [
    makeField({ name: 'createdon', type: 'datetime', label: 'Created On', indexed: true }, 'system'),
    makeField({ name: 'modifiedon', type: 'datetime', label: 'Modified On', indexed: true }, 'system'),
    makeField({ name: 'createdby', type: 'lookup', label: 'Created By', target: CRMUSER_OBJECT_TYPE }, 'system'),
    makeField({ name: 'modifiedby', type: 'lookup', label: 'Modified By', target: CRMUSER_OBJECT_TYPE }, 'system'),
  ];
  const stored = [key, ...data, ...system];
  const storedNames = new Set(stored.map((f) => f.name));
  const derived = stored.filter((f) => f.type === 'lookup' && f.role !== 'key').map((f) => derivedField(f, storedNames));
  const fields = [...stored, ...derived];
  const primary = fields.find((f) => f.name === spec.primaryField);
  if (!primary || primary.role !== 'data') {
    throw new Error(`object ${spec.systemName}: primary field ${spec.primaryField} must be a declared data field`);
  }
  const byName = new Map<string, FieldDef>();
  for (const f of fields) {
    if (byName.has(f.name)) throw new Error(`object ${spec.systemName}: field ${f.name} declared twice`);
    byName.set(f.name, f);
  }
  return {
    objectType: spec.objectType,
    systemName: spec.systemName,
    displayName: spec.displayName,
    keyField: spec.keyField,
    primaryField: spec.primaryField,
    readOnly: spec.readOnly ?? false,
    collectionName: spec.collectionName ?? pluralOf(spec.displayName),
    ...(spec.definitionId ? { definitionId: spec.definitionId } : {}),
    fields,
    fieldsByName: byName,
    views: spec.views ?? [],
  };
}

/** Names whose plural is not made by the rules of pluralOf: a standard object named in the plural. */
const PLURALS: Readonly<Record<string, string>> = { Cases: 'Cases' };

/**
 * The English plural of an object's name, for its collection name when none is given (a standard
 * object's, computed at every build so that stored organizations get it too; a custom object's,
 * stored when it is made): "Opportunity" → "Opportunities", "Box" → "Boxes", "Account" → "Accounts".
 */
export function pluralOf(name: string): string {
  if (Object.hasOwn(PLURALS, name)) return PLURALS[name]!;
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}
