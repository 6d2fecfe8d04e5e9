// Who may do what (docs/access.md): first the organization's plan (objects and actions, else 402), then
// the user's role (per object read / create / update / delete, per field hidden or read-only, else
// 403). Pure: routes call it with the request's identity; nothing here knows HTTP or storage.

import { AppError } from '../errors.js';
import type { FieldHiding, ReadAccess } from '../query/plan.js';
import { FIRST_CUSTOM_OBJECT, type FieldDef, type ObjectDef, type RecordRow } from '../schema/types.js';
import type { TokenIdentity } from './identity.js';
import type { ObjectGrant, Permission, RoleDefinition } from './roles.js';
import { cheapestPlanWhere, planIncludesObject, planOf, type Action, type Plan } from './plans.js';

/** The built-in role: every permission on every object the plan includes; it cannot be redefined. */
export const ADMIN_ROLE = 'admin';

/** One object's field rules for a role; derived name fields of hidden lookups count as hidden. */
export interface FieldRules extends FieldHiding {
  /** Fields that may be read but not written (hidden ones are not repeated here). */
  readonly readOnly: ReadonlySet<string>;
}

const NO_FIELDS: ReadonlySet<string> = new Set();
const NO_GRANT: ObjectGrant = { permissions: [], hidden: [], readOnly: [] };

function upgradeHint(includes: (plan: Plan) => boolean): string {
  const plan = cheapestPlanWhere(includes);
  return plan ? `; upgrade to ${plan.name} or higher.` : '.';
}

/** 402 PLAN_EXCLUDES when `plan` lacks the object or the action (with the cheapest plan that has it). */
export function requirePlan(plan: Plan, obj: Pick<ObjectDef, 'objectType' | 'systemName'>, action: Action): void {
  if (!planIncludesObject(plan, obj)) {
    const what = obj.objectType >= FIRST_CUSTOM_OBJECT ? `custom objects (${obj.systemName})` : `the ${obj.systemName} object`;
    throw new AppError('PLAN_EXCLUDES', `The ${plan.name} plan does not include ${what}${upgradeHint((p) => planIncludesObject(p, obj))}`);
  }
  if (!plan.actions.has(action)) {
    // An HTTP import writes many records in one request: a batch too, which the message says.
    const what = action === 'batch' ? 'batch requests (the v3 batch routes, and imports over HTTP)' : `the ${action} action`;
    throw new AppError('PLAN_EXCLUDES', `The ${plan.name} plan does not include ${what}${upgradeHint((p) => p.actions.has(action))}`);
  }
}

/** What the token's user may do; build it with accessOf(). */
export class Access implements ReadAccess {
  private readonly rules = new WeakMap<ObjectDef, FieldRules>();

  constructor(readonly plan: Plan, readonly roleName: string, private readonly role: RoleDefinition | null) {}

  /** The built-in admin role: everything the plan includes, every field. */
  get isAdmin(): boolean {
    return this.roleName === ADMIN_ROLE;
  }

  /** 402 PLAN_EXCLUDES when the plan lacks the object or the action. */
  requirePlan(obj: Pick<ObjectDef, 'objectType' | 'systemName'>, action: Action): void {
    requirePlan(this.plan, obj, action);
  }

  /** Whether the plan includes the object at all (metadata lists only those). */
  includesObject(obj: Pick<ObjectDef, 'objectType' | 'systemName'>): boolean {
    return planIncludesObject(this.plan, obj);
  }

  /**
   * May the user do `permission` to records of `obj`? In this order: the plan (402), the object
   * being writable through the API at all (403 OBJECT_READ_ONLY), the role (403 PERMISSION_DENIED).
   */
  require(obj: ObjectDef, permission: Permission): void {
    this.requirePlan(obj, permission);
    if (permission !== 'read' && obj.readOnly) {
      throw new AppError('OBJECT_READ_ONLY', `The ${obj.systemName} object is read-only through the API: its records mirror the organization's users. Manage users with \`orchard user create\`.`);
    }
    if (this.may(obj, permission)) return;
    if (!this.role) {
      throw new AppError('PERMISSION_DENIED', `Your role '${this.roleName}' is not defined in this organization, so it may do nothing; define it with orchard role set --role ${this.roleName}.`);
    }
    throw new AppError('PERMISSION_DENIED', `Your role '${this.roleName}' may not ${permission} ${obj.systemName} records; grant ${obj.systemName}:${permission} with orchard role set.`);
  }

  /** Defining objects and fields changes what every user of the organization sees: the admin role only (403). */
  requireAdmin(what: string): void {
    if (this.isAdmin) return;
    throw new AppError('PERMISSION_DENIED', `Your role '${this.roleName}' may not ${what}: only the ${ADMIN_ROLE} role defines objects and fields, views and webhooks. Use the token of a user with the ${ADMIN_ROLE} role.`);
  }

  /** Whether the role has the permission (the plan is not consulted). */
  may(obj: ObjectDef, permission: Permission): boolean {
    return this.isAdmin || this.grantOf(obj).permissions.includes(permission);
  }

  private grantOf(obj: ObjectDef): ObjectGrant {
    return this.role?.grants[obj.systemName] ?? NO_GRANT;
  }

  /** The hidden and read-only fields of `obj` for this role. */
  fields(obj: ObjectDef): FieldRules {
    let rules = this.rules.get(obj);
    if (!rules) {
      rules = this.isAdmin ? this.buildRules(obj, NO_GRANT) : this.buildRules(obj, this.grantOf(obj));
      this.rules.set(obj, rules);
    }
    return rules;
  }

  private buildRules(obj: ObjectDef, grant: ObjectGrant): FieldRules {
    if (grant.hidden.length === 0 && grant.readOnly.length === 0) {
      return { hidden: NO_FIELDS, readOnly: NO_FIELDS, hiddenError: (f, where) => this.hiddenError(obj, f, where) };
    }
    const named = new Set(grant.hidden);
    // A derived name field shows what its lookup points to, so it is hidden with the lookup.
    const hidden = new Set(obj.fields.filter((f) => named.has(f.name) || (f.derivedFrom !== undefined && named.has(f.derivedFrom))).map((f) => f.name));
    const readOnly = new Set(grant.readOnly.filter((name) => !hidden.has(name)));
    return { hidden, readOnly, hiddenError: (f, where) => this.hiddenError(obj, f, where) };
  }

  private hiddenError(obj: ObjectDef, field: FieldDef, where: string): AppError {
    const via = field.derivedFrom !== undefined && !this.grantOf(obj).hidden.includes(field.name) ? field.derivedFrom : field.name;
    const why = via === field.name ? '' : ` (it names the hidden lookup '${via}')`;
    return new AppError('FIELD_FORBIDDEN', `Field '${field.name}' of ${obj.systemName} is hidden for role '${this.roleName}'${why}, but it was asked for${where}. Leave it out, or remove ${obj.systemName}:${via} from the role's --hide with orchard role set.`);
  }

  /** For planQuery: read permission on the object (402/403), then the fields hidden from the caller. */
  readObject(obj: ObjectDef): FieldHiding {
    this.require(obj, 'read');
    return this.fields(obj);
  }

  /** 403 FIELD_FORBIDDEN when a write body names a field hidden or read-only for the role; unknown names are left to the body checks. */
  checkWrite(obj: ObjectDef, body: unknown): void {
    if (this.isAdmin || body === null || typeof body !== 'object' || Array.isArray(body)) return;
    const { hidden, readOnly, hiddenError } = this.fields(obj);
    if (hidden.size === 0 && readOnly.size === 0) return;
    for (const raw of Object.keys(body)) {
      const field = obj.fieldsByName.get(raw.toLowerCase());
      if (!field) continue;
      if (hidden.has(field.name)) throw hiddenError(field, ' in the body (a hidden field cannot be written)');
      if (readOnly.has(field.name)) {
        throw new AppError('FIELD_FORBIDDEN', `Field '${field.name}' of ${obj.systemName} is read-only for role '${this.roleName}'; leave it out of the body, or remove ${obj.systemName}:${field.name} from the role's --readonly with orchard role set.`);
      }
    }
  }

  /**
   * The record as this caller may see it: without hidden fields. A caller that may write but not
   * read the object gets the key alone, so a write reply never discloses what `read` would.
   */
  shown(obj: ObjectDef, record: RecordRow): RecordRow {
    if (this.isAdmin) return record;
    if (!this.may(obj, 'read')) return { [obj.keyField]: record[obj.keyField] ?? null };
    const { hidden } = this.fields(obj);
    if (hidden.size === 0) return record;
    const out: RecordRow = {};
    for (const [name, value] of Object.entries(record)) if (!hidden.has(name)) out[name] = value;
    return out;
  }
}

const accesses = new WeakMap<TokenIdentity, Access>();

/** The access of an identity; identities are cached by the control store, and so is this with them. */
export function accessOf(identity: TokenIdentity): Access {
  let access = accesses.get(identity);
  if (!access) {
    access = new Access(planOf(identity.org.plan), identity.user.role, identity.role);
    accesses.set(identity, access);
  }
  return access;
}
