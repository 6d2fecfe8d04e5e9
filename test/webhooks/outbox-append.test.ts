// A write's deliveries, made in its transaction with its change-log entries (docs/webhooks.md § The
// outbox), on every store: each delivery carries its record's entry number, in its row and in its
// body, also for a batch where an item was refused (its entry and deliveries rolled back). On
// PostgreSQL the entries and the deliveries go in one statement with the counter's update: a round
// trip, where there were three.

import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../src/errors.js';
import type { ObjectDef, RecordRow } from '../../src/schema/types.js';
import type { OrgRecords } from '../../src/store/types.js';
import type { WebhookSpec } from '../../src/webhooks/webhook-types.js';
import { needsPostgres } from '../services.js';
import { organizationOn, postgresRecordingStatements, POSTGRES_UNDER_TEST, SQLITE_UNDER_TEST } from '../store/stores-under-test.js';

const AT = '2026-03-01T12:00:00';
const AUTHOR = { userId: null, at: AT };
const DUE = Date.parse('2027-03-01T12:00:00Z');

const hook = (id: string, event: WebhookSpec['event']): WebhookSpec => ({
  id, event, objectType: null, url: `https://hooks.example.com/${id}`, method: 'POST', filter: null, headers: {}, secret: 'whsec_AAAA', createdAt: `${AT}.000Z`,
});

function row(obj: ObjectDef, values: RecordRow): RecordRow {
  const r: RecordRow = {};
  for (const f of obj.fields) if (f.role !== 'derived') r[f.name] = null;
  return Object.assign(r, { [obj.keyField]: randomUUID(), statecode: 1, statuscode: 1, createdon: AT, modifiedon: AT }, values);
}

/** Two webhooks on every create, one on every delete; the write path sees them from the next schema version. */
async function hooked(records: OrgRecords): Promise<void> {
  for (const [id, event] of [['h-created-1', 'created'], ['h-created-2', 'created'], ['h-deleted', 'deleted']] as const) await records.webhooks.add(hook(id, event));
  await records.schema();
}

for (const s of [SQLITE_UNDER_TEST, POSTGRES_UNDER_TEST]) {
  describe(`a write's deliveries on ${s.name}`, { skip: s.skip }, () => {
    const o = organizationOn(s, []);
    before(async () => hooked(o.records));

    test('each delivery carries its record\'s change-log number in its row and its body, a refused batch item\'s none', async () => {
      const taken = row(o.account, { accountname: 'Taken' });
      await o.records.create(o.account, taken, AUTHOR);
      const batch = [row(o.account, { accountname: 'One' }), { ...taken, accountname: 'Again' }, row(o.account, { accountname: 'Three' })];
      const results = await o.records.createMany(o.account, batch, AUTHOR);
      assert.ok(results[1] instanceof AppError && results[1].code === 'RECORD_ID_TAKEN', 'the middle item is refused');
      assert.equal(await o.records.delete(o.account, taken[o.account.keyField] as string, AUTHOR), true);

      const entries = (await o.records.changes({ after: 0, limit: 100 })).entries;
      assert.deepEqual(entries.map((e) => [e.operation, e.recordId]), [
        ['create', taken.accountid], ['create', batch[0]!.accountid], ['create', batch[2]!.accountid], ['delete', taken.accountid],
      ].map(([op, id]) => [op, String(id).toLowerCase()]));
      const numberOf = new Map(entries.map((e) => [`${e.operation === 'create' ? 'created' : 'deleted'} ${e.recordId}`, e.seq]));

      const claimed = await o.records.webhooks.claim({ dueMs: DUE, realMs: Date.now(), leaseMs: 60_000, limit: 100 });
      // Two for each of three creates, one for the delete.
      assert.equal(claimed.length, 7);
      for (const d of claimed) {
        const body = JSON.parse(d.payload) as { type: string; data: { webhookId: string; event: string; id: string; sequence: number; record: RecordRow } };
        assert.equal(JSON.stringify(body), d.payload, 'the body is the JSON of its members, as made');
        assert.equal(body.data.webhookId, d.webhook.id);
        assert.equal(body.type, `account.${body.data.event}`);
        assert.equal(body.data.sequence, numberOf.get(`${body.data.event} ${body.data.id}`), `${body.data.event} ${body.data.id}`);
      }
      const rows = (await Promise.all(['h-created-1', 'h-created-2', 'h-deleted'].map((id) => o.records.webhooks.deliveries(id, { limit: 10, offset: 0 })))).flat();
      assert.equal(rows.length, 7);
      for (const d of rows) assert.equal(d.sequence, numberOf.get(`${d.event} ${d.recordId}`));
      assert.deepEqual(claimed.map((d) => (JSON.parse(d.payload) as { data: { record: RecordRow } }).data.record.accountname).sort(),
        ['One', 'One', 'Taken', 'Taken', 'Taken', 'Three', 'Three']);
    });
  });
}

describe('a write\'s statements on PostgreSQL', { skip: needsPostgres }, () => {
  const ORG = 'c1a20000-0000-4000-8000-000000000002';
  const o = postgresRecordingStatements('append');

  test('a write\'s entries and deliveries are one statement with the counter\'s update', async () => {
    const records = await o.store.org(ORG);
    await hooked(records);
    const account = (await records.schema()).resolve('account');
    const one = row(account, { accountname: 'One' });
    // Two webhooks on a create: a create makes two deliveries, the delete one.
    for (const [write, entries, deliveries] of [
      [() => records.create(account, one, AUTHOR), 'one', 'many'],
      [() => records.createMany(account, [row(account, { accountname: 'Two' }), row(account, { accountname: 'Three' })], AUTHOR), 'many', 'many'],
      [() => records.delete(account, one.accountid as string, AUTHOR), 'one', 'one'],
    ] as const) {
      o.sent.length = 0;
      await write();
      const logged = o.sent.filter((t) => /orchard_change|orchard_deliveries/.test(t));
      assert.equal(logged.length, 1, logged.join(' | '));
      assert.match(logged[0]!, /^with "b" as \(update .*"orchard_change_log" set "last_seq" = last_seq \+ \$1::bigint .*insert into .*"orchard_changes" .*insert into .*"orchard_deliveries" /is);
      // One entry's or one delivery's values go as they are: arrays of one would have the JSON escaped and parsed for nothing.
      const entriesFrom = /insert into [^(]*"orchard_changes" .*? from "b", (\(VALUES|unnest\()/is.exec(logged[0]!)?.[1];
      assert.equal(entriesFrom, entries === 'one' ? '(VALUES' : 'unnest(', logged[0]);
      const from = /insert into [^(]*"orchard_deliveries" .*? from "b", (\(VALUES|unnest\()/is.exec(logged[0]!)?.[1];
      assert.equal(from, deliveries === 'one' ? '(VALUES' : 'unnest(', logged[0]);
      // And it comes last, just before the commit.
      assert.equal(o.sent.at(-2), logged[0]);
      assert.equal(o.sent.at(-1), 'COMMIT');
    }
    const claimed = await records.webhooks.claim({ dueMs: DUE, realMs: Date.now(), leaseMs: 60_000, limit: 100 });
    assert.equal(claimed.length, 7);
  });
});
