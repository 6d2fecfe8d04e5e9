// Reads the role definitions of `orchard role set`: --grant 'account:read,create;contact:read',
// --hide and --readonly 'account:telephone1,contact:emailaddress1', checked against the
// organization's schema so a typo is refused with a hint instead of stored.

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
function items(option: string, text: string, separators: RegExp): Array<{ item: string; obj: string; rest: string }> {
  const out: Array<{ item: string; obj: string; rest: string }> = [];
  for (const raw of text.split(separators)) {
    const item = raw.trim();
    if (item === '') continue;
    const colon = item.indexOf(':');
    if (colon <= 0) throw invalid(`${option}: '${item}' should be object:${option === '--grant' ? 'permission,…' : 'field'}, such as ${option === '--grant' ? "'account:read,create'" : "'account:telephone1'"}.`);
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

function permissionsOf(obj: ObjectDef, text: string): Permission[] {
  const asked = new Set<Permission>();
  for (const raw of text.split(',').map((p) => p.trim().toLowerCase()).filter((p) => p !== '')) {
    if (raw === '*') {
      for (const p of PERMISSIONS) asked.add(p);
    } else if ((PERMISSIONS as readonly string[]).includes(raw)) {
      asked.add(raw as Permission);
    } else {
      throw invalid(`--grant: '${raw}' is not a permission (on ${obj.systemName}); use read, create, update, delete, or * for all four.`);
    }
  }
  if (obj.readOnly && [...asked].some((p) => p !== 'read')) {
    throw invalid(`--grant: the ${obj.systemName} object is read-only through the API (its records mirror the organization's users); grant ${obj.systemName}:read only.`);
  }
  return PERMISSIONS.filter((p) => asked.has(p));
}

function fieldOf(obj: ObjectDef, option: string, name: string): string {
  const field = obj.fieldsByName.get(name.toLowerCase());
  if (!field) {
    const near = suggestName(name, obj.fieldsByName.keys());
    throw invalid(`${option}: the ${obj.systemName} object has no field '${name}'.${near ? ` Did you mean '${near}'?` : ''}`);
  }
  if (field.role === 'key') {
    throw invalid(`${option}: '${field.name}' is the key of ${obj.systemName}: it identifies records, so every role that may read the object sees it, and it cannot be hidden or read-only.`);
  }
  if (option === '--readonly' && field.role !== 'data') {
    throw invalid(`--readonly: '${field.name}' of ${obj.systemName} is set by the server and read-only for every role already.`);
  }
  return field.name;
}

/** The grants of a role, by object system name, from the three options; throws PARAM_INVALID naming the mistake. */
export function parseRoleSpec(schema: OrgSchema, spec: RoleSpecText): Record<string, ObjectGrant> {
  const grants = new Map<string, { permissions: Permission[]; hidden: string[]; readOnly: string[] }>();
  const entry = (obj: ObjectDef) => {
    let g = grants.get(obj.systemName);
    if (!g) grants.set(obj.systemName, (g = { permissions: [], hidden: [], readOnly: [] }));
    return g;
  };
  for (const { obj: ref, rest } of items('--grant', spec.grant, /;/)) {
    const obj = objectOf(schema, '--grant', ref);
    const g = entry(obj);
    const merged = new Set([...g.permissions, ...permissionsOf(obj, rest)]);
    g.permissions = PERMISSIONS.filter((p) => merged.has(p));
  }
  for (const [option, text, list] of [['--hide', spec.hide, 'hidden'], ['--readonly', spec.readonly, 'readOnly']] as const) {
    for (const { obj: ref, rest } of items(option, text ?? '', /[;,]/)) {
      const obj = objectOf(schema, option, ref);
      const name = fieldOf(obj, option, rest);
      const names = entry(obj)[list];
      if (!names.includes(name)) names.push(name);
    }
  }
  for (const [systemName, g] of grants) checkGrant(schema.resolve(systemName), g);
  return Object.fromEntries(grants);
}

/** Contradictions within one object's grant, refused rather than stored. */
function checkGrant(obj: ObjectDef, g: ObjectGrant): void {
  const both = g.hidden.find((name) => g.readOnly.includes(name));
  if (both) {
    throw invalid(`'${both}' of ${obj.systemName} is given in both --hide and --readonly; a hidden field is never written, so give it in one of them.`);
  }
  if (!g.permissions.includes('create')) return;
  const blocked = [...g.hidden, ...g.readOnly].map((name) => obj.fieldsByName.get(name)!).find((f) => f.required);
  if (blocked) {
    throw invalid(`The role may create ${obj.systemName} records, but '${blocked.name}' is required on create, so it must be writable: drop ${obj.systemName}:${blocked.name} from --hide and --readonly, or drop ${obj.systemName}:create.`);
  }
}
