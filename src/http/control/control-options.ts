// What the control API's route plugins are registered with.

import type { AdminService } from '../../admin/admin-service.js';

export interface ControlRouteOptions {
  readonly admin: AdminService;
}
