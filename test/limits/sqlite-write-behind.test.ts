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

test('forgets from memory a key counted on a clock of its own once a sweep went by without a hit, and decides as before when it comes back: to the millisecond', async () => {
  const dir = tempDir('orchard-write-behind-');
  let now = Date.parse('2026-11-25T12:00:00.000Z');
  const store = new SqliteRateLimitStore({ dataDir: dir, clock: () => now, flushEveryMs: 3_600_000 });
  try {
    const quotas = { minute: 2, day: 1000 };
    const frozen = Date.parse('2026-03-01T12:00:00.000Z'); // an organization's clock, frozen, then not heard of (deleted, or put back and idle)
    assert.deepEqual([1, 2, 3].map(() => store.hit('org:a', quotas, frozen).allowed), [true, true, false]);
    now += 61_000;
    store.flush(); // a sweep: org:a was hit since the one before, so it stays
    assert.equal(store.heldKeys(), 1);
    now += 61_000;
    store.flush(); // a sweep with no hit of org:a since the last: forgotten
    assert.equal(store.heldKeys(), 0, 'nothing of the keys is kept in memory');
    // Reloaded from the file: its minute is still full at the frozen time, and over exactly 60 s after it.
    assert.deepEqual([store.hit('org:a', quotas, frozen).allowed, store.usage('org:a', quotas, frozen).minute.used], [false, 2]);
    assert.equal(store.hit('org:a', quotas, frozen + 59_999).allowed, false);
    assert.equal(store.hit('org:a', quotas, frozen + 60_000).allowed, true, 'the requests left the window at their millisecond, not at the end of their second');
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('prunes each key\'s day counts by the days it counted, not the store\'s: a clock of its own far in the past keeps its day', async () => {
  const dir = tempDir('orchard-write-behind-');
  let now = Date.parse('2026-11-25T12:00:00.000Z');
  const DAY = 86_400_000;
  const past = Date.parse('2026-03-01T12:00:00.000Z'); // an organization's clock, moved back months
  const rows = () => {
    const db = new Database(path.join(dir, 'limits.db'), { readonly: true });
    try {
      return db.prepare("SELECT day, count FROM day_counts WHERE key = 'org:a' ORDER BY day").all().map((r: any) => [r.day, r.count]);
    } finally {
      db.close();
    }
  };
  const quotas = { minute: 100, day: 1000 };
  try {
    let store = new SqliteRateLimitStore({ dataDir: dir, clock: () => now, flushEveryMs: 3_600_000 });
    store.hit('org:a', quotas, past - 40 * DAY);
    for (let i = 0; i < 3; i++) store.hit('org:a', quotas, past);
    await store.close();
    assert.deepEqual(rows(), [[Math.floor((past - 40 * DAY) / DAY), 1], [Math.floor(past / DAY), 3]]);
    // At open: the day 40 days before the key's latest goes, its current day stays.
    store = new SqliteRateLimitStore({ dataDir: dir, clock: () => now, flushEveryMs: 3_600_000 });
    assert.deepEqual(rows(), [[Math.floor(past / DAY), 3]]);
    assert.equal(store.usage('org:a', quotas, past).day?.used, 3);
    // And at the daily prune, a day of the store's clock later.
    now += DAY;
    store.flush();
    assert.deepEqual(rows(), [[Math.floor(past / DAY), 3]]);
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('keeps the minute of a key counted on a clock of its own in the file, at every flush and at open; the store\'s clock expires the others', async () => {
  const dir = tempDir('orchard-write-behind-');
  let now = Date.parse('2026-11-25T12:00:00.000Z');
  const frozen = Date.parse('2026-03-01T12:00:00.000Z'); // an organization's clock, frozen in the past
  const rows = (key: string) => {
    const db = new Database(path.join(dir, 'limits.db'), { readonly: true });
    try {
      return (db.prepare('SELECT coalesce(sum(n), 0) AS n FROM minute_log WHERE key = ?').get(key) as { n: number }).n;
    } finally {
      db.close();
    }
  };
  const quotas = { minute: 3, day: 1000 };
  try {
    let store = new SqliteRateLimitStore({ dataDir: dir, clock: () => now, flushEveryMs: 3_600_000 });
    assert.deepEqual([1, 2].map(() => store.hit('org:a', quotas, frozen).allowed), [true, true]);
    store.hit('addr:b', quotas); // on the store's clock
    store.flush();
    assert.deepEqual([rows('org:a'), rows('addr:b')], [2, 1], 'the flush writes the seconds of the frozen minute');
    now += 30_000;
    assert.equal(store.hit('org:a', quotas, frozen).allowed, true);
    store.flush(); // the key's third count written, the two before it kept
    assert.equal(rows('org:a'), 3);
    await store.close();
    now += 31_000; // the store's minute is over, the frozen one is not
    store = new SqliteRateLimitStore({ dataDir: dir, clock: () => now, flushEveryMs: 3_600_000 });
    assert.deepEqual([rows('org:a'), rows('addr:b')], [3, 0], 'at open: the store\'s clock expires addr:b, org:a keeps its minute');
    assert.equal(store.hit('org:a', quotas, frozen).allowed, false);
    await store.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
