// The rate-limit stores the limit suites run against: the embedded one always, Redis when REDIS_URL
// is set (skipped with the reason printed otherwise), so the conformance and model tests cover both.

import fs from 'node:fs';
import { Redis } from 'ioredis';
import type { RateLimitStore } from '../../src/limits/rate-limit-store.js';
import { RedisRateLimitStore } from '../../src/limits/redis-rate-limit-store.js';
import { SqliteRateLimitStore } from '../../src/store/sqlite/sqlite-rate-limit-store.js';
import { tempDir } from '../helpers.js';
import { needsRedis, REDIS_URL, uniqueName } from '../services.js';

export interface StoreKind {
  readonly name: string;
  /** A fresh place for counters (a data directory, a key prefix). */
  newPlace(): string;
  /** Opens a store on `place`: a store opened again on the same place sees what the last one counted. */
  open(place: string, clock: () => number): RateLimitStore;
  removePlace(place: string): void | Promise<void>;
  /** The `skip` option of the suites: false when the store can run here, else the reason printed. */
  readonly skip: false | string;
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
    skip: false,
  },
  {
    name: 'redis',
    newPlace: () => `${uniqueName('limits')}:`,
    // A new store object (its own connection) on the same key prefix, as a restarted process would be.
    // A fall-back to memory would hide a broken script from the suites: it fails the hit instead.
    open: (place, clock) => new RedisRateLimitStore({ redis: REDIS_URL!, keyPrefix: place, clock, onError: failHit, commandTimeoutMs: 10_000 }),
    removePlace: (place) => deleteKeys(place),
    restores: 'exact',
    skip: needsRedis,
  },
];

const failHit = (err: unknown) => {
  throw new Error('Redis did not answer: the hit was decided in memory', { cause: err });
};

/** The keys under `prefix`, by SCAN (never KEYS, which blocks a shared Redis). */
export async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}

/** Deletes every key under `prefix` (the suites' own names only: never a flush of the shared Redis). */
export async function deleteKeys(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL!);
  try {
    const keys = await keysUnder(client, prefix);
    if (keys.length > 0) await client.del(...keys);
  } finally {
    await client.quit();
  }
}
