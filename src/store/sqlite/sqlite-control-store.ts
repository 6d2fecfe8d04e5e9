// The embedded control plane: organizations, users, roles and token digests in <data>/control.db.
// The CLI and a running server share the file (WAL), so a revoked token or a changed role or plan
// is seen on the next request.

import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { emailTaken, idTaken, noOrganization, noRole, noUser, rethrowAs } from '../control-errors.js';
import { ADMIN_ROLE } from '../../auth/permissions.js';
import type { ControlStore, FixtureLoadState, NewToken, RoleDeletion, UserDeletion } from '../types.js';
import { KeyedLock, loaderMark, markState } from '../fixture-loader.js';
import type { ObjectGrant, RoleDefinition } from '../../auth/roles.js';
import type { Organization, TokenIdentity, TokenInfo, User } from '../../auth/identity.js';
import type { PlanName } from '../../auth/plans.js';
import { migrate, openDb, prepared, PRIVATE_DIR_MODE, type Db, type Migration } from './sqlite-db.js';

/** Versioned migrations of control.db; append only. */
const CONTROL_MIGRATIONS: readonly Migration[] = [
  (db) => {
    db.exec(`
      CREATE TABLE organizations (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        plan TEXT NOT NULL,
        minute_limit INTEGER,
        primary_user_id TEXT,
        created_at TEXT NOT NULL
      );
      CREATE TABLE users (
        id TEXT PRIMARY KEY NOT NULL,
        org_id TEXT NOT NULL REFERENCES organizations (id),
        email TEXT NOT NULL COLLATE NOCASE,
        fullname TEXT NOT NULL,
        role TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (org_id, email)
      );
      CREATE TABLE tokens (
        hash TEXT PRIMARY KEY NOT NULL,
        user_id TEXT NOT NULL REFERENCES users (id),
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        last_used_at TEXT
      );
      CREATE INDEX ix_tokens_user ON tokens (user_id);
    `);
  },
  // 2: roles (docs/access.md). `grants` is JSON: system name → {permissions, hidden, readOnly}.
  (db) => {
    db.exec(`
      CREATE TABLE roles (
        org_id TEXT NOT NULL REFERENCES organizations (id),
        name TEXT NOT NULL,
        grants TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (org_id, name)
      );
    `);
  },
  // 3: people and tokens administration (docs/operations.md): a user's disabled time; a token's id,
  // given now to the tokens already there, and its last 4 characters (unknown for those).
  (db) => {
    db.exec(`
      ALTER TABLE users ADD COLUMN disabled_at TEXT;
      ALTER TABLE tokens ADD COLUMN id TEXT;
      ALTER TABLE tokens ADD COLUMN last4 TEXT;
    `);
    const setId = db.prepare('UPDATE tokens SET id = ? WHERE hash = ?');
    for (const hash of db.prepare('SELECT hash FROM tokens').pluck().all() as string[]) setId.run(randomUUID(), hash);
    db.exec(`
      CREATE UNIQUE INDEX ix_tokens_id ON tokens (id);
      CREATE INDEX ix_users_org ON users (org_id);
    `);
  },
  // 4: the organizations that have webhooks, whose outboxes the delivery workers look at (docs/webhooks.md).
  (db) => {
    db.exec('ALTER TABLE organizations ADD COLUMN webhooks INTEGER NOT NULL DEFAULT 0');
  },
  // 5: the mark of an organization a fixtures load is making, naming its process (fixture-loader.ts);
  // none once the load finished (docs/fixtures.md).
  (db) => {
    db.exec('ALTER TABLE organizations ADD COLUMN fixture_loader TEXT');
  },
];

interface OrgRow { id: string; name: string; plan: string; minute_limit: number | null; primary_user_id: string | null; created_at: string }
interface UserRow { id: string; org_id: string; email: string; fullname: string; role: string; created_at: string; disabled_at: string | null }
interface TokenRow { id: string; user_id: string; last4: string | null; created_at: string; last_used_at: string | null; revoked_at: string | null }
interface RoleRow { org_id: string; name: string; grants: string; updated_at: string }

const toOrg = (r: OrgRow): Organization => ({
  id: r.id, name: r.name, plan: r.plan as PlanName, minuteLimit: r.minute_limit, primaryUserId: r.primary_user_id, createdAt: r.created_at,
});
const toUser = (r: UserRow): User => ({
  id: r.id, orgId: r.org_id, email: r.email, fullname: r.fullname, role: r.role, createdAt: r.created_at, disabledAt: r.disabled_at,
});
const toToken = (r: TokenRow): TokenInfo => ({
  id: r.id, userId: r.user_id, last4: r.last4, createdAt: r.created_at, lastUsedAt: r.last_used_at, revokedAt: r.revoked_at,
});
const TOKEN_COLUMNS = 'id, user_id, last4, created_at, last_used_at, revoked_at';
const toRole = (r: RoleRow): RoleDefinition => ({
  orgId: r.org_id, name: r.name, grants: JSON.parse(r.grants) as Record<string, ObjectGrant>, updatedAt: r.updated_at,
});

const nowIso = (): string => new Date().toISOString();

/** How long a token's use may wait to be written with the others (see touchToken). */
export const TOUCH_FLUSH_MS = 1_000;

export class SqliteControlStore implements ControlStore {
  private readonly db: Db;
  /**
   * Live tokens already resolved, so the hot path reads no rows. Emptied by every write of this
   * connection and whenever another connection (the CLI, another process) commits to the file,
   * which SQLite's data_version, read on every call, reveals: a revocation anywhere takes effect on
   * the next request. Unknown tokens are never cached.
   */
  private readonly identities = new Map<string, TokenIdentity>();
  private dataVersion = -1;
  /** Token uses not yet written: digest → ISO time (see touchToken). */
  private readonly touches = new Map<string, string>();
  private touchTimer: NodeJS.Timeout | undefined;
  /** Fixtures loads of this process, one at a time per organization (lockFixtureLoad). */
  private readonly fixtureLocks = new KeyedLock();

  constructor(dataDir: string) {
    // Owner-only when Orchard makes it: control.db holds token digests, organizations' files webhook secrets (docs/operations.md).
    fs.mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const file = path.join(dataDir, 'control.db');
    this.db = openDb(file);
    this.db.pragma('foreign_keys = ON');
    migrate(this.db, CONTROL_MIGRATIONS);
  }

  async createOrganization(input: { id?: string; name: string; plan: PlanName; minuteLimit: number | null; fixtureLoad?: boolean }): Promise<Organization> {
    this.identities.clear();
    return toOrg(this.insertOrganization(input, null, input.fixtureLoad ? loaderMark() : null));
  }

  async fixtureLoad(orgId: string): Promise<FixtureLoadState> {
    const row = prepared(this.db, 'SELECT fixture_loader FROM organizations WHERE id = ?').get(orgId) as { fixture_loader: string | null } | undefined;
    return markState(row?.fixture_loader ?? null);
  }

  async finishFixtureLoad(orgId: string): Promise<void> {
    prepared(this.db, 'UPDATE organizations SET fixture_loader = NULL WHERE id = ?').run(orgId);
  }

  lockFixtureLoad(orgId: string): Promise<() => Promise<void>> {
    return this.fixtureLocks.acquire(orgId);
  }

  async createOrganizationWithUser(input: { id?: string; name: string; plan: PlanName; minuteLimit: number | null; user: { id?: string; email: string; fullname: string; role: string }; token: NewToken }): Promise<{ org: Organization; user: User }> {
    this.identities.clear();
    const userId = input.user.id ?? randomUUID();
    return this.db.transaction(() => {
      const org = toOrg(this.insertOrganization(input, userId));
      const user = toUser(this.insertUser({ ...input.user, id: userId, orgId: org.id, token: input.token }));
      return { org, user };
    }).immediate();
  }

  private insertOrganization(input: { id?: string; name: string; plan: PlanName; minuteLimit: number | null }, primaryUserId: string | null, fixtureLoader: string | null = null): OrgRow {
    const row: OrgRow = { id: input.id ?? randomUUID(), name: input.name, plan: input.plan, minute_limit: input.minuteLimit, primary_user_id: primaryUserId, created_at: nowIso() };
    try {
      prepared(this.db, 'INSERT INTO organizations (id, name, plan, minute_limit, primary_user_id, created_at, fixture_loader) VALUES (@id, @name, @plan, @minute_limit, @primary_user_id, @created_at, @fixture_loader)')
        .run({ ...row, fixture_loader: fixtureLoader });
    } catch (err) {
      rethrowAs({ SQLITE_CONSTRAINT_PRIMARYKEY: () => idTaken('organization', row.id) })(err);
    }
    return row;
  }

  async setPrimaryUser(orgId: string, userId: string): Promise<void> {
    this.identities.clear();
    const { changes } = prepared(this.db, 'UPDATE organizations SET primary_user_id = ? WHERE id = ? AND EXISTS (SELECT 1 FROM users WHERE id = ? AND org_id = ?)')
      .run(userId, orgId, userId, orgId);
    if (changes === 0) throw (await this.getOrganization(orgId)) ? noUser(userId, orgId) : noOrganization(orgId);
  }

  async getOrganization(id: string): Promise<Organization | null> {
    const r = prepared(this.db, 'SELECT * FROM organizations WHERE id = ?').get(id) as OrgRow | undefined;
    return r ? toOrg(r) : null;
  }

  async updateOrganization(id: string, changes: { plan?: PlanName; minuteLimit?: number | null }): Promise<Organization | null> {
    this.identities.clear();
    return this.db.transaction(() => {
      const r = prepared(this.db, 'SELECT * FROM organizations WHERE id = ?').get(id) as OrgRow | undefined;
      if (!r) return null;
      const plan = changes.plan ?? (r.plan as PlanName);
      const minuteLimit = changes.minuteLimit !== undefined ? changes.minuteLimit : r.minute_limit;
      prepared(this.db, 'UPDATE organizations SET plan = ?, minute_limit = ? WHERE id = ?').run(plan, minuteLimit, id);
      return toOrg({ ...r, plan, minute_limit: minuteLimit });
    }).immediate();
  }

  async listOrganizations(): Promise<Organization[]> {
    return (prepared(this.db, 'SELECT * FROM organizations ORDER BY created_at, id').all() as OrgRow[]).map(toOrg);
  }

  async markWebhooks(orgId: string): Promise<void> {
    prepared(this.db, 'UPDATE organizations SET webhooks = 1 WHERE id = ? AND webhooks = 0').run(orgId);
  }

  async webhookOrganizations(): Promise<string[]> {
    return prepared(this.db, 'SELECT id FROM organizations WHERE webhooks = 1 ORDER BY created_at, id').pluck().all() as string[];
  }

  async createUser(input: { id?: string; orgId: string; email: string; fullname: string; role: string; token?: NewToken; requireRole?: boolean }): Promise<User> {
    this.identities.clear();
    return toUser(this.db.transaction(() => this.insertUser(input)).immediate());
  }

  /** The user's row, and their first token when given; run in a transaction. */
  private insertUser(input: { id?: string; orgId: string; email: string; fullname: string; role: string; token?: NewToken; requireRole?: boolean }): UserRow {
    const row: UserRow = { id: input.id ?? randomUUID(), org_id: input.orgId, email: input.email, fullname: input.fullname, role: input.role, created_at: nowIso(), disabled_at: null };
    try {
      prepared(this.db, 'INSERT INTO users (id, org_id, email, fullname, role, created_at) VALUES (@id, @org_id, @email, @fullname, @role, @created_at)').run(row);
    } catch (err) {
      rethrowAs({
        SQLITE_CONSTRAINT_UNIQUE: () => emailTaken(input.email),
        SQLITE_CONSTRAINT_PRIMARYKEY: () => idTaken('user', row.id),
        SQLITE_CONSTRAINT_FOREIGNKEY: () => noOrganization(input.orgId),
      })(err);
    }
    if (input.requireRole) this.checkRole(input.orgId, input.role);
    if (input.token) this.insertToken(row.id, input.token.hash, input.token.last4);
    return row;
  }

  /**
   * Throws unless `role` is admin or a role the organization defines; in the write transaction that
   * gives it, so a role deleted meanwhile (deleteRole, in a transaction of its own) is not given.
   */
  private checkRole(orgId: string, role: string): void {
    if (role !== ADMIN_ROLE && !prepared(this.db, 'SELECT 1 FROM roles WHERE org_id = ? AND name = ?').get(orgId, role)) throw noRole(orgId, role);
  }

  async getUser(id: string): Promise<User | null> {
    const r = prepared(this.db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
    return r ? toUser(r) : null;
  }

  async listUsers(orgId: string): Promise<User[]> {
    return (prepared(this.db, 'SELECT * FROM users WHERE org_id = ? ORDER BY created_at, id').all(orgId) as UserRow[]).map(toUser);
  }

  async listRoles(orgId: string): Promise<RoleDefinition[]> {
    return (prepared(this.db, 'SELECT * FROM roles WHERE org_id = ? ORDER BY name').all(orgId) as RoleRow[]).map(toRole);
  }

  async listTokenHashes(userId: string): Promise<string[]> {
    return prepared(this.db, 'SELECT hash FROM tokens WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at, hash').pluck().all(userId) as string[];
  }

  async updateUser(id: string, changes: { role?: string; disabled?: boolean; requireRole?: boolean }): Promise<User | null> {
    this.identities.clear();
    return this.db.transaction(() => {
      const r = prepared(this.db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
      if (!r) return null;
      const role = changes.role ?? r.role;
      if (changes.role !== undefined && changes.requireRole) this.checkRole(r.org_id, changes.role);
      const disabledAt = changes.disabled === undefined ? r.disabled_at : changes.disabled ? (r.disabled_at ?? nowIso()) : null;
      prepared(this.db, 'UPDATE users SET role = ?, disabled_at = ? WHERE id = ?').run(role, disabledAt, id);
      return toUser({ ...r, role, disabled_at: disabledAt });
    }).immediate();
  }

  async deleteUser(id: string): Promise<UserDeletion> {
    this.identities.clear();
    // The look at the primary user and the removal in one write transaction: no other connection
    // can make the user primary in between.
    return this.db.transaction((): UserDeletion => {
      const r = prepared(this.db, 'SELECT o.primary_user_id AS primary_user_id FROM users u LEFT JOIN organizations o ON o.id = u.org_id WHERE u.id = ?')
        .get(id) as { primary_user_id: string | null } | undefined;
      if (!r) return 'absent';
      if (r.primary_user_id === id) return 'primary';
      prepared(this.db, 'DELETE FROM tokens WHERE user_id = ?').run(id);
      prepared(this.db, 'DELETE FROM users WHERE id = ?').run(id);
      return 'deleted';
    }).immediate();
  }

  async deleteOrganization(id: string): Promise<boolean> {
    this.identities.clear();
    return this.db.transaction(() => {
      prepared(this.db, 'DELETE FROM tokens WHERE user_id IN (SELECT id FROM users WHERE org_id = ?)').run(id);
      prepared(this.db, 'DELETE FROM users WHERE org_id = ?').run(id);
      prepared(this.db, 'DELETE FROM roles WHERE org_id = ?').run(id);
      return prepared(this.db, 'DELETE FROM organizations WHERE id = ?').run(id).changes > 0;
    }).immediate();
  }

  async setRole(input: { orgId: string; name: string; grants: Record<string, ObjectGrant> }): Promise<RoleDefinition> {
    this.identities.clear();
    const row: RoleRow = { org_id: input.orgId, name: input.name, grants: JSON.stringify(input.grants), updated_at: nowIso() };
    try {
      prepared(this.db, `INSERT INTO roles (org_id, name, grants, updated_at) VALUES (@org_id, @name, @grants, @updated_at)
        ON CONFLICT (org_id, name) DO UPDATE SET grants = excluded.grants, updated_at = excluded.updated_at`).run(row);
    } catch (err) {
      rethrowAs({ SQLITE_CONSTRAINT_FOREIGNKEY: () => noOrganization(input.orgId) })(err);
    }
    return toRole(row);
  }

  async getRole(orgId: string, name: string): Promise<RoleDefinition | null> {
    const r = prepared(this.db, 'SELECT * FROM roles WHERE org_id = ? AND name = ?').get(orgId, name) as RoleRow | undefined;
    return r ? toRole(r) : null;
  }

  async disabledUserOf(tokenHash: string): Promise<{ userId: string; disabledAt: string } | null> {
    const r = prepared(this.db, `SELECT u.id, u.disabled_at FROM tokens t JOIN users u ON u.id = t.user_id
      WHERE t.hash = ? AND t.revoked_at IS NULL AND u.disabled_at IS NOT NULL`).get(tokenHash) as { id: string; disabled_at: string } | undefined;
    return r ? { userId: r.id, disabledAt: r.disabled_at } : null;
  }

  async deleteRole(orgId: string, name: string): Promise<RoleDeletion> {
    this.identities.clear();
    return this.db.transaction((): RoleDeletion => {
      const heldBy = prepared(this.db, 'SELECT id, email FROM users WHERE org_id = ? AND role = ? ORDER BY created_at, id').all(orgId, name) as Array<{ id: string; email: string }>;
      if (heldBy.length > 0) return { heldBy };
      return prepared(this.db, 'DELETE FROM roles WHERE org_id = ? AND name = ?').run(orgId, name).changes > 0 ? 'deleted' : 'absent';
    }).immediate();
  }

  async addToken(userId: string, tokenHash: string, last4: string | null = null): Promise<TokenInfo> {
    this.identities.clear();
    try {
      return this.insertToken(userId, tokenHash, last4);
    } catch (err) {
      return rethrowAs({ SQLITE_CONSTRAINT_FOREIGNKEY: () => noUser(userId) })(err);
    }
  }

  private insertToken(userId: string, tokenHash: string, last4: string | null): TokenInfo {
    const row: TokenRow = { id: randomUUID(), user_id: userId, last4, created_at: nowIso(), last_used_at: null, revoked_at: null };
    prepared(this.db, 'INSERT INTO tokens (id, hash, user_id, last4, created_at) VALUES (?, ?, ?, ?, ?)').run(row.id, tokenHash, userId, last4, row.created_at);
    return toToken(row);
  }

  async listTokens(userId: string): Promise<TokenInfo[]> {
    this.flushTouches();
    return (prepared(this.db, `SELECT ${TOKEN_COLUMNS} FROM tokens WHERE user_id = ? ORDER BY created_at, id`).all(userId) as TokenRow[]).map(toToken);
  }

  async revokeToken(tokenHash: string): Promise<boolean> {
    this.identities.clear();
    return prepared(this.db, 'UPDATE tokens SET revoked_at = ? WHERE hash = ? AND revoked_at IS NULL').run(nowIso(), tokenHash).changes > 0;
  }

  async revokeTokenById(id: string): Promise<TokenInfo | null> {
    this.identities.clear();
    this.flushTouches();
    const r = prepared(this.db, `UPDATE tokens SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? RETURNING ${TOKEN_COLUMNS}`).get(nowIso(), id) as TokenRow | undefined;
    return r ? toToken(r) : null;
  }

  async rotateToken(id: string, newHash: string, last4: string): Promise<{ revoked: TokenInfo; created: TokenInfo } | null> {
    this.identities.clear();
    this.flushTouches();
    return this.db.transaction(() => {
      const r = prepared(this.db, `UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING ${TOKEN_COLUMNS}`).get(nowIso(), id) as TokenRow | undefined;
      if (!r) return null;
      return { revoked: toToken(r), created: this.insertToken(r.user_id, newHash, last4) };
    }).immediate();
  }

  /** One primary-key read (a file of this process): another process's delete is seen at once. */
  async isCurrent(org: Pick<Organization, 'id' | 'createdAt'>): Promise<boolean> {
    const createdAt = prepared(this.db, 'SELECT created_at FROM organizations WHERE id = ?').pluck().get(org.id) as string | undefined;
    return createdAt === org.createdAt;
  }

  async resolveToken(tokenHash: string): Promise<TokenIdentity | null> {
    const version = prepared(this.db, 'PRAGMA data_version').pluck().get() as number;
    if (version !== this.dataVersion) {
      this.identities.clear();
      this.dataVersion = version;
    }
    const cached = this.identities.get(tokenHash);
    if (cached) return this.withPendingUse(cached);
    const identity = this.readIdentity(tokenHash);
    if (identity) {
      if (this.identities.size >= 10_000) this.identities.clear();
      this.identities.set(tokenHash, identity);
    }
    return this.withPendingUse(identity);
  }

  private readIdentity(tokenHash: string): TokenIdentity | null {
    const r = prepared(this.db, `
      SELECT t.last_used_at AS t_last_used_at,
             u.id AS u_id, u.org_id AS u_org_id, u.email AS u_email, u.fullname AS u_fullname, u.role AS u_role, u.created_at AS u_created_at,
             o.id, o.name, o.plan, o.minute_limit, o.primary_user_id, o.created_at,
             r.grants AS r_grants, r.updated_at AS r_updated_at
      FROM tokens t JOIN users u ON u.id = t.user_id JOIN organizations o ON o.id = u.org_id
      LEFT JOIN roles r ON r.org_id = u.org_id AND r.name = u.role
      WHERE t.hash = ? AND t.revoked_at IS NULL AND u.disabled_at IS NULL`).get(tokenHash) as (OrgRow & Record<string, string | null>) | undefined;
    if (!r) return null;
    // The role is read with the token, so the identity cache (emptied on any change to the file)
    // never serves a role definition older than the last `orchard role set`.
    const role = r.r_grants ? toRole({ org_id: r.u_org_id!, name: r.u_role!, grants: r.r_grants, updated_at: r.r_updated_at! }) : null;
    return {
      tokenHash,
      lastUsedAt: r.t_last_used_at ?? null,
      user: { id: r.u_id!, orgId: r.u_org_id!, email: r.u_email!, fullname: r.u_fullname!, role: r.u_role!, createdAt: r.u_created_at!, disabledAt: null },
      org: toOrg(r),
      role,
    };
  }

  /**
   * Recorded now, written within TOUCH_FLUSH_MS with every other use recorded meanwhile, in one
   * transaction: a commit waits for the disk (synchronous=FULL) and holds the event loop, once per
   * token a minute, which with thousands of tokens in use was a commit every few milliseconds
   * (bench:orgs). Reads of the time (the token list) write what is pending first.
   */
  async touchToken(tokenHash: string, at: string): Promise<void> {
    this.touches.set(tokenHash, at);
    if (!this.touchTimer) {
      this.touchTimer = setTimeout(() => this.flushTouches(), TOUCH_FLUSH_MS);
      this.touchTimer.unref();
    }
  }

  /** The identity with its token's last use as recorded here, written or not yet. */
  private withPendingUse(identity: TokenIdentity | null): TokenIdentity | null {
    const pending = identity && this.touches.get(identity.tokenHash);
    return pending && pending !== identity.lastUsedAt ? { ...identity, lastUsedAt: pending } : identity;
  }

  /** Writes the token uses recorded; those a busy file refused stay for the next time. */
  private flushTouches(): void {
    clearTimeout(this.touchTimer);
    this.touchTimer = undefined;
    if (this.touches.size === 0) return;
    const update = prepared(this.db, 'UPDATE tokens SET last_used_at = ? WHERE hash = ?');
    try {
      this.db.transaction(() => {
        for (const [hash, at] of this.touches) update.run(at, hash);
      })();
      this.touches.clear();
    } catch {
      // Locked past the busy timeout by another process (the CLI): the next use or read tries again.
    }
  }

  async ping(): Promise<void> {
    prepared(this.db, 'SELECT 1 FROM organizations LIMIT 1').get();
  }

  async close(): Promise<void> {
    this.flushTouches();
    this.db.close();
  }
}
