// Administration shared by the CLI and first start: organizations with their primary user, plans,
// users, roles, tokens, views and seeding. Keeps the control plane and the organization's crmuser object in step.

import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { hashToken, newToken } from '../auth/tokens.js';
import { AppError } from '../errors.js';
import { ADMIN_ROLE } from '../auth/permissions.js';
import type { RoleDefinition } from '../auth/roles.js';
import { noOrganization, noUser } from '../store/control-errors.js';
import type { ControlStore, RecordStore } from '../store/types.js';
import type { Organization, User } from '../auth/identity.js';
import { DEFAULT_MINUTE_LIMIT, PLAN_NAMES, type PlanName } from '../auth/plans.js';
import { definableRoleName, parseRoleSpec, roleName, type RoleSpecText } from './role-spec.js';
import { sampleRows } from './sample-data.js';
import { READ_ALL } from '../query/plan.js';
import { viewAddition, viewsOf, withoutView, type View } from '../query/views.js';
import type { ObjectDef, ViewSpec } from '../schema/types.js';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkEmail(email: string): void {
  if (!EMAIL_RE.test(email)) throw new AppError('PARAM_INVALID', `'${email}' is not an e-mail address; give one such as admin@example.com.`);
}

function checkPlan(plan: string): PlanName {
  if (!PLAN_NAMES.includes(plan as PlanName)) throw new AppError('PARAM_INVALID', `Unknown plan '${plan}'; use one of ${PLAN_NAMES.join(', ')}.`);
  return plan as PlanName;
}

function checkMinuteLimit(minuteLimit: number | null): number | null {
  if (minuteLimit !== null && (!Number.isInteger(minuteLimit) || minuteLimit < 1)) {
    throw new AppError('PARAM_INVALID', `The minute limit must be a whole number of at least 1; got ${minuteLimit}.`);
  }
  return minuteLimit;
}

/** "ada.lopez@example.com" → "Ada Lopez": a readable default display name. */
export function nameFromEmail(email: string): string {
  return email.split('@')[0]!.split(/[._-]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ') || email;
}

/**
 * Records generated and inserted per transaction by seed(). Each batch holds the organization's
 * write lock (about 0.8 s here), and a running server's writes to that organization wait for it
 * (5 s at most, without holding up its other requests), so batches stay small; 20,000 was only
 * about a quarter faster.
 */
const SEED_BATCH = 5_000;

/**
 * Pause between batches, so that a running server's write waiting for the lock gets it: it tries
 * again every 50 ms at most, and without a gap the next batch would win again.
 * Costs about 2 s per 100,000 records.
 */
const SEED_PAUSE_MS = 100;

/** Sample accounts the demo organization starts with. */
export const DEMO_ACCOUNTS = 200;

export interface SeedProgress {
  (done: number, total: number): void;
}

/** An organization as the CLI and the control API show it: the minute limit in force, the default included. */
export function organizationSummary(org: Organization): { id: string; name: string; plan: PlanName; minuteLimit: number; primaryUserId: string | null; createdAt: string } {
  return { id: org.id, name: org.name, plan: org.plan, minuteLimit: org.minuteLimit ?? DEFAULT_MINUTE_LIMIT, primaryUserId: org.primaryUserId, createdAt: org.createdAt };
}

export class AdminService {
  constructor(readonly control: ControlStore, readonly records: RecordStore) {}

  async createOrganization(input: { name: string; plan: string; email: string; minuteLimit?: number | null }): Promise<{ org: Organization; user: User; token: string }> {
    const plan = checkPlan(input.plan);
    if (input.name.trim() === '') throw new AppError('PARAM_INVALID', 'An organization needs a non-empty name.');
    checkEmail(input.email);
    const minuteLimit = checkMinuteLimit(input.minuteLimit ?? null);
    const org = await this.control.createOrganization({ name: input.name.trim(), plan, minuteLimit });
    await this.records.org(org.id); // creates and migrates its database now, not on the first request
    const { user, token } = await this.createUser({ orgId: org.id, email: input.email, role: 'admin' });
    await this.control.setPrimaryUser(org.id, user.id);
    return { org: { ...org, primaryUserId: user.id }, user, token };
  }

  async listOrganizations(): Promise<Organization[]> {
    return this.control.listOrganizations();
  }

  /** The organization with this id, or 404 ORGANIZATION_NOT_FOUND. */
  async requireOrganization(id: string): Promise<Organization> {
    const org = await this.control.getOrganization(id);
    if (!org) throw noOrganization(id);
    return org;
  }

  /** Changes an organization's plan and/or minute limit; a running server applies them from its next request. */
  async updateOrganization(input: { id: string; plan?: string; minuteLimit?: number }): Promise<Organization> {
    if (input.plan === undefined && input.minuteLimit === undefined) {
      throw new AppError('PARAM_INVALID', 'Nothing to change: give --plan, --minute-limit or both.');
    }
    const changes = {
      ...(input.plan !== undefined ? { plan: checkPlan(input.plan) } : {}),
      ...(input.minuteLimit !== undefined ? { minuteLimit: checkMinuteLimit(input.minuteLimit) } : {}),
    };
    const org = await this.control.updateOrganization(input.id, changes);
    if (!org) throw noOrganization(input.id);
    return org;
  }

  /** Creates or replaces a role of the organization from the `role set` options, checked against its schema. */
  async setRole(input: { orgId: string; role: string } & RoleSpecText): Promise<RoleDefinition> {
    const name = definableRoleName(input.role);
    const org = await this.control.getOrganization(input.orgId);
    if (!org) throw noOrganization(input.orgId);
    const schema = await (await this.records.org(org.id)).schema();
    return this.control.setRole({ orgId: org.id, name, grants: parseRoleSpec(schema, input) });
  }

  async createUser(input: { orgId: string; email: string; role?: string; fullname?: string }): Promise<{ user: User; token: string }> {
    checkEmail(input.email);
    const org = await this.control.getOrganization(input.orgId);
    if (!org) throw noOrganization(input.orgId);
    const role = roleName(input.role ?? ADMIN_ROLE);
    if (role !== ADMIN_ROLE && !(await this.control.getRole(org.id, role))) {
      throw new AppError('PARAM_INVALID', `The organization has no role '${role}'. Define it first with orchard role set --org ${org.id} --role ${role} --grant …, or use the built-in role admin.`);
    }
    const user = await this.control.createUser({
      orgId: org.id, email: input.email, fullname: input.fullname ?? nameFromEmail(input.email), role,
    });
    await this.records.upsertUser(org.id, { id: user.id, fullname: user.fullname, email: user.email });
    const token = await this.createToken(user.id);
    return { user, token };
  }

  /** A new token for the user; the token itself is returned once and never stored. */
  async createToken(userId: string): Promise<string> {
    const user = await this.control.getUser(userId);
    if (!user) throw noUser(userId);
    const token = newToken();
    await this.control.addToken(user.id, hashToken(token));
    return token;
  }

  async revokeToken(token: string): Promise<boolean> {
    return this.control.revokeToken(hashToken(token));
  }

  /** Inserts `count` sample records of `object` in batches, owned by the organization's primary user. */
  async seed(input: { orgId: string; object: string; count: number; now?: Date; seed?: number }, progress?: SeedProgress): Promise<{ inserted: number; object: string }> {
    const org = await this.control.getOrganization(input.orgId);
    if (!org || !org.primaryUserId) throw noOrganization(input.orgId);
    if (!Number.isInteger(input.count) || input.count < 0) throw new AppError('PARAM_INVALID', `--count must be a whole number of at least 0; got ${input.count}.`);
    const records = await this.records.org(org.id);
    const obj = (await records.schema()).resolve(input.object);
    if (obj.readOnly) throw new AppError('PARAM_INVALID', `The ${obj.systemName} object is read-only and cannot be seeded.`);
    const now = input.now ?? new Date();
    const seed = input.seed ?? now.getTime();
    for (let done = 0; done < input.count; done += SEED_BATCH) {
      if (done > 0) await setTimeout(SEED_PAUSE_MS);
      const n = Math.min(SEED_BATCH, input.count - done);
      const rows = sampleRows(obj, n, { ownerId: org.primaryUserId, now, seed: seed + done, startIndex: done });
      await this.records.bulkInsert(org.id, obj, rows);
      progress?.(done + n, input.count);
    }
    return { inserted: input.count, object: obj.systemName };
  }

  /** The organization's records and the object `object` names; the organization must exist. */
  private async objectOf(orgId: string, object: string) {
    const org = await this.control.getOrganization(orgId);
    if (!org) throw noOrganization(orgId);
    const records = await this.records.org(org.id);
    return { records, obj: (await records.schema()).resolve(object) };
  }

  /**
   * Defines a view of an object (docs/compat.md, views), checked as one defined through the API:
   * `definition` is the body `POST /api/v2/views/{ot}` takes.
   */
  async defineView(input: { orgId: string; object: string; definition: Record<string, unknown>; now?: Date }): Promise<{ obj: ObjectDef; view: ViewSpec }> {
    const { records, obj } = await this.objectOf(input.orgId, input.object);
    const made = { id: randomUUID(), createdon: (input.now ?? new Date()).toISOString().slice(0, 19) };
    const addition = viewAddition(input.definition, READ_ALL, made);
    await records.setViews(obj.objectType, addition.change);
    return { obj, view: addition.added() };
  }

  /** The views of an object, its default view first. */
  async listViews(input: { orgId: string; object: string }): Promise<{ obj: ObjectDef; views: View[] }> {
    const { obj } = await this.objectOf(input.orgId, input.object);
    return { obj, views: viewsOf(obj) };
  }

  /** Deletes a defined view of an object. */
  async deleteView(input: { orgId: string; object: string; view: string }): Promise<void> {
    const { records, obj } = await this.objectOf(input.orgId, input.object);
    await records.setViews(obj.objectType, (current) => withoutView(current, input.view));
  }

  /**
   * On a data directory without organizations: a demo organization with DEMO_ACCOUNTS sample
   * accounts and a token for its primary user. Returns it, or null when organizations exist.
   */
  async ensureDemo(): Promise<{ org: Organization; user: User; token: string; accounts: number } | null> {
    if ((await this.control.listOrganizations()).length > 0) return null;
    const { org, user, token } = await this.createOrganization({ name: 'Demo', plan: 'enterprise', email: 'demo@example.com' });
    const { inserted } = await this.seed({ orgId: org.id, object: 'account', count: DEMO_ACCOUNTS, seed: 1 });
    return { org, user, token, accounts: inserted };
  }
}
