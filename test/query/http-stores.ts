// The app over each record store, for query tests that must hold on both: SQLite files in a
// temporary directory, and PostgreSQL (when DATABASE_URL is set) in schemas of the test's own,
// dropped when the context closes.

import { createPool } from '../../src/store/postgres/pg-db.js';
import type { Config } from '../../src/config.js';
import { testContext, type TestContext } from '../helpers.js';
import { DATABASE_URL, dropSchemas, needsPostgres, uniqueName } from '../services.js';

export interface HttpStore {
  readonly name: string;
  /** The `skip` of a suite on this store: false, or why it cannot run here. */
  readonly skip: false | string;
  /** A test context (app, organization, token) whose records live in this store; `config` adds settings. */
  context(config?: Partial<Config>): Promise<TestContext>;
}

export const HTTP_STORES: readonly HttpStore[] = [
  { name: 'SQLite', skip: false, context: (config) => testContext({ config: config ?? {} }) },
  {
    name: 'PostgreSQL',
    skip: needsPostgres,
    async context(config) {
      const schema = uniqueName('qh');
      const ctx = await testContext({ config: { ...config, databaseUrl: DATABASE_URL, databaseSchema: schema } });
      return {
        ...ctx,
        async close() {
          await ctx.close();
          const pool = createPool(DATABASE_URL!);
          try {
            await dropSchemas(pool, schema);
          } finally {
            await pool.end();
          }
        },
      };
    },
  },
];
