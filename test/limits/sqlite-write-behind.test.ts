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
