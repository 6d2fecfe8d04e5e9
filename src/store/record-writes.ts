// The write path both record stores share: which lookups a write checks and how, the refusals'
// messages, the statements of a create, an update and a delete, and a batch's items each in a
// savepoint of its own, and the change log's entry of each write (docs/history.md), appended in the
// write's transaction just before it commits. Written once as generators that hand each statement to a store's hooks and
// resume with the result (Babel's gensync shape): the SQLite store runs them synchronously inside its
// transaction (runSync), the PostgreSQL store awaits each on its connection (runAsync).

import { sql, type Kysely } from 'kysely';
import { AppError, errorOf } from '../errors.js';
import { changedFields, type ChangeAuthor, type ChangedFields, type ChangeOperation, type FieldChange } from '../schema/changes.js';
import { buildObject, type FieldSpec, type ObjectSpec } from '../schema/build-object.js';
import { withField } from '../schema/custom-definitions.js';
import type { OrgSchema } from '../schema/org-schema.js';
import { checkLinkComplete, composedNameOf, composeName, recordLinkOf, type RecordLink } from '../schema/record-rules.js';
import { storedFields, type FieldDef, type ObjectDef, type RecordRow, type ViewSpec } from '../schema/types.js';
import type { CompiledSql, SqlCache } from './record-sql.js';
import type { MirroredUser, RecordCheck } from './types.js';
import type { ActiveHook } from '../webhooks/webhook-types.js';

/** A hook's result: the value itself (SQLite) or its promise (PostgreSQL). */
type Maybe<T> = T | Promise<T>;

/** A write in steps: it yields each hook's result to its runner and is resumed with the value. */
export type Steps<T> = Generator<unknown, T, any>;

/** A statement of the write path. */
export interface WriteStatement extends CompiledSql {
  /** One text per object and schema version (from the SqlCache), so a store may prepare it once per connection. */
  readonly fixed?: boolean;
}

/** What a store gives the shared write path, bound to the write's transaction. */
export interface RecordWriter {
  /** Compiles the statements (PostgreSQL's qualifies every table by the organization's schema). */
  readonly k: Kysely<any>;
  readonly sqlCache: SqlCache;
  /**
   * Whether a lookup's target row is locked until the write commits (FOR KEY SHARE), so that a
   * concurrent delete cannot orphan the lookup, and a record read before it is changed is locked
   * (FOR UPDATE), so that its old values are those the change replaces; not where the store's
   * write lock already excludes other writers.
   */
  readonly lockLookups: boolean;
  /**
   * Whether a write's change-log entries and webhook deliveries go in one statement that also numbers
   * them (PostgreSQL, where a statement is a round trip: store/webhook-outbox.ts appendWithDeliveries),
   * or a statement each (SQLite, whose statements are calls within the process).
   */
  readonly appendInOneStatement: boolean;
  /** The organization's schema, read in the write's transaction where the store needs that. */
  schema(): Maybe<OrgSchema>;
  /** Runs a statement; the rows it changed. */
  run(statement: WriteStatement): Maybe<number>;
  /** Runs a statement; whether it returned a row. */
  exists(statement: WriteStatement): Maybe<boolean>;
  /** Runs a statement; the rows it returned. */
  rows(statement: WriteStatement): Maybe<RecordRow[]>;
  /** The record as GET returns it, read in the write's transaction. */
  read(obj: ObjectDef, id: string): Maybe<RecordRow | null>;
  /** Whether `err`, from run(), is the violation of a unique key (the record's id). */
  isUniqueViolation(err: unknown): boolean;
  /** Removes the files of a record being deleted, in the write's transaction (record-files.ts). */
  dropFiles(obj: ObjectDef, recordId: string): Maybe<void>;
  /** The organization's active webhooks, as of the write's schema version (store/webhook-outbox.ts). */
  activeHooks(): Maybe<readonly ActiveHook[]>;
}

/** The change log's entries, and its epoch, highest number and floor (one row): change-log.ts. */
export const CHANGES_TABLE = 'orchard_changes';
export const CHANGE_LOG_TABLE = 'orchard_change_log';

/** Rows of one INSERT of entries (7 values each, within either database's bound on parameters). */
const INSERT_ROWS = 1_000;

/** An entry waiting for its transaction's commit: its fields already in their stored form. */
interface PendingChange {
  readonly objectType: number;
  readonly recordId: string;
  readonly operation: ChangeOperation;
  readonly fields: string;
}

/** A record a write transaction wrote, as its webhooks' deliveries need it (store/webhook-outbox.ts). */
export interface WrittenChange {
  readonly obj: ObjectDef;
  readonly recordId: string;
  readonly operation: ChangeOperation;
  /** The record as the write left it (create, update), or as it was (delete). */
  readonly record: RecordRow;
  readonly fields: ChangedFields;
}

/** The entries of one write transaction, appended just before it commits (appendChanges). */
export class ChangeBuffer {
  readonly entries: PendingChange[] = [];
  /** The same writes with their records, in the same order, for the webhooks' deliveries. */
  readonly written: WrittenChange[] = [];
  /** The number appendChanges gave the first entry (the others follow it). */
  first = 0;

  constructor(readonly author: ChangeAuthor) {}

  /** Adds the entry of one record's write: `before` null for a create, `after` null for a delete. */
  add(obj: ObjectDef, recordId: string, operation: ChangeOperation, before: RecordRow | null, after: RecordRow | null): void {
    const fields = changedFields(obj, before, after);
    this.entries.push({ objectType: obj.objectType, recordId, operation, fields: encodeFields(fields) });
    this.written.push({ obj, recordId, operation, record: (after ?? before)!, fields });
  }

  /** How many entries there are: a savepoint's mark, for rollbackTo. */
  mark(): number {
    return this.entries.length;
  }

  /** Forgets the entries added after `mark` (their savepoint was rolled back). */
  rollbackTo(mark: number): void {
    this.entries.length = mark;
    this.written.length = mark;
  }
}

/** Stored as `{"field": [old, new]}`: half the bytes of `{old, new}` objects. */
function encodeFields(fields: Readonly<Record<string, FieldChange>>): string {
  const out: Record<string, [unknown, unknown]> = {};
  for (const [name, c] of Object.entries(fields)) out[name] = [c.old, c.new];
  return JSON.stringify(out);
}

/**
 * Numbers the transaction's entries and inserts them: the counter row's update takes its lock (held
 * to the commit), so it runs last in the transaction. Nothing to do for a write that changed nothing.
 */
export function* appendChanges(w: RecordWriter, log: ChangeBuffer): Steps<void> {
  const n = log.entries.length;
  if (n === 0) return;
  const bump = w.sqlCache.text('log:bump', () => w.k.updateTable(CHANGE_LOG_TABLE)
    .set((eb) => ({ last_seq: eb('last_seq', '+', 0) })).where('id', '=', 1).returning('last_seq').compile().sql);
  const [counter] = yield* step(w.rows({ sql: bump, parameters: [n, 1], fixed: true }));
  const first = Number(counter!.last_seq) - n + 1;
  log.first = first;
  const { userId, at } = log.author;
  const rowOf = (e: PendingChange, i: number) => ({
    seq: first + i, object_type: e.objectType, record_id: e.recordId, operation: e.operation, fields: e.fields, user_id: userId, changedon: at,
  });
  if (n === 1) {
    const text = w.sqlCache.text('log:insert', () => w.k.insertInto(CHANGES_TABLE).values(rowOf(log.entries[0]!, 0)).compile().sql);
    yield* step(w.run({ sql: text, parameters: Object.values(rowOf(log.entries[0]!, 0)), fixed: true }));
    return;
  }
  for (let start = 0; start < n; start += INSERT_ROWS) {
    const rows = log.entries.slice(start, start + INSERT_ROWS).map((e, i) => rowOf(e, start + i));
    yield* step(w.run(w.k.insertInto(CHANGES_TABLE).values(rows).compile()));
  }
}


/** Hands a hook's result to the runner; resumes with the value. */
export function* step<T>(result: Maybe<T>): Steps<T> {
  return yield result;
}

/** Runs a write whose hooks answer synchronously. */
export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    if (next.value instanceof Promise) throw new Error('runSync: a hook returned a promise');
    next = steps.next(next.value);
  }
  return next.value;
}

/** Runs a write whose hooks return promises: a rejection is thrown into the write where it waited. */
export async function runAsync<T>(steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let value: unknown;
    try {
      value = await next.value;
    } catch (err) {
      next = steps.throw(err);
      continue;
    }
    next = steps.next(value);
  }
  return next.value;
}

/**
 * Whether `target` has a record with key `id`; where the writer locks lookups, that record is then
 * locked until the write commits (see RecordWriter.lockLookups).
 */
export function* recordExists(w: RecordWriter, target: ObjectDef, id: string): Steps<boolean> {
  const text = w.sqlCache.get('lookup', target, () => {
    const probe = w.k.selectFrom(target.systemName).select(sql.lit(1).as('found')).where(target.keyField, '=', '');
    return (w.lockLookups ? probe.forKeyShare() : probe).compile().sql;
  });
  return yield* step(w.exists({ sql: text, parameters: [id], fixed: true }));
}

/**
 * Every non-null lookup (the key aside) must name an existing record of its target object. A record
 * that several lookups name (a create's ownerid, createdby and modifiedby: its user) is looked up
 * once: found, it stays locked until the write commits, or the item's savepoint ends. `creating`: the
 * key of the record a create writes, which a lookup of its own object may name (a record that is its
 * own parent, as an update may make one, so that its export imports back).
 */
function* checkLookups(w: RecordWriter, obj: ObjectDef, values: RecordRow, creating?: string): Steps<void> {
  const schema = yield* step(w.schema());
  let found: Set<string> | undefined;
  for (const f of obj.fields) {
    const value = values[f.name];
    if (f.type !== 'lookup' || f.role === 'key' || value === null || value === undefined) continue;
    const target = schema.find(f.target!);
    if (!target) continue;
    const id = String(value);
    if (creating !== undefined && target.objectType === obj.objectType && id.toLowerCase() === creating.toLowerCase()) continue;
    const named = `${target.objectType}:${id}`;
    if (found?.has(named)) continue;
    if (!(yield* recordExists(w, target, id))) {
      throw errorOf('LOOKUP_TARGET_MISSING', f.name, target.systemName, id);
    }
    (found ??= new Set()).add(named);
  }
}

/**
 * The UPDATE of one record's `changes`: one text per object and set of fields named (SqlCache.shaped),
 * so that Kysely does not build it at every update, and (the first shapes) prepared once per connection.
 */
function updateStatement(w: RecordWriter, obj: ObjectDef, key: string, changes: RecordRow): WriteStatement {
  const names = Object.keys(changes);
  if (names.some((name) => changes[name] === undefined)) return w.k.updateTable(obj.systemName).set(changes).where(obj.keyField, '=', key).compile();
  const { sql: text, fixed } = w.sqlCache.shaped(`update:${obj.objectType}:${names.join(',')}`, () => w.k.updateTable(obj.systemName)
    .set(Object.fromEntries(names.map((name) => [name, null]))).where(obj.keyField, '=', '').compile().sql);
  return { sql: text, parameters: [...names.map((name) => changes[name]), key], fixed };
}

/**
 * The INSERT of a row: one text per object when the row holds every stored field and nothing else
 * (a create's checked row), so that a store prepares it once per connection rather than Kysely
 * building it and the database planning it at every create; built for the row otherwise.
 */
function insertStatement(w: RecordWriter, obj: ObjectDef, row: RecordRow): WriteStatement {
  const fields = storedFields(obj);
  if (Object.keys(row).length !== fields.length || fields.some((f) => row[f.name] === undefined)) {
    return w.k.insertInto(obj.systemName).values(row).compile();
  }
  const text = w.sqlCache.get('insert', obj, () => w.k.insertInto(obj.systemName).values(Object.fromEntries(fields.map((f) => [f.name, null]))).compile().sql);
  return { sql: text, parameters: fields.map((f) => row[f.name]), fixed: true };
}

/** A note's link (schema/record-rules.ts), on the row as written: both halves or neither, and the record it names exists. */
function* checkLink(w: RecordWriter, obj: ObjectDef, link: RecordLink, row: RecordRow): Steps<void> {
  checkLinkComplete(obj, link, row);
  const id = row[link.idField];
  const type = row[link.typeField];
  if (id === null || type === null) return;
  const schema = yield* step(w.schema());
  const target = Number.isInteger(type) ? schema.find(type as number) : undefined;
  if (!target) throw errorOf('NOTE_RECORD_MISSING', `object type ${String(type)}`, String(id), `'${link.typeField}' names no object of this organization; send an object's number, such as 1 for account`);
  if (!(yield* recordExists(w, target, String(id)))) {
    throw errorOf('NOTE_RECORD_MISSING', target.systemName, String(id), `send the id of an existing ${target.systemName} record as '${link.idField}'`);
  }
}

/** The record's stored fields, locked until the write commits where the writer locks rows; null when none has the key. */
function* storedRow(w: RecordWriter, obj: ObjectDef, key: string): Steps<RecordRow | null> {
  const text = w.sqlCache.get('stored', obj, () => {
    const q = w.k.selectFrom(obj.systemName).select(storedFields(obj).map((f) => f.name)).where(obj.keyField, '=', '');
    return (w.lockLookups ? q.forUpdate() : q).compile().sql;
  });
  const [row] = yield* step(w.rows({ sql: text, parameters: [key], fixed: true }));
  return row ?? null;
}

/** Runs `check` on the record as GET returns it (read after storedRow locked it). */
function* checkCurrent(w: RecordWriter, obj: ObjectDef, key: string, check: RecordCheck): Steps<void> {
  const current = yield* step(w.read(obj, key));
  if (current) check(current);
}

/**
 * Inserts a checked row (every stored field present); the record as GET returns it. Throws
 * RECORD_ID_TAKEN, LOOKUP_TARGET_MISSING, NOTE_RECORD_MISSING. Its entry: every field with a value.
 */
export function* insertRecord(w: RecordWriter, log: ChangeBuffer, obj: ObjectDef, row: RecordRow): Steps<RecordRow> {
  const id = row[obj.keyField] as string;
  yield* checkLookups(w, obj, row, id);
  const link = recordLinkOf(obj);
  if (link) yield* checkLink(w, obj, link, row);
  try {
    yield* step(w.run(insertStatement(w, obj, row)));
  } catch (err) {
    if (w.isUniqueViolation(err)) throw errorOf('RECORD_ID_TAKEN', obj.systemName, id, obj.keyField);
    throw err;
  }
  const created = (yield* step(w.read(obj, id)))!;
  log.add(obj, created[obj.keyField] as string, 'create', null, created);
  return created;
}

/**
 * Applies checked changes; null when no record has the id. Throws LOOKUP_TARGET_MISSING,
 * NOTE_RECORD_MISSING, or what `check` throws. A composed name (a contact's fullname) not among the
 * changes is built again when one of its parts is, from the parts as the update leaves them (the
 * record read before it, locked until the commit, with the changes), and set by the same UPDATE.
 * Its entry: the stored fields whose value changed, read before (locked) and after.
 */
export function* updateRecord(w: RecordWriter, log: ChangeBuffer, obj: ObjectDef, id: string, changes: RecordRow, check?: RecordCheck): Steps<RecordRow | null> {
  yield* checkLookups(w, obj, changes);
  const key = id.toLowerCase();
  const before = yield* storedRow(w, obj, key);
  if (!before) return null;
  if (check) yield* checkCurrent(w, obj, key, check);
  let applied = changes;
  const name = composedNameOf(obj);
  if (name && !(name.field in changes) && name.parts.some((p) => p in changes)) {
    // Parts left empty keep the name the record has: a contact always has one.
    const built = composeName(obj, name, { ...before, ...changes });
    if (built !== null && built !== before[name.field]) applied = { ...changes, [name.field]: built };
  }
  yield* step(w.run(updateStatement(w, obj, key, applied)));
  const row = (yield* step(w.read(obj, key)))!;
  const link = recordLinkOf(obj);
  if (link && (link.idField in changes || link.typeField in changes)) yield* checkLink(w, obj, link, row);
  log.add(obj, key, 'update', before, row);
  return row;
}

/** false when no record has the id; the record's files go with it. Throws what `check` throws. Its entry: every field it had a value in. */
export function* deleteRecord(w: RecordWriter, log: ChangeBuffer, obj: ObjectDef, id: string, check?: RecordCheck): Steps<boolean> {
  const key = id.toLowerCase();
  if (check) {
    if (!(yield* storedRow(w, obj, key))) return false;
    yield* checkCurrent(w, obj, key, check);
  }
  const text = w.sqlCache.get('delete', obj, () => w.k.deleteFrom(obj.systemName).where(obj.keyField, '=', '')
    .returning(storedFields(obj).map((f) => f.name)).compile().sql);
  const [gone] = yield* step(w.rows({ sql: text, parameters: [key], fixed: true }));
  if (!gone) return false;
  yield* step(w.dropFiles(obj, key));
  log.add(obj, key, 'delete', gone, null);
  return true;
}

const statement = (text: string): WriteStatement => ({ sql: text, parameters: [] });
const SAVEPOINT = statement('SAVEPOINT orchard_item');
const RELEASE = statement('RELEASE SAVEPOINT orchard_item');
const ROLLBACK_TO = statement('ROLLBACK TO SAVEPOINT orchard_item');

/**
 * Runs `one` for each item inside the caller's transaction, each in a savepoint of its own: an
 * item's own refusal (an AppError under 500) undoes that item alone, its entries in `log` included,
 * and becomes its result; anything else (the database unreachable, a timeout) ends the whole batch.
 * Results are in the items' order.
 */
export function* eachItem<I, R>(w: RecordWriter, log: ChangeBuffer, items: readonly I[], one: (item: I) => Steps<R>): Steps<Array<R | AppError>> {
  const out: Array<R | AppError> = [];
  for (const item of items) {
    yield* step(w.run(SAVEPOINT));
    const mark = log.mark();
    try {
      out.push(yield* one(item));
      yield* step(w.run(RELEASE));
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      yield* step(w.run(ROLLBACK_TO));
      log.rollbackTo(mark);
      out.push(err);
    }
  }
  return out;
}

/**
 * Runs a write's steps with the log of its entries, then `append`s them, last in the transaction
 * (see appendChanges): the stores append them with the webhooks' deliveries (store/webhook-outbox.ts
 * appendWithDeliveries).
 */
export function* withChangeLog<T>(author: ChangeAuthor, steps: (log: ChangeBuffer) => Steps<T>, append: (log: ChangeBuffer) => Steps<void>): Steps<T> {
  const log = new ChangeBuffer(author);
  const result = yield* steps(log);
  yield* append(log);
  return result;
}

/**
 * The statement that mirrors a user into the crmuser object (`users`): inserted once, renamed after;
 * Inactive (statecode 2) once the user is deleted, the record kept for the records that name it.
 * `now` is a stored datetime.
 */
export function upsertUserStatement(k: Kysely<any>, users: ObjectDef, user: MirroredUser, now: string): CompiledSql {
  const state = user.active === false ? 2 : 1;
  return k.insertInto(users.systemName)
    .values({
      crmuserid: user.id, fullname: user.fullname, emailaddress1: user.email, ownerid: user.id, statecode: state, statuscode: state,
      createdon: now, modifiedon: now, createdby: user.id, modifiedby: user.id,
    })
    .onConflict((c) => c.column('crmuserid').doUpdateSet({
      fullname: sql.ref('excluded.fullname'), emailaddress1: sql.ref('excluded.emailaddress1'), modifiedon: sql.ref('excluded.modifiedon'),
      statecode: sql.ref('excluded.statecode'), statuscode: sql.ref('excluded.statuscode'),
    }))
    .compile();
}

/**
 * The field `define` adds to an object of `schema` (the definitions as committed, under the store's
 * write lock): the object as it was, its spec with the field, and the field's definition.
 */
export function fieldAddition(schema: OrgSchema, objectType: number, define: (obj: ObjectDef, schema: OrgSchema) => FieldSpec): { obj: ObjectDef; spec: ObjectSpec; field: FieldDef } {
  const obj = schema.resolve(objectType);
  const added = define(obj, schema);
  const spec = withField(schema.specs.find((s) => s.objectType === objectType)!, added);
  return { obj, spec, field: buildObject(spec).fieldsByName.get(added.name)! };
}

/**
 * The spec of object `objectType` with the views `change` gives for it (called with the definitions
 * as committed, under the store's write lock, so concurrent definitions see each other).
 */
export function viewsChange(schema: OrgSchema, objectType: number, change: (obj: ObjectDef, schema: OrgSchema) => readonly ViewSpec[]): ObjectSpec {
  const obj = schema.resolve(objectType);
  return { ...schema.specs.find((s) => s.objectType === objectType)!, views: change(obj, schema) };
}
