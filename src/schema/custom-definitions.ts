// Checks the definition of a custom object or field sent by a client and turns it into the spec a
// store persists (docs/api.md, docs/compat.md): custom objects are numbered from 1000 as customobject{N},
// custom fields are named pcf… (pcfsystemfield{N} when the client gives no name).

import { AppError, quote, quoteText } from '../errors.js';
import { FIRST_CUSTOM_OBJECT, storedFields, type FieldType, type ObjectDef, type PicklistOption } from './types.js';
import { buildObject, DEFAULT_MAX_LENGTH, pluralOf, type FieldSpec, type ObjectSpec } from './build-object.js';
import type { OrgSchema } from './org-schema.js';
import { unstorableText } from './values.js';
import { undisplayableName } from './display-text.js';

/**
 * The service's limits (docs/compat.md): labels ≤ 200 characters, field names ≤ 50, object names ≤
 * 100; and Orchard's: an object's stored fields (one column each) ≤ 500, well under what a table
 * holds (SQLite 2,000 columns, PostgreSQL 1,600 and a row of 8 kB of numbers); an organization's
 * custom objects (one table and its indexes each) ≤ 100 (docs/compat.md gives the reasons).
 */
export const DEFINITION_LIMITS = { label: 200, fieldName: 50, objectName: 100, options: 500, precision: 10, fields: 500, customObjects: 100 } as const;

/** The members `POST /api/v2/record/58` takes: those the official MCP client sends (docs/compat.md). */
const OBJECT_MEMBERS = ['name', 'collectionname'] as const;

/**
 * The members `POST /api/v2/system-field/{ot}/{type}` takes: those the official MCP client sends
 * (label, fieldName, precision, relatedObjectType, options) and the other clients' spellings
 * (values, relatedObjectId), plus Orchard's maxLength (docs/compat.md); those spelled in camelCase
 * are also taken all lowercase.
 */
const FIELD_MEMBERS = ['label', 'fieldName', 'precision', 'options', 'values', 'relatedObjectType', 'relatedObjectId', 'maxLength'] as const;
const FIELD_MEMBER_SPELLINGS: ReadonlySet<string> = new Set(FIELD_MEMBERS.flatMap((m) => [m, m.toLowerCase()]));

/** Refuses a member of `b` that `taken` does not hold, naming the members (`shown`) and the one meant when only its case differs. */
function onlyMembers(b: Record<string, unknown>, what: string, taken: ReadonlySet<string>, shown: readonly string[]): void {
  for (const key of Object.keys(b)) {
    if (taken.has(key)) continue;
    const meant = shown.find((m) => m.toLowerCase() === key.toLowerCase());
    throw invalid(`${quoteText(key)} is not a member of ${what}; its members are ${shown.join(', ')}${meant ? ` (did you mean '${meant}'?)` : ''}.`);
  }
}

/**
 * The `{type}` of `POST /api/v2/system-field/{ot}/{type}`: the names the official client sends
 * (emailaddress, phonenumber) and the type names themselves (email, telephone, html…).
 */
export const FIELD_TYPE_ALIASES: Readonly<Record<string, FieldType>> = {
  text: 'text', number: 'number', date: 'date', datetime: 'datetime', picklist: 'picklist', lookup: 'lookup',
  email: 'email', emailaddress: 'email', telephone: 'telephone', phonenumber: 'telephone', phone: 'telephone',
  url: 'url', textarea: 'textarea', html: 'html', richtext: 'html',
};

function invalid(message: string): AppError {
  return new AppError('DEFINITION_INVALID', message);
}

function body(raw: unknown, example: string): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new AppError('BODY_INVALID', `The request body must be a JSON object such as ${example}.`);
  }
  return raw as Record<string, unknown>;
}

/** A trimmed string of at most `max` characters; undefined when absent and not required. */
function text(b: Record<string, unknown>, key: string, max: number, required: boolean): string | undefined {
  const v = b[key];
  if (v === undefined || v === null) {
    if (required) throw invalid(`'${key}' is required.`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(`'${key}' must be a string; got ${quote(v)}.`);
  const s = v.trim();
  const problem = unstorableText(s) ?? undisplayableName(s);
  if (problem) throw invalid(`'${key}': ${problem}`);
  if (required && s === '') throw invalid(`'${key}' must not be empty.`);
  if (s.length > max) throw invalid(`'${key}' is ${s.length} characters long; the most is ${max}.`);
  return s;
}

/** A whole number from a JSON number or digit string; undefined when absent. */
function whole(b: Record<string, unknown>, key: string): number | undefined {
  const v = b[key];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw invalid(`'${key}' must be a whole number; got ${quote(v)}.`);
  return n;
}

/** The number the next custom object gets: one past the highest, from 1000. */
export function nextObjectType(schema: OrgSchema): number {
  return schema.objects.reduce((n, o) => (o.objectType >= n ? o.objectType + 1 : n), FIRST_CUSTOM_OBJECT);
}

/** `POST /api/v2/record/58 {name, collectionname}`: the spec of a new custom object. */
export function customObjectSpec(schema: OrgSchema, raw: unknown, definitionId: string): ObjectSpec {
  const b = body(raw, '{"name": "Project Phase", "collectionname": "Project Phases"}');
  onlyMembers(b, "an object's definition", new Set(OBJECT_MEMBERS), OBJECT_MEMBERS);
  const custom = schema.objects.filter((o) => o.objectType >= FIRST_CUSTOM_OBJECT).length;
  if (custom >= DEFINITION_LIMITS.customObjects) {
    throw invalid(`The organization has ${custom} custom objects, the most it may have; an object cannot be added to it.`);
  }
  const name = text(b, 'name', DEFINITION_LIMITS.objectName, true)!;
  const collectionName = text(b, 'collectionname', DEFINITION_LIMITS.objectName, false) || pluralOf(name);
  const taken = schema.objects.find((o) => o.displayName.toLowerCase() === name.toLowerCase());
  if (taken) throw invalid(`An object named '${taken.displayName}' already exists (${taken.systemName}, number ${taken.objectType}). Choose another name.`);
  const objectType = nextObjectType(schema);
  const systemName = `customobject${objectType}`;
  return {
    objectType,
    systemName,
    displayName: name,
    collectionName,
    definitionId,
    keyField: `${systemName}id`,
    primaryField: 'name',
    fields: [{ name: 'name', type: 'text', label: 'Name', required: true, maxLength: DEFAULT_MAX_LENGTH.text ?? 200 }],
  };
}

/** The highest N of the object's `pcfsystemfield{N}` fields, plus one. */
function nextFieldName(obj: ObjectDef): string {
  let n = 0;
  for (const f of obj.fields) {
    const m = /^pcfsystemfield(\d+)$/.exec(f.name);
    if (m) n = Math.max(n, Number(m[1]));
  }
  return `pcfsystemfield${n + 1}`;
}

/**
 * A picklist's options as clients send them: `options: [{label, value}]`, or `values: [{name,
 * value}]` (value a digit string) as other clients spell it (docs/compat.md). An entry's label is
 * its `label` or its `name`, in either list.
 */
function picklistOptions(b: Record<string, unknown>): PicklistOption[] {
  const hasOptions = b.options !== undefined && b.options !== null;
  const hasValues = b.values !== undefined && b.values !== null;
  if (hasOptions && hasValues) throw invalid("Send the picklist's choices once: 'options' or 'values', not both.");
  const member = hasValues ? 'values' : 'options';
  const raw = b[member];
  if (!Array.isArray(raw) || raw.length === 0) {
    throw invalid("A picklist needs 'options': a non-empty array such as [{\"label\": \"Gold\", \"value\": 1}] (or 'values': [{\"name\": \"Gold\", \"value\": \"1\"}]).");
  }
  if (raw.length > DEFINITION_LIMITS.options) throw invalid(`A picklist has at most ${DEFINITION_LIMITS.options} options; got ${raw.length}.`);
  const seen = new Set<number>();
  const labels = new Map<string, string>();
  return raw.map((o: unknown, i) => {
    const opt = body(o, hasValues ? '{"name": "Gold", "value": "1"}' : '{"label": "Gold", "value": 1}');
    const labelKey = opt.label === undefined || opt.label === null ? 'name' : 'label';
    if (labelKey === 'label' && opt.name !== undefined && opt.name !== null && opt.name !== opt.label) {
      throw invalid(`${member}[${i}] has both 'label' and 'name', and they differ; send one.`);
    }
    const label = text(opt, labelKey, DEFINITION_LIMITS.label, false);
    if (!label) throw invalid(`${member}[${i}] needs a label: ${hasValues ? "'name'" : "'label'"}, a non-empty string.`);
    const value = whole(opt, 'value') ?? i + 1;
    if (value < 0) throw invalid(`Option '${label}': 'value' must be 0 or more; got ${value}.`);
    if (seen.has(value)) throw invalid(`Two options have the value ${value}; each option needs its own value.`);
    seen.add(value);
    // A label chosen by (show_real_value, the console's choice) must name one option.
    const twin = labels.get(label.toLowerCase());
    if (twin !== undefined) throw invalid(`Two options have the label '${twin}'${twin === label ? '' : ` ('${label}')`}, labels being compared without regard to case; give each option its own label.`);
    labels.set(label.toLowerCase(), label);
    return { value, label };
  });
}

/**
 * A lookup's target as clients send it: `relatedObjectType` or `relatedObjectId` (docs/compat.md),
 * each a number, digit string or system name; both may be sent when they name the same object.
 */
function lookupTarget(schema: OrgSchema, b: Record<string, unknown>): ObjectDef {
  const given = (['relatedObjectType', 'relatedobjecttype', 'relatedObjectId', 'relatedobjectid'] as const)
    .filter((k) => b[k] !== undefined && b[k] !== null && b[k] !== '');
  if (given.length === 0) {
    throw invalid("A lookup needs 'relatedObjectType' (or 'relatedObjectId'): the number or system name of the object it refers to, such as 1 or 'account'.");
  }
  const targets = given.map((k) => {
    const ref = b[k];
    if (typeof ref !== 'string' && typeof ref !== 'number') throw invalid(`'${k}' must be an object's number or system name; got ${quote(ref)}.`);
    const target = schema.find(ref);
    if (!target) throw invalid(`'${k}' ${quote(ref)} is not an object of this organization.`);
    return target;
  });
  if (targets.some((t) => t !== targets[0])) {
    throw invalid(`'${given[0]}' and '${given.find((_, i) => targets[i] !== targets[0])}' name different objects (${targets[0]!.systemName} and ${targets.find((t) => t !== targets[0])!.systemName}); send one.`);
  }
  return targets[0]!;
}

/**
 * `POST /api/v2/system-field/{ot}/{type}`: the spec of a new field of `obj`. The name is the
 * client's (lowercased; it must start with `pcf`) or the next `pcfsystemfield{N}`.
 */
export function customFieldSpec(schema: OrgSchema, obj: ObjectDef, typeName: string, raw: unknown): FieldSpec {
  const type = FIELD_TYPE_ALIASES[typeName.toLowerCase()];
  if (!type) {
    throw invalid(`'${typeName}' is not a field type. Use one of: ${Object.keys(FIELD_TYPE_ALIASES).join(', ')}.`);
  }
  if (obj.readOnly) throw invalid(`The ${obj.systemName} object is read-only through the API, so a field added to it could never be written. Add fields to other objects.`);
  const stored = storedFields(obj).length;
  if (stored >= DEFINITION_LIMITS.fields) {
    throw invalid(`The ${obj.systemName} object has ${stored} fields, the most an object may have (its standard fields included); a field cannot be added to it.`);
  }
  const b = body(raw, '{"label": "Region", "fieldName": "pcfregion"}');
  // A member spelled otherwise (FieldName, relatedObject, maxlen) would be dropped with its value.
  onlyMembers(b, "a field's definition", FIELD_MEMBER_SPELLINGS, FIELD_MEMBERS);
  const given = text(b, 'fieldName', DEFINITION_LIMITS.fieldName, false) ?? text(b, 'fieldname', DEFINITION_LIMITS.fieldName, false);
  let name: string;
  if (given) {
    name = given.toLowerCase();
    if (!/^pcf[a-z0-9_]*$/.test(name)) {
      throw invalid(`'fieldName' must start with 'pcf' and hold only letters, digits and '_'; got '${given}'. Leave it out to get the next pcfsystemfield name.`);
    }
  } else {
    name = nextFieldName(obj);
  }
  if (obj.fieldsByName.has(name)) throw invalid(`The ${obj.systemName} object already has a field named '${name}'. Choose another fieldName.`);
  // A blank label is no label (as a blank collectionname): a field listed as '' could not be told apart.
  const label = text(b, 'label', DEFINITION_LIMITS.label, false) || name;
  const spec: FieldSpec = { name, type, label };
  if (type === 'number') {
    const precision = whole(b, 'precision') ?? 2;
    if (precision < 0 || precision > DEFINITION_LIMITS.precision) throw invalid(`'precision' must be from 0 to ${DEFINITION_LIMITS.precision}; got ${precision}.`);
    spec.precision = precision;
  } else if (type === 'picklist') {
    spec.options = picklistOptions(b);
  } else if (type === 'lookup') {
    spec.target = lookupTarget(schema, b).objectType;
  } else {
    const maxLength = whole(b, 'maxLength') ?? whole(b, 'maxlength');
    const most = DEFAULT_MAX_LENGTH[type];
    if (maxLength !== undefined && most !== undefined) {
      if (maxLength < 1 || maxLength > most) throw invalid(`'maxLength' of a ${type} field must be from 1 to ${most}; got ${maxLength}.`);
      spec.maxLength = maxLength;
    }
  }
  return spec;
}

/** The object as it would be with `field` added; a clash (e.g. of derived name fields) is a 400, not a failure later. */
export function withField(obj: ObjectSpec, field: FieldSpec): ObjectSpec {
  const next = { ...obj, fields: [...obj.fields, field] };
  try {
    buildObject(next);
  } catch (err) {
    throw invalid(`The field '${field.name}' cannot be added to ${obj.systemName}: ${(err as Error).message}. Choose another fieldName.`);
  }
  return next;
}
