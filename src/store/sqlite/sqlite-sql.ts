// Kysely used only to compile SQL for SQLite; statements run on better-sqlite3 through the
// per-connection cache of sqlite-db.ts. Kept apart so reader threads never load Kysely.

import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler } from 'kysely';

export const sqliteSql = new Kysely<any>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});
