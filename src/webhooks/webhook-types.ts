// Webhooks of an organization (docs/webhooks.md): what one is, what a delivery of it is, and the
// contract of the durable outbox the stores keep them in. Pure types and small helpers.

import type { PlanNode } from '../query/plan.js';

/** What happens to a record that a webhook is told of. */
export const WEBHOOK_EVENTS = ['created', 'updated', 'deleted'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The methods a webhook may be sent with: each carries a body. */
export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];

/** The operation of a write as the change log names it, and the event it fires. */
export type WriteOperation = 'create' | 'update' | 'delete';
export const EVENT_OF: Readonly<Record<WriteOperation, WebhookEvent>> = { create: 'created', update: 'updated', delete: 'deleted' };

/** A webhook as defined: fixed once made (a change is a delete and a new one), but for its secret, which rotates (rotateSecret). */
export interface WebhookSpec {
  /** A UUID. */
  readonly id: string;
  readonly event: WebhookEvent;
  /** The object's number, or null for every object. */
  readonly objectType: number | null;
  readonly url: string;
  readonly method: WebhookMethod;
  /** A filter in the language of /api/query that the record must match; null: every record. */
  readonly filter: string | null;
  /** Header fields sent with each delivery, names as given. */
  readonly headers: Readonly<Record<string, string>>;
  /** The signing secret, `whsec_` and base64 (Standard Webhooks). */
  readonly secret: string;
  /** When it was made, ISO 8601 UTC on the organization's clock. */
  readonly createdAt: string;
}

/** The secret a rotation replaced, and when it stops signing beside the webhook's secret (organization's clock, ISO 8601). */
export interface PreviousSecret {
  readonly secret: string;
  readonly expiresAt: string;
}

/** A webhook with its state: failures in a row and, once it failed for long, when it was disabled. */
export interface Webhook extends WebhookSpec {
  /** The secret the last rotation replaced, which signs beside `secret` until `previousSecretExpiresAt`; null when none. */
  readonly previousSecret: string | null;
  /** When `previousSecret` stops signing (organization's clock, ISO 8601); null when none. Past until it is forgotten (forgetExpiredSecrets). */
  readonly previousSecretExpiresAt: string | null;
  /** Attempts that failed since the last one that succeeded (any delivery of the webhook). */
  readonly failures: number;
  /** When the first of those failures happened (organization's clock, ISO 8601); null when none. */
  readonly failingSince: string | null;
  /** When it was disabled for failing too long (no delivery is made or attempted since); null while active. */
  readonly disabledAt: string | null;
}

/** A delivery's state: waiting for an attempt (first or next), received (2xx), or given up. */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The event of a test delivery (docs/webhooks.md § Test events): of no record, and no write. */
export const TEST_EVENT = 'test';
/** What a delivery tells of: a record's event, or a test event. */
export type DeliveryEvent = WebhookEvent | typeof TEST_EVENT;

/** One delivery of the delivery log: one event of one record to one webhook. */
export interface Delivery {
  /** A UUID: the `webhook-id` of every attempt, so a receiver can tell a retry from a new event. */
  readonly id: string;
  readonly webhookId: string;
  readonly event: DeliveryEvent;
  /** The record's object and id; null for a test event. */
  readonly objectType: number | null;
  readonly recordId: string | null;
  /** The change log's number of the write (data.sequence of the body); null for a test event. */
  readonly sequence: number | null;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** When the write was made (organization's clock, ISO 8601). */
  readonly createdAt: string;
  readonly lastAttemptAt: string | null;
  /** When the next attempt is due (pending ones), ISO 8601. */
  readonly nextAttemptAt: string | null;
  /** The HTTP status of the last attempt; null when it got none (refused, timed out, unreachable). */
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  /** How long the last attempt took, in milliseconds. */
  readonly durationMs: number | null;
  /** The start of the last reply's body (RESPONSE_BODY_CHARS characters at most). */
  readonly response: string | null;
}

/** A delivery made in a write's transaction: the event, and the body as it was at the write. */
export interface NewDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly event: WebhookEvent;
  readonly objectType: number;
  readonly recordId: string;
  /** The JSON body every attempt sends. */
  readonly payload: string;
  /** Organization's clock, milliseconds. */
  readonly createdMs: number;
  /** Real time of the write, milliseconds: how long a delivery took from the commit is measured from it. */
  readonly writtenMs: number;
}

/** A delivery made outside any write: a test event, which has no record, no write and no change-log entry. */
export interface TestDelivery {
  readonly id: string;
  /** The JSON body every attempt sends. */
  readonly payload: string;
  /** Organization's clock, milliseconds: when it was made and is first due. */
  readonly createdMs: number;
  /** Real time, milliseconds. */
  readonly writtenMs: number;
}

/** A delivery claimed by a worker for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  /** Its row in the outbox (the store's own key). */
  readonly row: number;
  readonly id: string;
  /** `previousSecret` only while a rotation's overlap lasts, at the claim (organization's clock): the attempt signs with both. */
  readonly webhook: Pick<WebhookSpec, 'id' | 'url' | 'method' | 'headers' | 'secret'> & { readonly previousSecret?: string };
  /** true when its webhook still stores a previous secret whose overlap had ended at the claim, for the claimer to forget (forgetExpiredSecrets). */
  readonly previousSecretEnded?: true;
  /** Its webhook's attempts failed in a row when it was claimed (Webhook.failures): above 0, the webhook is failing. */
  readonly webhookFailures: number;
  readonly event: DeliveryEvent;
  readonly payload: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly writtenMs: number;
}

/** What one attempt gave. */
export interface AttemptResult {
  /** The delivery's row in the outbox and its id (ClaimedDelivery.row, .id). */
  readonly row: number;
  readonly id: string;
  readonly webhookId: string;
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly response: string | null;
  /** When the attempt was made, organization's clock, milliseconds. */
  readonly atMs: number;
  /** For a failure: when to try again (organization's clock), or null to give up (the last attempt). */
  readonly retryAtMs: number | null;
  /**
   * For the last attempt's failure: tried again at `retryAtMs` all the same while its webhook is
   * active and has failed every attempt since `failingSince` (organization's clock, no later than
   * the delivery's first attempt): its receiver has been down all along, and the webhook's
   * disabling, not the count of attempts, ends the delivery.
   */
  readonly hold?: { readonly retryAtMs: number; readonly failingSince: number };
}

/** When a webhook that keeps failing is disabled: after `failures` failed attempts in a row spanning `hours` at least. */
export interface DisablePolicy {
  readonly failures: number;
  readonly hours: number;
}

/** What a claim asks for (WebhookOutbox.claim). */
export interface ClaimRequest {
  /** Due by then, organization's clock, milliseconds. */
  readonly dueMs: number;
  /** Now and the claim's length, real time, milliseconds. */
  readonly realMs: number;
  readonly leaseMs: number;
  readonly limit: number;
}

/** One organization's webhooks and their outbox, as a store keeps them (its file or schema). */
export interface WebhookOutbox {
  /** Every webhook, oldest first (ties by id). */
  list(): Promise<Webhook[]>;
  get(id: string): Promise<Webhook | null>;
  /**
   * Stores a new webhook; deliveries start with the writes whose requests begin after it returns.
   * With `max`: only while the organization has fewer webhooks, counted in the same transaction
   * under a lock of the organization's (concurrent adds, of any process, wait for each other);
   * null when it has that many. With `previous`, a webhook in the middle of a rotation (fixtures files).
   */
  add(spec: WebhookSpec, max?: number, previous?: PreviousSecret): Promise<Webhook | null>;
  /** Removes the webhook and its deliveries, pending ones included; false when none has the id. */
  remove(id: string): Promise<boolean>;
  /** A disabled webhook active again, its failures forgotten; null when none has the id. */
  enable(id: string): Promise<Webhook | null>;
  /**
   * Makes `secret` the webhook's signing secret, in one statement: with `previousUntilMs`
   * (organization's clock) the secret it replaces signs beside it until then, in place of any
   * earlier one; with null only the new one signs. Null when none has the id.
   */
  rotateSecret(id: string, secret: string, previousUntilMs: number | null): Promise<Webhook | null>;
  /**
   * Forgets each previous secret whose overlap has ended by `nowMs` (organization's clock), in one
   * statement whose commit is durable: from then on it is neither stored nor in a copy made after
   * (export, snapshot). Returns how many webhooks had one. A claim never gives an expired one to sign
   * with, and says when its webhook still stores one (ClaimedDelivery.previousSecretEnded).
   */
  forgetExpiredSecrets(nowMs: number): Promise<number>;
  /**
   * A failed delivery of the webhook made pending again, due at `nowMs` (organization's clock), its
   * attempts counted from 0; returns it as it is then and whether it was failed (one not failed is
   * left as it is), or null when the webhook has no delivery with that id.
   */
  redeliver(webhookId: string, deliveryId: string, nowMs: number): Promise<{ delivery: Delivery; redelivered: boolean } | null>;
  /** The webhook's deliveries, newest first; with `state`, those in that state only. */
  deliveries(webhookId: string, page: { readonly limit: number; readonly offset: number; readonly state?: DeliveryState }): Promise<Delivery[]>;
  /**
   * Adds a test delivery to an active webhook, pending and due at `createdMs`, in a transaction of
   * its own (no write's: no change-log entry, no schema version moved); a delete of the webhook
   * waits for it and removes it with the others. Returns it as the log shows it; the webhook when it
   * is disabled (nothing added); null when none has the id.
   */
  addTest(webhookId: string, delivery: TestDelivery): Promise<{ delivery: Delivery } | { disabled: Webhook } | null>;
  /**
   * Claims up to `limit` pending deliveries of active webhooks that are due by `dueMs` (organization's
   * clock) and not claimed by another worker (any process) whose claim runs to `realMs + leaseMs`
   * (real time): each is then this caller's to attempt until that lease ends. Oldest first.
   */
  claim(request: ClaimRequest): Promise<ClaimedDelivery[]>;
  /**
   * Records attempts: delivered, retried at `retryAtMs`, or failed for good; counts each failure
   * against its webhook (a success clears its count) and disables the webhooks that `policy` says
   * failed for long, ending their pending deliveries. Returns the webhooks this call disabled.
   */
  finish(results: readonly AttemptResult[], policy: DisablePolicy): Promise<Webhook[]>;
  /** Ends the claim of deliveries left unattempted and makes them due at `untilMs` (organization's clock); their attempts are unchanged. */
  postpone(deliveries: readonly Pick<ClaimedDelivery, 'row' | 'id'>[], untilMs: number): Promise<void>;
  /** Makes the webhook's held deliveries (postponed) due later than `nowMs` due at `nowMs` (its receiver answers again); how many. */
  resume(webhookId: string, nowMs: number): Promise<number>;
  /** When the earliest pending delivery of an active webhook is due (organization's clock, ms); null when none. */
  nextDue(): Promise<number | null>;
  /** Removes delivered and failed deliveries made before `beforeMs` (organization's clock); how many went. */
  prune(beforeMs: number): Promise<number>;
  /**
   * Claims the notice of a disabled webhook whose notice is not sent yet and not claimed by
   * another worker (real-time lease, as claim): the webhooks this caller must send the notice of.
   */
  claimNotices(realMs: number, leaseMs: number): Promise<Webhook[]>;
  /** Records that the notice of the webhook's disabling was sent. */
  noticeSent(id: string, at: string): Promise<void>;
}

/** A webhook as a write's transaction needs it: what it fires on, its filter typed against the schema. */
export interface ActiveHook {
  readonly id: string;
  readonly event: WebhookEvent;
  readonly objectType: number | null;
  readonly filter: PlanNode | null;
}

/** How much of a reply's body the delivery log keeps. */
export const RESPONSE_BODY_CHARS = 1_000;
