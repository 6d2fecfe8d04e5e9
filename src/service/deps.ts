// What the service layer runs on: the configuration, the stores and the clock.

import type { Config } from '../config.js';
import type { ControlStore, RecordStore } from '../store/types.js';

export interface ServiceDeps {
  readonly config: Config;
  readonly control: ControlStore;
  readonly records: RecordStore;
  /**
   * Milliseconds since the epoch: the time of an organization's requests when given its id (its
   * clock may be moved, docs/control-api.md § Clock), else the server's. Tests pass a clock they move.
   */
  readonly clock: (orgId?: string) => number;
}
