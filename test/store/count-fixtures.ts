// Accounts to write, for the store suites; and the check of a database migrated from before counts
// were kept, shared by the row-count suites of both stores.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { OrgRecords } from '../../src/store/types.js';
import type { RecordRow } from '../../src/schema/types.js';
import { TEST_AUTHOR } from '../helpers.js';

let serial = 0;

/** A new account with only the columns every store needs; createdon one second after the last one made. */
export function newAccount(): RecordRow {
  serial++;
  const at = new Date(Date.UTC(2025, 0, 1) + serial * 1000).toISOString().slice(0, 19);
  return { accountid: randomUUID(), accountname: `Account ${serial}`, statecode: 1, statuscode: 1, createdon: at, modifiedon: at };
}

/** A new account (newAccount) with this name. */
export function namedAccount(name: string): RecordRow {
  return { ...newAccount(), accountname: name };
}

/** Rows written before the migration made `before` accounts: the counts start there and go on from it. */
export async function checkMigratedCounts(records: OrgRecords, before: number): Promise<void> {
  const schema = await records.schema();
  const total = async (name: string) => (await records.list(schema.resolve(name), { limit: 1, offset: 0 })).total;
  assert.equal(await total('account'), before);
  assert.equal(await total('contact'), 0);
  await records.create(schema.resolve('account'), newAccount(), TEST_AUTHOR);
  assert.equal(await total('account'), before + 1);
}
