// Reads the role definitions of `orchard role set`: --grant 'account:read,create;contact:read',
// --hide and --readonly 'account:telephone1,contact:emailaddress1', checked against the
// organization's schema so a typo is refused with a hint instead of stored. The control API and
// fixtures give the same three parts under their own names, which the messages use.

import { ADMIN_ROLE } from '../auth/permissions.js';
import { PERMISSIONS, type ObjectGrant, type Permission } from '../auth/roles.js';
import { AppError } from '../errors.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { suggestName } from '../schema/suggest.js';
import type { ObjectDef } from '../schema/types.js';

/** The three options as typed; hide and readonly may be absent. */
export interface RoleSpecText {
  readonly grant: string;
  readonly hide?: string | undefined;
  readonly readonly?: string | undefined;
}

/** What the caller calls the three parts, for messages: the CLI's options, the control API's or a fixture's members. */
export interface RoleSpecNames {
  readonly grant: string;
  readonly hide: string;
  readonly readonly: string;
}

export const CLI_ROLE_OPTIONS: RoleSpecNames = { grant: '--grant', hide: '--hide', readonly: '--readonly' };

type Part = keyof RoleSpecNames;

const ROLE_NAME_RE = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

function invalid(message: string): AppError {
  return new AppError('PARAM_INVALID', message);
}

/** A role name as stored: lowercase, 1–64 of a–z 0–9 _ . - ; `admin` is accepted (it is built in). */
export function roleName(raw: string): string {
  const name = raw.trim().toLowerCase();
  if (!ROLE_NAME_RE.test(name)) {
    throw invalid(`'${raw}' is not a role name: use 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit (such as 'sales').`);
  }
  return name;
}

/** A role name `role set` may define, or `role delete` delete: anything but the built-in admin. */
export function definableRoleName(raw: string, action: 'redefined' | 'deleted' = 'redefined'): string {
  const name = roleName(raw);
  if (name === ADMIN_ROLE) {
    const fix = action === 'redefined' ? 'Choose another name, such as \'sales\'.' : 'Give its users another role with orchard user role instead.';
    throw invalid(`The role 'admin' is built in: it has every permission on every object and cannot be ${action}. ${fix}`);
  }
  return name;
}

/** Splits 'a:b;c:d' (or with ',' for field lists) into [object, rest] pairs; empty items are skipped. */
function items(names: RoleSpecNames, part: Part, text: string, separators: RegExp): Array<{ item: string; obj: string; rest: string }> {
  const out: Array<{ item: string; obj: string; rest: string }> = [];
  for (const raw of text.split(separators)) {
    const item = raw.trim();
    if (item === '') continue;
    const colon = item.indexOf(':');
    if (colon <= 0) throw invalid(`${names[part]}: '${item}' should be object:${part === 'grant' ? 'permission,…' : 'field'}, such as ${part === 'grant' ? "'account:read,create'" : "'account:telephone1'"}.`);
    out.push({ item, obj: item.slice(0, colon).trim(), rest: item.slice(colon + 1).trim() });
  }
  return out;
}

function objectOf(schema: OrgSchema, option: string, ref: string): ObjectDef {
  const obj = schema.find(ref);
  if (obj) return obj;
  const near = suggestName(ref, schema.objects.map((o) => o.systemName));
  throw invalid(`${option}: the organization has no object '${ref}'.${near ? ` Did you mean '${near}'?` : ''} Name objects by system name (account) or number (1).`);
}

function permissionsOf(names: RoleSpecNames, obj: ObjectDef, text: string): Permission[] {
  const asked = new Set<Permission>();
  for (const raw of text.split(',').map((p) => p.trim().toLowerCase()).filter((p) => p !== '')) {
    if (raw === '*') {
      for (const p of PERMISSIONS) asked.add(p);
    } else if ((PERMISSIONS as readonly string[]).includes(raw)) {
      asked.add(raw as Permission);
    } else {
      throw invalid(`${names.grant}: '${raw}' is not a permission (on ${obj.systemName}); use read, create, update, delete, or * for all four.`);
    }
  }
  if (obj.readOnly && [...asked].some((p) => p !== 'read')) {
    throw invalid(`${names.grant}: the ${obj.systemName} object is read-only through the API (its records mirror the organization's users); grant ${obj.systemName}:read only.`);
  }
  return PERMISSIONS.filter((p) => asked.has(p));
}

function fieldOf(obj: ObjectDef, option: string, part: Part, name: string): string {
  const field = obj.fieldsByName.get(name.toLowerCase());
  if (!field) {
    const near = suggestName(name, obj.fieldsByName.keys());
    throw invalid(`${option}: the ${obj.systemName} object has no field '${name}'.${near ? ` Did you mean '${near}'?` : ''}`);
  }
  if (field.role === 'key') {
    throw invalid(`${option}: '${field.name}' is the key of ${obj.systemName}: it identifies records, so every role that may read the object sees it, and it cannot be hidden or read-only.`);
  }
  if (part === 'readonly' && field.role !== 'data') {
    throw invalid(`${option}: '${field.name}' of ${obj.systemName} is set by the server and read-only for every role already.`);
  }
  return field.name;
}

/**
 * The grants of a role, by object system name, from the three parts; throws PARAM_INVALID naming
 * the mistake and the part by what `names` calls it.
 */
export function parseRoleSpec(schema: OrgSchema, spec: RoleSpecText, names: RoleSpecNames = CLI_ROLE_OPTIONS): Record<string, ObjectGrant> {
  const grants = new Map<string, { permissions: Permission[]; hidden: string[]; readOnly: string[] }>();
  const entry = (obj: ObjectDef) => {
    let g = grants.get(obj.systemName);
    if (!g) grants.set(obj.systemName, (g = { permissions: [], hidden: [], readOnly: [] }));
    return g;
  };
  for (const { obj: ref, rest } of items(names, 'grant', spec.grant, /;/)) {
    const obj = objectOf(schema, names.grant, ref);
    const g = entry(obj);
    const merged = new Set([...g.permissions, ...permissionsOf(names, obj, rest)]);
    g.permissions = PERMISSIONS.filter((p) => merged.has(p));
  }
  for (const [part, text, list] of [['hide', spec.hide, 'hidden'], ['readonly', spec.readonly, 'readOnly']] as const) {
    for (const { obj: ref, rest } of items(names, part, text ?? '', /[;,]/)) {
      const obj = objectOf(schema, names[part], ref);
      const name = fieldOf(obj, names[part], part, rest);
      const listed = entry(obj)[list];
      if (!listed.includes(name)) listed.push(name);
    }
  }
  for (const [systemName, g] of grants) checkGrant(names, schema.resolve(systemName), g);
  return Object.fromEntries(grants);
}

/** Contradictions within one object's grant, refused rather than stored. */
function checkGrant(names: RoleSpecNames, obj: ObjectDef, g: ObjectGrant): void {
  const both = g.hidden.find((name) => g.readOnly.includes(name));
  if (both) {
    throw invalid(`'${both}' of ${obj.systemName} is given in both ${names.hide} and ${names.readonly}; a hidden field is never written, so give it in one of them.`);
  }
  if (!g.permissions.includes('create')) return;
  const blocked = [...g.hidden, ...g.readOnly].map((name) => obj.fieldsByName.get(name)!).find((f) => f.required && !f.hasDefault);
  if (blocked) {
    throw invalid(`The role may create ${obj.systemName} records, but '${blocked.name}' is required on create, so it must be writable: drop ${obj.systemName}:${blocked.name} from ${names.hide} and ${names.readonly}, or drop ${obj.systemName}:create.`);
  }
}
