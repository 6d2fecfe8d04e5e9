// The contracts of storage: the data plane (RecordStore) and the control plane (ControlStore).
// Each store (sqlite/, postgres/) implements them; shared conformance suites in test/store/ run against every one.

import type { AppError } from '../errors.js';
import type { GroupedPlan } from '../query/group-plan.js';
import type { QueryPlan } from '../query/plan.js';
import type { FieldSpec, ObjectSpec } from '../schema/build-object.js';
import type { OrgSchema } from '../schema/org-schema.js';
import type { ObjectDef, RecordRow, ViewSpec } from '../schema/types.js';
import type { AttachedFile } from '../schema/attached-files.js';
import type { Organization, TokenIdentity, TokenInfo, User } from '../auth/identity.js';
import type { ObjectGrant, RoleDefinition } from '../auth/roles.js';
import type { PlanName } from '../auth/plans.js';
import type { ChangeAuthor, ChangeEntry, ChangeLogState } from '../schema/changes.js';
import type { WebhookOutbox } from '../webhooks/webhook-types.js';

/**
 * A statement named a table or column the organization no longer has: its definitions changed (a
 * restore or reset by another process) after this process last read them. The call wrote nothing;
 * read the definitions again (OrgRecords.refreshSchema) and run it once more (service/org-gate.ts).
 */
export class DefinitionsChanged extends Error {
  constructor(cause: unknown) {
    super('the organization\'s definitions changed under the call', { cause });
    this.name = 'DefinitionsChanged';
  }
}

export interface PageRequest {
  /** Rows to return, 1–500. */
  readonly limit: number;
  /** Rows to skip. */
  readonly offset: number;
}

/** A page of a record's history: of the entries numbered below `before` only, when given (docs/history.md). */
export interface HistoryRequest extends PageRequest {
  readonly before?: number;
}

/**
 * Checks the record as it is before a write changes it (If-Match): called in the write's transaction
 * with the record as GET returns it; an AppError it throws refuses the write, which changes nothing.
 */
export type RecordCheck = (current: RecordRow) => void;

/** A page of the change log to read (OrgRecords.changes). */
export interface ChangeRequest {
  /** The entries numbered above this (0: from the start). */
  readonly after: number;
  /** Entries to return at most, 1–1000. */
  readonly limit: number;
  /** Only the entries of this object; all when absent. */
  readonly objectType?: number;
}

/** A page of the change log, with the log's state read in the same snapshot. */
export interface ChangePage extends ChangeLogState {
  /** Oldest first: every entry numbered above `after` and up to `next` (of the object asked for), and no other. */
  readonly entries: ChangeEntry[];
  /**
   * Where the next page starts (its `after`): the last entry's number when the page is full, else
   * the highest number looked at (at most FEED_SPAN past `after`, and `last` when the log was read to
   * its end). Never below `after`.
   */
  readonly next: number;
}

/** The records of one organization. All methods are safe to call concurrently. */
export interface OrgRecords {
  /**
   * Its webhooks and their outbox, in its own database beside its records (docs/webhooks.md). The
   * writes of records (create, update, delete, their batches) add the deliveries they make in their
   * own transaction: an acknowledged write never lacks them.
   */
  readonly webhooks: WebhookOutbox;
  /**
   * The organization's objects as committed when it is called, by this object or any other
   * (another process included). Every read and write sees every commit made before it was called.
   */
  schema(): Promise<OrgSchema>;
  /**
   * Reads the definitions as committed, whatever is kept in memory; true when they differ from those
   * the calls before it used. A store that keeps them between calls (PostgreSQL with a cache listener)
   * may have answered with definitions up to its bound old; a request that failed on a name they
   * lacked is run again when this says they were (service/org-gate.ts).
   */
  refreshSchema(): Promise<boolean>;
  /**
   * One page in GET-list order (createdon descending, ties by key descending) and the object's
   * record count, read in one snapshot. Runs where it cannot stall other requests; an aborted
   * `signal` stops it with REQUEST_TIMEOUT.
   */
  list(obj: ObjectDef, page: PageRequest, signal?: AbortSignal): Promise<{ total: number; records: RecordRow[] }>;
  /**
   * The page of a checked query plan: rows hold exactly the plan's fields in its order, and
   * `isLastPage` is exact (one row more than the page is fetched, nothing is counted).
   * Runs and cancels like `list`.
   */
  query(plan: QueryPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }>;
  /**
   * The page of groups of a checked grouped plan: each row holds the group fields, then the
   * aggregates under their aliases; `isLastPage` is exact as for `query`. Runs and cancels like `list`.
   */
  groups(plan: GroupedPlan, signal?: AbortSignal): Promise<{ rows: RecordRow[]; isLastPage: boolean }>;
  /** The record with that key (already checked to be a UUID), or null. */
  get(obj: ObjectDef, id: string): Promise<RecordRow | null>;
  /**
   * Inserts a record already checked by schema/record-input.ts (every stored field present);
   * returns it as GET would. Throws AppError RECORD_ID_TAKEN or LOOKUP_TARGET_MISSING.
   *
   * Every write of records (create, update, delete and their batches, bulkInsert) appends one
   * change-log entry per record written, by `author`, in the transaction of the write: a write is
   * never kept without its entry, nor an entry without its write. See changes().
   */
  create(obj: ObjectDef, row: RecordRow, author: ChangeAuthor): Promise<RecordRow>;
  /**
   * Applies checked changes (a subset of stored fields); null when no record has that id. Throws like
   * create. `check` is called in the transaction with the record as it is (as GET returns it) before
   * it changes; an AppError it throws refuses the update (If-Match).
   */
  update(obj: ObjectDef, id: string, changes: RecordRow, author: ChangeAuthor, check?: RecordCheck): Promise<RecordRow | null>;
  /** false when no record has that id. The record's files go with it (see attachFile). `check`: as update's. */
  delete(obj: ObjectDef, id: string, author: ChangeAuthor, check?: RecordCheck): Promise<boolean>;
  /**
   * Up to `limit` records of the object in key order, starting after the key `after` (null: from
   * the first), each as GET returns it: pages of an export. Each call reads its own snapshot, so a
   * record written between calls may or may not be seen; none is seen twice.
   */
  scan(obj: ObjectDef, after: string | null, limit: number): Promise<RecordRow[]>;
  /**
   * Batch writes (v3): each item is written or refused on its own (create and update refuse with
   * the AppErrors of create and update), all in one transaction, so one bad item never stops the
   * others. Results are in the order of the items: the record as GET returns it, null for an
   * update or delete of a missing id (false for delete), or the AppError that refused the item.
   * deleteMany removes each deleted record's files, as delete does.
   */
  createMany(obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<Array<RecordRow | AppError>>;
  updateMany(obj: ObjectDef, items: ReadonlyArray<{ id: string; changes: RecordRow }>, author: ChangeAuthor): Promise<Array<RecordRow | null | AppError>>;
  deleteMany(obj: ObjectDef, ids: readonly string[], author: ChangeAuthor): Promise<boolean[]>;
  /**
   * Told that a bulk load (an import, a fixtures file) has created `rows` records of `obj`: brings
   * the query planner's statistics of its table up to date before it returns, where the store
   * would otherwise leave them stale for a while (PostgreSQL: until autovacuum's next round, up to
   * a minute). SQLite's store counts its own as writes grow a table (sqlite-statistics.ts).
   */
  bulkLoaded?(obj: ObjectDef, rows: number): Promise<void>;
  /**
   * The change log after `request.after`, oldest first, with its state, read in one snapshot: an
   * entry is seen only once every entry numbered below it is (entries are numbered in the order
   * their writes commit, whichever process writes), so a reader that passes each page's `next` as
   * the next `after` sees every entry once. Entries at or below `floor` may be pruned, and a restore
   * or reset starts a log of another `epoch`: a reader whose `after` is below `floor`, above `last`
   * or of another epoch has missed entries (the caller decides what to answer). Reads at most
   * FEED_SPAN numbers past `after`.
   */
  changes(request: ChangeRequest): Promise<ChangePage>;
  /** A record's entries, newest first (a deleted record's too; those numbered below `page.before` only, when given), `page.limit` at most after skipping `page.offset`. */
  history(objectType: number, recordId: string, page: HistoryRequest): Promise<ChangeEntry[]>;
  /**
   * Removes the oldest entries made before `before` (a stored datetime), stopping at the first one
   * made at or after it, and raises `floor` past them; returns how many went. In batches, each its
   * own transaction; safe beside writes and other prunes (any process).
   */
  pruneChanges(before: string): Promise<number>;
  /**
   * Attaches a file to the record `file.objectid` of `obj` (file.objecttypecode is obj's number);
   * false, and nothing kept, when no record has that id. The file's row and the record's existence
   * are checked and written in one transaction; deleting the record (delete, deleteMany) removes its
   * files in the transaction that deletes it, and their content with it.
   */
  attachFile(obj: ObjectDef, file: AttachedFile, content: Buffer): Promise<boolean>;
  /** The files on a record, oldest first (ties by file id); null when no record has that id. */
  files(obj: ObjectDef, recordId: string): Promise<AttachedFile[] | null>;
  /** The files on all the object's records, by record id, each record's as files orders them: one read, for an export. */
  objectFiles(obj: ObjectDef): Promise<AttachedFile[]>;
  /** One file on a record and its content; null when the record has no file of that id. */
  fileContent(obj: ObjectDef, recordId: string, fileId: string): Promise<{ file: AttachedFile; content: Buffer } | null>;
  /** Removes a file from a record; false when the record has no file of that id. */
  deleteFile(obj: ObjectDef, recordId: string, fileId: string): Promise<boolean>;
  /**
   * Adds a custom object. `define` is called with the current schema while the store holds its
   * write lock, so concurrent definitions (any process) never take one number or name; it returns
   * the spec or throws an AppError, which aborts. The table and its indexes are created and the
   * schema version is bumped in one transaction; every process sees the object on its next request.
   */
  addObject(define: (schema: OrgSchema) => ObjectSpec): Promise<OrgSchema>;
  /** Adds a field to an object (a column, and an index when the field is indexed) on the same terms as addObject. */
  addField(objectType: number, define: (obj: ObjectDef, schema: OrgSchema) => FieldSpec): Promise<OrgSchema>;
  /**
   * Replaces the views of an object with those `change` returns, on the same terms as addObject
   * (called under the write lock with the definitions as committed; an AppError it throws aborts).
   */
  setViews(objectType: number, change: (obj: ObjectDef, schema: OrgSchema) => readonly ViewSpec[]): Promise<OrgSchema>;
}

/** The data plane: one isolated database (or schema) per organization. */
/** The part of pino (Fastify's logger) the stores tell what they do on their own through. */
export interface StoreLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface RecordStore {
  /** Opens (creating and migrating on first use) the organization's records. */
  org(orgId: string): Promise<OrgRecords>;
  /** Mirrors a user of the organization into its read-only crmuser object, so lookups to users resolve. */
  upsertUser(orgId: string, user: MirroredUser): Promise<void>;
  /**
   * Inserts many records fast, bypassing per-record checks the caller has already done (seeding),
   * each with its change-log entry (a create by `author`) in the transaction that inserts it.
   * Not atomic: a failure may leave some of the rows inserted.
   */
  bulkInsert(orgId: string, obj: ObjectDef, rows: readonly RecordRow[], author: ChangeAuthor): Promise<void>;
  /**
   * Saves a copy of the organization's objects and records as they are committed now, under
   * `name` (checked by the caller; a snapshot of that name is replaced). SQLite: an online backup
   * of its file under <data>/snapshots/; PostgreSQL: a copy of its schema in a schema of its own.
   */
  snapshot(orgId: string, name: string): Promise<SnapshotInfo>;
  /** The organization's snapshots, by name. */
  listSnapshots(orgId: string): Promise<SnapshotInfo[]>;
  /** false when it has no snapshot of that name. */
  deleteSnapshot(orgId: string, name: string): Promise<boolean>;
  /**
   * Replaces the organization's objects and records with the snapshot's, in one transaction: any
   * other connection or process sees the old state or the new, never a mixture. The crmuser object
   * (the mirror of its users) is kept as it is. The schema version moves past both, so every
   * process reads the definitions again on its next call. Throws AppError SNAPSHOT_NOT_FOUND.
   */
  restore(orgId: string, name: string): Promise<void>;
  /** As restore, from the state of a new organization: the standard objects, no records (crmuser kept). */
  clear(orgId: string): Promise<void>;
  /**
   * Removes every record of the organization for good (its file, or its schema); the control plane's
   * rows go first (ControlStore.deleteOrganization). Calls of this store on it that are under way
   * finish on what they had open; later ones (an OrgRecords taken before) fail ORGANIZATION_NOT_FOUND
   * rather than create it anew. A no-op when nothing is there.
   */
  dropOrg(orgId: string): Promise<void>;
  /**
   * Lets an organization this store dropped be made again under the same id (a fixture loaded anew
   * after a failed load removed it): org() creates it from then on. Only for an id whose control
   * rows are made anew, once the calls on the dropped one have ended.
   */
  recreatable(orgId: string): void;
  /**
   * Calls `listener` with the organization's id after each commit of this store object that made
   * webhook deliveries (the server's delivery worker then attempts them at once); returns how to
   * stop. Deliveries committed by other processes are not told of (the worker's sweep finds them).
   */
  watchDeliveries(listener: (orgId: string) => void): () => void;
  /** Resolves when the store can serve (its directory is writable, its database answers); rejects with the reason otherwise. */
  ping(): Promise<void>;
  /** What the store holds open at this moment, for metrics: read at any time, costs nothing. */
  stats(): RecordStoreStats;
  close(): Promise<void>;
}

/** A saved copy of an organization's records. */
export interface SnapshotInfo {
  readonly name: string;
  /** When it was taken: ISO 8601 UTC. */
  readonly createdAt: string;
  /** Its size on disk, in bytes. */
  readonly bytes: number;
}

export interface RecordStoreStats {
  /** Organizations whose records are open (SQLite: files; PostgreSQL: schemas with their compiled statements). */
  readonly openOrganizations: number;
  /** Reader threads started (SQLite; 0 on PostgreSQL). */
  readonly readerThreads: number;
  /** Reader threads running a read at this moment. */
  readonly busyReaderThreads: number;
}

/**
 * The control plane: organizations, users, roles and tokens (only SHA-256 digests of tokens are kept).
 * Every store returns the same values for the same calls: timestamps as `Date.toISOString()` text
 * (UTC, milliseconds), ids as lowercase UUIDs, lists in the same order; a lookup by an id that is
 * not a lowercase UUID finds nothing. Failures named below are AppError PARAM_INVALID with the
 * messages of store/control-errors.ts; a shared store that cannot be reached throws STORE_UNAVAILABLE.
 * Several store objects (a CLI beside servers) may share one database: a write through one is seen
 * by every other on its next call. The conformance suite is test/store/control-store.test.ts.
 */
/** A token to store: its digest and last 4 characters (null for tokens made before they were kept); never the token. */
export interface NewToken {
  readonly hash: string;
  readonly last4: string | null;
}

/** What ControlStore.deleteRole did: the users named when a role is still held (id and e-mail). */
/** What ControlStore.deleteUser did. */
export type UserDeletion = 'deleted' | 'absent' | 'primary';
export type RoleDeletion = 'deleted' | 'absent' | { heldBy: ReadonlyArray<{ id: string; email: string }> };

/** See ControlStore.fixtureLoad. */
export type FixtureLoadState = 'none' | 'live' | 'abandoned';

export interface ControlStore {
  /**
   * `id` (a lowercase UUID) chooses the id (fixtures); an id taken is PARAM_INVALID. With
   * `fixtureLoad`, the organization is made marked as being loaded from fixtures, by this process,
   * in the same statement: the mark stays until finishFixtureLoad (docs/fixtures.md).
   */
  createOrganization(input: { id?: string; name: string; plan: PlanName; minuteLimit: number | null; fixtureLoad?: boolean }): Promise<Organization>;
  /**
   * The fixtures load of the organization: `none` when it carries no mark (the load finished, or
   * no load made it), `live` when a process that may still be loading it made the mark, `abandoned`
   * when its load can never finish (its process is gone). Asked while holding lockFixtureLoad.
   */
  fixtureLoad(orgId: string): Promise<FixtureLoadState>;
  /** Takes the organization's mark away: its load finished. */
  finishFixtureLoad(orgId: string): Promise<void>;
  /**
   * Held for the whole of a fixtures load of the organization, released by the function returned:
   * across processes on PostgreSQL (an advisory lock), within this process on SQLite, where
   * fixtureLoad tells a live loader of another process by its pid.
   */
  lockFixtureLoad(orgId: string): Promise<() => Promise<void>>;
  /**
   * An organization with its first user (its primary user) holding a first token, in one
   * transaction: a failure leaves none of them, so a call that failed can be made again.
   */
  createOrganizationWithUser(input: { id?: string; name: string; plan: PlanName; minuteLimit: number | null; user: { id?: string; email: string; fullname: string; role: string }; token: NewToken }): Promise<{ org: Organization; user: User }>;
  /** Makes a user of the organization its primary user; throws when the organization does not exist or the user is not one of its users. */
  setPrimaryUser(orgId: string, userId: string): Promise<void>;
  getOrganization(id: string): Promise<Organization | null>;
  /**
   * Whether `org` (the organization of an identity this store resolved) is still the organization of
   * its id: false once it was deleted, by any process, and when one made since under the same id
   * (another createdAt) has its place. Answered without a read while the identity it came with is
   * still kept (no control change since, PostgreSQL's listener vouching); read otherwise.
   */
  isCurrent(org: Pick<Organization, 'id' | 'createdAt'>): Promise<boolean>;
  /** Changes the plan and/or the minute limit (null: the default); null when no such organization. Takes effect on the next request. */
  updateOrganization(id: string, changes: { plan?: PlanName; minuteLimit?: number | null }): Promise<Organization | null>;
  /** Every organization, oldest first (ties by id). */
  listOrganizations(): Promise<Organization[]>;
  /**
   * Removes the organization from the control plane with its users, their tokens, its roles (and,
   * where the store keeps them, its usage notices); false when no such organization. Its tokens are
   * refused from the next request on. Its records are the record store's (RecordStore.dropOrg).
   */
  deleteOrganization(id: string): Promise<boolean>;
  /**
   * Throws when the organization does not exist, or already has a user whose e-mail equals this one
   * ignoring the case of A–Z. With `token`, the user's first token is stored in the same transaction.
   * With `requireRole`, also (PARAM_INVALID) unless the role is admin or defined for the organization,
   * looked at in the step that writes: a role deleted meanwhile (deleteRole) is not given.
   */
  createUser(input: { id?: string; orgId: string; email: string; fullname: string; role: string; token?: NewToken; requireRole?: boolean }): Promise<User>;
  getUser(id: string): Promise<User | null>;
  /** The users of the organization, oldest first (ties by id); empty when it does not exist. */
  listUsers(orgId: string): Promise<User[]>;
  /** The roles defined for the organization, by name. */
  listRoles(orgId: string): Promise<RoleDefinition[]>;
  /** The digests of the user's live (unrevoked) tokens, oldest first. */
  listTokenHashes(userId: string): Promise<string[]>;
  /**
   * Changes a user's role and/or disables (disabledAt set, kept if already disabled) or enables
   * them; null when no such user. A disabled user's tokens are refused from the next request on.
   * `requireRole` as createUser's.
   */
  updateUser(id: string, changes: { role?: string; disabled?: boolean; requireRole?: boolean }): Promise<User | null>;
  /**
   * Removes the user and every token of theirs, unless they are their organization's primary user:
   * the look and the removal in one step, so a user made primary meanwhile (setPrimaryUser, on any
   * connection) is never removed. 'primary' when refused (nothing removed), 'absent' when no such user.
   */
  deleteUser(id: string): Promise<UserDeletion>;
  /** Creates or replaces the role (org, name) with these grants; users of the role see it on their next request. Throws when the organization does not exist. */
  setRole(input: { orgId: string; name: string; grants: Record<string, ObjectGrant> }): Promise<RoleDefinition>;
  getRole(orgId: string, name: string): Promise<RoleDefinition | null>;
  /**
   * Removes the role (org, name) if no user of the organization holds it, the look and the removal in
   * one transaction: 'deleted'; 'absent' when there is no such role; else the users who hold it
   * (oldest first), and nothing is removed.
   */
  deleteRole(orgId: string, name: string): Promise<RoleDeletion>;
  /** Stores the digest (and the last 4 characters) of a new token for the user, with a new id; throws when the user does not exist. */
  addToken(userId: string, tokenHash: string, last4?: string | null): Promise<TokenInfo>;
  /** Every token of the user, live or revoked, oldest first (ties by id); empty for an unknown user. */
  listTokens(userId: string): Promise<TokenInfo[]>;
  /** Marks the token revoked; false when no such live token. Takes effect on the next request that presents it. */
  revokeToken(tokenHash: string): Promise<boolean>;
  /** Revokes the token with this id (one already revoked keeps its time); null when no token has it. */
  revokeTokenById(id: string): Promise<TokenInfo | null>;
  /**
   * In one transaction: revokes the live token with id `id` and stores a new token for its user;
   * null (and nothing written) when no live token has that id.
   */
  rotateToken(id: string, newHash: string, last4: string): Promise<{ revoked: TokenInfo; created: TokenInfo } | null>;
  /**
   * The identity of a live token of an enabled user, or null when unknown, revoked or the user is disabled, as committed when it is called:
   * every write made before the call through this object or another store object (another process)
   * is seen. Called on every request.
   */
  resolveToken(tokenHash: string): Promise<TokenIdentity | null>;
  /** Records that a token was used (callers throttle this; it is a write). `at` is ISO 8601 UTC text as toISOString gives. */
  touchToken(tokenHash: string, at: string): Promise<void>;
  /** The user of a live (unrevoked) token when that user is disabled, with the time; null otherwise. */
  disabledUserOf(tokenHash: string): Promise<{ userId: string; disabledAt: string } | null>;
  /**
   * Records that the organization has webhooks (docs/webhooks.md): from then on the delivery workers
   * of every process look at its outbox. Never undone (it goes with the organization); does nothing
   * for an unknown organization.
   */
  markWebhooks(orgId: string): Promise<void>;
  /** The organizations markWebhooks recorded, oldest first (ties by id). */
  webhookOrganizations(): Promise<string[]>;
  /** Resolves when the control plane answers a read; rejects with the reason otherwise (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** A user as the crmuser object mirrors it; `active: false` for one deleted (its record stays, Inactive). */
export interface MirroredUser {
  readonly id: string;
  readonly fullname: string;
  readonly email: string;
  readonly active?: boolean;
}
