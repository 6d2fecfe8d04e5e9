// What the control API's route plugins are registered with.

import type { AdminService } from '../../admin/admin-service.js';
import type { Toolkit } from '../../toolkit/toolkit.js';

export interface ControlRouteOptions {
  readonly admin: AdminService;
  /** The clocks, fault rules, journal and outbox of the running server. */
  readonly toolkit: Toolkit;
}
