// What every PostgreSQL store shares: one connection pool per DATABASE_URL, identifier quoting,
// versioned migrations of a schema (run once even when many processes start together), and the
// translation of "the database is unreachable" into 503 STORE_UNAVAILABLE.

import { createHash } from 'node:crypto';
import pg from 'pg';
import { AppError, storeUnavailableError, timeoutError } from '../../errors.js';
import { DefinitionsChanged } from '../types.js';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

/** Settings of a pool; `max` connections per process. */
export interface PoolOptions {
  readonly max?: number;
  /** Milliseconds to wait for a connection before the request fails with 503. */
  readonly connectTimeoutMs?: number;
  /** Named statements a connection prepares before it is closed (PREPARED_PER_CONNECTION). */
  readonly preparedPerConnection?: number;
  /** What pg_stat_activity shows of the pool's connections (`application_name`). */
  readonly applicationName?: string;
}

/**
 * Named statements a connection prepares before the pool closes it, at its next release. Each
 * organization's hot statements name its schema, and the database server keeps, for a connection's
 * whole life, every plan prepared on it and its caches of every table it touched: without a bound,
 * about 0.8 MB an organization per connection under a load that visits every organization. Closing
 * a connection frees both; a new one costs a connect and plans again what it runs (bench/README.md,
 * "PostgreSQL connections across many organizations").
 */
export const PREPARED_PER_CONNECTION = 500;

/** A client that counts the names of the statements it has prepared on its connection. */
function countingClient(limit: number): typeof pg.Client {
  return class CountingClient extends pg.Client {
    private readonly named = new Set<string>();

    /** Whether it has prepared `limit` statements or more: the pool closes it at its release. */
    get spent(): boolean {
      return this.named.size >= limit;
    }

    override query(config: unknown, values?: unknown, callback?: unknown): any {
      const name = typeof config === 'object' && config !== null ? (config as { name?: unknown }).name : undefined;
      if (typeof name === 'string') this.named.add(name);
      return (super.query as (...args: unknown[]) => unknown)(config, values, callback);
    }
  };
}

/** Gives a client back to its pool, which closes it when it is `broken` or spent (PREPARED_PER_CONNECTION). */
export function release(client: PoolClient, broken = false): void {
  client.release(broken || (client as { spent?: boolean }).spent === true);
}

/** Every connection of each pool, so that endPool can destroy those that do not close. */
const connections = new WeakMap<Pool, Set<pg.Client>>();

/**
 * A pool on `url`. Numbers come back as JavaScript numbers (numeric and bigint counts included, -0 as 0),
 * and an idle connection that dies (a server restart) is dropped, never thrown at the process.
 */
export function createPool(url: string, options: PoolOptions = {}): Pool {
  const pool = new pg.Pool({
    connectionString: url,
    // The system then tells of a peer gone for good (a dead host, a dropped route), even between statements.
    keepAlive: true,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    types: { getTypeParser: typeParser },
    Client: countingClient(options.preparedPerConnection ?? PREPARED_PER_CONNECTION),
  });
  // pool.query checks a client out and gives it back itself, bypassing release(): the same steps,
  // through it. As pg-pool does, a client whose statement failed is closed.
  pool.query = (async (config: unknown, values?: unknown) => {
    const client = await pool.connect();
    try {
      const result = await client.query(config as pg.QueryConfig, values as unknown[]);
      release(client);
      return result;
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
  }) as Pool['query'];
  // Without a listener an idle client's error (server restart) would crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out client's, which the pool does not listen to: the statement under way fails
  // with the error anyway, and the pool drops the dead client when it is released.
  const open = new Set<pg.Client>();
  connections.set(pool, open);
  pool.on('connect', (client) => {
    client.on('error', () => {});
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  return pool;
}

/**
 * Ends `pool`, waiting at most `withinMs` for its connections to close (those checked out are
 * waited for, and a stalled database answers no goodbye); past that, destroys those left. Resolves
 * with the number destroyed, 0 when the pool ended in time.
 */
export async function endPool(pool: Pool, withinMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    pool.end().then(() => true, () => true),
    new Promise<false>((resolve) => (timer = setTimeout(resolve, withinMs, false))),
  ]);
  clearTimeout(timer);
  if (ended) return 0;
  const left = [...(connections.get(pool) ?? [])];
  for (const client of left) (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  return left.length;
}

const NUMERIC_OIDS = new Set([20 /* int8 */, 1700 /* numeric */]);
const FLOAT_OIDS = new Set([700 /* float4 */, 701 /* float8 */]);

/** A float as SQLite returns it: -0 reads as 0 (SQLite stores an integral REAL as an integer). */
const parseFloatValue = (value: string): number => Number(value) + 0;

function typeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (NUMERIC_OIDS.has(oid)) return Number;
  if (FLOAT_OIDS.has(oid)) return parseFloatValue;
  return (pg.types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown)(oid, format);
}

/** Quotes an identifier; definitions are checked to be [a-z0-9_], quoting still guards every one. */
export const qi = (id: string): string => `"${id.replace(/"/g, '""')}"`;

/** A migration runs inside a transaction on `client`, with `schema` created and on the search path. */
export type PgMigration = (client: PoolClient, schema: string) => Promise<void>;

/** A 64-bit advisory-lock key for a schema name, so concurrent starts migrate it once. */
function lockKey(schema: string): string {
  let h = 0n;
  for (const ch of schema) h = (h * 31n + BigInt(ch.codePointAt(0)!)) & 0x7fff_ffff_ffff_ffffn;
  return h.toString();
}

/**
 * Creates `schema` when missing and brings it to the latest of `migrations` (its version is the
 * count applied, kept in `<schema>.orchard_version`). Each step is one transaction that takes the
 * schema's advisory lock and reads the version again, so processes starting at once take turns and
 * a step never runs twice. The lock is the transaction's, not the session's: behind a pooler in
 * transaction mode (PgBouncer), statements outside a transaction may each go to another server
 * connection, and a session lock taken by one and released by another would stay held for ever.
 * Returns the version reached.
 */
export async function migrateSchema(pool: Pool, schema: string, migrations: readonly PgMigration[]): Promise<number> {
  const client = await connect(pool);
  try {
    for (;;) {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [lockKey(schema)]);
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${qi(schema)}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${qi(schema)}.orchard_version (id int PRIMARY KEY CHECK (id = 1), version int NOT NULL)`);
        const res = await client.query(`SELECT version FROM ${qi(schema)}.orchard_version WHERE id = 1`);
        const version = (res.rows[0]?.version as number | undefined) ?? 0;
        if (version > migrations.length) {
          throw new Error(`schema ${schema} is at version ${version}, newer than this Orchard (${migrations.length}); upgrade Orchard`);
        }
        if (version === migrations.length) {
          await client.query('COMMIT');
          return version;
        }
        await client.query(`SET LOCAL search_path TO ${qi(schema)}`);
        await migrations[version]!(client, schema);
        await client.query(
          `INSERT INTO ${qi(schema)}.orchard_version (id, version) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET version = excluded.version`,
          [version + 1],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
  } finally {
    release(client);
  }
}

/** SQLSTATE classes and codes that mean the database cannot be reached or is going away. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

/** Whether `err` says the database is unreachable (not that a statement was wrong). */
export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATES.has(e.code) || e.code.startsWith('08') || UNAVAILABLE_ERRNOS.has(e.code))) return true;
  const msg = typeof e.message === 'string' ? e.message : '';
  return /timeout exceeded when trying to connect|Connection terminated|connection to server .* failed|Client has encountered a connection error/i.test(msg);
}

/** The 503 of a request the database could not serve; the process keeps running and recovers by itself. */
export function unavailableError(cause?: unknown): AppError {
  return storeUnavailableError(cause);
}

/** SQLSTATEs of a statement naming a column or table that does not exist. */
const UNDEFINED_NAMES = new Set(['42703', '42P01']);

/**
 * Rethrows an unreachable-database failure as STORE_UNAVAILABLE, a statement naming a column or
 * table that is gone as DefinitionsChanged (definitions kept in memory, changed by another process:
 * see cache-listener.ts), anything else as it was.
 */
export function translate(err: unknown): never {
  if (isUnavailable(err)) throw unavailableError(err);
  const code = (err as { code?: unknown } | null)?.code;
  throw typeof code === 'string' && UNDEFINED_NAMES.has(code) ? new DefinitionsChanged(err) : err;
}

/** A client from the pool, or STORE_UNAVAILABLE. */
export async function connect(pool: Pool): Promise<PoolClient> {
  try {
    return await pool.connect();
  } catch (err) {
    return translate(err);
  }
}

export interface TransactionOptions {
  /** What follows BEGIN, e.g. 'ISOLATION LEVEL REPEATABLE READ READ ONLY'. */
  readonly mode?: string;
  /**
   * Milliseconds any one statement of the transaction may run (SET LOCAL statement_timeout);
   * past it the server stops the statement and the call fails with REQUEST_TIMEOUT.
   */
  readonly timeoutMs?: number;
  /**
   * When it aborts, the statement running is cancelled on the server (pg_cancel_backend from
   * another pooled connection), no further statement starts, and the call fails with REQUEST_TIMEOUT.
   */
  readonly signal?: AbortSignal;
  /** The commit does not wait for the WAL's flush (SET LOCAL synchronous_commit = off): a crash may lose it. */
  readonly lazyCommit?: boolean;
}

/** SQLSTATE of a statement stopped by statement_timeout or a cancel request. */
const QUERY_CANCELED = '57014';

/**
 * Runs `work` in a transaction on one client; failures roll back and unreachable ones become 503.
 * With `timeoutMs` or `signal`, a statement stopped by either fails the call with REQUEST_TIMEOUT
 * and nothing is left running on the server.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const { signal } = options;
  if (signal?.aborted) throw timeoutError();
  const client = await connect(pool);
  // It may have aborted while waiting for a connection; a listener added now would never fire.
  if (signal?.aborted) {
    release(client);
    throw timeoutError();
  }
  const canceller = signal ? new Canceller(pool, client, signal) : undefined;
  let broken = false;
  try {
    // The settings ride with BEGIN: one round trip.
    let begin = options.mode ? `BEGIN ${options.mode}` : 'BEGIN';
    if (options.timeoutMs !== undefined) begin += `; SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(options.timeoutMs))}`;
    if (options.lazyCommit) begin += '; SET LOCAL synchronous_commit = off';
    await client.query(begin);
    const result = await work(client);
    if (canceller?.fired) throw timeoutError();
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A connection that was sent cancels is closed: a late one could stop someone else's statement.
    broken = isUnavailable(err) || canceller?.fired === true;
    if (!broken) await client.query('ROLLBACK').catch(() => { broken = true; });
    if ((err as { code?: unknown } | null)?.code === QUERY_CANCELED || canceller?.fired) throw timeoutError();
    return translate(err);
  } finally {
    canceller?.stop();
    release(client, broken);
  }
}

/**
 * Cancels on the server whatever `client` runs once `signal` aborts. A cancel that reaches the
 * server between two statements is ignored there, so it is sent again every 100 ms until stopped.
 */
class Canceller {
  fired = false;
  private stopped = false;
  private wake: (() => void) | undefined;
  private readonly pid: number;

  constructor(private readonly pool: Pool, client: PoolClient, private readonly signal: AbortSignal) {
    this.pid = (client as unknown as { processID: number }).processID;
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onAbort = (): void => {
    this.fired = true;
    void this.cancelUntilStopped();
  };

  private async cancelUntilStopped(): Promise<void> {
    while (!this.stopped) {
      await this.pool.query('SELECT pg_cancel_backend($1)', [this.pid]).catch(() => {});
      if (this.stopped) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.wake = () => { clearTimeout(timer); resolve(); };
      });
    }
  }

  /**
   * Stops sending cancels. One still waiting for a pooled connection is not awaited (that could
   * wait on the very connection about to be released); a connection that was sent cancels is
   * closed, not reused, so a late one reaches no other statement.
   */
  stop(): void {
    this.stopped = true;
    this.signal.removeEventListener('abort', this.onAbort);
    this.wake?.();
  }
}

/** One statement (its text, or a Prepared) on any pooled connection; unreachable → 503. */
export async function run<R extends pg.QueryResultRow = any>(pool: Pool, text: string | Prepared, values: readonly unknown[] = []): Promise<pg.QueryResult<R>> {
  try {
    return await pool.query<R>(typeof text === 'string' ? { text, values: values as unknown[] } : { ...text, values: values as unknown[] });
  } catch (err) {
    return translate(err);
  }
}

/** A statement each connection parses and plans once, then reuses; see prepared(). */
export interface Prepared {
  readonly name: string;
  readonly text: string;
}

/**
 * `text` as a named statement, for the hot path: it skips the parse and plan of every run (the
 * token lookup of each request ran about 2.5 times faster so, 0.16 ms against 0.43 ms on a quiet
 * machine). The name is a digest of the text, so two texts never share one, and short: the
 * server keeps only 63 bytes of a name. `version` names what the text's tables are as of (an
 * organization's definitions), so a text whose tables changed under it is prepared anew.
 */
export function prepared(text: string, version = ''): Prepared {
  return { name: `orchard_${createHash('sha256').update(version).update('\0').update(text).digest('hex').slice(0, 32)}`, text };
}

/** Runs one statement on a schema kept migrated; see schemaRunner. */
export type SchemaRunner = <R extends pg.QueryResultRow = any>(text: string | Prepared, values?: readonly unknown[]) => Promise<pg.QueryResult<R>>;

/**
 * Statements on `schema` as run() runs them, each after the schema is migrated: the first call
 * migrates it (every concurrent call waits for that one migration), a success is remembered, and a
 * failure (the database unreachable at start) is retried by the next call instead of leaving the
 * store broken until a restart.
 */
export function schemaRunner(pool: Pool, schema: string, migrations: readonly PgMigration[]): SchemaRunner {
  let migrated: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    migrated ??= migrateSchema(pool, schema, migrations).then(
      () => undefined,
      (err: unknown) => {
        migrated = undefined;
        return translate(err);
      },
    );
    return migrated;
  };
  return async (text, values = []) => {
    await ready();
    return run(pool, text, values);
  };
}
