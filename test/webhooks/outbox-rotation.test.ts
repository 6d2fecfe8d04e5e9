// A webhook's signing secret rotated in the outbox, on every store (docs/webhooks.md § Rotating the
// secret): a claim gives the secret a rotation replaced while its overlap lasts on the claim's
// clock, and not after; a rotation replaces any older one, or ends it; the write path's webhooks
// (the schema version) do not move. An organization from before the rotation gets its columns
// when next opened (SQLite file 8, PostgreSQL schema 6).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { RecordRow } from '../../src/schema/types.js';
import type { OrgRecords, RecordStore } from '../../src/store/types.js';
import type { WebhookSpec } from '../../src/webhooks/webhook-types.js';
import { TEST_AUTHOR } from '../helpers.js';
import { downgradeCases, organizationOn, POSTGRES_UNDER_TEST, SQLITE_UNDER_TEST } from '../store/stores-under-test.js';

const A = 'c1a30000-0000-4000-8000-0000000000aa';
const B = 'c1a30000-0000-4000-8000-0000000000bb';
const DUE = Date.parse('2026-03-01T12:00:00Z');
const HOUR = 3_600_000;
const [S1, S2, S3, S4] = ['A', 'B', 'C', 'D'].map((c) => `whsec_${c.repeat(44)}`) as [string, string, string, string];
const hook = (id: string): WebhookSpec => ({
  id, event: 'created', objectType: null, url: `https://hooks.example.com/${id}`, method: 'POST', filter: null, headers: {}, secret: S1, createdAt: '2026-03-01T12:00:00.000Z',
});

/** An account written through the write path: a delivery for each webhook. */
async function writeAccount(store: RecordStore, orgId: string, records: OrgRecords): Promise<void> {
  const account = (await records.schema()).resolve('account');
  const row: RecordRow = {};
  for (const f of account.fields) if (f.role !== 'derived') row[f.name] = null;
  await store.bulkInsert(orgId, account, [{ ...row, accountid: randomUUID(), accountname: 'A', statecode: 1, statuscode: 1, createdon: '2026-03-01T12:00:00', modifiedon: '2026-03-01T12:00:00' }], TEST_AUTHOR);
}

/** The secrets each claimed delivery signs with, by webhook; the claim's lease ends at once, so the next claim takes them again. */
async function claimedSecrets(records: OrgRecords, dueMs: number, realMs: number): Promise<Record<string, Array<string | undefined>>> {
  const out: Record<string, Array<string | undefined>> = {};
  for (const d of await records.webhooks.claim({ dueMs, realMs, leaseMs: 1, limit: 100 })) {
    const secrets = [d.webhook.secret, d.webhook.previousSecret];
    assert.equal('previousSecret' in d.webhook, d.webhook.previousSecret !== undefined, 'no previousSecret member when none signs: the attempt is as before');
    out[d.webhook.id] = secrets;
  }
  return out;
}

for (const s of [SQLITE_UNDER_TEST, POSTGRES_UNDER_TEST]) {
  describe(`a webhook's secret rotated in the outbox on ${s.name}`, { skip: s.skip }, () => {
    const o = organizationOn(s, []);

    test('a claim gives the secret replaced while the overlap lasts at the claim, then the new one alone; a rotation replaces an older one or ends it', async () => {
      const webhooks = o.records.webhooks;
      for (const id of [A, B]) await webhooks.add(hook(id));
      await writeAccount(o.store, o.orgId, o.records);
      const version = (await o.records.schema()).version;
      let real = Date.now();

      const rotated = await webhooks.rotateSecret(A, S2, DUE + HOUR);
      assert.deepEqual([rotated!.secret, rotated!.previousSecret, rotated!.previousSecretExpiresAt], [S2, S1, '2026-03-01T13:00:00.000Z']);
      assert.deepEqual(await claimedSecrets(o.records, DUE, (real += 10)), { [A]: [S2, S1], [B]: [S1, undefined] });
      assert.deepEqual(await claimedSecrets(o.records, DUE + HOUR - 1, (real += 10)), { [A]: [S2, S1], [B]: [S1, undefined] });
      // Its end is the first instant it no longer signs.
      assert.deepEqual(await claimedSecrets(o.records, DUE + HOUR, (real += 10)), { [A]: [S2, undefined], [B]: [S1, undefined] });

      // Again during an overlap: the secret it replaces is the one that signs beside it now; S1 is gone.
      await webhooks.rotateSecret(A, S3, DUE + HOUR);
      const again = await webhooks.rotateSecret(A, S4, DUE + 2 * HOUR);
      assert.deepEqual([again!.secret, again!.previousSecret, again!.previousSecretExpiresAt], [S4, S3, '2026-03-01T14:00:00.000Z']);
      assert.deepEqual((await claimedSecrets(o.records, DUE, (real += 10)))[A], [S4, S3]);
      // None: only the new one, from now on.
      const ended = await webhooks.rotateSecret(A, S1, null);
      assert.deepEqual([ended!.secret, ended!.previousSecret, ended!.previousSecretExpiresAt], [S1, null, null]);
      assert.deepEqual((await claimedSecrets(o.records, DUE, (real += 10)))[A], [S1, undefined]);
      assert.deepEqual((await webhooks.list()).map((h) => [h.id, h.secret, h.previousSecret]), [[A, S1, null], [B, S1, null]]);

      assert.equal(await webhooks.rotateSecret(randomUUID(), S2, null), null);
      // The write path's webhooks carry no secret: their version stays, and a write reads nothing new.
      assert.equal((await o.records.schema()).version, version);
    });

    test('a claim says which webhooks still store a previous secret that has ended; forgetExpiredSecrets forgets those by its time, and no other', async () => {
      const webhooks = o.records.webhooks;
      await webhooks.rotateSecret(A, S2, DUE + HOUR);
      await webhooks.rotateSecret(B, S3, DUE + 2 * HOUR);
      const previous = async () => (await webhooks.list()).map((h) => [h.id, h.previousSecret, h.previousSecretExpiresAt]);
      const ended = async (dueMs: number) => Object.fromEntries((await webhooks.claim({ dueMs, realMs: Date.now() + dueMs - DUE, leaseMs: 1, limit: 100 }))
        .map((d) => [d.webhook.id, d.previousSecretEnded ?? false]));
      assert.deepEqual(await ended(DUE + HOUR - 1), { [A]: false, [B]: false });
      assert.deepEqual(await ended(DUE + HOUR), { [A]: true, [B]: false });
      assert.equal(await webhooks.forgetExpiredSecrets(DUE + HOUR - 1), 0);
      assert.deepEqual(await previous(), [[A, S1, '2026-03-01T13:00:00.000Z'], [B, S1, '2026-03-01T14:00:00.000Z']]);
      // Its end is the first instant it no longer signs, as for a claim.
      assert.equal(await webhooks.forgetExpiredSecrets(DUE + HOUR), 1);
      assert.deepEqual(await previous(), [[A, null, null], [B, S1, '2026-03-01T14:00:00.000Z']]);
      assert.deepEqual([(await webhooks.get(A))!.secret, (await webhooks.get(B))!.secret], [S2, S3], 'the current secrets stay');
      assert.deepEqual(await ended(DUE + HOUR + 1), { [A]: false, [B]: false }, 'forgotten: nothing left to forget');
      assert.equal(await webhooks.forgetExpiredSecrets(DUE + 3 * HOUR), 1);
      assert.deepEqual(await previous(), [[A, null, null], [B, null, null]]);
    });
  });
}

/** Organizations taken back to before the previous secret's columns. */
const upgradeCases = downgradeCases(
  { sql: 'ALTER TABLE orchard_webhooks DROP COLUMN previous_secret; ALTER TABLE orchard_webhooks DROP COLUMN previous_secret_expires_at', version: 7 },
  { sql: (s) => `ALTER TABLE ${s}.orchard_webhooks DROP COLUMN previous_secret, DROP COLUMN previous_secret_expires_at`, version: 5 },
);

for (const c of upgradeCases) {
  describe(`an organization's webhooks from before secret rotation on ${c.name}`, { skip: c.skip }, () => {
    test('keep their secret, with none before it, when the organization is next opened, and can be rotated', async () => {
      const { place, downgrade } = await c.place();
      const orgId = randomUUID();
      const first = place.open();
      await (await first.org(orgId)).webhooks.add(hook(A));
      await first.close();
      await downgrade(first, orgId);
      const store = place.open();
      try {
        const records = await store.org(orgId);
        const [kept] = await records.webhooks.list();
        assert.deepEqual([kept!.id, kept!.secret, kept!.previousSecret, kept!.previousSecretExpiresAt], [A, S1, null, null]);
        await writeAccount(store, orgId, records);
        assert.deepEqual(await claimedSecrets(records, DUE, Date.now()), { [A]: [S1, undefined] });
        await records.webhooks.rotateSecret(A, S2, DUE + HOUR);
        assert.deepEqual(await claimedSecrets(records, DUE, Date.now() + 10), { [A]: [S2, S1] });
      } finally {
        await store.close();
        await place.remove();
      }
    });
  });
}
