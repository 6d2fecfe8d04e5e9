// Concurrent writes on the PostgreSQL store from two pools, as two server processes make them: a
// regression test of pool starvation. A write's transaction read the schema through the pool when
// the store had not cached it yet, so ten concurrent creates on a fresh store (pool of ten) each
// held a connection and waited for another until 503 STORE_UNAVAILABLE; it now reads the schema on
// the transaction's own connection.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { createPool, qi } from '../../src/store/postgres/pg-db.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { newAccount } from './count-fixtures.js';
import { TEST_AUTHOR } from '../helpers.js';

const ORG = 'c0a47000-0000-4000-8000-0000000000b2';

describe('concurrent writes on the PostgreSQL store', { skip: needsPostgres }, () => {
  let pools: pg.Pool[];
  let prefix: string;
  let stores: PostgresRecordStore[];

  before(() => {
    prefix = `${uniqueName('cw')}_`;
    pools = [createPool(DATABASE_URL!), createPool(DATABASE_URL!)];
    stores = pools.map((pool) => new PostgresRecordStore(pool, { schemaPrefix: prefix }));
  });

  after(async () => {
    for (const s of stores) await s.close();
    await dropSchemas(pools[0]!, prefix);
    for (const p of pools) await p.end();
  });

  test('more creates at once than a pool has connections, on stores that have not read their schema, all go through', async () => {
    const [one, two] = await Promise.all(stores.map((s) => s.org(ORG)));
    // The account object without a schema read through either store: resolved from a third store.
    const reader = new PostgresRecordStore(pools[0]!, { schemaPrefix: prefix });
    const accounts = (await (await reader.org(ORG)).schema()).resolve('account');
    await reader.close();
    await Promise.all([
      ...Array.from({ length: 12 }, () => one!.create(accounts, newAccount(), TEST_AUTHOR)),
      ...Array.from({ length: 12 }, () => two!.create(accounts, newAccount(), TEST_AUTHOR)),
      stores[0]!.bulkInsert(ORG, accounts, Array.from({ length: 200 }, newAccount), TEST_AUTHOR),
      stores[1]!.bulkInsert(ORG, accounts, Array.from({ length: 200 }, newAccount), TEST_AUTHOR),
    ]);
    const { rows } = await pools[0]!.query(`SELECT count(*)::integer AS n FROM ${qi(`${prefix}${ORG.replace(/-/g, '')}`)}.account`);
    assert.equal(rows[0].n, 424);
    assert.equal((await one!.list(accounts, { limit: 1, offset: 0 })).total, 424);
  });
});
