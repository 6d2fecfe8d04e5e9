// Making and showing webhooks, the same way through the API, the CLI, the control API and fixtures
// files (docs/webhooks.md): the definition checked, the URL's address checked, the organization
// marked as one whose outbox the workers look at, then the webhook stored with a new secret; and
// rotating that secret, the one it replaces signing beside it for a while.

import { randomUUID } from 'node:crypto';
import { requirePlan } from '../auth/permissions.js';
import type { Plan } from '../auth/plans.js';
import { AppError, errorOf, quote, quoteText } from '../errors.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { isUuid } from '../schema/values.js';
import { testPayload } from './payload.js';
import { newSecret } from './signing.js';
import { checkTarget, type LookupAll } from './target-guard.js';
import { checkWebhookDefinition, secretOf, WEBHOOK_LIMITS } from './webhook-definition.js';
import type { Delivery, PreviousSecret, Webhook, WebhookOutbox } from './webhook-types.js';
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
  /** A secret a rotation replaced, still signing until its time (fixtures files: what an export wrote). */
  readonly previous?: PreviousSecret;
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
  const added = await place.outbox.add({ ...rest, id: options.id ?? randomUUID(), secret: secret ?? newSecret(), createdAt: new Date(options.now).toISOString() }, WEBHOOK_LIMITS.perOrganization, options.previous);
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

/** How long the secret a rotation replaces keeps signing, in hours: by default, and at most. */
export const ROTATION_HOURS = { default: 24, max: 168 } as const;

export interface RotateOptions {
  /** Milliseconds since the epoch on the organization's clock: the overlap runs from then. */
  readonly now: number;
  /** The body may choose the new secret (the control API, as at creation). */
  readonly allowSecret?: boolean;
}

/**
 * Gives the webhook a new signing secret (in the result: shown this once). The body,
 * `{expiresInHours?, secret?}`, says for how many hours the secret replaced keeps signing beside it
 * (default 24, 0 to 168; 0: from now on only the new one), in place of any secret an earlier
 * rotation left signing. 400 WEBHOOK_INVALID for a bad body, 404 WEBHOOK_NOT_FOUND.
 */
export async function rotateWebhookSecret(outbox: WebhookOutbox, raw: string, body: unknown, options: RotateOptions): Promise<Webhook> {
  const members = body === undefined || body === null ? {} : body;
  if (typeof members !== 'object' || Array.isArray(members)) throw new AppError('WEBHOOK_INVALID', `A secret's rotation takes an object such as {"expiresInHours": 24}, or no body; got ${quote(body)}.`);
  const m = members as Record<string, unknown>;
  const allowed = options.allowSecret ? ['expiresInHours', 'secret'] : ['expiresInHours'];
  for (const key of Object.keys(m)) {
    if (!allowed.includes(key)) throw new AppError('WEBHOOK_INVALID', `${quoteText(key)} is not a member of a secret's rotation; its members are ${allowed.join(', ')}.`);
  }
  const hours = m.expiresInHours ?? ROTATION_HOURS.default;
  if (typeof hours !== 'number' || !Number.isInteger(hours) || hours < 0 || hours > ROTATION_HOURS.max) {
    throw new AppError('WEBHOOK_INVALID', `'expiresInHours' must be a whole number of hours from 0 to ${ROTATION_HOURS.max}: how long the secret replaced keeps signing beside the new one (0: not at all; default ${ROTATION_HOURS.default}); got ${quote(m.expiresInHours)}.`);
  }
  const secret = secretOf(m.secret) ?? newSecret();
  const hook = await requireWebhook(outbox, raw);
  const rotated = await outbox.rotateSecret(hook.id, secret, hours === 0 ? null : options.now + hours * 3_600_000);
  // Deleted since it was read.
  if (!rotated) throw errorOf('WEBHOOK_NOT_FOUND', raw);
  return rotated;
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
 * A secret as it is shown: the mark, followed by its last four characters when it has 16 or more
 * (so that two keys can be told apart, and 12 characters or more stay hidden). Header values of a
 * webhook, and every secret the request journal holds (docs/control-api.md § Journal), are shown so.
 */
export function maskedValue(value: string): string {
  return value.length >= HEADER_MASK.showLastFrom ? `${HEADER_MASK.mark}${value.slice(-4)}` : HEADER_MASK.mark;
}

/**
 * Header field values as a webhook is shown: they are often credentials (Authorization, X-Api-Key),
 * so each is masked (maskedValue). Deliveries send the values whole.
 */
export function maskedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = maskedValue(value);
  return out;
}

/**
 * A receiver's URL as a delivery or a notice shows it (the toolkit's outbox, the e-mail of a disabled
 * webhook, the log): each value of its query string masked (maskedValue), as it often holds the
 * receiver's key (`?token=…`); a part without `=` is masked whole, an empty value stays empty. The
 * scheme, host, path and parameter names stay, to tell where it went. Deliveries send the URL whole.
 */
export function maskedUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&').map((part) => {
    const eq = part.indexOf('=');
    if (eq < 0) return part === '' ? part : maskedValue(part);
    return eq === part.length - 1 ? part : `${part.slice(0, eq + 1)}${maskedValue(part.slice(eq + 1))}`;
  });
  return `${url.slice(0, q + 1)}${parts.join('&')}`;
}

const objectName = (schema: OrgSchema, objectType: number): string => schema.find(objectType)?.systemName ?? String(objectType);

/** `nowMs`: the organization's clock, which says whether the previous secret still signs. */
export function webhookSummary(schema: OrgSchema, hook: Webhook, nowMs: number): WebhookSummary {
  const previousUntil = hook.previousSecretExpiresAt;
  return {
    id: hook.id, event: hook.event,
    object: hook.objectType === null ? null : objectName(schema, hook.objectType),
    objectType: hook.objectType, url: hook.url, method: hook.method, filter: hook.filter, headers: maskedHeaders(hook.headers), createdAt: hook.createdAt,
    status: hook.disabledAt === null ? 'active' : 'disabled', disabledAt: hook.disabledAt, failures: hook.failures, failingSince: hook.failingSince,
    previousSecretExpiresAt: previousUntil !== null && Date.parse(previousUntil) > nowMs ? previousUntil : null,
  };
}

/** Deliveries a page of the delivery log shows by default, and at most. */
export const DELIVERY_PAGE = { default: 50, max: 500 } as const;
