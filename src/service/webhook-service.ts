// Webhooks through the API (docs/webhooks.md): the admin role of an organization lists, makes, reads,
// deletes and enables its webhooks and reads their delivery log. A webhook on one object needs a
// plan that includes the object (402), as reading its records would.

import type { TokenIdentity } from '../auth/identity.js';
import { accessOf } from '../auth/permissions.js';
import type { OrgSchema } from '../schema/org-schema.js';
import type { OrgRecords } from '../store/types.js';
import { defineWebhook, DELIVERY_PAGE, redeliver, requireWebhook, rotateWebhookSecret, sendTestEvent, webhookSummary, type WebhookSummary } from '../webhooks/webhook-admin.js';
import type { LookupAll } from '../webhooks/target-guard.js';
import type { Delivery, DeliveryState } from '../webhooks/webhook-types.js';
import type { ServiceDeps } from './deps.js';

/** The page of the delivery log asked for, and the state its deliveries are in (any, when absent). */
export interface DeliveryPageQuery {
  readonly pagesize?: number;
  readonly pagenumber?: number;
  readonly state?: DeliveryState;
}

export class WebhookService {
  /** `lookup`: how the URLs' hosts are resolved (tests give their own). */
  constructor(private readonly deps: ServiceDeps, private readonly lookup?: LookupAll) {}

  private async open(identity: TokenIdentity): Promise<{ records: OrgRecords; schema: OrgSchema }> {
    accessOf(identity).requireAdmin('manage webhooks');
    const records = await this.deps.records.org(identity.org.id);
    return { records, schema: await records.schema() };
  }

  async list(identity: TokenIdentity): Promise<WebhookSummary[]> {
    const { records, schema } = await this.open(identity);
    const now = this.deps.clock(identity.org.id);
    return (await records.webhooks.list()).map((h) => webhookSummary(schema, h, now));
  }

  /** Makes a webhook; its secret is in the result, and never shown again. */
  async create(identity: TokenIdentity, body: unknown): Promise<{ webhook: WebhookSummary; secret: string }> {
    const { records, schema } = await this.open(identity);
    const hook = await defineWebhook({ schema, plan: accessOf(identity).plan, outbox: records.webhooks, mark: () => this.deps.control.markWebhooks(identity.org.id) }, body, {
      now: this.deps.clock(identity.org.id), allowPrivate: this.deps.config.webhooks.allowPrivate, ...(this.lookup ? { lookup: this.lookup } : {}),
    });
    return { webhook: webhookSummary(schema, hook, this.deps.clock(identity.org.id)), secret: hook.secret };
  }

  async get(identity: TokenIdentity, id: string): Promise<WebhookSummary> {
    const { records, schema } = await this.open(identity);
    return webhookSummary(schema, await requireWebhook(records.webhooks, id), this.deps.clock(identity.org.id));
  }

  /** Deletes a webhook and its delivery log; pending deliveries are not made. */
  async delete(identity: TokenIdentity, id: string): Promise<void> {
    const { records } = await this.open(identity);
    const hook = await requireWebhook(records.webhooks, id);
    await records.webhooks.remove(hook.id);
  }

  /** Makes a disabled webhook active again (its failures forgotten); one that is active stays so. */
  async enable(identity: TokenIdentity, id: string): Promise<WebhookSummary> {
    const { records, schema } = await this.open(identity);
    const hook = await requireWebhook(records.webhooks, id);
    return webhookSummary(schema, (await records.webhooks.enable(hook.id)) ?? hook, this.deps.clock(identity.org.id));
  }

  /** Gives a webhook a new signing secret, in the result and never shown again; the one replaced signs beside it for the hours the body asks. */
  async rotateSecret(identity: TokenIdentity, id: string, body: unknown): Promise<{ webhook: WebhookSummary; secret: string }> {
    const { records, schema } = await this.open(identity);
    const now = this.deps.clock(identity.org.id);
    const hook = await rotateWebhookSecret(records.webhooks, id, body, { now });
    return { webhook: webhookSummary(schema, hook, now), secret: hook.secret };
  }

  /** Sends a failed delivery again: pending, due now, its attempts from 0. */
  async retry(identity: TokenIdentity, id: string, deliveryId: string): Promise<Delivery> {
    const { records } = await this.open(identity);
    return redeliver(records.webhooks, id, deliveryId, this.deps.clock(identity.org.id));
  }

  /** Makes one delivery of a test event to the webhook (409 WEBHOOK_DISABLED for a disabled one): no write, no change-log entry. */
  async test(identity: TokenIdentity, id: string): Promise<Delivery> {
    const { records, schema } = await this.open(identity);
    return sendTestEvent(schema, records.webhooks, id, { nowMs: this.deps.clock(identity.org.id), userId: identity.user.id });
  }

  /** A page of the webhook's deliveries, newest first (those in `state` only, when given), and whether it is the last. */
  async deliveries(identity: TokenIdentity, id: string, query: DeliveryPageQuery): Promise<{ deliveries: Delivery[]; pageSize: number; pageNumber: number; isLastPage: boolean }> {
    const { records } = await this.open(identity);
    const hook = await requireWebhook(records.webhooks, id);
    const pageSize = Math.min(query.pagesize ?? DELIVERY_PAGE.default, DELIVERY_PAGE.max);
    const pageNumber = query.pagenumber ?? 1;
    const rows = await records.webhooks.deliveries(hook.id, { limit: pageSize + 1, offset: (pageNumber - 1) * pageSize, ...(query.state ? { state: query.state } : {}) });
    return { deliveries: rows.slice(0, pageSize), pageSize, pageNumber, isLastPage: rows.length <= pageSize };
  }
}
