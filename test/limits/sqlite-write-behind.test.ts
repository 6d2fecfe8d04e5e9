// The embedded counters' write-behind: what a crash can lose stays within the flush period even when
// the load starves the timer, because the hit that finds the oldest pending count a period old
// writes it (docs/limits.md).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteRateLimitStore } from '../../src/store/sqlite/sqlite-rate-limit-store.js';
import { tempDir } from '../helpers.js';

test('writes a count a flush period old on the next hit, though the timer never had a turn', async () => {
  const dir = tempDir('orchard-write-behind-');
  let now = Date.parse('2026-03-01T12:00:00.250Z');
  const store = new SqliteRateLimitStore({ dataDir: dir, clock: () => now, flushEveryMs: 100 });
  const written = () => {
    const db = new Database(path.join(dir, 'limits.db'), { readonly: true });
    try {
      return (db.prepare("SELECT coalesce(sum(n), 0) AS n FROM minute_log WHERE key = 'org:a'").get() as { n: number }).n;
    } finally {
      db.close();
    }
  };
  try {
    const quotas = { minute: 100, day: 1000 };
    // All synchronous: the flush timer cannot run in between.
    store.hit('org:a', quotas);
    now += 99;
    store.hit('org:a', quotas);
    assert.equal(written(), 0, 'nothing is due before a flush period has passed');
    now += 1;
    store.hit('org:a', quotas);
    assert.equal(written(), 2, 'the hit a period after the oldest count writes what was pending before it');
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('keeps the minute of a key counted on a clock of its own across sweeps on the store\'s clock: a frozen clock\'s minute stays full', async () => {
  const dir = tempDir('orchard-write-behind-');
  let now = Date.parse('2026-11-25T12:00:00.000Z');
  const store = new SqliteRateLimitStore({ dataDir: dir, clock: () => now, flushEveryMs: 3_600_000 });
  try {
    const quotas = { minute: 2, day: 1000 };
    const frozen = Date.parse('2026-03-01T12:00:00.000Z'); // an organization's clock, frozen in the past
    assert.deepEqual([1, 2, 3].map(() => store.hit('org:a', quotas, frozen).allowed), [true, true, false]);
    now += 61_000;
    store.flush(); // and the sweep of idle keys, a minute of the store's clock after the last one
    assert.deepEqual([store.hit('org:a', quotas, frozen).allowed, store.usage('org:a', quotas, frozen).minute.used], [false, 2], 'nothing left the window: its clock stands still');
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
