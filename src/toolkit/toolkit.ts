// The integrator's tools of a running server (docs/control-api.md), held in its memory: the clocks,
// the fault rules, the request journal and the outbox.

import type { Clocks } from './clocks.js';
import type { FaultRules } from './fault-rules.js';
import type { Outbox, RequestJournal } from './request-journal.js';

export interface Toolkit {
  readonly clocks: Clocks;
  readonly faults: FaultRules;
  readonly journal: RequestJournal;
  readonly outbox: Outbox;
}
