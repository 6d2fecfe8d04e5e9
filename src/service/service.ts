// The service layer: runs each kind of request end to end, from the caller's identity and the
// request's input to a result or an AppError. Every kind goes through the same steps, in the order
// of docs/internals/architecture.md: the organization's records and schema → the object → the plan (402) → the role
// (403) → the input checked and prepared → the store → what the caller may see. Route families add
// only their schemas and reply shapes, so a step added here holds for every route.

import { randomUUID } from 'node:crypto';
import type { TokenIdentity } from '../auth/identity.js';
import { accessOf, type Access } from '../auth/permissions.js';
import { PERMISSIONS, type Permission } from '../auth/roles.js';
import type { Action } from '../auth/plans.js';
import { AppError, errorOf, isAppError, quote, quoteText } from '../errors.js';
import { planQuery, withPicklistLabels, type QueryInput, type QueryPlan } from '../query/plan.js';
import { planV3Query, type V3Plan } from '../query/v3-plan.js';
import { findView, planView, viewAddition, viewsOf, withoutView, type View } from '../query/views.js';
import { customFieldSpec, customObjectSpec } from '../schema/custom-definitions.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { safeContentType, safeFilename, type AttachedFile } from '../schema/attached-files.js';
import { prepareCreate, prepareUpdate, unknownFieldError } from '../schema/record-input.js';
import { FIRST_CUSTOM_OBJECT, type FieldDef, type ObjectDef, type RecordRow, type ViewSpec } from '../schema/types.js';
import { formatDateTime, isUuid } from '../schema/values.js';
import type { OrgRecords, RecordCheck } from '../store/types.js';
import type { ChangeAuthor } from '../schema/changes.js';
import { ChangePruner, checkCursor, decodeCursor, encodeCursor, shownEntry, type ShownEntry } from './change-log.js';
import { etagOf, ifMatchHolds, ifNoneMatchMatches, malformedTags, onlyWeaklyMatches } from './etags.js';
import { isRecordBody, itemsOf, notAnObject, runBatch, type ItemOutcome } from './batch.js';
import type { ServiceDeps } from './deps.js';

/** GET list: default and largest page (docs/limits.md, docs/api.md). */
export const GET_PAGE_SIZE = 50;

/** What a v3 query gives: rows of records (with `_id` to add) or rows of groups, and whether the page is the last. */
export type V3Result = V3Plan & { readonly rows: RecordRow[]; readonly isLastPage: boolean };

/** The page asked for on a GET: `pagesize` and `pagenumber` as the route's schema coerced them. */
export interface PageQuery {
  readonly pagesize?: number;
  readonly pagenumber?: number;
}

/** A page of a record's history: of the entries numbered below `before` only, when given (a stable page through writes). */
export interface HistoryQuery extends PageQuery {
  readonly before?: number;
}

/** The page served: the size (at most GET_PAGE_SIZE) and the number. */
export interface Page {
  readonly size: number;
  readonly number: number;
}

/** Who writes and when (the time on the organization's clock). */
interface WriteContext {
  readonly userId: string;
  readonly now: Date;
}

/** An object the caller may act on, with its organization's records and the caller's access. */
export interface Target {
  readonly records: OrgRecords;
  readonly schema: OrgSchema;
  readonly obj: ObjectDef;
  readonly access: Access;
}

/** The conditional header fields of a request on one record, as sent (docs/history.md § ETags). */
export interface Preconditions {
  readonly ifMatch?: string | undefined;
  readonly ifNoneMatch?: string | undefined;
}

/** A record written, as the caller may see it, and its ETag: none for a caller that may not read the object (the key alone names no version). */
export interface Written {
  readonly obj: ObjectDef;
  readonly record: RecordRow;
  readonly etag: string | undefined;
}

function written({ obj, access }: Target, record: RecordRow): Written {
  const shown = access.shown(obj, record);
  return { obj, record: shown, etag: access.may(obj, 'read') ? etagOf(shown) : undefined };
}

/** The lowercase id, or 400 RECORD_ID_MALFORMED. */
function checkId(obj: ObjectDef, id: unknown): string {
  if (typeof id !== 'string' || !isUuid(id)) throw errorOf('RECORD_ID_MALFORMED', typeof id === 'string' ? quoteText(id) : quote(id), obj.systemName);
  return id.toLowerCase();
}

const notFound = (obj: ObjectDef, id: string): AppError => errorOf('RECORD_NOT_FOUND', obj.systemName, id);

/** GET /api/changes?objecttype= of an object whose records are never written, so never logged (crmuser). */
const notLogged = (obj: ObjectDef): AppError => new AppError('PARAM_INVALID',
  `Invalid query parameter 'objecttype': ${obj.systemName} (${obj.objectType}) records are not in the change log, so its feed would never have an entry. `
  + 'They mirror the organization\'s users, which are changed through the control plane, not written as records. '
  + `To follow the users, read GET /api/record/${obj.systemName} again (a user's change updates its record's modifiedon); to follow the other objects, leave 'objecttype' out.`);

/** A file id as sent, lowercase; 400 when it is not a UUID (as record ids). */
function fileIdOf(raw: string): string {
  if (!isUuid(raw)) throw new AppError('PARAM_INVALID', `${quoteText(raw)} is not a valid file id: file ids are RFC 4122 UUIDs, as the reply to an upload and the list of a record's files give them.`);
  return raw.toLowerCase();
}

/** The page asked for; its numbers were checked as sent (whole, in range: query-numbers.ts). */
function pageOf(query: PageQuery): Page {
  return { size: Math.min(query.pagesize ?? GET_PAGE_SIZE, GET_PAGE_SIZE), number: query.pagenumber ?? 1 };
}

/** An object and what the caller may do with it. */
export interface ObjectAccess {
  readonly obj: ObjectDef;
  /** What the plan and the role allow on its records (a read-only object allows read at most). */
  readonly permissions: readonly Permission[];
  /** Its records; null when the caller may not read them. */
  readonly total: number | null;
}

/** An object, what the caller may do with it, and its role's field rules. */
export interface ObjectDetail extends ObjectAccess {
  /** The fields hidden from the role (not shown), and those it may read but not write. */
  readonly hidden: ReadonlySet<string>;
  readonly readOnly: ReadonlySet<string>;
  /** The organization's objects, where its lookups' targets are found. */
  readonly schema: OrgSchema;
}

function permissionsOf(access: Access, obj: ObjectDef): Permission[] {
  return PERMISSIONS.filter((p) => access.plan.actions.has(p) && access.may(obj, p) && (p === 'read' || !obj.readOnly));
}

/** GET /api/changes: default and largest page. */
export const FEED_PAGE_SIZE = 100;
export const FEED_PAGE_MAX = 500;

/** A page of the change feed asked for: where to start (a cursor, `now`, or absent: the oldest kept), one object or all, how many. */
export interface FeedQuery {
  readonly since?: string;
  readonly objecttype?: string;
  readonly pagesize?: number;
}

export class Service {
  private readonly pruner: ChangePruner;

  constructor(private readonly deps: ServiceDeps) {
    this.pruner = new ChangePruner(deps.config.changeLogRetentionDays, (orgId) => deps.clock(orgId));
  }

  /**
   * Runs `work`, which calls this service several times and the store between (an import, an export),
   * as one request of the caller's organization: on the server, a restore or reset waits for all of
   * it (org-gate.ts), where each call alone would let one run between two of them.
   */
  whole<T>(_identity: TokenIdentity, work: (service: Service) => Promise<T>): Promise<T> {
    return work(this);
  }

  /** The organization's records and its schema as of now: the first step of every request. */
  private async open(identity: TokenIdentity): Promise<{ records: OrgRecords; schema: OrgSchema }> {
    const records = await this.deps.records.org(identity.org.id);
    return { records, schema: await records.schema() };
  }

  /**
   * The object named by `ref`, once the plan (402) and the role (403) allow `permission` on it. The
   * plan comes before the role (docs/access.md): a batch on the free plan is 402 whatever the role.
   * Also the first step of import and export (record-transfer.ts).
   */
  async target(identity: TokenIdentity, ref: string, permission: Permission, batch = false): Promise<Target> {
    const { records, schema } = await this.open(identity);
    const obj = schema.resolve(ref);
    const access = accessOf(identity);
    if (batch) access.requirePlan(obj, 'batch' satisfies Action);
    access.require(obj, permission);
    return { records, schema, obj, access };
  }

  /** The object `ref` (system name or number) names in the caller's organization, or null; fault rules match by it. */
  async objectNamed(identity: TokenIdentity, ref: string): Promise<ObjectDef | null> {
    const { schema } = await this.open(identity);
    try {
      return schema.resolve(ref);
    } catch {
      return null;
    }
  }

  /** The caller and the time of a write, on the organization's clock: its system fields and its change-log entries say the same. */
  private writeContext(identity: TokenIdentity): WriteContext {
    return { userId: identity.user.id, now: new Date(this.deps.clock(identity.org.id)) };
  }

  /** Who writes and when, for the change log: the caller, now on the organization's clock (also an import's batches). */
  author(identity: TokenIdentity, context = this.writeContext(identity)): ChangeAuthor {
    const access = accessOf(identity);
    return { userId: context.userId, at: formatDateTime(context.now), makesEvents: (obj) => access.includesObject(obj) };
  }

  /** The row a create body makes, after the field rules of the role (403) and the body checks (400); also each line of an import. */
  rowToCreate(identity: TokenIdentity, { obj, access }: Target, body: unknown, context = this.writeContext(identity)): RecordRow {
    access.checkWrite(obj, body);
    return prepareCreate(obj, body, context);
  }

  /** The changes an update body makes, checked like rowToCreate. */
  private changesOf({ obj, access }: Target, body: unknown, context: WriteContext): RecordRow {
    access.checkWrite(obj, body);
    return prepareUpdate(obj, body, context);
  }

  /** One page of an object's records, newest first, and their count; `signal` stops the read. */
  async list(identity: TokenIdentity, ref: string, query: PageQuery, signal?: AbortSignal): Promise<{ obj: ObjectDef; page: Page; total: number; records: RecordRow[] }> {
    const { records, obj, access } = await this.target(identity, ref, 'read');
    const page = pageOf(query);
    const { total, records: rows } = await records.list(obj, { limit: page.size, offset: (page.number - 1) * page.size }, signal);
    return { obj, page, total, records: rows.map((row) => access.shown(obj, row)) };
  }

  /**
   * One record; 404 when no record has the id. The page asked for is checked and echoed (docs/api.md).
   * `ifMatch` as on a write (RFC 9110 § 13.1.1 wants it evaluated on a GET too): 412 unless it names the
   * record's tag. If-None-Match is the route's: its 304 needs the tag of the reply.
   */
  async get(identity: TokenIdentity, ref: string, rawId: string, query: PageQuery, ifMatch?: string): Promise<{ obj: ObjectDef; page: Page; record: RecordRow }> {
    const target = await this.target(identity, ref, 'read');
    const { records, obj, access } = target;
    const id = checkId(obj, rawId);
    const page = pageOf(query);
    const check = this.preconditions(target, id, { ifMatch }, true);
    const found = await records.get(obj, id);
    if (!found) throw notFound(obj, id);
    check?.(found);
    return { obj, page, record: access.shown(obj, found) };
  }

  /** Creates a record; returns it as the caller may see it, and its ETag (see written). */
  async create(identity: TokenIdentity, ref: string, body: unknown): Promise<Written> {
    const target = await this.target(identity, ref, 'create');
    const context = this.writeContext(identity);
    const record = await target.records.create(target.obj, this.rowToCreate(identity, target, body, context), this.author(identity, context));
    this.pruner.soon(identity.org.id, target.records);
    return written(target, record);
  }

  /**
   * If-Match and If-None-Match as a check of the record before it changes, in the write's
   * transaction, in RFC 9110 § 13.2.2's order: 412 RECORD_CHANGED unless If-Match names the record's
   * ETag as the caller sees it, then 412 RECORD_MATCHES when If-None-Match names it (or is `*`: the
   * record exists); 400 IF_MATCH_MALFORMED or IF_NONE_MATCH_MALFORMED, before anything is read, when
   * a value is not entity tags. `reading`: for a GET, whose 412 says to read the record again rather
   * than to apply a change to it.
   */
  private preconditions({ obj, access }: Target, id: string, { ifMatch, ifNoneMatch }: Preconditions, reading = false): RecordCheck | undefined {
    if (ifMatch === undefined && ifNoneMatch === undefined) return undefined;
    for (const [header, field] of [['If-Match', ifMatch], ['If-None-Match', ifNoneMatch]] as const) {
      if (field === undefined) continue;
      const malformed = malformedTags(header, field);
      if (malformed !== undefined) throw new AppError(header === 'If-Match' ? 'IF_MATCH_MALFORMED' : 'IF_NONE_MATCH_MALFORMED', malformed);
      // Without read the caller sees the key alone, whose tag would never change: a tag of theirs
      // could only be that one, and would let a write over changes it never saw.
      if (!access.may(obj, 'read') && field.trim() !== '*') {
        throw new AppError('PERMISSION_DENIED', `${header} names entity tags, but your role '${access.roleName}' may not read ${obj.systemName} records, so no reply gives it their ETags to compare. Send ${header}: * (${header === 'If-Match' ? 'any version' : 'only if there is none'}) or none, or grant ${obj.systemName}:read with orchard role set.`);
      }
    }
    return (current) => {
      const etag = etagOf(access.shown(obj, current));
      if (ifMatch !== undefined && !ifMatchHolds(ifMatch, etag)) {
        // The record has not changed, but the tag was sent weak: say so rather than "changed since".
        if (onlyWeaklyMatches(ifMatch, etag)) {
          throw new AppError('RECORD_CHANGED', `If-Match names the ${obj.systemName} record '${id}'s current tag as a weak one (W/${etag}); If-Match compares tags strongly (RFC 9110), so a weak tag never matches. Send it as the ETag header gives it: If-Match: ${etag}.`);
        }
        throw errorOf('RECORD_CHANGED', obj.systemName, id, etag, reading);
      }
      if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag)) {
        throw errorOf('RECORD_MATCHES', obj.systemName, id, ifNoneMatch.trim() === '*' ? undefined : etag);
      }
    };
  }

  /** Updates a record (only the fields sent); 404 when no record has the id, whatever the `conditions` (see preconditions). */
  async update(identity: TokenIdentity, ref: string, rawId: string, body: unknown, conditions: Preconditions = {}): Promise<Written> {
    const target = await this.target(identity, ref, 'update');
    const id = checkId(target.obj, rawId);
    const context = this.writeContext(identity);
    const changes = this.changesOf(target, body, context);
    const record = await target.records.update(target.obj, id, changes, this.author(identity, context), this.preconditions(target, id, conditions));
    if (!record) throw notFound(target.obj, id);
    this.pruner.soon(identity.org.id, target.records);
    return written(target, record);
  }

  /**
   * Deletes a record and answers its id as stored (lowercase; the v2 reply names it); 404 when no
   * record has the id, whatever the `conditions` (see preconditions).
   */
  async delete(identity: TokenIdentity, ref: string, rawId: string, conditions: Preconditions = {}): Promise<string> {
    const target = await this.target(identity, ref, 'delete');
    const id = checkId(target.obj, rawId);
    if (!(await target.records.delete(target.obj, id, this.author(identity), this.preconditions(target, id, conditions)))) throw notFound(target.obj, id);
    this.pruner.soon(identity.org.id, target.records);
    return id;
  }

  /**
   * A record's history, newest first, a page at a time (the page as a GET list's); the fields hidden
   * from the caller left out. A deleted record's too; 404 when the id names no record and has none.
   */
  async history(identity: TokenIdentity, ref: string, rawId: string, query: HistoryQuery): Promise<{ obj: ObjectDef; id: string; page: Page; entries: ShownEntry[]; isLastPage: boolean }> {
    const { records, obj, access } = await this.target(identity, ref, 'read');
    const id = checkId(obj, rawId);
    const page = pageOf(query);
    await this.pruner.run(identity.org.id, records);
    const before = query.before === undefined ? {} : { before: query.before };
    const found = await records.history(obj.objectType, id, { limit: page.size + 1, offset: (page.number - 1) * page.size, ...before });
    // Past the last page (or the oldest entry), an id with entries is an empty page, one with neither entries nor a record 404 (as on page 1).
    const first = page.number === 1 && query.before === undefined;
    if (found.length === 0 && !(await records.get(obj, id)) && (first || (await records.history(obj.objectType, id, { limit: 1, offset: 0 })).length === 0)) {
      throw notFound(obj, id);
    }
    const { hidden } = access.fields(obj);
    return { obj, id, page, entries: found.slice(0, page.size).map((e) => shownEntry(e, obj, hidden)), isLastPage: found.length <= page.size };
  }

  /**
   * A page of the organization's change log after `since` (docs/history.md): the entries of the
   * objects the caller may read (of `objecttype` only, when given: 402/403 as a read of it), their
   * hidden fields left out, and the cursor to pass next. 410 CHANGES_CURSOR_EXPIRED when entries
   * after `since` may be missing; `since=now` gives no entries and the cursor at the log's end.
   */
  async changes(identity: TokenIdentity, query: FeedQuery): Promise<{ entries: ShownEntry[]; cursor: string; hasMore: boolean }> {
    const { records, schema } = await this.open(identity);
    const access = accessOf(identity);
    let only: ObjectDef | undefined;
    if (query.objecttype !== undefined) {
      only = schema.resolve(query.objecttype);
      access.require(only, 'read');
      // Its feed would be empty for ever, and a client following it would wait for ever.
      if (only.readOnly) throw notLogged(only);
    }
    const limit = Math.min(query.pagesize ?? FEED_PAGE_SIZE, FEED_PAGE_MAX);
    await this.pruner.run(identity.org.id, records);
    const cursor = query.since === undefined || query.since === 'now' ? undefined : decodeCursor(identity.org.id, query.since);
    let after = cursor?.seq ?? 0;
    let page = await records.changes({ after, limit, ...(only ? { objectType: only.objectType } : {}) });
    if (cursor) checkCursor(cursor, page);
    else if (query.since === 'now') return { entries: [], cursor: encodeCursor(identity.org.id, { epoch: page.epoch, seq: page.last }), hasMore: false };
    // From the oldest entry kept: past the floor of pruned ones (read again if a prune raised it meanwhile).
    while (after < page.floor) {
      after = page.floor;
      page = await records.changes({ after, limit, ...(only ? { objectType: only.objectType } : {}) });
    }
    const readable = new Map<number, { obj: ObjectDef; hidden: ReadonlySet<string> } | null>();
    const entries: ShownEntry[] = [];
    for (const e of page.entries) {
      let shown = readable.get(e.objectType);
      if (shown === undefined) {
        const obj = schema.find(e.objectType);
        shown = obj && access.includesObject(obj) && access.may(obj, 'read') ? { obj, hidden: access.fields(obj).hidden } : null;
        readable.set(e.objectType, shown);
      }
      if (shown) entries.push(shownEntry(e, shown.obj, shown.hidden));
    }
    return { entries, cursor: encodeCursor(identity.org.id, { epoch: page.epoch, seq: page.next }), hasMore: page.next < page.last };
  }

  /**
   * Attaches a file to a record (update on its object, docs/compat.md): the name kept is its last
   * path segment without control characters, the content type the one sent when well-formed.
   * 404 when no record has the id.
   */
  async attachFile(identity: TokenIdentity, ref: string, rawId: string, upload: { filename?: string; contentType?: string; content: Buffer }): Promise<{ obj: ObjectDef; file: AttachedFile }> {
    const { records, obj } = await this.target(identity, ref, 'update');
    const id = checkId(obj, rawId);
    const file: AttachedFile = {
      fileid: randomUUID(), objectid: id, objecttypecode: obj.objectType,
      filename: safeFilename(upload.filename), contenttype: safeContentType(upload.contentType), size: upload.content.length,
      createdon: formatDateTime(new Date(this.deps.clock(identity.org.id))), createdby: identity.user.id,
    };
    if (!(await records.attachFile(obj, file, upload.content))) throw notFound(obj, id);
    return { obj, file };
  }

  /** The files on a record (read on its object), oldest first; 404 when no record has the id. */
  async files(identity: TokenIdentity, ref: string, rawId: string): Promise<{ obj: ObjectDef; files: AttachedFile[] }> {
    const { records, obj } = await this.target(identity, ref, 'read');
    const id = checkId(obj, rawId);
    const files = await records.files(obj, id);
    if (!files) throw notFound(obj, id);
    return { obj, files };
  }

  /** One file on a record and its content (read on its object); 404 FILE_NOT_FOUND when the record has no such file. */
  async fileContent(identity: TokenIdentity, ref: string, rawId: string, rawFileId: string): Promise<{ file: AttachedFile; content: Buffer }> {
    const { records, obj } = await this.target(identity, ref, 'read');
    const id = checkId(obj, rawId);
    const found = await records.fileContent(obj, id, fileIdOf(rawFileId));
    if (!found) throw errorOf('FILE_NOT_FOUND', obj.systemName, id, rawFileId);
    return found;
  }

  /** Removes a file from a record (update on its object); 404 FILE_NOT_FOUND when the record has no such file. */
  async deleteFile(identity: TokenIdentity, ref: string, rawId: string, rawFileId: string): Promise<void> {
    const { records, obj } = await this.target(identity, ref, 'update');
    const id = checkId(obj, rawId);
    if (!(await records.deleteFile(obj, id, fileIdOf(rawFileId)))) throw errorOf('FILE_NOT_FOUND', obj.systemName, id, rawFileId);
  }

  /**
   * After writes made by other ways than the write routes (an import's batches): the organization's
   * change log pruned when due, as after any write. Resolves once the prune under way is done; never
   * rejects (a failed prune is left to the next write or read).
   */
  changesWritten(identity: TokenIdentity, records: OrgRecords): Promise<void> {
    return this.pruner.run(identity.org.id, records).catch(() => {});
  }

  /** `write`, then the organization's log pruned in the background when due. */
  private async pruned<T>(identity: TokenIdentity, records: OrgRecords, write: Promise<T>): Promise<T> {
    const written = await write;
    this.pruner.soon(identity.org.id, records);
    return written;
  }

  /** A v3 batch create: each item written or refused on its own; written ones as the caller may see them. */
  async createMany(identity: TokenIdentity, ref: string, body: unknown): Promise<Array<ItemOutcome<{ id: string; record: RecordRow }>>> {
    const t = await this.target(identity, ref, 'create', true);
    const items = itemsOf(body, '{"data": [{"accountname": "Acme"}]}');
    const context = this.writeContext(identity);
    return runBatch(items, (item, i) => {
      if (!isRecordBody(item)) throw notAnObject(`data[${i}]`, t.obj, item);
      return this.rowToCreate(identity, t, item, context);
    }, (rows) => this.pruned(identity, t.records, t.records.createMany(t.obj, rows, this.author(identity, context))),
    (record) => ({ id: record[t.obj.keyField] as string, record: t.access.shown(t.obj, record) }));
  }

  /** A v3 batch update of `{id, record}` items; a missing record refuses its item with 404. */
  async updateMany(identity: TokenIdentity, ref: string, body: unknown): Promise<Array<ItemOutcome<{ id: string; record: RecordRow }>>> {
    const t = await this.target(identity, ref, 'update', true);
    const items = itemsOf(body, '{"data": [{"id": "<uuid>", "record": {"accountname": "Acme"}}]}');
    const shape = `{"id": "<uuid>", "record": {"${t.obj.primaryField}": "…"}}`;
    const context = this.writeContext(identity);
    return runBatch(items, (item, i) => {
      if (!isRecordBody(item)) throw new AppError('BODY_INVALID', `data[${i}] must be ${shape}; got ${quote(item)}.`);
      if (item.id === undefined || item.id === null) throw new AppError('RECORD_ID_MALFORMED', `data[${i}].id is missing: each item is ${shape}.`);
      const id = checkId(t.obj, item.id);
      if (!isRecordBody(item.record)) throw notAnObject(`data[${i}].record`, t.obj, item.record);
      return { id, changes: this.changesOf(t, item.record, context) };
    }, (prepared) => this.pruned(identity, t.records, t.records.updateMany(t.obj, prepared, this.author(identity, context))),
    (record, { id }) => (record === null ? notFound(t.obj, id) : { id, record: t.access.shown(t.obj, record) }));
  }

  /** A v3 batch delete of ids; a missing record refuses its item with 404. */
  async deleteMany(identity: TokenIdentity, ref: string, body: unknown): Promise<Array<ItemOutcome<{ id: string }>>> {
    const t = await this.target(identity, ref, 'delete', true);
    const items = itemsOf(body, '{"data": ["<uuid>", "<uuid>"]}');
    return runBatch(items, (item) => checkId(t.obj, item), (ids) => this.pruned(identity, t.records, t.records.deleteMany(t.obj, ids, this.author(identity))),
      (deleted, id) => (deleted ? { id } : notFound(t.obj, id)));
  }

  /** A query (POST /api/query): the checked plan and its page (picklists as labels if asked); IsLastPage is exact. */
  async query(identity: TokenIdentity, body: QueryInput, signal?: AbortSignal): Promise<{ plan: QueryPlan; rows: RecordRow[]; isLastPage: boolean }> {
    const { records, schema } = await this.open(identity);
    const plan = planQuery(schema, body, accessOf(identity));
    const { rows, isLastPage } = await records.query(plan, signal);
    return { plan, rows: withPicklistLabels(plan, rows), isLastPage };
  }

  /**
   * A v3 query: as query, and whether the key was asked for (v3 rows carry it as `_id` either way);
   * or, for a body with groupBy or aggrFunc, a page of groups (each SUM exact, rounded to its field's
   * precision by the store: schema/decimal.ts).
   */
  async v3Query(identity: TokenIdentity, body: unknown, signal?: AbortSignal): Promise<V3Result> {
    const { records, schema } = await this.open(identity);
    const planned = planV3Query(schema, body, accessOf(identity), { userId: identity.user.id, now: this.deps.clock(identity.org.id) });
    if (planned.kind === 'groups') {
      const { rows, isLastPage } = await records.groups(planned.plan, signal);
      return { ...planned, rows, isLastPage };
    }
    return { ...planned, ...(await records.query(planned.plan, signal)) };
  }

  /** Defines a custom object (admin role; plans with custom objects); returns it as now defined. */
  async defineObject(identity: TokenIdentity, body: unknown): Promise<ObjectDef> {
    const access = accessOf(identity);
    access.requirePlan({ objectType: FIRST_CUSTOM_OBJECT, systemName: `customobject${FIRST_CUSTOM_OBJECT}` }, 'create');
    access.requireAdmin('define custom objects');
    const { records } = await this.open(identity);
    const definitionId = randomUUID();
    const schema = await records.addObject((current) => customObjectSpec(current, body, definitionId));
    return schema.objects.find((o) => o.definitionId === definitionId)!;
  }

  /** Adds a custom field of `type` to an object (admin role); returns the field's name. */
  async defineField(identity: TokenIdentity, ref: string, type: string, body: unknown): Promise<string> {
    const { records, schema } = await this.open(identity);
    const obj = schema.resolve(ref);
    const access = accessOf(identity);
    access.requirePlan(obj, 'update');
    access.requireAdmin('define fields');
    let name = '';
    await records.addField(obj.objectType, (current, now) => {
      const spec = customFieldSpec(now, current, type, body);
      name = spec.name;
      return spec;
    });
    return name;
  }

  /**
   * An object's views, its default view first, for a caller who may read its records. A view the
   * caller could not run for what it names (402, 403: a field hidden from their role, or a related
   * field of an object they may not read, whatever their role hides of this one) is left out, so
   * its fields and filter do not show them what they may not read. The admin role sees every view.
   */
  async views(identity: TokenIdentity, ref: string): Promise<{ obj: ObjectDef; views: View[] }> {
    const { obj, schema, access } = await this.target(identity, ref, 'read');
    const views = viewsOf(obj);
    if (access.isAdmin) return { obj, views };
    return { obj, views: views.filter((view) => {
      try {
        planView(schema, obj, view, undefined, access);
        return true;
      } catch (err) {
        return !(isAppError(err) && (err.status === 403 || err.status === 402));
      }
    }) };
  }

  /** Defines a view of an object (admin role; the plan must include the object); returns it. */
  async defineView(identity: TokenIdentity, ref: string, body: unknown): Promise<{ obj: ObjectDef; view: ViewSpec }> {
    const { records, schema } = await this.open(identity);
    const obj = schema.resolve(ref);
    const access = accessOf(identity);
    access.requirePlan(obj, 'read');
    access.requireAdmin('define views');
    const made = { id: randomUUID(), createdon: formatDateTime(new Date(this.deps.clock(identity.org.id))) };
    const addition = viewAddition(body, access, made);
    await records.setViews(obj.objectType, addition.change);
    return { obj, view: addition.added() };
  }

  /** Deletes a defined view (admin role); the default view cannot be deleted. */
  async deleteView(identity: TokenIdentity, ref: string, viewId: string): Promise<void> {
    const { records, schema } = await this.open(identity);
    const obj = schema.resolve(ref);
    const access = accessOf(identity);
    access.requirePlan(obj, 'read');
    access.requireAdmin('delete views');
    await records.setViews(obj.objectType, (current) => withoutView(current, viewId));
  }

  /** A page of a view's records for the caller, as a query of the view's fields, filter and order. */
  async runView(identity: TokenIdentity, ref: string, viewId: string, body: unknown, signal?: AbortSignal): Promise<{ view: View; plan: QueryPlan; rows: RecordRow[]; isLastPage: boolean }> {
    const { records, schema, obj, access } = await this.target(identity, ref, 'read');
    const view = findView(obj, viewId);
    const plan = planView(schema, obj, view, body, access);
    const { rows, isLastPage } = await records.query(plan, signal);
    return { view, plan, rows, isLastPage };
  }

  /** The objects the organization's plan includes (metadata needs no record permission). */
  async objects(identity: TokenIdentity): Promise<readonly ObjectDef[]> {
    const { schema } = await this.open(identity);
    const access = accessOf(identity);
    return schema.objects.filter((o) => access.includesObject(o));
  }

  /**
   * The objects the plan includes, each with what the caller's role may do to its records and, when
   * it may read them, how many there are (the console's list of objects).
   */
  async objectsWithCounts(identity: TokenIdentity, signal?: AbortSignal): Promise<ObjectAccess[]> {
    const { records, schema } = await this.open(identity);
    const access = accessOf(identity);
    const out: ObjectAccess[] = [];
    for (const obj of schema.objects) {
      if (!access.includesObject(obj)) continue;
      const permissions = permissionsOf(access, obj);
      const total = permissions.includes('read') ? (await records.list(obj, { limit: 1, offset: 0 }, signal)).total : null;
      out.push({ obj, permissions, total });
    }
    return out;
  }

  /** One object as objectsWithCounts gives it, with the field rules of the caller's role (402 when the plan lacks it). */
  async objectWithCount(identity: TokenIdentity, ref: string, signal?: AbortSignal): Promise<ObjectDetail> {
    const { records, schema } = await this.open(identity);
    const obj = schema.resolve(ref);
    const access = accessOf(identity);
    access.requirePlan(obj, 'read');
    const permissions = permissionsOf(access, obj);
    const total = permissions.includes('read') ? (await records.list(obj, { limit: 1, offset: 0 }, signal)).total : null;
    const { hidden, readOnly } = access.fields(obj);
    return { obj, permissions, total, hidden, readOnly, schema };
  }

  /** One object, if the plan includes it (402), with the fields the caller's role may see. */
  async object(identity: TokenIdentity, ref: string): Promise<{ obj: ObjectDef; fields: FieldDef[] }> {
    const { schema } = await this.open(identity);
    const obj = schema.resolve(ref);
    const access = accessOf(identity);
    access.requirePlan(obj, 'read');
    const { hidden } = access.fields(obj);
    return { obj, fields: obj.fields.filter((f) => !hidden.has(f.name)) };
  }

  /** One field of an object; a field hidden from the caller is as unknown (400). */
  async field(identity: TokenIdentity, ref: string, name: string): Promise<{ obj: ObjectDef; field: FieldDef }> {
    const { obj, fields } = await this.object(identity, ref);
    const field = fields.find((f) => f.name === name.toLowerCase());
    if (!field) throw unknownFieldError(obj, name, '', fields.map((f) => f.name));
    return { obj, field };
  }
}
