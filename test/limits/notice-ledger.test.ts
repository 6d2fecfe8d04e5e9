// The NoticeLedger contract (src/limits/notices.ts), run against every ledger in control-kinds.ts:
// one claim per (organization, UTC day, threshold) whoever makes it — several ledger objects
// (processes) claiming at once, or a ledger opened again after a restart — the unsent notices that
// failed and sent marks move in and out of, and the lease that gives each retry to one process. End-to-end notices are in notices.test.ts.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { UsageNotices, type Notice, type NoticeLedger } from '../../src/limits/notices.js';
import type { Mailer, MailMessage } from '../../src/limits/mailer.js';
import { CONTROL_KINDS } from '../store/control-kinds.js';

const AT = '2026-03-01T12:00:00.000Z';
const notice = (orgId: string, threshold = 90, day = '2026-03-01'): Notice => ({ orgId, day, threshold, used: threshold * 100, cap: 10_000 });

for (const kind of CONTROL_KINDS) {
  describe(`the ${kind.name} notice ledger`, { skip: kind.skip }, () => {
    let place: string;
    const opened: NoticeLedger[] = [];
    /** A ledger on the suite's place, as another process (or a restart) opens one. */
    const open = () => {
      const ledger = kind.ledger(place);
      opened.push(ledger);
      return ledger;
    };

    before(() => {
      place = kind.newPlace();
    });
    after(async () => {
      for (const ledger of opened.splice(0)) await ledger.close();
      await kind.removePlace(place);
    });

    test('grants a claim once: the first claim is true, every later one false', async () => {
      const ledger = open();
      const n = notice(randomUUID());
      assert.equal(await ledger.claim(n, AT), true);
      assert.equal(await ledger.claim(n, AT), false);
      assert.equal(await ledger.claim({ ...n, used: n.used + 5 }, AT), false, 'the same organization, day and threshold, whatever the usage');
    });

    test('keeps thresholds, days and organizations apart', async () => {
      const ledger = open();
      const orgId = randomUUID();
      assert.equal(await ledger.claim(notice(orgId, 90), AT), true);
      assert.equal(await ledger.claim(notice(orgId, 100), AT), true);
      assert.equal(await ledger.claim(notice(orgId, 90, '2026-03-02'), AT), true);
      assert.equal(await ledger.claim(notice(randomUUID(), 90), AT), true);
    });

    test('lets exactly one of several processes claiming the same notice at once win', async () => {
      const ledgers = [open(), open(), open()];
      for (let round = 0; round < 5; round++) {
        const n = notice(randomUUID());
        const claims = await Promise.all(ledgers.flatMap((ledger) => [ledger.claim(n, AT), ledger.claim(n, AT)]));
        assert.equal(claims.filter(Boolean).length, 1, `round ${round}: ${claims.join(', ')}`);
      }
    });

    test('keeps a claim across a restart: a new ledger object neither claims it again nor forgets it is unsent', async () => {
      const orgId = randomUUID();
      const day = '2026-04-01';
      const first = open();
      assert.equal(await first.claim(notice(orgId, 90, day), AT), true);
      await first.close();
      opened.splice(opened.indexOf(first), 1);
      const again = open();
      assert.equal(await again.claim(notice(orgId, 90, day), AT), false);
      assert.deepEqual(await again.retake(day, 10, 0), [notice(orgId, 90, day)]);
    });

    test('takes the unsent notices of a day in the order they were claimed, until sent or out of attempts (no lease)', async () => {
      const ledger = open();
      const other = open();
      const day = '2026-05-01';
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      await ledger.claim(notice(a, 100, day), '2026-05-01T10:00:02.000Z');
      await other.claim(notice(b, 90, day), '2026-05-01T10:00:01.000Z');
      await ledger.claim(notice(c, 90, day), '2026-05-01T10:00:03.000Z');
      await ledger.claim(notice(a, 90, '2026-05-02'), '2026-05-01T10:00:00.000Z');
      assert.deepEqual(await other.retake(day, 3, 0), [notice(b, 90, day), notice(a, 100, day), notice(c, 90, day)]);

      await ledger.markFailed(notice(b, 90, day), 'Mailbox busy');
      await other.markFailed(notice(b, 90, day), 'Mailbox busy');
      assert.deepEqual(await ledger.retake(day, 3, 0), [notice(b, 90, day), notice(a, 100, day), notice(c, 90, day)], 'two failures, fewer than three attempts');
      assert.deepEqual(await ledger.retake(day, 2, 0), [notice(a, 100, day), notice(c, 90, day)], 'two attempts made: given up at two');

      await other.markSent(notice(a, 100, day), '2026-05-01T10:01:00.000Z');
      assert.deepEqual(await ledger.retake(day, 3, 0), [notice(b, 90, day), notice(c, 90, day)]);
      await ledger.markSent(notice(b, 90, day), '2026-05-01T10:02:00.000Z');
      assert.deepEqual(await ledger.retake(day, 10, 0), [notice(c, 90, day)], 'sent after failures: no longer listed, however many attempts are allowed');
      assert.deepEqual(await ledger.retake('2026-05-02', 1, 0), [notice(a, 90, '2026-05-02')]);
      assert.deepEqual(await ledger.retake('2026-05-03', 10, 0), []);
    });

    test('lists an organization\'s notices from a day on, newest day and higher threshold first, with their claim and sending times', async () => {
      const ledger = open();
      const other = open();
      const [a, b] = [randomUUID(), randomUUID()];
      await ledger.claim(notice(a, 90, '2026-07-01'), '2026-07-01T20:00:00.000Z');
      await ledger.markSent(notice(a, 90, '2026-07-01'), '2026-07-01T20:00:01.000Z');
      await other.claim(notice(a, 90, '2026-07-03'), '2026-07-03T09:00:00.000Z');
      await other.claim(notice(a, 100, '2026-07-03'), '2026-07-03T11:00:00.000Z');
      await other.markSent(notice(a, 90, '2026-07-03'), '2026-07-03T09:00:02.000Z');
      await ledger.claim(notice(a, 100, '2026-06-30'), '2026-06-30T22:00:00.000Z');
      await ledger.claim(notice(b, 90, '2026-07-02'), '2026-07-02T12:00:00.000Z');
      assert.deepEqual(await ledger.list(a, '2026-07-01'), [
        { ...notice(a, 100, '2026-07-03'), claimedAt: '2026-07-03T11:00:00.000Z', sentAt: null },
        { ...notice(a, 90, '2026-07-03'), claimedAt: '2026-07-03T09:00:00.000Z', sentAt: '2026-07-03T09:00:02.000Z' },
        { ...notice(a, 90, '2026-07-01'), claimedAt: '2026-07-01T20:00:00.000Z', sentAt: '2026-07-01T20:00:01.000Z' },
      ]);
      assert.deepEqual(await other.list(randomUUID(), '2026-01-01'), []);
      assert.deepEqual(await other.list('not-an-id', '2026-01-01'), []);
    });

    test('leaves a notice to the process that claimed or took it until its lease ends, then gives it to one taker; a failure frees it', async () => {
      const [first, second, third] = [open(), open(), open()];
      const day = '2026-08-01';
      const n = notice(randomUUID(), 90, day);
      assert.equal(await first.claim(n, AT), true);
      // Claimed just now: a retry elsewhere (another process starting) leaves it to its sender.
      assert.deepEqual(await second.retake(day, 10, 60_000), []);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      // Past a lease of 1 s: exactly one of several takers at once gets it, and holds it.
      const taken = await Promise.all([first, second, third].flatMap((ledger) => [ledger.retake(day, 10, 1_000), ledger.retake(day, 10, 1_000)]));
      assert.deepEqual(taken.filter((t) => t.length > 0), [[n]], JSON.stringify(taken));
      assert.deepEqual(await third.retake(day, 10, 1_000), []);
      // A failed attempt lets it go at once, to the next retry (the claimant's or another's).
      await second.markFailed(n, 'Mailbox busy');
      assert.deepEqual(await third.retake(day, 10, 60_000), [n]);
      await third.markSent(n, AT);
      assert.deepEqual(await first.retake(day, 10, 0), []);
    });

    test('leaves a claim made without a lease, and a taken notice released, to the next retake at once', async () => {
      const ledger = open();
      const day = '2026-04-01';
      const free = notice(randomUUID(), 90, day);
      assert.equal(await ledger.claim(free, AT, false), true);
      assert.deepEqual(await ledger.retake(day, 10, 120_000), [free]);
      assert.deepEqual(await ledger.retake(day, 10, 120_000), [], 'taken: leased now');
      await ledger.release(free);
      assert.deepEqual(await open().retake(day, 10, 120_000), [free]);
    });

    test('a closing UsageNotices leaves the notices it had queued to the next start: claimed ones released, unclaimed ones recorded', async () => {
      const now = Date.parse('2026-04-15T12:00:00.000Z');
      const directory = {
        getOrganization: async (id: string) => ({ id, name: 'Org', plan: 'free' as const, minuteLimit: null, primaryUserId: 'owner', createdAt: AT }),
        getUser: async (id: string) => ({ id, orgId: 'x', email: 'owner@example.com', fullname: 'Owner', role: 'admin', disabledAt: null, createdAt: AT }),
      };
      const log = { info: () => {}, error: () => {} };
      /** A mailer whose first send waits until `let go`; `called` resolves when that send starts. */
      const heldMailer = () => {
        const sent: MailMessage[] = [];
        let letGo!: () => void;
        let started!: () => void;
        const held = new Promise<void>((resolve) => { letGo = resolve; });
        const called = new Promise<void>((resolve) => { started = resolve; });
        const mailer: Mailer = {
          async send(message) {
            if (sent.length === 0) {
              started();
              await held;
            }
            sent.push(message);
          },
          close: () => {},
        };
        return { mailer, sent, letGo, called };
      };
      const notices = (mailer: Mailer) => new UsageNotices({ ledger: open(), mailer, directory, clock: () => now, log });
      const closeWhileSending = async (n: UsageNotices, held: ReturnType<typeof heldMailer>) => {
        await held.called;
        const closing = n.close();
        held.letGo();
        await closing;
      };
      const subjectsTo = (sent: MailMessage[], orgId: string) => sent.filter((m) => m.text.includes(orgId)).map((m) => m.subject);

      // Both thresholds reached at once: the 90 % is being sent when the process closes, the 100 % only queued.
      const orgId = randomUUID();
      const first = heldMailer();
      const running = notices(first.mailer);
      running.observe(orgId, { used: 10, quota: 10, dayNumber: Math.floor(now / 86_400_000) });
      await closeWhileSending(running, first);
      assert.deepEqual(subjectsTo(first.sent, orgId), ['Orchard: Org has used 100 % of its daily API requests']);

      // A start retakes the 100 % notice, but closes while sending another organization's first.
      const other = randomUUID();
      await open().claim(notice(other, 90, '2026-04-15'), AT, false);
      await open().claim(notice(other, 100, '2026-04-15'), AT, false);
      const second = heldMailer();
      const restarted = notices(second.mailer);
      void restarted.retryUnsent();
      await closeWhileSending(restarted, second);
      assert.equal(second.sent.length, 1);

      // The next start sends what both left, at once.
      const third = heldMailer();
      third.letGo();
      const again = notices(third.mailer);
      await again.retryUnsent();
      await again.idle();
      await again.close();
      assert.equal(second.sent.length + third.sent.length, 3, 'each of the three notices left sent once');
      assert.deepEqual([...second.sent, ...third.sent].map((m) => m.to), ['owner@example.com', 'owner@example.com', 'owner@example.com']);
      assert.deepEqual(subjectsTo([...second.sent, ...third.sent], orgId), ['Orchard: Org has reached its daily cap of 10 API requests']);
    });

    test('ignores marks of a notice nobody claimed: it can still be claimed, and is listed only then', async () => {
      const ledger = open();
      const day = '2026-06-01';
      const n = notice(randomUUID(), 90, day);
      await ledger.markFailed(n, 'Mailbox busy');
      await ledger.markSent(n, AT);
      assert.deepEqual(await ledger.retake(day, 10, 0), []);
      assert.equal(await ledger.claim(n, AT), true);
      assert.deepEqual(await ledger.retake(day, 1, 0), [n], 'no attempt was counted before the claim');
    });
  });
}
