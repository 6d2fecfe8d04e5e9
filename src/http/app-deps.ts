// What buildApp is given: the service layer's dependencies, what the limits need beside them, and
// the logger. The stores opened by openStores (stores.ts) are all of these but the clock and logger.

import type { FastifyServerOptions } from 'fastify';
import type { NoticeLedger, NoticeLog } from '../limits/notices.js';
import type { RateLimitStore } from '../limits/rate-limit-store.js';
import type { ServiceDeps } from '../service/deps.js';
import type { Service } from '../service/service.js';

export interface AppDeps extends ServiceDeps {
  /** Where usage notices are claimed; owned by the caller. */
  readonly ledger: NoticeLedger;
  /** Opens the rate-limit counters; the app closes them with itself. */
  openCounters(clock: () => number, log: NoticeLog): RateLimitStore;
  readonly logger?: FastifyServerOptions['logger'];
  /** The built console served at /console (docs/console.md); default dist/console of this build. */
  readonly consoleDir?: string;
}

/** What each route family's plugin is registered with. */
export interface RouteFamilyOptions {
  readonly service: Service;
  /** BASE_URL, for the Location of created records; else the request's own host. */
  readonly baseUrl: string | undefined;
}
