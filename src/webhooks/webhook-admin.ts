// Making and showing webhooks, the same way through the API, the CLI, the control API and fixtures
// files (docs/webhooks.md): the definition checked, the URL's address checked, the organization
// marked as one whose outbox the workers look at, then the webhook stored with a new secret.

import { randomUUID } from 'node:crypto';
import { requirePlan } from '../auth/permissions.js';
import type { Plan } from '../auth/plans.js';
import { AppError, errorOf } from '../errors.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { isUuid } from '../schema/values.js';
import { testPayload } from './payload.js';
import { newSecret } from './signing.js';
import { checkTarget, type LookupAll } from './target-guard.js';
import { checkWebhookDefinition, WEBHOOK_LIMITS } from './webhook-definition.js';
import type { Delivery, Webhook, WebhookOutbox } from './webhook-types.js';
import type { WebhookSummary } from '../control-client.js';

/** Where a webhook is made: the organization's objects and outbox, and how to mark it in the control plane. */
export interface WebhookPlace {
  readonly schema: OrgSchema;
  /** The organization's plan: a webhook on one object needs a plan that includes it (402 PLAN_EXCLUDES), as reading its records would. */
  readonly plan: Plan;
  readonly outbox: WebhookOutbox;
  /** ControlStore.markWebhooks of the organization. */
  mark(): Promise<void>;
}

export interface DefineOptions {
  /** Milliseconds since the epoch on the organization's clock: the webhook's createdAt. */
  readonly now: number;
  /** WEBHOOK_ALLOW_PRIVATE: no check of the URL's address. */
  readonly allowPrivate: boolean;
  /** The definition may fix the signing secret (fixtures files). */
  readonly allowSecret?: boolean;
  /** Chosen id (fixtures files); a new UUID otherwise. */
  readonly id?: string;
  /** How the URL's host is resolved (tests give their own). */
  readonly lookup?: LookupAll;
}

/** Checks and stores a webhook; returns it with its secret (shown to the caller this once). */
export async function defineWebhook(place: WebhookPlace, body: unknown, options: DefineOptions): Promise<Webhook> {
  // The plan first, as for a request on the object's records.
  const ref = (body as { object?: unknown } | null)?.object;
  if ((typeof ref === 'string' && ref.trim() !== '' && ref.trim() !== '*') || typeof ref === 'number') requirePlan(place.plan, place.schema.resolve(ref), 'read');
  const definition = checkWebhookDefinition(place.schema, body, options.allowSecret === true);
  if (!options.allowPrivate) await checkTarget(new URL(definition.url), options.lookup);
  await place.mark();
  const { secret, ...rest } = definition;
  // Counted in the transaction that adds it, under the organization's lock: concurrent creates cannot pass the limit together.
  const added = await place.outbox.add({ ...rest, id: options.id ?? randomUUID(), secret: secret ?? newSecret(), createdAt: new Date(options.now).toISOString() }, WEBHOOK_LIMITS.perOrganization);
  if (!added) throw new AppError('WEBHOOK_INVALID', `This organization has ${WEBHOOK_LIMITS.perOrganization} webhooks, the most it may have; delete one first.`);
  return added;
}

/** The id as given, lowercase; 404 WEBHOOK_NOT_FOUND when it is not a UUID (no webhook can have it). */
export function webhookId(raw: string): string {
  if (!isUuid(raw)) throw errorOf('WEBHOOK_NOT_FOUND', raw);
  return raw.toLowerCase();
}

/** The webhook with that id, or 404 WEBHOOK_NOT_FOUND. */
export async function requireWebhook(outbox: WebhookOutbox, raw: string): Promise<Webhook> {
  const found = await outbox.get(webhookId(raw));
  if (!found) throw errorOf('WEBHOOK_NOT_FOUND', raw);
  return found;
}

/**
 * Makes a failed delivery of the webhook pending again, due at `nowMs` (organization's clock), with
 * its attempts counted from 0 (docs/webhooks.md § Delivery): 404 WEBHOOK_NOT_FOUND,
 * DELIVERY_NOT_FOUND; 409 DELIVERY_NOT_FAILED for one pending or delivered.
 */
export async function redeliver(outbox: WebhookOutbox, rawHook: string, rawDelivery: string, nowMs: number): Promise<Delivery> {
  const hook = await requireWebhook(outbox, rawHook);
  const found = isUuid(rawDelivery) ? await outbox.redeliver(hook.id, rawDelivery.toLowerCase(), nowMs) : null;
  if (!found) throw errorOf('DELIVERY_NOT_FOUND', hook.id, rawDelivery);
  if (!found.redelivered) throw errorOf('DELIVERY_NOT_FAILED', found.delivery.id, found.delivery.state);
  return found.delivery;
}

/**
 * Makes a test event's delivery to an active webhook (docs/webhooks.md § Test events), due at
 * `nowMs` (organization's clock), and returns it: 404 WEBHOOK_NOT_FOUND; 409 WEBHOOK_DISABLED, whose
 * deliveries are not attempted until it is enabled.
 */
export async function sendTestEvent(schema: OrgSchema, outbox: WebhookOutbox, raw: string, by: { readonly nowMs: number; readonly userId: string | null }): Promise<Delivery> {
  const hook = await requireWebhook(outbox, raw);
  const obj = hook.objectType === null ? null : { systemName: objectName(schema, hook.objectType), objectType: hook.objectType };
  const at = new Date(by.nowMs).toISOString();
  const added = await outbox.addTest(hook.id, { id: randomUUID(), payload: testPayload(hook.id, obj, by.userId, at), createdMs: by.nowMs, writtenMs: Date.now() });
  if (!added) throw errorOf('WEBHOOK_NOT_FOUND', raw);
  if ('disabled' in added) throw errorOf('WEBHOOK_DISABLED', hook.id, added.disabled.disabledAt!);
  return added.delivery;
}

/** A webhook as it is shown (its secret never is, but on creation): the reply the control API's client reads. */
export type { WebhookSummary };

/** The mark a header field's value is shown as, and the length from which its last four characters follow it. */
export const HEADER_MASK = { mark: '****', showLastFrom: 16 } as const;

/**
 * Header field values as a webhook is shown: they are often credentials (Authorization, X-Api-Key),
 * so each is the mark, followed by its last four characters when it has 16 or more (so that two
 * keys can be told apart, and 12 characters or more stay hidden). Deliveries send the values whole.
 */
export function maskedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = value.length >= HEADER_MASK.showLastFrom ? `${HEADER_MASK.mark}${value.slice(-4)}` : HEADER_MASK.mark;
  return out;
}

const objectName = (schema: OrgSchema, objectType: number): string => schema.find(objectType)?.systemName ?? String(objectType);

export function webhookSummary(schema: OrgSchema, hook: Webhook): WebhookSummary {
  return {
    id: hook.id, event: hook.event,
    object: hook.objectType === null ? null : objectName(schema, hook.objectType),
    objectType: hook.objectType, url: hook.url, method: hook.method, filter: hook.filter, headers: maskedHeaders(hook.headers), createdAt: hook.createdAt,
    status: hook.disabledAt === null ? 'active' : 'disabled', disabledAt: hook.disabledAt, failures: hook.failures, failingSince: hook.failingSince,
  };
}

/** Deliveries a page of the delivery log shows by default, and at most. */
export const DELIVERY_PAGE = { default: 50, max: 500 } as const;
