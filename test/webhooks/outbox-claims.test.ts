// The outbox's worker calls on every store (docs/webhooks.md § The outbox): a claim gives the due
// deliveries oldest first; a batch's outcomes are recorded each on its delivery, and the webhooks
// they disabled have no more claimed. On PostgreSQL a batch's claim (with its lease) and its
// outcomes are one statement each: a round trip each, where there was one a delivery; the
// transaction's BEGIN carries its synchronous_commit off.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RecordRow } from '../../src/schema/types.js';
import type { AttemptResult, ClaimedDelivery, WebhookSpec } from '../../src/webhooks/webhook-types.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import { TEST_AUTHOR } from '../helpers.js';
import { needsPostgres } from '../services.js';
import { organizationOn, postgresRecordingStatements, POSTGRES_UNDER_TEST, SQLITE_UNDER_TEST } from '../store/stores-under-test.js';

const A = 'c1a20000-0000-4000-8000-0000000000aa';
const B = 'c1a20000-0000-4000-8000-0000000000bb';
const DUE = Date.parse('2026-03-01T12:00:00Z');
const hook = (id: string): WebhookSpec => ({
  id, event: 'created', objectType: null, url: `https://hooks.example.com/${id}`, method: 'POST', filter: null, headers: { 'x-team': id }, secret: 'whsec_AAAA', createdAt: '2026-03-01T12:00:00.000Z',
});

/** Two webhooks on every created record, and `count` accounts written: 2 × count deliveries. */
async function withDeliveries(store: RecordStore, orgId: string, records: OrgRecords, count: number): Promise<void> {
  for (const id of [A, B]) await records.webhooks.add(hook(id));
  // The write path sees the webhooks from the next schema version it reads.
  const schema = await records.schema();
  const account = schema.resolve('account');
  const rows: RecordRow[] = [];
  for (let i = 0; i < count; i++) {
    const row: RecordRow = {};
    for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
    rows.push({ ...row, accountid: `c1a20000-0000-4000-8000-${String(1000 + i).padStart(12, '0')}`, accountname: `A${i}`, statecode: 1, statuscode: 1, ownerid: null, createdon: '2026-03-01T12:00:00', modifiedon: '2026-03-01T12:00:00' });
  }
  await store.bulkInsert(orgId, account, rows, TEST_AUTHOR);
}

const outcome = (d: ClaimedDelivery, ok: boolean): AttemptResult => ({
  row: d.row, id: d.id, webhookId: d.webhook.id, ok, status: ok ? 200 : 503, error: ok ? null : 'HTTP 503', durationMs: 1, response: null, atMs: DUE, retryAtMs: ok ? null : DUE + 60_000,
});

/** `count` deliveries of each webhook (withDeliveries), and another process on the same database: a second store. */
function otherProcess(o: ReturnType<typeof organizationOn>, count: number): { readonly records: OrgRecords } {
  let store: RecordStore;
  const other = {} as { records: OrgRecords };
  before(async () => {
    await withDeliveries(o.store, o.orgId, o.records, count);
    store = o.place.open();
    other.records = await store.org(o.orgId);
  });
  after(async () => store.close());
  return other;
}

for (const s of [SQLITE_UNDER_TEST, POSTGRES_UNDER_TEST]) {
  describe(`the outbox's claims and outcomes on ${s.name}`, { skip: s.skip }, () => {
    const o = organizationOn(s, []);
    before(async () => withDeliveries(o.store, o.orgId, o.records, 4));

    test('a claim gives the due deliveries oldest first, each with its webhook', async () => {
      const claimed = await o.records.webhooks.claim({ dueMs: DUE, realMs: Date.now(), leaseMs: 1, limit: 8 });
      assert.equal(claimed.length, 8);
      for (const d of claimed) assert.deepEqual(d.webhook, { id: d.webhook.id, url: `https://hooks.example.com/${d.webhook.id}`, method: 'POST', headers: { 'x-team': d.webhook.id }, secret: 'whsec_AAAA' });
      // Oldest first: by the change log's number, A's before B's for each (made in that order).
      const log = [...await o.records.webhooks.deliveries(A, { limit: 10, offset: 0 }), ...await o.records.webhooks.deliveries(B, { limit: 10, offset: 0 })];
      const expected = log.sort((a, b) => a.sequence! - b.sequence! || (a.webhookId < b.webhookId ? -1 : 1)).map((d) => d.id);
      assert.deepEqual(claimed.map((d) => d.id), expected);
    });

    test('a batch\'s outcomes are recorded, each by its delivery; a webhook they disabled has none claimed after', async () => {
      // The claims of the test before lasted 1 ms.
      const realMs = Date.now() + 10;
      const first = await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 4 });
      assert.deepEqual(first.map((d) => d.webhook.id), [A, B, A, B]);
      // A's first attempt fails, its second times out without a status; B's succeed with a reply kept.
      const results = first.map((d, i) => (d.webhook.id === B ? { ...outcome(d, true), response: `ok ${i}`, durationMs: 1.5 } : { ...outcome(d, false), status: i === 0 ? 503 : null, error: i === 0 ? 'HTTP 503' : 'TIMEOUT: slow' }));
      // Two failures disable A (policy: 2 failures over 0 hours); its pending deliveries end with it.
      const disabled = await o.records.webhooks.finish(results, { failures: 2, hours: 0 });
      assert.deepEqual(disabled.map((h) => h.id), [A]);
      const ofB = await o.records.webhooks.deliveries(B, { limit: 10, offset: 0 });
      assert.deepEqual(ofB.slice(2).reverse().map((d) => [d.id, d.state, d.attempts, d.lastStatus, d.lastError, d.response, d.durationMs]), [
        [first[1]!.id, 'delivered', 1, 200, null, 'ok 1', 1.5], [first[3]!.id, 'delivered', 1, 200, null, 'ok 3', 1.5],
      ]);
      const ofA = await o.records.webhooks.deliveries(A, { limit: 10, offset: 0 });
      assert.deepEqual(ofA.slice(2).reverse().map((d) => [d.id, d.state, d.attempts, d.lastStatus]), [[first[0]!.id, 'failed', 1, 503], [first[2]!.id, 'failed', 1, null]]);
      assert.deepEqual(ofA.map((d) => d.state), ['failed', 'failed', 'failed', 'failed']);
      // The attempts that disabled A keep their own error; its deliveries not attempted end with WEBHOOK_DISABLED.
      assert.deepEqual([...ofA].reverse().map((d) => d.lastError?.replace(/:.*/, '')), ['HTTP 503', 'TIMEOUT', 'WEBHOOK_DISABLED', 'WEBHOOK_DISABLED']);
      const next = await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 10 });
      assert.deepEqual(next.map((d) => d.webhook.id), [B, B]);
    });

    test('a batch whose every attempt succeeded keeps its replies as they came and starts its webhooks\' count of failures again', async () => {
      // Past the leases of the claims before.
      const realMs = Date.now() + 120_000;
      const [failing, other] = await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 10 });
      assert.deepEqual([failing!.webhook.id, other!.webhook.id], [B, B]);
      await o.records.webhooks.finish([outcome(failing!, false)], { failures: 100, hours: 1_000 });
      assert.deepEqual([(await o.records.webhooks.get(B))!.failures, (await o.records.webhooks.get(B))!.failingSince], [1, new Date(DUE).toISOString()]);
      // Its retry is due a minute on; the other's claim lapsed.
      const batch = await o.records.webhooks.claim({ dueMs: DUE + 60_000, realMs: realMs + 120_000, leaseMs: 60_000, limit: 10 });
      assert.deepEqual(batch.map((d) => d.id).sort(), [failing!.id, other!.id].sort());
      // Replies whose text a statement must carry as it is: quotes, backslashes, an array's braces and commas, NULL, other scripts.
      const replies = [`it's "ok" \\ {a,b} NULL`, 'é 😀 \\"}'];
      await o.records.webhooks.finish(batch.map((d, i) => ({ ...outcome(d, true), response: replies[i]!, error: null })), { failures: 100, hours: 1_000 });
      const hook = (await o.records.webhooks.get(B))!;
      assert.deepEqual([hook.failures, hook.failingSince], [0, null]);
      const kept = new Map((await o.records.webhooks.deliveries(B, { limit: 10, offset: 0 })).map((d) => [d.id, [d.state, d.attempts, d.response]]));
      assert.deepEqual(batch.map((d) => kept.get(d.id)), batch.map((d, i) => ['delivered', d.id === failing!.id ? 2 : 1, replies[i]]));
    });
  });

  describe(`an attempt in flight while another process finished its delivery, on ${s.name}`, { skip: s.skip }, () => {
    const o = organizationOn(s, []);
    const other = otherProcess(o, 3);

    test('its outcome does not make pending again a delivery the disabling of its webhook failed, nor one delivered since', async () => {
      const realMs = Date.now();
      // The other process claims A's and B's first; this one A's second.
      const theirs = await other.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 2 });
      const [mine] = await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 1 });
      assert.deepEqual([...theirs, mine!].map((d) => d.webhook.id), [A, B, A]);
      // The other's failure disables A: its pending deliveries, the one in flight here too, end failed.
      assert.deepEqual((await other.records.webhooks.finish(theirs.map((d) => outcome(d, d.webhook.id === B)), { failures: 1, hours: 0 })).map((h) => h.id), [A]);
      // This one's attempt fails after: a retry it would schedule, on a delivery no longer pending.
      await o.records.webhooks.finish([outcome(mine!, false)], { failures: 100, hours: 1_000 });
      const ofA = await o.records.webhooks.deliveries(A, { limit: 10, offset: 0 });
      assert.deepEqual(ofA.map((d) => [d.state, d.lastError?.replace(/:.*/, '')]).reverse(), [['failed', 'HTTP 503'], ['failed', 'WEBHOOK_DISABLED'], ['failed', 'WEBHOOK_DISABLED']]);
      // Enabled again, A has nothing pending to send: its failed deliveries go again only when retried.
      await o.records.webhooks.enable(A);
      assert.deepEqual((await o.records.webhooks.claim({ dueMs: DUE + 3_600_000, realMs: realMs + 120_000, leaseMs: 1, limit: 10 })).filter((d) => d.webhook.id === A), []);
      // B's second: claimed here, its lease lapses, the other process claims and delivers it; this one's failure comes last.
      const [b2] = await o.records.webhooks.claim({ dueMs: DUE, realMs: realMs + 200_000, leaseMs: 1, limit: 1 });
      const [again] = await other.records.webhooks.claim({ dueMs: DUE, realMs: realMs + 300_000, leaseMs: 60_000, limit: 1 });
      assert.equal(again!.id, b2!.id);
      await other.records.webhooks.finish([outcome(again!, true)], { failures: 100, hours: 1_000 });
      await o.records.webhooks.finish([outcome(b2!, false)], { failures: 100, hours: 1_000 });
      const ofB = await o.records.webhooks.deliveries(B, { limit: 10, offset: 0 });
      assert.deepEqual(ofB.find((d) => d.id === b2!.id)!.state, 'delivered');
    });
  });

  describe(`a webhook disabled while this process's attempts were under way, on ${s.name}`, { skip: s.skip }, () => {
    const o = organizationOn(s, []);
    const other = otherProcess(o, 4);

    test('a success recorded after the disabling keeps the count and the time that disabled it', async () => {
      const realMs = Date.now();
      // The other process claims A's first; this one the next six: B1, A2, B2, A3, B3, A4.
      const [theirs] = await other.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 1 });
      const mine = await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 6 });
      const [a2, a3, a4] = mine.filter((d) => d.webhook.id === A);
      assert.equal(theirs!.webhook.id, A);
      assert.deepEqual((await other.records.webhooks.finish([outcome(theirs!, false)], { failures: 1, hours: 0 })).map((h) => h.id), [A]);
      const disabledAs = (h: { failures: number; failingSince: string | null; disabledAt: string | null } | null) => [h!.failures, h!.failingSince, h!.disabledAt];
      const whenDisabled = disabledAs(await o.records.webhooks.get(A));
      assert.deepEqual(whenDisabled, [1, new Date(DUE).toISOString(), new Date(DUE).toISOString()]);
      // Every attempt of a batch succeeded (PostgreSQL: the one statement of outcomes and counts).
      const later = (res: AttemptResult, ms: number): AttemptResult => ({ ...res, atMs: DUE + ms, ...(res.ok ? {} : { retryAtMs: DUE + ms + 60_000 }) });
      await o.records.webhooks.finish([later(outcome(mine[0]!, true), 5_000), later(outcome(a2!, true), 5_000)], { failures: 100, hours: 1_000 });
      assert.deepEqual(disabledAs(await o.records.webhooks.get(A)), whenDisabled, 'a success does not clear the count of a disabled webhook');
      // A success, then a failure, in one batch: the count would start again from that failure.
      await o.records.webhooks.finish([later(outcome(a3!, true), 6_000), later(outcome(a4!, false), 7_000)], { failures: 100, hours: 1_000 });
      assert.deepEqual(disabledAs(await o.records.webhooks.get(A)), whenDisabled, 'nor starts it again');
      // The receiver has them: delivered all the same.
      const states = new Map((await o.records.webhooks.deliveries(A, { limit: 10, offset: 0 })).map((d) => [d.id, d.state]));
      assert.deepEqual([a2, a3, a4].map((d) => states.get(d!.id)), ['delivered', 'delivered', 'failed']);
      // Enabled, its failures are forgotten.
      assert.deepEqual(disabledAs(await o.records.webhooks.enable(A)), [0, null, null]);
    });
  });

  describe(`a last attempt recorded after another process ended its delivery, on ${s.name}`, { skip: s.skip }, () => {
    const o = organizationOn(s, []);
    const other = otherProcess(o, 3);

    test('is not kept pending: the delivery stays as the other process left it', async () => {
      const realMs = Date.now();
      // A is failing since DUE: its first delivery failed then.
      const [first] = (await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 1 }));
      assert.equal(first!.webhook.id, A);
      await o.records.webhooks.finish([outcome(first!, false)], { failures: 100, hours: 1_000 });
      // A's second: claimed here; its lease ends, the other process claims it and gives it up (its last attempt, no hold: say, a lower WEBHOOK_MAX_ATTEMPTS).
      const [mine] = (await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 2 })).filter((d) => d.webhook.id === A);
      const [theirs] = (await other.records.webhooks.claim({ dueMs: DUE, realMs: realMs + 120_000, leaseMs: 60_000, limit: 2 })).filter((d) => d.webhook.id === A);
      assert.equal(theirs!.id, mine!.id);
      await other.records.webhooks.finish([{ ...outcome(theirs!, false), status: 410, error: 'HTTP 410', retryAtMs: null }], { failures: 100, hours: 1_000 });
      // This process's last attempt fails after, with its hold: A has failed all along since DUE.
      await o.records.webhooks.finish([{ ...outcome(mine!, false), retryAtMs: null, hold: { retryAtMs: DUE + 3_600_000, failingSince: DUE } }], { failures: 100, hours: 1_000 });
      const d = (await o.records.webhooks.deliveries(A, { limit: 10, offset: 0 })).find((x) => x.id === mine!.id)!;
      assert.deepEqual([d.state, d.attempts, d.lastStatus, d.nextAttemptAt], ['failed', 1, 410, null]);
    });

    test('a last attempt of its own, on a webhook failing all along, is kept pending', async () => {
      // The same hold on a delivery still this process's: the outcome's row is the one kept (the check above does not stop it).
      const realMs = Date.now() + 600_000;
      const [mine] = (await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 10 })).filter((d) => d.webhook.id === A);
      assert.ok(mine, 'a delivery of A left to claim');
      await o.records.webhooks.finish([{ ...outcome(mine, false), retryAtMs: null, hold: { retryAtMs: DUE + 3_600_000, failingSince: DUE } }], { failures: 100, hours: 1_000 });
      const d = (await o.records.webhooks.deliveries(A, { limit: 10, offset: 0 })).find((x) => x.id === mine.id)!;
      assert.deepEqual([d.state, d.nextAttemptAt], ['pending', new Date(DUE + 3_600_000).toISOString()]);
    });
  });

  describe(`a failing webhook's held deliveries on ${s.name}`, { skip: s.skip }, () => {
    const o = organizationOn(s, []);
    before(async () => withDeliveries(o.store, o.orgId, o.records, 3));

    test('a claim tells each delivery its webhook\'s failures; held deliveries wait unattempted, and a resume brings back those alone, not a retry due later', async () => {
      const realMs = Date.now();
      const ofA = (await o.records.webhooks.claim({ dueMs: DUE, realMs, leaseMs: 60_000, limit: 10 })).filter((d) => d.webhook.id === A);
      assert.deepEqual(ofA.map((d) => d.webhookFailures), [0, 0, 0]);
      // A's first fails (a retry a minute on); the other two are held for 5 minutes, their attempts unchanged.
      await o.records.webhooks.finish([outcome(ofA[0]!, false)], { failures: 100, hours: 1_000 });
      await o.records.webhooks.postpone(ofA.slice(1), DUE + 300_000);
      // Each claim 1 ms long, and past the one before.
      let real = realMs + 120_000;
      const at = async (dueMs: number) => (await o.records.webhooks.claim({ dueMs, realMs: (real += 10), leaseMs: 1, limit: 10 })).filter((d) => d.webhook.id === A);
      assert.deepEqual((await at(DUE)).map((d) => d.id), [], 'held: not due, their claim over');
      const retry = await at(DUE + 60_000);
      assert.deepEqual([retry.map((d) => d.id), retry.map((d) => d.webhookFailures)], [[ofA[0]!.id], [1]]);
      assert.deepEqual((await at(DUE + 300_000)).map((d) => [d.id, d.attempts]), [[ofA[0]!.id, 1], [ofA[1]!.id, 0], [ofA[2]!.id, 0]]);
      // Held again (the claims above lapsed), then resumed at a minute: the held two are due then, the retry stays at its own time.
      await o.records.webhooks.postpone(ofA.slice(1), DUE + 600_000);
      assert.equal(await o.records.webhooks.resume(A, DUE + 30_000), 2);
      assert.deepEqual((await at(DUE + 30_000)).map((d) => d.id), [ofA[1]!.id, ofA[2]!.id]);
      assert.equal(await o.records.webhooks.resume(B, DUE + 30_000), 0, 'another webhook\'s are not touched');
    });
  });
}

describe('the outbox\'s statements on PostgreSQL', { skip: needsPostgres }, () => {
  const ORG = 'c1a20000-0000-4000-8000-000000000001';
  const o = postgresRecordingStatements('batch');

  test('a batch\'s claim with its lease is one statement, and its outcomes one: a round trip each', async () => {
    const records = await o.store.org(ORG);
    await withDeliveries(o.store, ORG, records, 4);
    o.sent.length = 0;
    const claimed = await records.webhooks.claim({ dueMs: DUE, realMs: Date.now(), leaseMs: 60_000, limit: 10 });
    assert.equal(claimed.length, 8);
    // One statement, a transaction of its own whose commit does not wait for the disk: set_config(…, true) in it.
    const lazy = /^with "lazy" as \(select set_config\('synchronous_commit', 'off', true\) as "setting"\), /;
    assert.equal(o.sent.length, 1, o.sent.join(' | '));
    assert.match(o.sent[0]!, lazy);
    assert.match(o.sent[0]!, /"due" as \(select .* for update of "d" skip locked\) update .*"orchard_deliveries" as "d" set "lease_ms" = \$\d+ from "due", .*"orchard_webhooks" as "h", "lazy"/i);
    o.sent.length = 0;
    await records.webhooks.finish(claimed.map((d) => outcome(d, true)), { failures: 5, hours: 1 });
    // Every attempt succeeded: the outcomes and the webhooks' count of failures in a row, in one statement.
    assert.equal(o.sent.length, 1, o.sent.join(' | '));
    assert.match(o.sent[0]!, lazy);
    assert.match(o.sent[0]!, /"o" as \(update .*"orchard_deliveries" as "d" set "state" = v\.state.* from "lazy", unnest\(.*\) update .*"orchard_webhooks" set "failures" = \$/is);
    // The setting was the statement's transaction's alone: the connection's next one waits for the disk again.
    assert.equal((await o.pool.query("SELECT current_setting('synchronous_commit') AS s")).rows[0].s, 'on');
    const states = [A, B].map(async (id) => (await records.webhooks.deliveries(id, { limit: 10, offset: 0 })).map((d) => [d.state, d.attempts, d.lastStatus]));
    assert.deepEqual(await Promise.all(states), [A, B].map(() => Array.from({ length: 4 }, () => ['delivered', 1, 200])));
  });
});
