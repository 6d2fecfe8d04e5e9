// What the control API's route plugins are registered with.

import type { AdminService } from '../../admin/admin-service.js';
import type { Limits } from '../../limits/limits.js';
import type { OrganizationState } from '../../fixtures/organization-state.js';
import type { Toolkit } from '../../toolkit/toolkit.js';
import type { DeliveryWorker } from '../../webhooks/delivery-worker.js';

export interface ControlRouteOptions {
  readonly admin: AdminService;
  /** Reset, snapshots, export and load of organizations (fixtures/organization-state.ts). */
  readonly state: OrganizationState;
  /** The clocks, fault rules, journal and outbox of the running server. */
  readonly toolkit: Toolkit;
  /** The server's webhook delivery worker (null when WEBHOOK_DELIVER is false), and WEBHOOK_ALLOW_PRIVATE. */
  readonly webhooks: { readonly worker: DeliveryWorker | null; readonly allowPrivate: boolean };
  /** The server's limits, whose usage the control API shows; null when RATE_LIMITS is off. */
  readonly limits: Limits | null;
}
