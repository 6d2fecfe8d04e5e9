// The shared control plane: organizations, users, roles and token digests in one PostgreSQL schema,
// behaving as SqliteControlStore does (same values, errors and order). Every API process and the
// CLI share it. With a cache listener, token identities are kept in memory while the listener vouches for
// them (cache-listener.ts): a revoke or a role, user or plan change by another process is seen within
// its bound, one by this process at once.

import { randomUUID } from 'node:crypto';
import { emailTaken, idTaken, noOrganization, noRole, noUser, rethrowAs } from '../control-errors.js';
import { ADMIN_ROLE } from '../../auth/permissions.js';
import type { ControlStore, FixtureLoadState, NewToken, RoleDeletion, UserDeletion } from '../types.js';
import { KeyedLock, loaderMark } from '../fixture-loader.js';
import { Slots } from '../../slots.js';
import type { ObjectGrant, RoleDefinition } from '../../auth/roles.js';
import type { Organization, TokenIdentity, TokenInfo, User } from '../../auth/identity.js';
import type { PlanName } from '../../auth/plans.js';
import { CONTROL_MIGRATIONS, DEFAULT_CONTROL_SCHEMA, iso, isoOrNull, isId } from './postgres-control-ddl.js';
import { connect, inTransaction, prepared, qi, release, schemaRunner, translate, type Pool, type PoolClient, type Prepared, type SchemaRunner } from './pg-db.js';
import { CONTROL_CHANGED, type CacheListener } from './cache-listener.js';

interface OrgRow { id: string; name: string; plan: string; minute_limit: number | null; primary_user_id: string | null; created_at: Date }
interface UserRow { id: string; org_id: string; email: string; fullname: string; role: string; created_at: Date; disabled_at: Date | null }
interface TokenRow { id: string; user_id: string; last4: string | null; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }
interface RoleRow { org_id: string; name: string; grants: Record<string, ObjectGrant>; updated_at: Date }

const toOrg = (r: OrgRow): Organization => ({
  id: r.id, name: r.name, plan: r.plan as PlanName, minuteLimit: r.minute_limit, primaryUserId: r.primary_user_id, createdAt: iso(r.created_at),
});
const toUser = (r: UserRow): User => ({
  id: r.id, orgId: r.org_id, email: r.email, fullname: r.fullname, role: r.role, createdAt: iso(r.created_at), disabledAt: isoOrNull(r.disabled_at),
});
const toToken = (r: TokenRow): TokenInfo => ({
  id: r.id, userId: r.user_id, last4: r.last4, createdAt: iso(r.created_at), lastUsedAt: isoOrNull(r.last_used_at), revokedAt: isoOrNull(r.revoked_at),
});
const TOKEN_COLUMNS = 'id, user_id, last4, created_at, last_used_at, revoked_at';
const toRole = (r: RoleRow): RoleDefinition => ({ orgId: r.org_id, name: r.name, grants: r.grants, updatedAt: iso(r.updated_at) });

/** The SQLSTATEs of the constraint violations the contract names. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

const nowIso = (): string => new Date().toISOString();

/** Identities kept at most; past it they are all dropped (as the embedded store's cache). */
const MAX_IDENTITIES = 10_000;

export class PostgresControlStore implements ControlStore {
  private readonly sql: SchemaRunner;
  private readonly t: { orgs: string; users: string; tokens: string; roles: string; notices: string };
  /** The two statements of every request, prepared once per connection. */
  private readonly identitySql: Prepared;
  private readonly touchSql: Prepared;
  /** Identities of live tokens by digest, kept while `changes` vouches for them; unknown tokens are never kept. */
  private readonly identities = new Map<string, TokenIdentity>();
  /** Counts the times the identities were dropped: a read that began before a drop must not be kept. */
  private generation = 0;
  /** Fixtures loads of this process holding a lock (and so a connection) at once; the others wait for a turn. */
  private readonly fixtureSlots: Slots;
  /** Fixtures loads of this process, one at a time per organization, before the advisory lock. */
  private readonly fixtureLocks = new KeyedLock();
  /** The organizations of the identities kept since they were last dropped: still current, with no read (isCurrent). */
  private keptOrgs = new WeakSet<object>();

  /**
   * A store on `schema` through `pool`; the schema is created and migrated on first use (and again
   * on the next call if the database could not be reached). The pool stays the caller's: close()
   * does not end it, so a control store and a notice ledger may share one (openPostgresControl).
   */
  /** `changes`: the listener that lets identities be kept in memory (none: every call reads them). */
  constructor(readonly pool: Pool, readonly schema: string = DEFAULT_CONTROL_SCHEMA, private readonly changes?: CacheListener) {
    this.sql = schemaRunner(pool, schema, CONTROL_MIGRATIONS);
    // Half the pool at most (10 connections by default), so the loads holding them still write.
    this.fixtureSlots = new Slots(Math.max(1, Math.floor((pool.options?.max ?? 10) / 2)));
    // Every notice of a control change drops them all: such changes are rare, touches do not notify.
    changes?.subscribe((payload) => {
      if (payload === null || payload === CONTROL_CHANGED) this.forget();
    });
    const s = qi(schema);
    this.t = { orgs: `${s}.organizations`, users: `${s}.users`, tokens: `${s}.tokens`, roles: `${s}.roles`, notices: `${s}.notices` };
    // One statement, four primary-key probes: the whole identity of a request in one round trip.
    this.identitySql = prepared(`
      SELECT t.last_used_at AS t_last_used_at,
             u.id AS u_id, u.org_id AS u_org_id, u.email AS u_email, u.fullname AS u_fullname, u.role AS u_role, u.created_at AS u_created_at,
             o.id, o.name, o.plan, o.minute_limit, o.primary_user_id, o.created_at,
             r.grants AS r_grants, r.updated_at AS r_updated_at
      FROM ${this.t.tokens} t JOIN ${this.t.users} u ON u.id = t.user_id JOIN ${this.t.orgs} o ON o.id = u.org_id
      LEFT JOIN ${this.t.roles} r ON r.org_id = u.org_id AND r.name = u.role
      WHERE t.hash = $1 AND t.revoked_at IS NULL AND u.disabled_at IS NULL`);
    this.touchSql = prepared(`UPDATE ${this.t.tokens} SET last_used_at = $2 WHERE hash = $1`);
  }

  /** Drops the identities kept. */
  private forget(): void {
    this.identities.clear();
    this.keptOrgs = new WeakSet();
    this.generation++;
  }

  /** Statements that change the control tables, in one transaction on the migrated schema; what this process kept is dropped once it is done. */
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    await this.sql('SELECT 1'); // the schema migrated first, as every statement of this.sql is
    try {
      return await inTransaction(this.pool, work);
    } finally {
      this.forget();
    }
  }

  /** A statement that changes the control tables: what this process kept is dropped once it is done (other processes hear the trigger's notice). */
  private readonly write: SchemaRunner = async (text, values) => {
    try {
      return await this.sql(text, values);
    } finally {
      this.forget();
    }
  };

  async createOrganization(input: { id?: string; name: string; plan: PlanName; minuteLimit: number | null; fixtureLoad?: boolean }): Promise<Organization> {
    const org: Organization = { id: input.id ?? randomUUID(), name: input.name, plan: input.plan, minuteLimit: input.minuteLimit, primaryUserId: null, createdAt: nowIso() };
    await this.write(`INSERT INTO ${this.t.orgs} (id, name, plan, minute_limit, primary_user_id, created_at, fixture_loader) VALUES ($1, $2, $3, $4, NULL, $5, $6)`,
      [org.id, org.name, org.plan, org.minuteLimit, org.createdAt, input.fixtureLoad ? loaderMark() : null])
      .catch(rethrowAs({ [UNIQUE_VIOLATION]: () => idTaken('organization', org.id) }));
    return org;
  }

  /** Every loader holds the lock while it loads, so a mark found by the holder is one no process will finish. */
  async fixtureLoad(orgId: string): Promise<FixtureLoadState> {
    if (!isId(orgId)) return 'none';
    const { rows } = await this.sql<{ fixture_loader: string | null }>(`SELECT fixture_loader FROM ${this.t.orgs} WHERE id = $1`, [orgId]);
    return rows[0]?.fixture_loader ? 'abandoned' : 'none';
  }

  async finishFixtureLoad(orgId: string): Promise<void> {
    if (isId(orgId)) await this.write(`UPDATE ${this.t.orgs} SET fixture_loader = NULL WHERE id = $1 AND fixture_loader IS NOT NULL`, [orgId]);
  }

  /**
   * An advisory lock in a transaction of its own on a connection of its own, held until the release
   * commits it (or the end of the connection: a killed loader's lock goes with it). In a transaction,
   * as PgBouncer's transaction pooling (docs/operations.md) keeps the server connection for it: a
   * session lock would be left there for other clients, never unlocked. Keyed by the control schema
   * and the id, in the two-key space that the migrations' one-key locks never use.
   */
  async lockFixtureLoad(orgId: string): Promise<() => Promise<void>> {
    // Through the schema's runner first: the schema is migrated before the pool's own connection is used.
    await this.sql('SELECT 1');
    // Loads of this process wait for one another here, on no connection; those holding a connection
    // each never take the whole pool, which their writes need too.
    const ours = await this.fixtureLocks.acquire(orgId);
    const slot = await this.fixtureSlots.take();
    const key = [`${this.schema} fixtures`, orgId];
    let client: PoolClient | undefined;
    try {
      client = await connect(this.pool);
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', key);
    } catch (err) {
      if (client) release(client, true);
      slot();
      await ours();
      return translate(err);
    }
    const held = client;
    const heartbeat = await this.keepTransaction(held);
    return async () => {
      clearInterval(heartbeat);
      let broken = false;
      try {
        await held.query('COMMIT');
      } catch {
        // A connection whose commit failed is closed, which ends its transaction and lock.
        broken = true;
      }
      release(held, broken);
      slot();
      await ours();
    };
  }

  /**
   * A statement now and then on the lock's connection, idle in its transaction while the load writes
   * on others, when the server ends such transactions (idle_in_transaction_session_timeout): ended, it
   * would take the lock with it mid-load, and another process could remove the organization being loaded.
   */
  private async keepTransaction(held: PoolClient): Promise<NodeJS.Timeout | undefined> {
    const { rows } = await held.query<{ ms: number }>(`SELECT setting::int AS ms FROM pg_settings WHERE name = 'idle_in_transaction_session_timeout'`).catch(() => ({ rows: [] as Array<{ ms: number }> }));
    const ms = rows[0]?.ms ?? 0;
    if (ms <= 0) return undefined;
    return setInterval(() => held.query('SELECT 1').catch(() => {}), Math.max(10, Math.floor(ms / 3))).unref();
  }

  async createOrganizationWithUser(input: { id?: string; name: string; plan: PlanName; minuteLimit: number | null; user: { id?: string; email: string; fullname: string; role: string }; token: NewToken }): Promise<{ org: Organization; user: User }> {
    const createdAt = nowIso();
    const userId = input.user.id ?? randomUUID();
    const org: Organization = { id: input.id ?? randomUUID(), name: input.name, plan: input.plan, minuteLimit: input.minuteLimit, primaryUserId: userId, createdAt };
    const user: User = { id: userId, orgId: org.id, email: input.user.email, fullname: input.user.fullname, role: input.user.role, createdAt, disabledAt: null };
    // One statement, so one transaction: the foreign keys are checked at its end, when all three rows exist.
    await this.write(`WITH o AS (INSERT INTO ${this.t.orgs} (id, name, plan, minute_limit, primary_user_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)),
        u AS (INSERT INTO ${this.t.users} (id, org_id, email, fullname, role, created_at) VALUES ($5, $1, $7, $8, $9, $6))
      INSERT INTO ${this.t.tokens} (id, hash, user_id, last4, created_at) VALUES ($10, $11, $5, $12, $6)`,
    [org.id, org.name, org.plan, org.minuteLimit, user.id, createdAt, user.email, user.fullname, user.role, randomUUID(), input.token.hash, input.token.last4])
      .catch((err: unknown) => {
        const constraint = (err as { constraint?: unknown } | null)?.constraint;
        return rethrowAs({ [UNIQUE_VIOLATION]: () => (constraint === 'users_pkey' ? idTaken('user', user.id) : idTaken('organization', org.id)) })(err);
      });
    return { org, user };
  }

  async setPrimaryUser(orgId: string, userId: string): Promise<void> {
    if (!isId(orgId)) throw noOrganization(orgId);
    // The organization's row locked first (see deleteUser); the update then reads the users as they are once it has it.
    const rowCount = isId(userId)
      ? await this.transaction(async (client) => {
        await client.query(`SELECT 1 FROM ${this.t.orgs} WHERE id = $1 FOR UPDATE`, [orgId]);
        return (await client.query(`UPDATE ${this.t.orgs} SET primary_user_id = $2 WHERE id = $1 AND EXISTS (SELECT 1 FROM ${this.t.users} WHERE id = $2 AND org_id = $1)`, [orgId, userId])).rowCount;
      })
      : 0;
    if (rowCount === 0) throw (await this.getOrganization(orgId)) ? noUser(userId, orgId) : noOrganization(orgId);
  }

  async getOrganization(id: string): Promise<Organization | null> {
    if (!isId(id)) return null;
    const { rows } = await this.sql<OrgRow>(`SELECT * FROM ${this.t.orgs} WHERE id = $1`, [id]);
    return rows[0] ? toOrg(rows[0]) : null;
  }

  async updateOrganization(id: string, changes: { plan?: PlanName; minuteLimit?: number | null }): Promise<Organization | null> {
    if (!isId(id)) return null;
    // One statement, so two concurrent updates of different fields both land (SQLite: one transaction).
    const { rows } = await this.write<OrgRow>(`
      UPDATE ${this.t.orgs} SET plan = coalesce($2, plan), minute_limit = CASE WHEN $3 THEN $4::integer ELSE minute_limit END
      WHERE id = $1 RETURNING *`, [id, changes.plan ?? null, changes.minuteLimit !== undefined, changes.minuteLimit ?? null]);
    return rows[0] ? toOrg(rows[0]) : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.sql<OrgRow>(`SELECT * FROM ${this.t.orgs} ORDER BY created_at, id`)).rows.map(toOrg);
  }

  async markWebhooks(orgId: string): Promise<void> {
    if (!isId(orgId)) return;
    await this.sql(`UPDATE ${this.t.orgs} SET webhooks = true WHERE id = $1 AND NOT webhooks`, [orgId]);
  }

  async webhookOrganizations(): Promise<string[]> {
    return (await this.sql<{ id: string }>(`SELECT id FROM ${this.t.orgs} WHERE webhooks ORDER BY created_at, id`)).rows.map((r) => r.id);
  }

  async createUser(input: { id?: string; orgId: string; email: string; fullname: string; role: string; token?: NewToken; requireRole?: boolean }): Promise<User> {
    if (!isId(input.orgId)) throw noOrganization(input.orgId);
    const user: User = { id: input.id ?? randomUUID(), orgId: input.orgId, email: input.email, fullname: input.fullname, role: input.role, createdAt: nowIso(), disabledAt: null };
    const values = [user.id, user.orgId, user.email, user.fullname, user.role, user.createdAt];
    const insertUser = `INSERT INTO ${this.t.users} (id, org_id, email, fullname, role, created_at) VALUES ($1, $2, $3, $4, $5, $6)`;
    // With a token, one statement: the user never exists without it. A role of the organization's
    // is locked (lockRole) in the same transaction, so one deleted meanwhile is not given.
    await this.transaction(async (client) => {
      await (input.token
        ? client.query(`WITH u AS (${insertUser}) INSERT INTO ${this.t.tokens} (id, hash, user_id, last4, created_at) VALUES ($7, $8, $1, $9, $6)`,
          [...values, randomUUID(), input.token.hash, input.token.last4])
        : client.query(insertUser, values));
      if (input.requireRole) await this.lockRole(client, user.orgId, user.role);
    })
      .catch((err: unknown) => {
        // Two unique constraints: the key (an id chosen twice) and (org_id, email).
        const key = (err as { constraint?: unknown } | null)?.constraint === 'users_pkey';
        return rethrowAs({ [UNIQUE_VIOLATION]: () => (key ? idTaken('user', user.id) : emailTaken(input.email)), [FOREIGN_KEY_VIOLATION]: () => noOrganization(input.orgId) })(err);
      });
    return user;
  }

  async getUser(id: string): Promise<User | null> {
    if (!isId(id)) return null;
    const { rows } = await this.sql<UserRow>(`SELECT * FROM ${this.t.users} WHERE id = $1`, [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async listUsers(orgId: string): Promise<User[]> {
    if (!isId(orgId)) return [];
    return (await this.sql<UserRow>(`SELECT * FROM ${this.t.users} WHERE org_id = $1 ORDER BY created_at, id`, [orgId])).rows.map(toUser);
  }

  async listRoles(orgId: string): Promise<RoleDefinition[]> {
    if (!isId(orgId)) return [];
    return (await this.sql<RoleRow>(`SELECT * FROM ${this.t.roles} WHERE org_id = $1 ORDER BY name COLLATE "C"`, [orgId])).rows.map(toRole);
  }

  async listTokenHashes(userId: string): Promise<string[]> {
    if (!isId(userId)) return [];
    const { rows } = await this.sql<{ hash: string }>(`SELECT hash FROM ${this.t.tokens} WHERE user_id = $1 AND revoked_at IS NULL ORDER BY created_at, hash`, [userId]);
    return rows.map((r) => r.hash);
  }

  async updateUser(id: string, changes: { role?: string; disabled?: boolean; requireRole?: boolean }): Promise<User | null> {
    if (!isId(id)) return null;
    // One statement, as updateOrganization; a disabled user keeps the time they were first disabled.
    // A role given is locked (lockRole) in the same transaction, so one deleted meanwhile is not given.
    return this.transaction(async (client) => {
      const { rows } = await client.query<UserRow>(`
        UPDATE ${this.t.users} SET role = coalesce($2, role),
          disabled_at = CASE WHEN $3::boolean IS NULL THEN disabled_at WHEN $3 THEN coalesce(disabled_at, $4::timestamptz) ELSE NULL END
        WHERE id = $1 RETURNING *`, [id, changes.role ?? null, changes.disabled ?? null, nowIso()]);
      if (rows[0] && changes.role !== undefined && changes.requireRole) await this.lockRole(client, rows[0].org_id, changes.role);
      return rows[0] ? toUser(rows[0]) : null;
    });
  }

  /**
   * Throws unless `role` is admin or a role the organization defines, its row locked (FOR KEY SHARE)
   * until the transaction ends: deleteRole locks it FOR UPDATE first, so whichever comes second sees
   * what the first committed (a role deleted is not given; a role given is not deleted).
   */
  private async lockRole(client: PoolClient, orgId: string, role: string): Promise<void> {
    if (role === ADMIN_ROLE) return;
    const { rows } = await client.query(`SELECT 1 FROM ${this.t.roles} WHERE org_id = $1 AND name = $2 FOR KEY SHARE`, [orgId, role]);
    if (rows.length === 0) throw noRole(orgId, role);
  }

  async deleteUser(id: string): Promise<UserDeletion> {
    if (!isId(id)) return 'absent';
    // The organization's row is locked first, as setPrimaryUser locks it: whichever comes second
    // sees what the first committed (a user made primary is not removed; a user removed is not made primary).
    return this.transaction(async (client) => {
      const { rows: [r] } = await client.query<{ primary_user_id: string | null }>(`
        SELECT o.primary_user_id FROM ${this.t.orgs} o WHERE o.id = (SELECT org_id FROM ${this.t.users} WHERE id = $1) FOR UPDATE`, [id]);
      if (!r) return 'absent';
      if (r.primary_user_id === id) return 'primary';
      // One statement: the tokens and the user go together (the foreign key is checked at its end).
      const { rows } = await client.query(`
        WITH t AS (DELETE FROM ${this.t.tokens} WHERE user_id = $1)
        DELETE FROM ${this.t.users} WHERE id = $1 RETURNING id`, [id]);
      return rows.length > 0 ? 'deleted' : 'absent';
    });
  }

  async deleteOrganization(id: string): Promise<boolean> {
    if (!isId(id)) return false;
    const { rows } = await this.write(`
      WITH t AS (DELETE FROM ${this.t.tokens} WHERE user_id IN (SELECT id FROM ${this.t.users} WHERE org_id = $1)),
           u AS (DELETE FROM ${this.t.users} WHERE org_id = $1),
           r AS (DELETE FROM ${this.t.roles} WHERE org_id = $1),
           n AS (DELETE FROM ${this.t.notices} WHERE org_id = $1)
      DELETE FROM ${this.t.orgs} WHERE id = $1 RETURNING id`, [id]);
    return rows.length > 0;
  }

  async setRole(input: { orgId: string; name: string; grants: Record<string, ObjectGrant> }): Promise<RoleDefinition> {
    if (!isId(input.orgId)) throw noOrganization(input.orgId);
    const grants = JSON.stringify(input.grants);
    const role: RoleDefinition = { orgId: input.orgId, name: input.name, grants: JSON.parse(grants) as Record<string, ObjectGrant>, updatedAt: nowIso() };
    await this.write(`INSERT INTO ${this.t.roles} (org_id, name, grants, updated_at) VALUES ($1, $2, $3, $4)
      ON CONFLICT (org_id, name) DO UPDATE SET grants = excluded.grants, updated_at = excluded.updated_at`, [role.orgId, role.name, grants, role.updatedAt])
      .catch(rethrowAs({ [FOREIGN_KEY_VIOLATION]: () => noOrganization(input.orgId) }));
    return role;
  }

  async getRole(orgId: string, name: string): Promise<RoleDefinition | null> {
    if (!isId(orgId)) return null;
    const { rows } = await this.sql<RoleRow>(`SELECT * FROM ${this.t.roles} WHERE org_id = $1 AND name = $2`, [orgId, name]);
    return rows[0] ? toRole(rows[0]) : null;
  }

  async disabledUserOf(tokenHash: string): Promise<{ userId: string; disabledAt: string } | null> {
    const { rows } = await this.sql<{ id: string; disabled_at: Date }>(`SELECT u.id, u.disabled_at FROM ${this.t.tokens} t JOIN ${this.t.users} u ON u.id = t.user_id
      WHERE t.hash = $1 AND t.revoked_at IS NULL AND u.disabled_at IS NOT NULL`, [tokenHash]);
    return rows[0] ? { userId: rows[0].id, disabledAt: iso(rows[0].disabled_at) } : null;
  }

  async deleteRole(orgId: string, name: string): Promise<RoleDeletion> {
    if (!isId(orgId)) return 'absent';
    // The role's row locked first (see lockRole): the users are then read as they are once it is,
    // so a user given the role by a transaction that committed meanwhile is seen.
    return this.transaction(async (client): Promise<RoleDeletion> => {
      const { rows: [role] } = await client.query(`SELECT 1 FROM ${this.t.roles} WHERE org_id = $1 AND name = $2 FOR UPDATE`, [orgId, name]);
      if (!role) return 'absent';
      const { rows: heldBy } = await client.query<{ id: string; email: string }>(`SELECT id, email FROM ${this.t.users} WHERE org_id = $1 AND role = $2 ORDER BY created_at, id`, [orgId, name]);
      if (heldBy.length > 0) return { heldBy };
      await client.query(`DELETE FROM ${this.t.roles} WHERE org_id = $1 AND name = $2`, [orgId, name]);
      return 'deleted';
    });
  }

  async addToken(userId: string, tokenHash: string, last4: string | null = null): Promise<TokenInfo> {
    if (!isId(userId)) throw noUser(userId);
    const token: TokenInfo = { id: randomUUID(), userId, last4, createdAt: nowIso(), lastUsedAt: null, revokedAt: null };
    await this.write(`INSERT INTO ${this.t.tokens} (id, hash, user_id, last4, created_at) VALUES ($1, $2, $3, $4, $5)`, [token.id, tokenHash, userId, last4, token.createdAt])
      .catch(rethrowAs({ [FOREIGN_KEY_VIOLATION]: () => noUser(userId) }));
    return token;
  }

  async listTokens(userId: string): Promise<TokenInfo[]> {
    if (!isId(userId)) return [];
    return (await this.sql<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM ${this.t.tokens} WHERE user_id = $1 ORDER BY created_at, id`, [userId])).rows.map(toToken);
  }

  async revokeTokenById(id: string): Promise<TokenInfo | null> {
    if (!isId(id)) return null;
    const { rows } = await this.write<TokenRow>(`UPDATE ${this.t.tokens} SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING ${TOKEN_COLUMNS}`, [id, nowIso()]);
    return rows[0] ? toToken(rows[0]) : null;
  }

  async rotateToken(id: string, newHash: string, last4: string): Promise<{ revoked: TokenInfo; created: TokenInfo } | null> {
    if (!isId(id)) return null;
    const now = nowIso();
    // One statement, so the old token is revoked exactly when the new one exists.
    const { rows } = await this.write<TokenRow & { kind: string }>(`
      WITH old AS (UPDATE ${this.t.tokens} SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING ${TOKEN_COLUMNS}),
           new AS (INSERT INTO ${this.t.tokens} (id, hash, user_id, last4, created_at) SELECT $3, $4, user_id, $5, $2 FROM old RETURNING ${TOKEN_COLUMNS})
      SELECT 'old' AS kind, * FROM old UNION ALL SELECT 'new' AS kind, * FROM new`, [id, now, randomUUID(), newHash, last4]);
    const revoked = rows.find((r) => r.kind === 'old');
    const created = rows.find((r) => r.kind === 'new');
    return revoked && created ? { revoked: toToken(revoked), created: toToken(created) } : null;
  }

  async revokeToken(tokenHash: string): Promise<boolean> {
    const { rowCount } = await this.write(`UPDATE ${this.t.tokens} SET revoked_at = $2 WHERE hash = $1 AND revoked_at IS NULL`, [tokenHash, nowIso()]);
    return (rowCount ?? 0) > 0;
  }

  async resolveToken(tokenHash: string): Promise<TokenIdentity | null> {
    const cache = this.changes?.trusted() === true;
    if (cache) {
      const kept = this.identities.get(tokenHash);
      if (kept) return kept;
    }
    const generation = this.generation;
    const identity = await this.readIdentity(tokenHash);
    // Kept only if nothing was dropped while it was read (a change may have committed meanwhile).
    if (identity && cache && generation === this.generation) {
      if (this.identities.size >= MAX_IDENTITIES) this.identities.clear();
      this.identities.set(tokenHash, identity);
      this.keptOrgs.add(identity.org);
    }
    return identity;
  }

  async isCurrent(org: Pick<Organization, 'id' | 'createdAt'>): Promise<boolean> {
    if (this.changes?.trusted() === true && this.keptOrgs.has(org)) return true;
    if (!isId(org.id)) return false;
    const { rows } = await this.sql<{ created_at: Date }>(`SELECT created_at FROM ${this.t.orgs} WHERE id = $1`, [org.id]);
    return rows[0] !== undefined && iso(rows[0].created_at) === org.createdAt;
  }

  private async readIdentity(tokenHash: string): Promise<TokenIdentity | null> {
    const { rows: [r] } = await this.sql<OrgRow & Record<string, unknown>>(this.identitySql, [tokenHash]);
    if (!r) return null;
    const user = toUser({ id: r.u_id as string, org_id: r.u_org_id as string, email: r.u_email as string, fullname: r.u_fullname as string, role: r.u_role as string, created_at: r.u_created_at as Date, disabled_at: null });
    return {
      tokenHash,
      lastUsedAt: isoOrNull(r.t_last_used_at as Date | null),
      user,
      org: toOrg(r),
      role: r.r_grants ? toRole({ org_id: user.orgId, name: user.role, grants: r.r_grants as Record<string, ObjectGrant>, updated_at: r.r_updated_at as Date }) : null,
    };
  }

  async touchToken(tokenHash: string, at: string): Promise<void> {
    await this.sql(this.touchSql, [tokenHash, at]);
  }

  async ping(): Promise<void> {
    await this.sql('SELECT 1'); // the schema migrated first, as every statement of this.sql is
  }

  /** Nothing to release: the pool is the caller's (see the constructor). */
  async close(): Promise<void> {}
}
