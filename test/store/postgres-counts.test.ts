// The PostgreSQL store's row counts (Total_Records of GET lists), kept by statement triggers in
// striped slots of orchard_counts: equal to the table's rows through every kind of write, writes of
// several processes at once, custom objects, and schemas made before counts were kept.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { customObjectSpec } from '../../src/schema/custom-definitions.js';
import type { ObjectDef } from '../../src/schema/types.js';
import { createPool, migrateSchema, qi } from '../../src/store/postgres/pg-db.js';
import { POSTGRES_ORG_MIGRATIONS } from '../../src/store/postgres/postgres-ddl.js';
import { PostgresRecordStore } from '../../src/store/postgres/postgres-record-store.js';
import type { OrgRecords } from '../../src/store/types.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';
import { checkMigratedCounts, newAccount } from './count-fixtures.js';

const ORG = 'c0a47000-0000-4000-8000-0000000000b2';


describe('row counts of the PostgreSQL store', { skip: needsPostgres }, () => {
  let pools: pg.Pool[];
  let prefix: string;
  let stores: PostgresRecordStore[];
  let records: OrgRecords;
  let accounts: ObjectDef;

  before(async () => {
    prefix = `${uniqueName('cnt')}_`;
    // Two pools, as two server processes would have.
    pools = [createPool(DATABASE_URL!), createPool(DATABASE_URL!)];
    stores = pools.map((pool) => new PostgresRecordStore(pool, { schemaPrefix: prefix }));
    records = await stores[0]!.org(ORG);
    accounts = (await records.schema()).resolve('account');
  });

  after(async () => {
    for (const s of stores) await s.close();
    await dropSchemas(pools[0]!, prefix);
    for (const p of pools) await p.end();
  });

  const schemaName = () => `${prefix}${ORG.replace(/-/g, '')}`;

  async function rowsOf(table: string): Promise<number> {
    const { rows } = await pools[0]!.query(`SELECT count(*)::integer AS n FROM ${qi(schemaName())}.${qi(table)}`);
    return rows[0].n as number;
  }

  async function total(obj: ObjectDef, of: OrgRecords = records): Promise<number> {
    return (await of.list(obj, { limit: 1, offset: 0 })).total;
  }

  test('stay equal to the table through creates, batches, updates, deletes and bulk inserts', async () => {
    await records.create(accounts, newAccount());
    await records.createMany(accounts, [newAccount(), newAccount(), newAccount()]);
    const { records: page } = await records.list(accounts, { limit: 2, offset: 0 });
    await records.update(accounts, page[0]!.accountid as string, { accountname: 'Renamed' });
    await records.delete(accounts, page[0]!.accountid as string);
    await records.deleteMany(accounts, [page[1]!.accountid as string, randomUUID()]);
    await stores[0]!.bulkInsert(ORG, accounts, Array.from({ length: 700 }, newAccount));
    assert.equal(await total(accounts), await rowsOf('account'));
    assert.equal(await total(accounts), 702);
  });

  test('count the writes of several processes at once', async () => {
    // The second store has not read its schema yet: its ten concurrent creates each held a pooled
    // connection in a transaction and asked the pool for another to read the schema, which waited
    // for one of them (pool of ten) until 503. The schema is now read on the transaction's connection.
    const other = await stores[1]!.org(ORG);
    const before = await rowsOf('account');
    await Promise.all([
      ...Array.from({ length: 10 }, () => records.create(accounts, newAccount())),
      ...Array.from({ length: 10 }, () => other.create(accounts, newAccount())),
      stores[0]!.bulkInsert(ORG, accounts, Array.from({ length: 200 }, newAccount)),
      stores[1]!.bulkInsert(ORG, accounts, Array.from({ length: 200 }, newAccount)),
    ]);
    assert.equal(await rowsOf('account'), before + 420);
    assert.equal(await total(accounts), before + 420);
    assert.equal(await total(accounts, other), before + 420);
  });

  test('count a custom object from its first record', async () => {
    const schema = await records.addObject((current) => customObjectSpec(current, { name: 'Widget' }, randomUUID()));
    const widget = schema.resolve('customobject1000');
    assert.equal(await total(widget), 0);
    await records.create(widget, { customobject1000id: randomUUID(), name: 'One', statecode: 1, statuscode: 1, createdon: '2025-01-01T00:00:00', modifiedon: '2025-01-01T00:00:00' });
    assert.equal(await total(widget), 1);
  });

  test('count a user once, however often it is written again (an upsert that updates)', async () => {
    const users = (await records.schema()).resolve('crmuser');
    const id = randomUUID();
    const before = await total(users);
    await stores[0]!.upsertUser(ORG, { id, fullname: 'Ada', email: 'ada@example.com' });
    await stores[1]!.upsertUser(ORG, { id, fullname: 'Ada L.', email: 'ada@example.com' });
    await stores[0]!.upsertUser(ORG, { id, fullname: 'Ada Lovelace', email: 'ada@example.com' });
    assert.equal(await total(users), before + 1);
    assert.equal(await total(users), await rowsOf('crmuser'));
  });

  test('every object of the organization has its count', async () => {
    for (const obj of (await records.schema()).objects) assert.equal(await total(obj), await rowsOf(obj.systemName), obj.systemName);
  });
});

describe('a PostgreSQL schema made before row counts were kept', { skip: needsPostgres }, () => {
  test('gets every count from its rows when it is migrated', async () => {
    const pool = createPool(DATABASE_URL!);
    const prefix = `${uniqueName('cntold')}_`;
    const schema = `${prefix}${ORG.replace(/-/g, '')}`;
    try {
      await migrateSchema(pool, schema, POSTGRES_ORG_MIGRATIONS.slice(0, 1));
      for (let i = 0; i < 37; i++) {
        const a = newAccount();
        await pool.query(`INSERT INTO ${qi(schema)}.account (accountid, accountname, statecode, statuscode, createdon, modifiedon) VALUES ($1, $2, $3, $4, $5, $6)`,
          [a.accountid, a.accountname, a.statecode, a.statuscode, a.createdon, a.modifiedon]);
      }
      const store = new PostgresRecordStore(pool, { schemaPrefix: prefix });
      try {
        await checkMigratedCounts(await store.org(ORG), 37);
      } finally {
        await store.close();
      }
    } finally {
      await dropSchemas(pool, prefix);
      await pool.end();
    }
  });
});
