// An integration's test suite against Orchard (docs/testing.md): a server per suite from a
// fixtures object, records with chosen modification times, and the toolkit's clock and fault rules
// to test what a trial account cannot — a 429 answered with Retry-After, the daily cap crossing
// 00:00 UTC, a 503 survived.

import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startOrchard, type StartedOrchard } from 'orchard/testing';
import { OrchardApiError } from 'orchard-client';
import { syncAccounts } from './sync.js';

const TOKEN = 'example-suite-token-0001';

const fixtures = {
  organizations: [{
    name: 'Example Co',
    plan: 'enterprise',
    users: [{ email: 'it@example.co', tokens: [TOKEN] }],
    records: {
      account: [
        { accountname: 'Old Ltd', createdon: '2026-01-05T09:00:00', modifiedon: '2026-01-05T09:00:00' },
        { accountname: 'Fresh Inc', createdon: '2026-03-01T08:00:00', modifiedon: '2026-03-02T10:30:00' },
        { accountname: 'Newer plc', createdon: '2026-03-03T08:00:00', modifiedon: '2026-03-03T08:00:00' },
      ],
    },
  }],
};

describe('the account sync against Orchard', () => {
  let orchard: StartedOrchard;
  let orgId: string;
  const options = () => ({ baseUrl: orchard.url, token: TOKEN, retry: { retries: 3, maxDelayMs: 5_000 } });

  before(async () => {
    // A daily cap of 5 makes the day's limit reachable in a test; the journal keeps what was sent.
    orchard = await startOrchard({ fixtures, config: { dailyCap: 5, journalSize: 50 } });
    orgId = orchard.organizations[0]!.id;
  });
  after(() => orchard.close());
  beforeEach(async () => {
    await orchard.control.call('DELETE', 'faults');
    await orchard.control.call('DELETE', `organizations/${orgId}/journal`);
    // Each test starts on a new UTC day, so the daily cap of 5 is whole.
    await orchard.control.call('POST', 'clock/advance', { by: '1d' });
  });

  test('copies the accounts changed since a moment, from the fixture\'s chosen times', async () => {
    const synced = await syncAccounts(options(), '2026-03-01');
    assert.deepEqual([...synced.values()].map((a) => a.name), ['Fresh Inc', 'Newer plc']);
  });

  test('a 429 with Retry-After is waited for and retried', async () => {
    await orchard.control.call('POST', 'faults', { orgId, families: ['query'], status: 429, window: 'minute', retryAfter: 1, count: 1 });
    const synced = await syncAccounts(options(), '2026-03-01');
    assert.equal(synced.size, 2);
    const journal = await orchard.control.call<{ items: { status: number }[] }>('GET', `organizations/${orgId}/journal`);
    assert.deepEqual(journal.items.map((e) => e.status).reverse(), [429, 200], 'refused once, then answered');
  });

  test('a 503 is survived by retrying', async () => {
    // A second of Retry-After rather than the real 503's 5, to keep the test short.
    await orchard.control.call('POST', 'faults', { orgId, families: ['query'], status: 503, retryAfter: 1, count: 2 });
    const synced = await syncAccounts(options(), '2026-03-01');
    assert.equal(synced.size, 2);
  });

  test('the daily cap stops the sync until 00:00 UTC, and the next day it runs again', async () => {
    await orchard.control.call('POST', 'clock/set', { at: '2030-06-01T23:58:00Z', frozen: true });
    for (let i = 0; i < 5; i++) await syncAccounts(options(), '2026-03-01');
    await assert.rejects(syncAccounts(options(), '2026-03-01'), (err: unknown) =>
      err instanceof OrchardApiError && err.status === 429 && err.code === 'LIMIT_DAY' && err.retryAfter === 120);
    await orchard.control.call('POST', 'clock/advance', { by: '2m' });
    assert.equal((await syncAccounts(options(), '2026-03-01')).size, 2);
  });
});
