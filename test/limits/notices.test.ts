// Usage notices (docs/limits.md) end to end: requests through the app cross 90 % and 100 % of
// the daily cap, and the mails arrive at a real SMTP server started here (smtp-server), or as .eml
// files in <data>/outbox/ without SMTP_URL. Once per threshold per UTC day, across restarts; a
// failed send stays unsent and is retried; the request never waits for the mail.

import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { testContext, type TestContext } from '../helpers.js';
import { readMail, TestSmtp } from './test-smtp.js';

const LIST = { method: 'GET', url: '/api/record/account' } as const;

/** The notice rows of limits.db, as the ledger keeps them. */
function noticeRows(dir: string): Array<{ threshold: number; sent: boolean; attempts: number; last_error: string | null }> {
  const db = new Database(path.join(dir, 'limits.db'), { readonly: true });
  try {
    return (db.prepare('SELECT threshold, sent_at IS NOT NULL AS sent, attempts, last_error FROM notices ORDER BY day, threshold').all() as Array<{ threshold: number; sent: number; attempts: number; last_error: string | null }>)
      .map((r) => ({ ...r, sent: r.sent === 1 }));
  } finally {
    db.close();
  }
}

let ctx: TestContext;
/** `n` requests of the context's organization, then waits for the notices they queued. */
async function send(n: number, app: FastifyInstance = ctx.app): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await app.inject({ ...LIST, headers: { tokenid: ctx.token } })).statusCode);
  await app.limits!.notices.idle();
  return statuses;
}
/** Closes the context's app and builds a new one on the same data and stores: a restart. */
async function restart(): Promise<FastifyInstance> {
  await ctx.app.close();
  const app = await buildApp({ ...ctx.stores, config: ctx.config, clock: ctx.clock.now, logger: false });
  await app.limits!.notices.idle(); // what it found unsent on start
  return app;
}

describe('usage notices over SMTP', () => {
  let smtp: TestSmtp;
  const apps: FastifyInstance[] = [];

  beforeEach(async () => {
    smtp = new TestSmtp();
    ctx = await testContext({ config: { smtpUrl: await smtp.start(), dailyCap: 10 } });
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await ctx.close();
    await smtp.close();
  });

  test('mails the primary user once at 90 % and once at 100 % of the daily cap, saying the usage, the cap and the reset', async () => {
    assert.deepEqual(await send(8), Array(8).fill(200));
    assert.equal(smtp.received.length, 0);
    await send(1);
    assert.equal(smtp.received.length, 1);
    const ninety = smtp.received[0]!;
    assert.deepEqual(ninety.to, ['owner@example.com']);
    assert.equal(ninety.headers.get('to'), 'owner@example.com');
    assert.equal(ninety.headers.get('from'), 'Orchard <orchard@localhost>');
    assert.equal(ninety.headers.get('subject'), 'Orchard: Test Org has used 90 % of its daily API requests');
    assert.match(ninety.text, new RegExp(`The organization "Test Org" \\(${ctx.orgId}\\) has made 9 API requests on 2026-03-01 \\(UTC\\): 90 % of its daily cap of 10\\.`));
    assert.match(ninety.text, /Once 10 requests are reached, further requests are refused with 429 Too Many Requests until the cap resets\./);
    assert.match(ninety.text, /The cap resets at 00:00 UTC on 2026-03-02\./);

    assert.deepEqual(await send(3), [200, 429, 429]);
    assert.equal(smtp.received.length, 2, 'one more at 100 %, none for the refused requests');
    const full = smtp.received[1]!;
    assert.equal(full.headers.get('subject'), 'Orchard: Test Org has reached its daily cap of 10 API requests');
    assert.match(full.text, /has made 10 API requests on 2026-03-01 \(UTC\): 100 % of its daily cap of 10\./);
    assert.match(full.text, /Further requests are refused with 429 Too Many Requests until the cap resets\./);
    assert.deepEqual(noticeRows(ctx.dir), [
      { threshold: 90, sent: true, attempts: 1, last_error: null },
      { threshold: 100, sent: true, attempts: 1, last_error: null },
    ]);
  });

  test('never sends a notice twice for one UTC day, even after a restart, and sends again the next day', async () => {
    await send(10);
    assert.equal(smtp.received.length, 2);
    const app = await restart();
    apps.push(app);
    assert.deepEqual(await send(2, app), [429, 429]);
    assert.equal(smtp.received.length, 2, 'the restarted app found both notices claimed');
    ctx.clock.ms = Date.parse('2026-03-02T00:00:01Z');
    await send(9, app);
    assert.equal(smtp.received.length, 3);
    assert.match(smtp.received[2]!.text, /has made 9 API requests on 2026-03-02 \(UTC\)/);
  });

  test('keeps a notice whose mail was refused unsent, without failing the request, and sends it on a retry', async () => {
    smtp.refuse = 1;
    assert.deepEqual(await send(9), Array(9).fill(200));
    assert.equal(smtp.received.length, 0);
    const [row] = noticeRows(ctx.dir);
    assert.deepEqual({ ...row, last_error: undefined }, { threshold: 90, sent: false, attempts: 1, last_error: undefined });
    assert.match(row!.last_error!, /451/);
    await ctx.app.limits!.notices.retryUnsent();
    await ctx.app.limits!.notices.idle();
    assert.equal(smtp.received.length, 1);
    await ctx.app.limits!.notices.retryUnsent();
    await ctx.app.limits!.notices.idle();
    assert.equal(smtp.received.length, 1, 'sent once, then never again');
    assert.deepEqual(noticeRows(ctx.dir), [{ threshold: 90, sent: true, attempts: 2, last_error: null }]);
  });

  test('tries a notice again at the next request when its claim could not be recorded, rather than losing it for the day', async () => {
    const { smtpUrl } = ctx.config;
    await ctx.close();
    ctx = await testContext({ config: { smtpUrl, dailyCap: 20 } }); // 90 % at 18, the next request still below 100 %
    const { ledger } = ctx.stores;
    const claim = ledger.claim;
    let failures = 1;
    ledger.claim = async (notice, at) => {
      if (failures-- > 0) throw new Error('the ledger is unavailable');
      return claim.call(ledger, notice, at);
    };
    try {
      assert.deepEqual(await send(18), Array(18).fill(200));
      assert.equal(smtp.received.length, 0);
      assert.deepEqual(noticeRows(ctx.dir), [], 'nothing claimed, so nothing a retry could find');
      await send(1);
      assert.deepEqual(noticeRows(ctx.dir).map((r) => [r.threshold, r.sent]), [[90, true]]);
      assert.equal(smtp.received.length, 1);
      assert.match(smtp.received[0]!.text, /has made 19 API requests on 2026-03-01 \(UTC\): 95 % of its daily cap of 20\./);
    } finally {
      ledger.claim = claim;
    }
  });

  test('sends both notices when the usage jumps past both thresholds at once (a plan lowered mid-day), as the spec has one at 90 % and one at 100 %', async () => {
    const { smtpUrl } = ctx.config;
    await ctx.close();
    ctx = await testContext({ plan: 'standard', minuteLimit: 1000, config: { smtpUrl } });
    assert.deepEqual(new Set(await send(510)), new Set([200]));
    assert.equal(smtp.received.length, 0, '510 of 10,000');
    await ctx.stores.admin.updateOrganization({ id: ctx.orgId, plan: 'free' });
    assert.deepEqual(await send(2), [429, 429]);
    assert.equal(smtp.received.length, 2);
    for (const m of smtp.received) {
      assert.match(m.text, /has made 510 API requests on 2026-03-01 \(UTC\): 102 % of its daily cap of 500\./);
      // The 90 % one too says requests are refused, not that they will be once 500 are reached.
      assert.match(m.text, /Further requests are refused with 429/);
    }
    assert.deepEqual(noticeRows(ctx.dir).map((r) => [r.threshold, r.sent]), [[90, true], [100, true]]);
  });

  test('sends, when the app starts again, a notice a previous run claimed but could not send', async () => {
    smtp.refuse = 1;
    await send(9);
    assert.equal(smtp.received.length, 0);
    const app = await restart();
    apps.push(app);
    assert.equal(smtp.received.length, 1);
    assert.equal(smtp.received[0]!.headers.get('subject'), 'Orchard: Test Org has used 90 % of its daily API requests');
  });

  test('answers the request without waiting for the mail', async () => {
    let release!: () => void;
    smtp.hold = new Promise((resolve) => { release = resolve; });
    for (let i = 0; i < 9; i++) assert.equal((await ctx.request(LIST)).statusCode, 200);
    assert.equal(smtp.received.length, 0, 'the ninth request was answered while its notice is still in flight');
    release();
    await ctx.app.limits!.notices.idle();
    assert.equal(smtp.received.length, 1);
  });
});

describe('usage notices without SMTP_URL', () => {
  beforeEach(async () => {
    ctx = await testContext({ config: { dailyCap: 10 } });
  });
  afterEach(async () => {
    await ctx.close();
  });

  test('are written as .eml files in <data>/outbox/, named to sort by the time they were written', async () => {
    await send(9);
    ctx.clock.advance(1_000);
    await send(1);
    const outbox = path.join(ctx.dir, 'outbox');
    const files = fs.readdirSync(outbox).sort();
    assert.equal(files.length, 2, files.join(', '));
    for (const f of files) assert.match(f, /^\d{8}T\d{9}Z-[0-9a-f]{8}\.eml$/);
    assert.ok(files[0]!.startsWith('20260301T120000000Z-') && files[1]!.startsWith('20260301T120001000Z-'), files.join(', '));
    const [first, second] = files.map((f) => readMail(fs.readFileSync(path.join(outbox, f), 'utf8')));
    assert.equal(first!.headers.get('to'), 'owner@example.com');
    assert.equal(first!.headers.get('subject'), 'Orchard: Test Org has used 90 % of its daily API requests');
    assert.match(first!.text, /has made 9 API requests on 2026-03-01 \(UTC\): 90 % of its daily cap of 10\.[\s\S]*The cap resets at 00:00 UTC on 2026-03-02\./);
    assert.equal(second!.headers.get('subject'), 'Orchard: Test Org has reached its daily cap of 10 API requests');
    assert.deepEqual(noticeRows(ctx.dir).map((r) => r.sent), [true, true]);
  });
});
