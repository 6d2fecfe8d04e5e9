// The rate-limit stores the limit suites run against: the embedded one always; a shared one (Redis)
// joins here when it exists, so the conformance and model tests cover it unchanged.

import fs from 'node:fs';
import type { RateLimitStore } from '../../src/limits/rate-limit-store.js';
import { SqliteRateLimitStore } from '../../src/limits/sqlite-rate-limit-store.js';
import { tempDir } from '../helpers.js';

export interface StoreKind {
  readonly name: string;
  /** A fresh place for counters (a data directory, a key prefix). */
  newPlace(): string;
  /** Opens a store on `place`: a store opened again on the same place sees what the last one counted. */
  open(place: string, clock: () => number): RateLimitStore;
  removePlace(place: string): void;
  /**
   * Capability: what a reopened store restores of the minute log. 'second': each request as made at
   * the end of its second (stricter by under a second); 'exact': as it was.
   */
  readonly restores: 'second' | 'exact';
}

export const STORE_KINDS: readonly StoreKind[] = [
  {
    name: 'sqlite',
    newPlace: () => tempDir('orchard-limits-'),
    // A flush period far beyond any test: what a reopened store sees is what close() wrote.
    open: (place, clock) => new SqliteRateLimitStore({ dataDir: place, clock, flushEveryMs: 3_600_000 }),
    removePlace: (place) => fs.rmSync(place, { recursive: true, force: true }),
    restores: 'second',
  },
];
