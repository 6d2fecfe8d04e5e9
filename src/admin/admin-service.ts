// Administration shared by the CLI and first start: organizations with their primary user, plans,
// users, roles, tokens, views, webhooks and seeding. Keeps the control plane and the organization's crmuser object in step.

import { randomUUID } from 'node:crypto';
import { setTimeout } from 'node:timers/promises';
import { hashToken, newToken } from '../auth/tokens.js';
import { AppError, errorOf } from '../errors.js';
import { ADMIN_ROLE } from '../auth/permissions.js';
import type { RoleDefinition } from '../auth/roles.js';
import { noOrganization, noRole, noUser } from '../store/control-errors.js';
import type { ControlStore, NewToken, OrgRecords, RecordStore } from '../store/types.js';
import { defineWebhook, redeliver, requireWebhook, rotateWebhookSecret, sendTestEvent, webhookSummary, type WebhookPlace, type WebhookSummary } from '../webhooks/webhook-admin.js';
import type { Delivery, DeliveryState, PreviousSecret } from '../webhooks/webhook-types.js';
import type { Organization, TokenInfo, User } from '../auth/identity.js';
import { DEFAULT_MINUTE_LIMIT, PLAN_NAMES, planIncludesObject, planOf, type PlanName } from '../auth/plans.js';
import { definableRoleName, parseRoleSpec, roleName, type RoleSpecNames, type RoleSpecText } from './role-spec.js';
import { sampleRows } from './sample-data.js';
import { READ_ALL } from '../query/plan.js';
import { viewAddition, viewsOf, withoutView, type View } from '../query/views.js';
import type { ObjectDef, ViewSpec } from '../schema/types.js';
import { formatDateTime, isEmailAddress, unstorableText } from '../schema/values.js';
import { undisplayableName } from '../schema/display-text.js';

/** How many of a role's users a refused deletion names (then 'and N more'). */
const ROLE_HOLDERS_NAMED = 5;

/** The most characters of an organization's name, an e-mail or a full name, as in a fixtures file. */
export const NAME_MAX = 200;

/**
 * `text` trimmed, refused when blank, longer than NAME_MAX or not storable as sent (a NUL, which
 * PostgreSQL's text cannot hold, failed there as a 500 after SQLite had taken it).
 */
function checkName(what: string, text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') throw new AppError('PARAM_INVALID', `${what} must not be empty; give some text.`);
  if (trimmed.length > NAME_MAX) throw new AppError('PARAM_INVALID', `${what} is ${trimmed.length} characters long; the most is ${NAME_MAX}. Shorten it.`);
  const why = unstorableText(trimmed);
  if (why) throw new AppError('PARAM_INVALID', `${what} cannot be stored: ${why}`);
  return trimmed;
}

/**
 * A name listings show (an organization's, a user's full name), checked as checkName does and, as
 * the names of objects and fields are, refused with a character that can make it display as
 * another or that shows as nothing (docs/api.md § Names and labels).
 */
function checkDisplayName(what: string, text: string): string {
  const trimmed = checkName(what, text);
  const why = undisplayableName(trimmed);
  if (why) throw new AppError('PARAM_INVALID', `${what}: ${why}`);
  return trimmed;
}

function checkEmail(email: string): void {
  checkName('The e-mail', email);
  if (!isEmailAddress(email)) throw new AppError('PARAM_INVALID', `'${email}' is not an e-mail address; give one such as admin@example.com.`);
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
 * The most records one seed inserts: ten times the largest measured (1,000,000 in about 8 minutes),
 * so about an hour and a half. A larger count is more likely a typo than a plan; seed again to go on.
 */
export const SEED_MAX = 10_000_000;

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

/** The last 4 characters of a token: kept to tell a user's tokens apart, never enough to use one. */
const lastFour = (token: string): string => token.slice(-4);
/** What the control store keeps of a new token. */
const stored = (token: string): NewToken => ({ hash: hashToken(token), last4: lastFour(token) });

function noToken(id: string): AppError {
  return new AppError('TOKEN_NOT_FOUND', `No token has id '${id}'. List a user's tokens with orchard token list --user <user id>.`);
}

/** A user as the CLI and the control API show it. */
export function userSummary(user: User): { id: string; orgId: string; email: string; fullname: string; role: string; disabled: boolean; disabledAt: string | null; createdAt: string } {
  return { id: user.id, orgId: user.orgId, email: user.email, fullname: user.fullname, role: user.role, disabled: user.disabledAt !== null, disabledAt: user.disabledAt, createdAt: user.createdAt };
}

/** An organization as the CLI and the control API show it: the minute limit in force, the default included. */
export function organizationSummary(org: Organization): { id: string; name: string; plan: PlanName; minuteLimit: number; primaryUserId: string | null; createdAt: string } {
  return { id: org.id, name: org.name, plan: org.plan, minuteLimit: org.minuteLimit ?? DEFAULT_MINUTE_LIMIT, primaryUserId: org.primaryUserId, createdAt: org.createdAt };
}

/** A role as the control API and the CLI show it; the built-in admin has no grants listed (it has every one). */
export interface RoleItem {
  readonly name: string;
  readonly builtIn: boolean;
  readonly grants: RoleDefinition['grants'];
  readonly updatedAt: string | null;
}

export const roleItem = (r: RoleDefinition): RoleItem => ({ name: r.name, builtIn: false, grants: r.grants, updatedAt: r.updatedAt });

const ADMIN_ROLE_ITEM: RoleItem = { name: ADMIN_ROLE, builtIn: true, grants: {}, updatedAt: null };

export class AdminService {
  constructor(readonly control: ControlStore, readonly records: RecordStore) {}

  async createOrganization(input: { name: string; plan: string; email: string; minuteLimit?: number | null }): Promise<{ org: Organization; user: User; token: string }> {
    const plan = checkPlan(input.plan);
    const name = checkDisplayName('An organization\'s name', input.name);
    checkEmail(input.email);
    const minuteLimit = checkMinuteLimit(input.minuteLimit ?? null);
    // Its records first (its database, made now rather than on the first request, and the user's
    // crmuser record), then its control rows in one transaction: a failure anywhere leaves no
    // organization to list or find, and the call can simply be made again.
    const [orgId, userId] = [randomUUID(), randomUUID()];
    const fullname = nameFromEmail(input.email);
    try {
      await this.records.org(orgId);
      await this.records.upsertUser(orgId, { id: userId, fullname, email: input.email });
      const token = newToken();
      const { org, user } = await this.control.createOrganizationWithUser({
        id: orgId, name, plan, minuteLimit,
        user: { id: userId, email: input.email, fullname, role: ADMIN_ROLE }, token: stored(token),
      });
      return { org, user, token };
    } catch (err) {
      await this.records.dropOrg(orgId).catch(() => {});
      throw err;
    }
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

  /**
   * Creates or replaces a role of the organization from the `role set` options, checked against its
   * schema; `names`: what the caller calls the three parts, for the messages (default the CLI's).
   */
  async setRole(input: { orgId: string; role: string } & RoleSpecText, names?: RoleSpecNames): Promise<RoleDefinition> {
    const name = definableRoleName(input.role);
    const org = await this.control.getOrganization(input.orgId);
    if (!org) throw noOrganization(input.orgId);
    const schema = await (await this.records.org(org.id)).schema();
    return this.control.setRole({ orgId: org.id, name, grants: parseRoleSpec(schema, input, names) });
  }

  /** The organization's roles as the control API and `role list --json` show them: the built-in admin first, then those defined, by name. */
  async listRoles(orgId: string): Promise<RoleItem[]> {
    const org = await this.requireOrganization(orgId);
    return [ADMIN_ROLE_ITEM, ...(await this.control.listRoles(org.id)).map(roleItem)];
  }

  /**
   * Deletes a role the organization defined. Refused while any user holds it (ROLE_IN_USE, naming
   * them), so that no user is left with a role that allows nothing: give them another role first.
   */
  async deleteRole(orgId: string, role: string): Promise<{ orgId: string; name: string }> {
    const name = definableRoleName(role, 'deleted');
    const org = await this.requireOrganization(orgId);
    const outcome = await this.control.deleteRole(org.id, name);
    if (outcome === 'absent') throw errorOf('ROLE_NOT_FOUND', org.id, name);
    if (outcome !== 'deleted') {
      const shown = outcome.heldBy.slice(0, ROLE_HOLDERS_NAMED).map((u) => `${u.email} (${u.id})`).join(', ');
      const more = outcome.heldBy.length > ROLE_HOLDERS_NAMED ? ` and ${outcome.heldBy.length - ROLE_HOLDERS_NAMED} more` : '';
      throw new AppError('ROLE_IN_USE', `Role '${name}' of organization ${org.id} is held by ${outcome.heldBy.length} user(s): ${shown}${more}. Give them another role first (orchard user role --id <user id> --role <role>), then delete it.`);
    }
    return { orgId: org.id, name };
  }

  /** The role's name, checked to be admin or a role defined for the organization. */
  private async checkRole(orgId: string, name: string): Promise<string> {
    const role = roleName(name);
    if (role !== ADMIN_ROLE && !(await this.control.getRole(orgId, role))) {
      throw noRole(orgId, role);
    }
    return role;
  }

  async createUser(input: { orgId: string; email: string; role?: string; fullname?: string }): Promise<{ user: User; token: string }> {
    checkEmail(input.email);
    const fullname = input.fullname === undefined ? nameFromEmail(input.email) : checkDisplayName('The full name', input.fullname);
    const org = await this.control.getOrganization(input.orgId);
    if (!org) throw noOrganization(input.orgId);
    const role = await this.checkRole(org.id, input.role ?? ADMIN_ROLE);
    // The user and their token in one transaction; their crmuser record after it, and the user
    // taken back when that fails, so that a call that failed leaves no user without a token.
    const token = newToken();
    const user = await this.control.createUser({
      orgId: org.id, email: input.email, fullname, role, token: stored(token), requireRole: true,
    });
    try {
      await this.records.upsertUser(org.id, { id: user.id, fullname: user.fullname, email: user.email });
    } catch (err) {
      await this.control.deleteUser(user.id).catch(() => {});
      throw err;
    }
    return { user, token };
  }

  /** A new token for the user; the token itself is returned once and never stored. */
  async createToken(userId: string): Promise<string> {
    return (await this.issueToken(userId)).token;
  }

  /** A new token for the user with what is kept of it (its id, last 4 characters, times). */
  async issueToken(userId: string): Promise<{ token: string; info: TokenInfo }> {
    const user = await this.control.getUser(userId);
    if (!user) throw noUser(userId);
    const token = newToken();
    return { token, info: await this.control.addToken(user.id, hashToken(token), lastFour(token)) };
  }

  async revokeToken(token: string): Promise<boolean> {
    return this.control.revokeToken(hashToken(token));
  }

  /** Revokes the token with this id (already revoked: left as it was); TOKEN_NOT_FOUND when no token has it. */
  async revokeTokenById(id: string): Promise<TokenInfo> {
    const info = await this.control.revokeTokenById(id);
    if (!info) throw noToken(id);
    return info;
  }

  /** A new token for the user of the live token `id`, that one revoked in the same transaction. */
  async rotateToken(id: string): Promise<{ token: string; created: TokenInfo; revoked: TokenInfo }> {
    const token = newToken();
    const r = await this.control.rotateToken(id, hashToken(token), lastFour(token));
    if (r) return { token, ...r };
    // Not live: revoking it again changes nothing and tells unknown from already revoked.
    const known = await this.control.revokeTokenById(id);
    if (!known) throw noToken(id);
    throw new AppError('PARAM_INVALID', `Token ${id} was revoked at ${known.revokedAt}; only a live token is rotated. Make a new one with orchard token create --user ${known.userId}.`);
  }

  /** Every token of the user, live or revoked: ids, last 4 characters and times, never a token. */
  async listTokens(userId: string): Promise<TokenInfo[]> {
    if (!(await this.control.getUser(userId))) throw noUser(userId);
    return this.control.listTokens(userId);
  }

  async listUsers(orgId: string): Promise<User[]> {
    if (!(await this.control.getOrganization(orgId))) throw noOrganization(orgId);
    return this.control.listUsers(orgId);
  }

  /** Gives the user another role (admin or one defined for their organization); applied from their next request. */
  async setUserRole(id: string, role: string): Promise<User> {
    const user = await this.control.getUser(id);
    if (!user) throw noUser(id);
    // Looked at here for the message, and again by the store in the step that gives it.
    return this.updateUser(id, { role: await this.checkRole(user.orgId, role), requireRole: true });
  }

  /** Disables the user (every token of theirs refused from the next request, on every process) or enables them again. */
  async setUserDisabled(id: string, disabled: boolean): Promise<User> {
    return this.updateUser(id, { disabled });
  }

  private async updateUser(id: string, changes: { role?: string; disabled?: boolean; requireRole?: boolean }): Promise<User> {
    const user = await this.control.updateUser(id, changes);
    if (!user) throw noUser(id);
    return user;
  }

  /**
   * Removes the user and their tokens. Records they own or wrote keep pointing at them: their
   * crmuser record stays, so ownername still reads their name. The organization's primary user
   * (who gets the usage notices and owns the sample data) is not deleted: delete the organization.
   */
  async deleteUser(id: string): Promise<User> {
    const user = await this.control.getUser(id);
    if (!user) throw noUser(id);
    // Whether they are the primary user is looked at by the store in the step that deletes them.
    const outcome = await this.control.deleteUser(id);
    if (outcome === 'primary') {
      throw new AppError('PARAM_INVALID', `User ${id} is the primary user of organization ${user.orgId} (usage notices go to them) and cannot be deleted; disable them with orchard user disable --id ${id}, or delete the organization.`);
    }
    if (outcome === 'absent') throw noUser(id);
    // Its crmuser record stays, for the records that name it, marked Inactive.
    await this.records.upsertUser(user.orgId, { id: user.id, fullname: user.fullname, email: user.email, active: false });
    return user;
  }

  /**
   * Removes the organization: its users, tokens and roles first (its tokens are refused from the
   * next request, on every process), then its records (file or schema).
   */
  async deleteOrganization(id: string): Promise<Organization> {
    const org = await this.control.getOrganization(id);
    if (!org || !(await this.control.deleteOrganization(id))) throw noOrganization(id);
    await this.records.dropOrg(id);
    return org;
  }

  /** Inserts `count` sample records of `object` in batches, owned by the organization's primary user. */
  async seed(input: { orgId: string; object: string; count: number; now?: Date; seed?: number }, progress?: SeedProgress): Promise<{ inserted: number; object: string }> {
    const org = await this.control.getOrganization(input.orgId);
    if (!org || !org.primaryUserId) throw noOrganization(input.orgId);
    if (!Number.isInteger(input.count) || input.count < 0 || input.count > SEED_MAX) throw new AppError('PARAM_INVALID', `--count must be a whole number from 0 to ${SEED_MAX.toLocaleString('en-US')}; got ${input.count}.`);
    const records = await this.records.org(org.id);
    const obj = (await records.schema()).resolve(input.object);
    if (obj.readOnly) throw new AppError('PARAM_INVALID', `The ${obj.systemName} object is read-only and cannot be seeded.`);
    const now = input.now ?? new Date();
    const seed = input.seed ?? now.getTime();
    const plan = planOf(org.plan);
    for (let done = 0; done < input.count; done += SEED_BATCH) {
      if (done > 0) await setTimeout(SEED_PAUSE_MS);
      const n = Math.min(SEED_BATCH, input.count - done);
      const rows = sampleRows(obj, n, { ownerId: org.primaryUserId, now, seed: seed + done, startIndex: done });
      await this.records.bulkInsert(org.id, obj, rows, { userId: org.primaryUserId, at: formatDateTime(now), makesEvents: (o) => planIncludesObject(plan, o) });
      progress?.(done + n, input.count);
    }
    return { inserted: input.count, object: obj.systemName };
  }

  /** The system name of the organization's object `object` names; 404 ORGANIZATION_NOT_FOUND or OBJECT_UNKNOWN. */
  async requireObject(orgId: string, object: string): Promise<string> {
    return (await this.objectOf(orgId, object)).obj.systemName;
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
  async defineView(input: { orgId: string; object: string; definition: Record<string, unknown>; now?: Date; made?: { id: string; createdon: string } }): Promise<{ obj: ObjectDef; view: ViewSpec }> {
    const { records, obj } = await this.objectOf(input.orgId, input.object);
    // A fixture's view keeps the id and time its export wrote (clients keep view ids).
    const made = input.made ?? { id: randomUUID(), createdon: (input.now ?? new Date()).toISOString().slice(0, 19) };
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

  /** The organization's records and schema, and where its webhooks are made (docs/webhooks.md); it must exist. */
  private async webhookPlace(orgId: string): Promise<WebhookPlace & { records: OrgRecords }> {
    const org = await this.control.getOrganization(orgId);
    if (!org) throw noOrganization(orgId);
    const records = await this.records.org(org.id);
    return { records, schema: await records.schema(), plan: planOf(org.plan), outbox: records.webhooks, mark: () => this.control.markWebhooks(org.id) };
  }

  /**
   * Makes a webhook of the organization, checked as one made through the API (`definition` is the
   * body POST /api/webhooks takes; with `allowSecret`, it may fix the secret); returns it shown, and its secret.
   */
  async createWebhook(input: { orgId: string; definition: unknown; allowPrivate: boolean; allowSecret?: boolean; id?: string; previous?: PreviousSecret; now?: Date }): Promise<{ webhook: WebhookSummary; secret: string }> {
    const place = await this.webhookPlace(input.orgId);
    const now = (input.now ?? new Date()).getTime();
    const hook = await defineWebhook(place, input.definition, {
      now, allowPrivate: input.allowPrivate, allowSecret: input.allowSecret === true, ...(input.id ? { id: input.id } : {}), ...(input.previous ? { previous: input.previous } : {}),
    });
    return { webhook: webhookSummary(place.schema, hook, now), secret: hook.secret };
  }

  /**
   * Gives a webhook of the organization a new signing secret, as POST /api/webhooks/{id}/rotate-secret
   * does (`body` as it takes it; with `allowSecret`, it may choose the secret), at `now` on the
   * organization's clock; returns it shown, and its new secret.
   */
  async rotateWebhookSecret(input: { orgId: string; id: string; body: unknown; allowSecret?: boolean; now: Date }): Promise<{ webhook: WebhookSummary; secret: string }> {
    const { schema, outbox } = await this.webhookPlace(input.orgId);
    const now = input.now.getTime();
    const hook = await rotateWebhookSecret(outbox, input.id, input.body, { now, allowSecret: input.allowSecret === true });
    return { webhook: webhookSummary(schema, hook, now), secret: hook.secret };
  }

  /** The organization's webhooks, oldest first, shown at `now` on its clock. */
  async listWebhooks(orgId: string, now: Date): Promise<WebhookSummary[]> {
    const { schema, outbox } = await this.webhookPlace(orgId);
    return (await outbox.list()).map((h) => webhookSummary(schema, h, now.getTime()));
  }

  /** Deletes a webhook of the organization with its delivery log (404 WEBHOOK_NOT_FOUND). */
  async deleteWebhook(orgId: string, id: string): Promise<void> {
    const { outbox } = await this.webhookPlace(orgId);
    await outbox.remove((await requireWebhook(outbox, id)).id);
  }

  /** Makes a webhook disabled for failing active again (its failures forgotten); one that is active stays so. */
  async enableWebhook(orgId: string, id: string, now: Date): Promise<WebhookSummary> {
    const { schema, outbox } = await this.webhookPlace(orgId);
    const hook = await requireWebhook(outbox, id);
    return webhookSummary(schema, (await outbox.enable(hook.id)) ?? hook, now.getTime());
  }

  /** Sends a failed delivery of a webhook again, due at `now` (redeliver: 404 WEBHOOK_NOT_FOUND, DELIVERY_NOT_FOUND; 409 DELIVERY_NOT_FAILED). */
  async retryDelivery(orgId: string, id: string, deliveryId: string, now: Date): Promise<Delivery> {
    const { outbox } = await this.webhookPlace(orgId);
    return redeliver(outbox, id, deliveryId, now.getTime());
  }

  /** Sends a webhook a test event, made at `now` and due then (sendTestEvent: 404 WEBHOOK_NOT_FOUND, 409 WEBHOOK_DISABLED). */
  async testWebhook(orgId: string, id: string, now: Date): Promise<Delivery> {
    const { schema, outbox } = await this.webhookPlace(orgId);
    return sendTestEvent(schema, outbox, id, { nowMs: now.getTime(), userId: null });
  }

  /** A page of a webhook's deliveries, newest first, of every state or of `state` (404 WEBHOOK_NOT_FOUND). */
  async webhookDeliveries(orgId: string, id: string, page: { limit: number; offset: number; state?: DeliveryState }): Promise<Delivery[]> {
    const { outbox } = await this.webhookPlace(orgId);
    return outbox.deliveries((await requireWebhook(outbox, id)).id, page);
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
