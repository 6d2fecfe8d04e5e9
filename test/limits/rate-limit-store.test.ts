// The RateLimitStore contract (docs/limits.md), run against every store in stores.ts: the exact rolling
// minute, the UTC day, what a refusal reports and that it counts nowhere, independence of keys,
// atomic concurrent hits, and counters that survive closing and reopening the store.

import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HitResult, Quotas, RateLimitStore } from '../../src/limits/rate-limit-store.js';
import { TestClock } from '../helpers.js';
import { STORE_KINDS } from './stores.js';

const at = (iso: string) => Date.parse(iso);

for (const kind of STORE_KINDS) {
  describe(`the ${kind.name} rate-limit store`, { skip: kind.skip }, () => {
    let place: string;
    let clock: TestClock;
    let store: RateLimitStore;
    const opened: RateLimitStore[] = [];

    const open = () => {
      const s = kind.open(place, clock.now);
      opened.push(s);
      return s;
    };
    /** `n` hits of `key` at the current instant; their allowed flags. */
    const hits = async (key: string, quotas: Quotas, n: number) => {
      const out: boolean[] = [];
      for (let i = 0; i < n; i++) out.push((await store.hit(key, quotas)).allowed);
      return out;
    };
    const reopen = async () => {
      await store.close();
      store = open();
    };

    beforeEach(() => {
      place = kind.newPlace();
      clock = new TestClock(at('2026-03-01T12:00:00.000Z'));
      store = open();
    });
    afterEach(async () => {
      for (const s of opened.splice(0)) await s.close();
      await kind.removePlace(place);
    });
    describe('the minute window', () => {
      test('accepts the quota and refuses the next request with what the headers need', async () => {
        const quotas = { minute: 3, day: 100 };
        const first = await store.hit('a', quotas);
        assert.deepEqual(first, {
          allowed: true, exceeded: null, retryAfter: 0,
          minute: { quota: 3, remaining: 2, resetSeconds: 60 },
          day: { quota: 100, remaining: 99, resetSeconds: 12 * 3600, used: 1, dayNumber: Math.floor(clock.ms / 86_400_000) },
        });
        clock.advance(17_300);
        assert.deepEqual((await store.hit('a', quotas)).minute, { quota: 3, remaining: 1, resetSeconds: 43 });
        assert.deepEqual((await store.hit('a', quotas)).minute, { quota: 3, remaining: 0, resetSeconds: 43 });
        const refused = await store.hit('a', quotas);
        assert.equal(refused.allowed, false);
        assert.equal(refused.exceeded, 'minute');
        assert.equal(refused.retryAfter, 43, 'until the oldest request leaves the window, rounded up');
        assert.deepEqual(refused.minute, { quota: 3, remaining: 0, resetSeconds: 43 });
        assert.equal(refused.day?.used, 3, 'the refused request is not counted in the day');
      });

      test('is a rolling window: a request leaves it exactly 60 s after it was accepted, whatever the wall-clock minute', async () => {
        const quotas = { minute: 2, day: null };
        clock.ms = at('2026-03-01T12:00:59.500Z');
        assert.deepEqual(await hits('a', quotas, 2), [true, true]);
        clock.ms = at('2026-03-01T12:01:00.500Z'); // a fixed window would have reset here
        assert.deepEqual(await hits('a', quotas, 1), [false]);
        clock.ms = at('2026-03-01T12:01:59.499Z');
        assert.deepEqual(await hits('a', quotas, 1), [false]);
        clock.ms = at('2026-03-01T12:01:59.500Z');
        assert.deepEqual(await hits('a', quotas, 2), [true, true], 'both left at once, and the refusals took no place');
        assert.deepEqual(await hits('a', quotas, 1), [false]);
      });

      test('never accepts more than the quota in any 60 s, requests spread or bunched', async () => {
        const quotas = { minute: 5, day: null };
        const accepted: number[] = [];
        for (let i = 0; i < 400; i++) {
          clock.advance([0, 1, 250, 999, 7_000, 13_001][(i * 7) % 6]!);
          if ((await store.hit('a', quotas)).allowed) accepted.push(clock.ms);
        }
        for (let i = 0; i + 5 < accepted.length; i++) {
          assert.ok(accepted[i + 5]! - accepted[i]! >= 60_000, `six accepted within 60 s: ${accepted.slice(i, i + 6).join(', ')}`);
        }
        assert.ok(accepted.length > 100, 'and it accepts whatever fits');
      });

      test('gives a Retry-After after which a request is accepted, and not a second earlier', async () => {
        const quotas = { minute: 2, day: null };
        await hits('a', quotas, 1);
        clock.advance(20_250);
        await hits('a', quotas, 1);
        clock.advance(5_000);
        const refused = await store.hit('a', quotas);
        assert.equal(refused.retryAfter, 35); // 60 − 25.25 = 34.75 → 35
        clock.advance(refused.retryAfter * 1000 - 1000);
        assert.equal((await store.hit('a', quotas)).allowed, false);
        clock.advance(1000);
        assert.equal((await store.hit('a', quotas)).allowed, true);
      });

      test('waits for enough requests to leave when the quota was lowered', async () => {
        await hits('a', { minute: 10, day: null }, 1);
        clock.advance(10_000);
        await hits('a', { minute: 10, day: null }, 4);
        clock.advance(1_000);
        const refused = await store.hit('a', { minute: 2, day: null });
        assert.equal(refused.allowed, false);
        assert.equal(refused.retryAfter, 59, 'three of the five must leave: the second one, at +10 s, leaves at +70 s');
        assert.deepEqual(refused.minute, { quota: 2, remaining: 0, resetSeconds: 49 });
      });
    });

    describe('the day window', () => {
      test('refuses past the cap until 00:00 UTC, with Retry-After until then', async () => {
        const quotas = { minute: 1000, day: 3 };
        clock.ms = at('2026-03-01T23:59:30.000Z');
        assert.deepEqual(await hits('a', quotas, 3), [true, true, true]);
        clock.ms = at('2026-03-01T23:59:58.200Z');
        const refused: HitResult = await store.hit('a', quotas);
        assert.equal(refused.allowed, false);
        assert.equal(refused.exceeded, 'day');
        assert.equal(refused.retryAfter, 2);
        assert.deepEqual(refused.day, { quota: 3, remaining: 0, resetSeconds: 2, used: 3, dayNumber: 20513 });
        clock.ms = at('2026-03-01T23:59:59.999Z');
        assert.deepEqual(await hits('a', quotas, 1), [false]);
        clock.ms = at('2026-03-02T00:00:00.000Z');
        const next = await store.hit('a', quotas);
        assert.equal(next.allowed, true);
        assert.deepEqual(next.day, { quota: 3, remaining: 2, resetSeconds: 86_400, used: 1, dayNumber: 20514 });
        assert.equal(next.minute.remaining, 996, 'the minute window does not reset at midnight');
      });

      test('names the day when both windows refuse, with the longer wait', async () => {
        const quotas = { minute: 2, day: 2 };
        await hits('a', quotas, 2);
        const refused = await store.hit('a', quotas);
        assert.equal(refused.exceeded, 'day');
        assert.equal(refused.retryAfter, 12 * 3600);
      });

      test('has no day when the quotas have none', async () => {
        const result = await store.hit('addr', { minute: 1, day: null });
        assert.equal(result.day, null);
        assert.deepEqual((await store.hit('addr', { minute: 1, day: null })).minute, { quota: 1, remaining: 0, resetSeconds: 60 });
      });
    });

    test('keeps every key apart', async () => {
      const quotas = { minute: 2, day: 10 };
      assert.deepEqual(await hits('a', quotas, 3), [true, true, false]);
      assert.deepEqual(await hits('b', quotas, 2), [true, true]);
      assert.equal((await store.hit('b', quotas)).day?.used, 2);
    });

    test('accepts exactly the quota from concurrent hits on one key', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => store.hit('a', { minute: 20, day: 30 })));
      assert.equal(results.filter((r) => r.allowed).length, 20);
    });

    test('keeps both windows across a close and a reopen', async () => {
      const quotas = { minute: 3, day: 5 };
      clock.ms = at('2026-03-01T12:00:00.200Z');
      assert.deepEqual(await hits('a', quotas, 2), [true, true]);
      clock.advance(30_000);
      await reopen();
      assert.deepEqual(await hits('a', quotas, 2), [true, false]);
      clock.ms = at('2026-03-01T12:01:01.000Z'); // the first two have left the minute, however restored
      await reopen();
      assert.deepEqual(await hits('a', quotas, 3), [true, true, false], 'the third of 12:00:30 is still in the window');
      clock.ms = at('2026-03-01T12:01:31.000Z');
      assert.equal((await store.hit('a', quotas)).exceeded, 'day', 'the day holds 5');
    });

    if (kind.restores === 'second') {
      test('restores a request as made at the end of its second: the window only gets stricter, by under a second', async () => {
        const quotas = { minute: 1, day: null };
        clock.ms = at('2026-03-01T12:00:00.200Z');
        assert.deepEqual(await hits('a', quotas, 1), [true]);
        await reopen();
        clock.ms = at('2026-03-01T12:01:00.200Z'); // an exact log would accept here
        const refused = await store.hit('a', quotas);
        assert.deepEqual([refused.allowed, refused.retryAfter, refused.minute.resetSeconds], [false, 1, 1]);
        clock.ms = at('2026-03-01T12:01:00.999Z');
        assert.deepEqual(await hits('a', quotas, 1), [true]);
      });
    }

    if (kind.restores === 'exact') {
      test('restores a request exactly: after a reopen it leaves the window 60 s after it was accepted, to the millisecond', async () => {
        const quotas = { minute: 1, day: null };
        clock.ms = at('2026-03-01T12:00:00.200Z');
        assert.deepEqual(await hits('a', quotas, 1), [true]);
        await reopen();
        clock.ms = at('2026-03-01T12:01:00.199Z');
        const refused = await store.hit('a', quotas);
        assert.deepEqual([refused.allowed, refused.retryAfter, refused.minute.resetSeconds], [false, 1, 1]);
        clock.ms = at('2026-03-01T12:01:00.200Z');
        assert.deepEqual(await hits('a', quotas, 1), [true]);
      });
    }

    describe('a clock moved back', () => {
      const dayOf = (iso: string) => Math.floor(at(iso) / 86_400_000);
      test('stepped back by up to a minute, lets nothing more through', async () => {
        const quotas = { minute: 2, day: 10 };
        assert.deepEqual(await hits('a', quotas, 2), [true, true]);
        clock.advance(-60_000);
        assert.deepEqual(await hits('a', quotas, 1), [false]);
        clock.advance(60_000 + 59_999);
        assert.deepEqual(await hits('a', quotas, 1), [false], 'counted at 12:00:00, they leave at 12:01:00 of the clock as it was');
      });

      test('put back by more (a test clock back to real time), forgets what it counted after its new time, and keeps what came before', async () => {
        const quotas = { minute: 3, day: 5 };
        assert.deepEqual(await hits('a', quotas, 2), [true, true]); // 12:00 of 1 March 2026
        clock.ms = at('2026-03-03T23:58:00.000Z');
        assert.deepEqual(await hits('a', quotas, 4), [true, true, true, false]);
        clock.ms = at('2026-03-01T12:05:00.000Z');
        const usage = await store.usage('a', quotas);
        assert.deepEqual([usage.minute.used, usage.day?.used, usage.day?.dayNumber, usage.lastDay], [0, 2, dayOf('2026-03-01'), dayOf('2026-03-01')]);
        const first = await store.hit('a', quotas);
        assert.deepEqual([first.allowed, first.minute.remaining, first.day?.used], [true, 2, 3], 'the day goes on from its own 2');
        assert.deepEqual(await hits('a', quotas, 3), [true, true, false]);
        await reopen();
        const refused = await store.hit('a', quotas);
        assert.deepEqual([refused.allowed, refused.exceeded, refused.retryAfter], [false, 'day', 12 * 3600 - 300], 'the day\'s cap, not years of the minute');
        clock.ms = at('2026-03-02T00:00:00.000Z');
        assert.deepEqual(await hits('a', quotas, 1), [true]);
        assert.deepEqual((await store.usage('a', quotas)).days.slice(-2), [5, 1], '1 March kept its 5');
        clock.ms = at('2026-03-03T23:59:00.000Z');
        assert.equal((await store.usage('a', quotas)).day?.used, 0, '3 March was forgotten');
      });

      test('stepped back across 00:00 UTC by under a minute, keeps the day counted and says when it ends: a retry then is accepted', async () => {
        const quotas = { minute: 100, day: 3 };
        clock.ms = at('2026-03-02T00:00:10.000Z');
        assert.deepEqual(await hits('a', quotas, 3), [true, true, true]);
        clock.advance(-40_000); // 23:59:30 on 1 March
        const refused = await store.hit('a', quotas);
        // 2 March's cap ends at 00:00 UTC on 3 March: a day and 30 s away; the clock's next midnight (30 s) would be refused again.
        assert.deepEqual([refused.allowed, refused.exceeded, refused.retryAfter, refused.day?.resetSeconds, refused.day?.dayNumber], [false, 'day', 86_430, 86_430, dayOf('2026-03-02')]);
        clock.advance(30_000);
        assert.deepEqual(await hits('a', quotas, 1), [false]);
        clock.advance(86_400_000);
        assert.deepEqual(await hits('a', quotas, 1), [true]);
      });

      test('keeps the day counted on a clock of its own months behind the store\'s, across a reopen', async () => {
        const quotas = { minute: 100, day: 5 };
        const own = at('2025-11-01T12:00:00.000Z'); // an organization's clock, moved back four months
        for (let i = 0; i < 5; i++) assert.equal((await store.hit('a', quotas, own)).allowed, true);
        await reopen();
        const refused = await store.hit('a', quotas, own + 1_000);
        assert.deepEqual([refused.allowed, refused.exceeded, refused.day?.used], [false, 'day', 5]);
        assert.equal((await store.usage('a', quotas, own + 2_000)).days.at(-1), 5);
      });

      test('keeps the minute counted on a clock of its own months behind the store\'s, across a reopen', async () => {
        const quotas = { minute: 2, day: 100 };
        const own = at('2025-11-01T12:00:00.000Z'); // an organization's clock, frozen four months back
        assert.deepEqual([(await store.hit('a', quotas, own)).allowed, (await store.hit('a', quotas, own)).allowed], [true, true]);
        await reopen();
        const refused = await store.hit('a', quotas, own);
        assert.deepEqual([refused.allowed, refused.exceeded, refused.minute.remaining], [false, 'minute', 0], 'its minute has not ended on its clock');
        assert.equal((await store.usage('a', quotas, own)).minute.used, 2);
        assert.equal((await store.hit('a', quotas, own + 60_999)).allowed, true, 'it ends 60 s after, to the second, on its clock');
      });

      test('years ahead and back again: the minute is not held until then', async () => {
        const quotas = { minute: 3, day: 100 };
        clock.ms = at('2030-06-01T23:58:00.000Z');
        assert.deepEqual(await hits('a', quotas, 4), [true, true, true, false]);
        clock.ms = at('2026-03-01T12:05:00.000Z');
        assert.deepEqual(await hits('a', quotas, 4), [true, true, true, false]);
        const refused = await store.hit('a', quotas);
        assert.deepEqual([refused.exceeded, refused.retryAfter], ['minute', 60]);
      });
    });

    describe('usage', () => {
      const DAY = 86_400_000;
      const dayOf = (iso: string) => Math.floor(at(iso) / DAY);

      test('shows both windows as the next hit would find them, and counts nothing', async () => {
        const quotas = { minute: 3, day: 10 };
        assert.deepEqual(await hits('a', quotas, 2), [true, true]);
        clock.advance(17_300);
        const usage = await store.usage('a', quotas);
        assert.deepEqual(usage.minute, { quota: 3, remaining: 1, resetSeconds: 43, used: 2 });
        assert.deepEqual(usage.day, { quota: 10, remaining: 8, resetSeconds: 12 * 3600 - 17, used: 2, dayNumber: dayOf('2026-03-01T00:00:00Z') });
        assert.deepEqual(await store.usage('a', quotas), usage, 'reading usage counted nothing');
        assert.deepEqual(await hits('a', quotas, 2), [true, false]);
        assert.deepEqual((await store.usage('a', quotas)).minute, { quota: 3, remaining: 0, resetSeconds: 43, used: 3 });
      });

      test('counts requests leaving the rolling minute and a key never hit as empty', async () => {
        const quotas = { minute: 5, day: 10 };
        await hits('a', quotas, 2);
        clock.advance(60_000);
        assert.deepEqual((await store.usage('a', quotas)).minute, { quota: 5, remaining: 5, resetSeconds: 60, used: 0 });
        const fresh = await store.usage('never', quotas);
        assert.deepEqual([fresh.minute.used, fresh.day?.used, fresh.days.every((n) => n === 0), fresh.days.length], [0, 0, true, 30]);
        assert.equal(fresh.lastDay, dayOf('2026-03-01T00:00:00Z'));
      });

      test('keeps the counts of the last 30 UTC days, across a reopen, and drops older ones', async () => {
        const quotas = { minute: 100, day: 1000 };
        clock.ms = at('2026-02-01T10:00:00Z');
        await hits('a', quotas, 1); // 29 days before 2026-03-02: the first of its 30
        clock.ms = at('2026-02-28T10:00:00Z');
        await hits('a', quotas, 2);
        clock.ms = at('2026-03-01T23:59:59Z');
        await hits('a', quotas, 3);
        await hits('b', quotas, 4);
        clock.ms = at('2026-03-02T08:00:00Z');
        await reopen();
        await hits('a', quotas, 5);
        const usage = await store.usage('a', quotas);
        assert.equal(usage.lastDay, dayOf('2026-03-02T00:00:00Z'));
        assert.equal(usage.days.length, 30);
        assert.deepEqual(usage.days.slice(-3), [2, 3, 5], '28 February, 1 and 2 March');
        assert.equal(usage.days[0], 1, '1 February');
        assert.equal(usage.days.reduce((a, b) => a + b), 11, 'no other day and nothing of key b');
        assert.equal(usage.day?.used, 5);
        clock.ms = at('2026-03-03T08:00:00Z');
        await reopen();
        await hits('a', quotas, 1);
        const later = await store.usage('a', quotas);
        assert.deepEqual(later.days.slice(-4), [2, 3, 5, 1]);
        assert.equal(later.days.reduce((a, b) => a + b), 11, '1 February is no longer among the 30 days');
      });

      test('has no day when the quotas have none', async () => {
        await store.hit('addr', { minute: 2, day: null });
        const usage = await store.usage('addr', { minute: 2, day: null });
        assert.equal(usage.day, null);
        assert.deepEqual(usage.minute, { quota: 2, remaining: 1, resetSeconds: 60, used: 1 });
      });
    });

    test('forgets a previous day\'s count on reopen', async () => {
      clock.ms = at('2026-03-01T23:59:30.000Z');
      await hits('a', { minute: 10, day: 2 }, 2);
      clock.ms = at('2026-03-02T00:00:20.000Z');
      await reopen();
      const next = await store.hit('a', { minute: 10, day: 2 });
      assert.equal(next.day?.used, 1);
      assert.equal(next.minute.remaining, 7, 'the two of 23:59:30 are still in the rolling minute');
    });
  });
}
