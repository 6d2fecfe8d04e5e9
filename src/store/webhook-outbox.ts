// The webhooks of an organization and their outbox (docs/webhooks.md), in its own database (SQLite
// file, PostgreSQL schema) beside its records: `orchard_webhooks` holds the definitions and their
// failure counts, `orchard_deliveries` one row per event and webhook, written in the transaction of
// the write that made it (appendWithDeliveries) and then claimed, attempted and finished by a worker.
// Written once for both stores as generators of statements (record-writes.ts): SQLite runs them in
// an IMMEDIATE transaction, PostgreSQL in a transaction that claims with FOR UPDATE SKIP LOCKED.

import { randomUUID } from 'node:crypto';
import { sql, type ExpressionBuilder, type Kysely, type QueryCreator } from 'kysely';
import type { OrgSchema } from '../schema/org-schema.js';
import type { RecordRow } from '../schema/types.js';
import { matchesFilter, planWebhookFilter } from '../webhooks/filter-match.js';
import { payloadParts, type WrittenRecord } from '../webhooks/payload.js';
import {
  EVENT_OF, TEST_EVENT, type ActiveHook, type AttemptResult, type ClaimedDelivery, type ClaimRequest, type Delivery, type DeliveryEvent, type DeliveryState, type DisablePolicy,
  type PreviousSecret, type TestDelivery, type Webhook, type WebhookEvent, type WebhookMethod, type WebhookOutbox, type WebhookSpec,
} from '../webhooks/webhook-types.js';
import type { CompiledSql } from './record-sql.js';
import { appendChanges, CHANGE_LOG_TABLE, CHANGES_TABLE, step, type ChangeBuffer, type RecordWriter, type Steps } from './record-writes.js';

export const WEBHOOKS_TABLE = 'orchard_webhooks';
export const DELIVERIES_TABLE = 'orchard_deliveries';

/** A hook's result: the value itself (SQLite) or its promise (PostgreSQL). */
type Maybe<T> = T | Promise<T>;

/** What the outbox's statements run on: a transaction's connection. */
export interface OutboxExec {
  readonly k: Kysely<any>;
  /**
   * PostgreSQL: a batch's claim and its outcomes are one statement each (an UPDATE from a CTE that
   * locks the claimed rows FOR UPDATE SKIP LOCKED and returns them with their webhook, an UPDATE from
   * unnest of arrays), where each statement is a round trip. SQLite's statements are calls within the
   * process and stay one a delivery, and its write lock already keeps other claimers out.
   */
  readonly batchStatements: boolean;
  rows(statement: CompiledSql): Maybe<RecordRow[]>;
  run(statement: CompiledSql): Maybe<number>;
  /**
   * Told in the transaction that moved the schema version (the set of active webhooks changed), where
   * a store keeps the definitions in memory (PostgreSQL with PG_CACHE): it tells the other processes
   * and reads them again itself after the commit, so the next write makes deliveries for the new set.
   */
  versionMoved?(): Maybe<void>;
}

/** The active webhooks of an organization as the write path uses them, for one schema version. */
export interface ActiveHooks {
  readonly version: number;
  readonly hooks: readonly ActiveHook[];
}

/**
 * The hot statements of the outbox (a write's deliveries, claims, outcomes) are compiled once per
 * Kysely instance (one per dialect, and per organization's schema on PostgreSQL) and shape: Kysely
 * builds and compiles a statement in tens of microseconds, which a delivery paid several times.
 * A value is given as `slot(name)` when the statement is built and bound by name when it runs.
 */
const SLOT = '\u0000slot:';
const slot = (name: string | number): string => `${SLOT}${name}`;
const compiledOnce = new WeakMap<Kysely<any>, Map<string, CompiledSql>>();

/** The statement `build` makes, compiled once for `x.k` under `key`, with `values` bound to its slots. */
function fixed(x: Pick<OutboxExec, 'k'>, key: string, build: () => { compile(): CompiledSql }, values: Readonly<Record<string, unknown>>): CompiledSql {
  let byKey = compiledOnce.get(x.k);
  if (!byKey) compiledOnce.set(x.k, (byKey = new Map()));
  let compiled = byKey.get(key);
  if (!compiled) byKey.set(key, (compiled = build().compile()));
  return { sql: compiled.sql, parameters: compiled.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? values[p.slice(SLOT.length)] : p)) };
}

/** Row counts whose multi-row statements are kept compiled; larger ones are compiled each time. */
const FIXED_ROWS = 32;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function webhookOf(r: RecordRow): Webhook {
  return {
    id: String(r.id),
    event: r.event as WebhookEvent,
    objectType: num(r.object_type),
    url: String(r.url),
    method: r.method as WebhookMethod,
    filter: r.filter === null ? null : String(r.filter),
    headers: JSON.parse(String(r.headers)) as Record<string, string>,
    secret: String(r.secret),
    previousSecret: r.previous_secret === null ? null : String(r.previous_secret),
    previousSecretExpiresAt: iso(num(r.previous_secret_expires_at)),
    createdAt: String(r.created_at),
    failures: Number(r.failures),
    failingSince: iso(num(r.failing_since)),
    disabledAt: iso(num(r.disabled_at)),
  };
}

function deliveryOf(r: RecordRow): Delivery {
  // A test event's row holds placeholders where a record's event has its record (addTestDelivery).
  const ofRecord = r.event !== TEST_EVENT;
  return {
    id: String(r.id),
    webhookId: String(r.webhook_id),
    event: r.event as DeliveryEvent,
    objectType: ofRecord ? Number(r.object_type) : null,
    recordId: ofRecord ? String(r.record_id) : null,
    sequence: ofRecord ? Number(r.sequence) : null,
    state: r.state as DeliveryState,
    attempts: Number(r.attempts),
    createdAt: iso(Number(r.created_ms))!,
    lastAttemptAt: iso(num(r.last_ms)),
    nextAttemptAt: r.state === 'pending' ? iso(num(r.next_ms)) : null,
    lastStatus: num(r.last_status),
    lastError: r.last_error === null ? null : String(r.last_error),
    durationMs: num(r.duration_ms),
    response: r.response === null ? null : String(r.response),
  };
}

/** The schema version moves with every change of the set of active webhooks, so the write path's cache (activeHooks) follows. */
function* bumpVersion(x: OutboxExec): Steps<void> {
  yield* step(x.run(x.k.updateTable('orchard_meta').set({ schema_version: sql`schema_version + 1` }).where('id', '=', 1).compile()));
  if (x.versionMoved) yield* step(x.versionMoved());
}

/** The active webhooks, their filters typed against `schema` (whose version keys them). Read in the write's transaction. */
export function* readActiveHooks(x: OutboxExec, schema: OrgSchema): Steps<ActiveHooks> {
  const rows = yield* step(x.rows(x.k.selectFrom(WEBHOOKS_TABLE).select(['id', 'event', 'object_type', 'filter']).where('disabled_at', 'is', null).orderBy('id').compile()));
  const hooks = rows.map((r): ActiveHook => {
    const objectType = num(r.object_type);
    const obj = objectType === null ? undefined : schema.find(objectType);
    return {
      id: String(r.id), event: r.event as WebhookEvent, objectType,
      filter: obj && r.filter !== null ? planWebhookFilter(schema, obj, String(r.filter)) : null,
    };
  });
  return { version: schema.version, hooks };
}

/** Rows of one INSERT of deliveries (11 values each, within either database's bound on parameters). */
const INSERT_ROWS = 1_000;

/** A delivery a write makes, before its entries are numbered: its body is `head + sequence + tail` (payloadParts). */
interface PlannedDelivery {
  readonly id: string;
  readonly webhookId: string;
  readonly event: WebhookEvent;
  readonly objectType: number;
  readonly recordId: string;
  /** Its entry's place among the write's entries, from 0: its number is the first entry's plus this. */
  readonly entry: number;
  readonly head: string;
  readonly tail: string;
}

/**
 * A delivery for each record written of an object the author's plan includes, and each active webhook
 * of its event and object whose filter the record matches (as the write left it; as it was, for a delete).
 */
function planDeliveries(hooks: readonly ActiveHook[], log: ChangeBuffer, createdMs: number): PlannedDelivery[] {
  const planned: PlannedDelivery[] = [];
  if (hooks.length === 0) return planned;
  const at = new Date(createdMs).toISOString();
  for (const [entry, w] of log.written.entries()) {
    if (log.author.makesEvents && !log.author.makesEvents(w.obj)) continue;
    const event = EVENT_OF[w.operation];
    let written: WrittenRecord | undefined;
    for (const hook of hooks) {
      if (hook.event !== event || (hook.objectType !== null && hook.objectType !== w.obj.objectType)) continue;
      if (!matchesFilter(hook.filter, w.record)) continue;
      written ??= { obj: w.obj, recordId: w.recordId, event, record: w.record, changes: w.fields, userId: log.author.userId, at };
      const [head, tail] = payloadParts(hook.id, written);
      planned.push({ id: randomUUID(), webhookId: hook.id, event, objectType: w.obj.objectType, recordId: w.recordId, entry, head, tail });
    }
  }
  return planned;
}

/** The planned deliveries of a write whose first entry is numbered `first`, in statements of up to INSERT_ROWS rows. */
function* insertDeliveries(x: Pick<OutboxExec, 'k' | 'run'>, planned: readonly PlannedDelivery[], first: number, createdMs: number, writtenMs: number): Steps<void> {
  const rows = planned.map((d) => ({
    id: d.id, webhook_id: d.webhookId, event: d.event, object_type: d.objectType, record_id: d.recordId, sequence: first + d.entry,
    payload: `${d.head}${first + d.entry}${d.tail}`, state: 'pending', attempts: 0, created_ms: createdMs, written_ms: writtenMs, next_ms: createdMs,
  }));
  for (let start = 0; start < rows.length; start += INSERT_ROWS) {
    const part = rows.slice(start, start + INSERT_ROWS);
    if (part.length > FIXED_ROWS) {
      yield* step(x.run(x.k.insertInto(DELIVERIES_TABLE).values(part).compile()));
      continue;
    }
    const values: Record<string, unknown> = {};
    part.forEach((row, i) => { for (const [c, v] of Object.entries(row)) values[`${c}${i}`] = v; });
    yield* step(x.run(fixed(x, `insert:${part.length}`, () => x.k.insertInto(DELIVERIES_TABLE)
      .values(part.map((row, i) => Object.fromEntries(Object.keys(row).map((c) => [c, slot(`${c}${i}`)])))), values)));
  }
}

/** The values of an entry that appendInOneStatement binds, by slot. */
const ENTRY_VALUES: ReadonlyArray<readonly [string, (e: ChangeBuffer['entries'][number]) => unknown]> = [
  ['types', (e) => e.objectType], ['ids', (e) => e.recordId], ['ops', (e) => e.operation], ['fields', (e) => e.fields],
];

/** The values of a planned delivery that appendInOneStatement binds, by slot. */
const DELIVERY_VALUES: ReadonlyArray<readonly [string, (d: PlannedDelivery) => unknown]> = [
  ['d_id', (d) => d.id], ['d_hook', (d) => d.webhookId], ['d_event', (d) => d.event], ['d_type', (d) => d.objectType],
  ['d_record', (d) => d.recordId], ['d_entry', (d) => d.entry], ['d_head', (d) => d.head], ['d_tail', (d) => d.tail],
];

/**
 * PostgreSQL: a write's entries and deliveries in one statement, which takes the next numbers from
 * the counter (its lock held from there to the commit) and inserts both from arrays. Each statement
 * is a round trip, which costs the server's thread more than anything else a write does (a profile
 * in bench/README.md § Webhooks), and this one replaces three. Returns the first entry's number.
 */
function* appendInOneStatement(w: RecordWriter, log: ChangeBuffer, planned: readonly PlannedDelivery[], createdMs: number, writtenMs: number): Steps<number> {
  const entries = log.entries;
  const withDeliveries = planned.length > 0;
  // One entry or one delivery, the usual case, goes as values, not arrays of one: an array's text is
  // escaped by the driver and parsed by the database, which a kilobyte or two of JSON makes costly.
  const oneEntry = entries.length === 1;
  const values: Record<string, unknown> = { n: entries.length, user: log.author.userId, at: log.author.at };
  for (const [name, of] of ENTRY_VALUES) values[name] = oneEntry ? of(entries[0]!) : entries.map(of);
  const one = planned.length === 1;
  if (withDeliveries) {
    Object.assign(values, { created: createdMs, written: writtenMs });
    for (const [name, of] of DELIVERY_VALUES) values[name] = one ? of(planned[0]!) : planned.map(of);
  }
  const key = `append${oneEntry ? '' : '+entries'}${withDeliveries ? (one ? '+delivery' : '+deliveries') : ''}`;
  const statement = fixed(w, key, () => {
    // `b.base` is the number before the first entry; `e.i` numbers the entries from 1.
    const appended = w.k
      .with('b', (db) => db.updateTable(CHANGE_LOG_TABLE).set({ last_seq: sql`last_seq + ${slot('n')}::bigint` }).where('id', '=', 1)
        .returning(sql<number>`last_seq - ${slot('n')}::bigint`.as('base')))
      .with('c', (db) => db.insertInto(CHANGES_TABLE).columns(['seq', 'object_type', 'record_id', 'operation', 'fields', 'user_id', 'changedon'])
        .expression(db.selectFrom(['b', sql`${oneEntry
          ? sql`(VALUES (${slot('types')}::integer, ${slot('ids')}::text, ${slot('ops')}::text, ${slot('fields')}::text, 1))`
          : sql`unnest(${slot('types')}::integer[], ${slot('ids')}::text[], ${slot('ops')}::text[], ${slot('fields')}::text[]) WITH ORDINALITY`}
          AS e(object_type, record_id, operation, fields, i)` as unknown as 'e'])
          .select([sql`b.base + e.i`.as('seq'), 'e.object_type', 'e.record_id', 'e.operation', 'e.fields', sql`${slot('user')}::text`.as('user_id'), sql`${slot('at')}::text`.as('changedon')])));
    const last = withDeliveries
      ? appended.with('d', (db) => db.insertInto(DELIVERIES_TABLE)
        .columns(['id', 'webhook_id', 'event', 'object_type', 'record_id', 'sequence', 'payload', 'state', 'attempts', 'created_ms', 'written_ms', 'next_ms'])
        .expression(db.selectFrom(['b', sql`${one
          ? sql`(VALUES (${slot('d_id')}::text, ${slot('d_hook')}::text, ${slot('d_event')}::text, ${slot('d_type')}::integer,
            ${slot('d_record')}::text, ${slot('d_entry')}::bigint, ${slot('d_head')}::text, ${slot('d_tail')}::text))`
          : sql`unnest(${slot('d_id')}::text[], ${slot('d_hook')}::text[], ${slot('d_event')}::text[], ${slot('d_type')}::integer[],
            ${slot('d_record')}::text[], ${slot('d_entry')}::bigint[], ${slot('d_head')}::text[], ${slot('d_tail')}::text[])`}
          AS v(id, webhook_id, event, object_type, record_id, entry, head, tail)` as unknown as 'v'])
          .select(['v.id', 'v.webhook_id', 'v.event', 'v.object_type', 'v.record_id', sql`b.base + 1 + v.entry`.as('sequence'),
            sql`v.head || (b.base + 1 + v.entry)::text || v.tail`.as('payload'), sql`'pending'`.as('state'), sql`0`.as('attempts'),
            sql`${slot('created')}::bigint`.as('created_ms'), sql`${slot('written')}::bigint`.as('written_ms'), sql`${slot('created')}::bigint`.as('next_ms')])))
      : appended;
    return last.selectFrom('b').select('b.base');
  }, values);
  const [row] = yield* step(w.rows({ ...statement, fixed: true }));
  return Number(row!.base) + 1;
}

/**
 * The last steps of a write's transaction (the `append` of withChangeLog): its change-log entries,
 * numbered, and the deliveries of the organization's active webhooks, whose bodies carry those
 * numbers. Adds how many deliveries it made to `made`.
 */
export function* appendWithDeliveries(w: RecordWriter, log: ChangeBuffer, made: { count: number }): Steps<void> {
  if (log.entries.length === 0) return;
  const createdMs = Date.parse(`${log.author.at}Z`);
  const planned = planDeliveries(yield* step(w.activeHooks()), log, createdMs);
  const writtenMs = Date.now();
  if (w.appendInOneStatement) {
    log.first = yield* appendInOneStatement(w, log, planned, createdMs, writtenMs);
  } else {
    yield* appendChanges(w, log);
    yield* insertDeliveries(w, planned, log.first, createdMs, writtenMs);
  }
  made.count += planned.length;
}

const WEBHOOK_COLUMNS = [
  'id', 'event', 'object_type', 'url', 'method', 'filter', 'headers', 'secret', 'previous_secret', 'previous_secret_expires_at', 'created_at', 'failures', 'failing_since', 'disabled_at',
] as const;

export function* listWebhooks(x: OutboxExec): Steps<Webhook[]> {
  const rows = yield* step(x.rows(x.k.selectFrom(WEBHOOKS_TABLE).select(WEBHOOK_COLUMNS).orderBy('created_at').orderBy('id').compile()));
  return rows.map(webhookOf);
}

export function* getWebhook(x: OutboxExec, id: string): Steps<Webhook | null> {
  const [row] = yield* step(x.rows(x.k.selectFrom(WEBHOOKS_TABLE).select(WEBHOOK_COLUMNS).where('id', '=', id).compile()));
  return row ? webhookOf(row) : null;
}

export function* addWebhook(x: OutboxExec, spec: WebhookSpec, max?: number, previous?: PreviousSecret): Steps<Webhook | null> {
  // The version's row, updated first, is the organization's lock: on PostgreSQL a concurrent add
  // waits here until this one commits, and then counts it (SQLite's write lock does as much).
  yield* bumpVersion(x);
  if (max !== undefined) {
    const [row] = yield* step(x.rows(x.k.selectFrom(WEBHOOKS_TABLE).select((eb) => eb.fn.countAll().as('n')).compile()));
    if (Number(row?.n ?? 0) >= max) return null;
  }
  yield* step(x.run(x.k.insertInto(WEBHOOKS_TABLE).values({
    id: spec.id, event: spec.event, object_type: spec.objectType, url: spec.url, method: spec.method, filter: spec.filter,
    headers: JSON.stringify(spec.headers), secret: spec.secret, created_at: spec.createdAt, failures: 0,
    ...(previous ? { previous_secret: previous.secret, previous_secret_expires_at: Date.parse(previous.expiresAt) } : {}),
  }).compile()));
  return (yield* getWebhook(x, spec.id))!;
}

export function* removeWebhook(x: OutboxExec, id: string): Steps<boolean> {
  const removed = yield* step(x.run(x.k.deleteFrom(WEBHOOKS_TABLE).where('id', '=', id).compile()));
  if (removed === 0) return false;
  yield* step(x.run(x.k.deleteFrom(DELIVERIES_TABLE).where('webhook_id', '=', id).compile()));
  yield* bumpVersion(x);
  return true;
}

export function* enableWebhook(x: OutboxExec, id: string): Steps<Webhook | null> {
  const changed = yield* step(x.run(x.k.updateTable(WEBHOOKS_TABLE)
    .set({ disabled_at: null, failures: 0, failing_since: null, notice_lease: null, notice_sent_at: null }).where('id', '=', id).compile()));
  if (changed === 0) return null;
  yield* bumpVersion(x);
  return yield* getWebhook(x, id);
}

/**
 * The schema version stays: the write path's webhooks (readActiveHooks) have no secret, and a claim
 * reads the secrets with its deliveries, so the next attempt, pending ones included, signs with these.
 */
export function* rotateSecret(x: OutboxExec, id: string, secret: string, previousUntilMs: number | null): Steps<Webhook | null> {
  // The right-hand `secret` is the row's before this statement: the one replaced.
  const changed = yield* step(x.run(x.k.updateTable(WEBHOOKS_TABLE).set({
    secret, previous_secret: previousUntilMs === null ? null : sql`secret`, previous_secret_expires_at: previousUntilMs,
  }).where('id', '=', id).compile()));
  return changed === 0 ? null : yield* getWebhook(x, id);
}

/** Forgets the previous secrets whose overlap has ended by `nowMs` (organization's clock): a secret that no longer signs is not kept. */
export function* forgetExpiredSecrets(x: OutboxExec, nowMs: number): Steps<number> {
  return yield* step(x.run(x.k.updateTable(WEBHOOKS_TABLE).set({ previous_secret: null, previous_secret_expires_at: null })
    .where('previous_secret_expires_at', '<=', nowMs).compile()));
}

const DELIVERY_COLUMNS = ['id', 'webhook_id', 'event', 'object_type', 'record_id', 'sequence', 'state', 'attempts', 'created_ms', 'next_ms', 'last_ms', 'last_status', 'last_error', 'duration_ms', 'response'] as const;

export function* redeliver(x: OutboxExec, webhookId: string, id: string, nowMs: number): Steps<{ delivery: Delivery; redelivered: boolean } | null> {
  const changed = yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({ state: 'pending', attempts: 0, next_ms: nowMs, lease_ms: null })
    .where('webhook_id', '=', webhookId).where('id', '=', id).where('state', '=', 'failed').compile()));
  const delivery = yield* readDelivery(x, webhookId, id);
  return delivery ? { delivery, redelivered: changed > 0 } : null;
}

/** The webhook's delivery with the id, as the log shows it; null when it has none. */
function* readDelivery(x: OutboxExec, webhookId: string, id: string): Steps<Delivery | null> {
  const [row] = yield* step(x.rows(x.k.selectFrom(DELIVERIES_TABLE).select(DELIVERY_COLUMNS).where('webhook_id', '=', webhookId).where('id', '=', id).compile()));
  return row ? deliveryOf(row) : null;
}

/**
 * A page of the webhook's log, newest first. Walks ix_orchard_deliveries_webhook (webhook_id, n)
 * backwards on both stores, the state checked on each row: no index of its own, which every
 * delivery's insert in a write's transaction and every outcome would pay (docs/webhooks.md § The delivery log).
 */
export function* listDeliveries(x: OutboxExec, webhookId: string, page: { limit: number; offset: number; state?: DeliveryState }): Steps<Delivery[]> {
  let query = x.k.selectFrom(DELIVERIES_TABLE).select(DELIVERY_COLUMNS).where('webhook_id', '=', webhookId);
  if (page.state !== undefined) query = query.where('state', '=', page.state);
  const rows = yield* step(x.rows(query.orderBy('n', 'desc').limit(page.limit).offset(page.offset).compile()));
  return rows.map(deliveryOf);
}

/**
 * A test event's delivery (docs/webhooks.md § Test events), added to an active webhook outside any
 * write. Its row's record columns, NOT NULL for a record's event, hold placeholders that deliveryOf
 * reads as null; sequence 0 puts it first among those due at its time.
 */
export function* addTestDelivery(x: OutboxExec, webhookId: string, d: TestDelivery): Steps<{ delivery: Delivery } | { disabled: Webhook } | null> {
  // The webhook's row, updated to itself, is locked to the commit (PostgreSQL; SQLite's write lock
  // does as much): a delete waits and then removes this delivery with the others, none left without its webhook.
  const active = yield* step(x.run(x.k.updateTable(WEBHOOKS_TABLE).set({ failures: sql`failures` }).where('id', '=', webhookId).where('disabled_at', 'is', null).compile()));
  if (active === 0) {
    const hook = yield* getWebhook(x, webhookId);
    return hook ? { disabled: hook } : null;
  }
  yield* step(x.run(x.k.insertInto(DELIVERIES_TABLE).values({
    id: d.id, webhook_id: webhookId, event: TEST_EVENT, object_type: 0, record_id: '', sequence: 0,
    payload: d.payload, state: 'pending', attempts: 0, created_ms: d.createdMs, written_ms: d.writtenMs, next_ms: d.createdMs,
  }).compile()));
  return { delivery: (yield* readDelivery(x, webhookId, d.id))! };
}

/**
 * SQLite's pending deliveries indexed in a claim's order (due time, change-log number, row), so that
 * a claim walks the index and stops at its batch. The index it replaces (migration 5) held the due
 * time alone, and every claim sorted all the deliveries due: a bulk import's share one due time, so
 * each batch of a backlog of 8,000 sorted all of it (bench/README.md § Webhooks). PostgreSQL keeps
 * its index on the due time: its planner, by its estimates, sorted the due rows with either index.
 * `s` qualifies the table ('' or `schema.`); run as a migration, so idempotent.
 */
export const dueIndexSql = (s: string): string[] => [
  `DROP INDEX IF EXISTS ${s}ix_orchard_deliveries_due`,
  `CREATE INDEX IF NOT EXISTS ix_orchard_deliveries_pending ON ${s}${DELIVERIES_TABLE} (next_ms, sequence, n) WHERE state = 'pending'`,
];

/**
 * PostgreSQL: a statement run in a transaction of its own (keepOne) that joins this CTE commits
 * without waiting for the WAL's flush: set_config(…, true) is SET LOCAL, and the commit reads the
 * setting. In the statement, not in a `SET LOCAL` sent before it, so that it is one round trip and
 * stays a prepared statement (planned once per connection). A statement updates only rows it joined
 * with the CTE's one row, so the setting is made before anything is written.
 */
const lazyCommit = (db: QueryCreator<any>) => db.selectNoFrom(sql<string>`set_config('synchronous_commit', 'off', true)`.as('setting'));

/** Due, unclaimed (or whose claim lapsed) deliveries of active webhooks, oldest first, then claimed until `realMs + leaseMs`. */
export function* claimDeliveries(x: OutboxExec, r: ClaimRequest): Steps<ClaimedDelivery[]> {
  const due = (db: QueryCreator<any>) => db.selectFrom(`${DELIVERIES_TABLE} as d`).innerJoin(`${WEBHOOKS_TABLE} as h`, 'h.id', 'd.webhook_id')
    .where('d.state', '=', 'pending').where('d.next_ms', '<=', slot('due'))
    .where((eb) => eb.or([eb('d.lease_ms', 'is', null), eb('d.lease_ms', '<=', slot('real'))]))
    .where('h.disabled_at', 'is', null)
    .orderBy('d.next_ms').orderBy('d.sequence').orderBy('d.n').limit(slot('limit') as unknown as number);
  const columns = ['d.n', 'd.id', 'd.event', 'd.payload', 'd.attempts', 'd.written_ms', 'h.id as hook_id', 'h.url', 'h.method', 'h.headers', 'h.secret', 'h.failures'] as const;
  // While a rotation's overlap lasts (organization's clock), the secret it replaced signs too.
  const previous = sql<string | null>`CASE WHEN h.previous_secret_expires_at > ${slot('due')} THEN h.previous_secret END`.as('previous_secret');
  // After it, it is no longer kept: the claimer forgets it (forgetExpiredSecrets).
  const ended = sql<number | null>`CASE WHEN h.previous_secret_expires_at <= ${slot('due')} THEN 1 END`.as('previous_ended');
  const values = { due: r.dueMs, real: r.realMs, limit: r.limit, lease: r.realMs + r.leaseMs };
  let rows: RecordRow[];
  if (x.batchStatements) {
    rows = yield* step(x.rows(fixed(x, 'claim+lease', () => x.k.with('lazy', lazyCommit).with('due', (db) => due(db).select('d.n').forUpdate('d').skipLocked())
      .updateTable(`${DELIVERIES_TABLE} as d`).from(['due', `${WEBHOOKS_TABLE} as h`, 'lazy']).set({ lease_ms: slot('lease') })
      .whereRef('d.n', '=', 'due.n').whereRef('h.id', '=', 'd.webhook_id')
      .returning([...columns, previous, ended, 'd.next_ms', 'd.sequence']), values)));
    // RETURNING keeps no order: the claim's, oldest first.
    rows.sort((a, b) => Number(a.next_ms) - Number(b.next_ms) || Number(a.sequence) - Number(b.sequence) || Number(a.n) - Number(b.n));
  } else {
    rows = yield* step(x.rows(fixed(x, 'claim', () => due(x.k).select([...columns, previous, ended]), values)));
    for (let start = 0; start < rows.length; start += FIXED_ROWS) {
      const keys = rows.slice(start, start + FIXED_ROWS).map((row) => Number(row.n));
      const leased: Record<string, unknown> = { lease: values.lease };
      keys.forEach((n, i) => (leased[i] = n));
      yield* step(x.run(fixed(x, `lease:${keys.length}`, () => x.k.updateTable(DELIVERIES_TABLE).set({ lease_ms: slot('lease') }).where('n', 'in', keys.map((_, i) => slot(i))), leased)));
    }
  }
  if (rows.length === 0) return [];
  return rows.map((row) => ({
    row: Number(row.n), id: String(row.id), event: row.event as WebhookEvent, payload: String(row.payload), attempts: Number(row.attempts), writtenMs: Number(row.written_ms),
    webhook: { id: String(row.hook_id), url: String(row.url), method: row.method as WebhookMethod, headers: JSON.parse(String(row.headers)) as Record<string, string>, secret: String(row.secret),
      ...(row.previous_secret === null ? {} : { previousSecret: String(row.previous_secret) }) },
    ...(row.previous_ended === null ? {} : { previousSecretEnded: true as const }),
    webhookFailures: Number(row.failures),
  }));
}

/**
 * A held delivery's lease (postponeDeliveries): over, as no lease, so any claim takes it once due,
 * and telling it from a retry that is due later, which resumeDeliveries leaves to its own time.
 */
const HELD = 0;

/** Claimed deliveries left unattempted: held, due again at `untilMs` (organization's clock), attempts unchanged. */
export function* postponeDeliveries(x: OutboxExec, deliveries: readonly Pick<ClaimedDelivery, 'row' | 'id'>[], untilMs: number): Steps<void> {
  for (let start = 0; start < deliveries.length; start += FIXED_ROWS) {
    const part = deliveries.slice(start, start + FIXED_ROWS);
    // By row and id, as the outcomes are.
    yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({ next_ms: untilMs, lease_ms: HELD }).where('state', '=', 'pending')
      .where((eb) => eb.or(part.map((d) => eb.and([eb('n', '=', d.row), eb('id', '=', d.id)])))).compile()));
  }
}

/** The webhook's held deliveries due later than `nowMs` made due at `nowMs` (organization's clock): its receiver answers again. */
export function* resumeDeliveries(x: OutboxExec, webhookId: string, nowMs: number): Steps<number> {
  return yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({ next_ms: nowMs }).where('webhook_id', '=', webhookId).where('state', '=', 'pending')
    .where('lease_ms', '=', HELD).where('next_ms', '>', nowMs).compile()));
}

/** Whether finishDeliveries records `results` in one statement where the store batches statements: each attempt succeeded. */
export const finishesInOne = (results: readonly AttemptResult[]): boolean => results.every((res) => res.ok);

/** What a batch of attempts did to one webhook's count of failures in a row. */
interface HookTally {
  /** An attempt succeeded: the count starts again from the failures after the last success. */
  succeeded: boolean;
  failures: number;
  /** The first of those failures; and the last (when the disabling is judged). */
  since: number | null;
  lastMs: number;
}

/** Records attempts, counts failures against their webhooks (one statement a webhook), and disables those `policy` says failed for long (returned). */
export function* finishDeliveries(x: OutboxExec, results: readonly AttemptResult[], policy: DisablePolicy): Steps<Webhook[]> {
  const tallies = new Map<string, HookTally>();
  // An outcome is recorded on a delivery still pending: one that ended while the attempt was under
  // way (failed by its webhook's disabling in another process, delivered by another claim after the
  // lease) stays ended, not due again; a success is recorded all the same, the receiver has it.
  const stateOf = (res: AttemptResult): DeliveryState => (res.ok ? 'delivered' : res.retryAtMs === null ? 'failed' : 'pending');
  // The rows whose outcome this call recorded (locked by it to the commit): only those may be kept pending below.
  const recorded = new Set<number>();
  if (x.batchStatements && results.length > 0) {
    // By row and id, as below.
    const outcomes = (db: QueryCreator<any>, lazy: boolean) => db.updateTable(`${DELIVERIES_TABLE} as d`)
      .from([...(lazy ? ['lazy'] : []), sql`unnest(${slot('row')}::bigint[], ${slot('id')}::text[], ${slot('state')}::text[], ${slot('next')}::bigint[], ${slot('at')}::bigint[],
        ${slot('status')}::integer[], ${slot('error')}::text[], ${slot('duration')}::double precision[], ${slot('response')}::text[])
        AS v(n, id, state, next_ms, last_ms, last_status, last_error, duration_ms, response)` as unknown as 'v']) // a table function with its column names: typed as a table by name
      .set({
        state: sql`v.state`, attempts: sql`d.attempts + 1`, next_ms: sql`v.next_ms`, lease_ms: null, last_ms: sql`v.last_ms`,
        last_status: sql`v.last_status`, last_error: sql`v.last_error`, duration_ms: sql`v.duration_ms`, response: sql`v.response`,
      }).whereRef('d.n', '=', sql`v.n`).whereRef('d.id', '=', sql`v.id`).where(sql<boolean>`(d.state = 'pending' OR v.state = 'delivered')`);
    const values = {
      row: results.map((res) => res.row), id: results.map((res) => res.id), state: results.map(stateOf),
      next: results.map((res) => (stateOf(res) === 'pending' ? res.retryAtMs : null)), at: results.map((res) => res.atMs), status: results.map((res) => res.status),
      error: results.map((res) => res.error), duration: results.map((res) => res.durationMs), response: results.map((res) => res.response),
    };
    if (finishesInOne(results)) {
      // The common case in one statement: the outcomes, and the count of failures
      // in a row started again for the webhooks that were failing.
      yield* step(x.run(fixed(x, 'outcomes:ok', () => x.k.with('lazy', lazyCommit).with('o', (db) => outcomes(db, true)).updateTable(WEBHOOKS_TABLE).set({ failures: 0, failing_since: null })
        .where('id', '=', sql<string>`ANY(${slot('hooks')}::text[])`).where('failures', '<>', 0).where('disabled_at', 'is', null), { ...values, hooks: [...new Set(results.map((res) => res.webhookId))] })));
      return [];
    }
    for (const row of yield* step(x.rows(fixed(x, 'outcomes', () => outcomes(x.k, false).returning('d.n'), values)))) recorded.add(Number(row.n));
  }
  for (const res of results) {
    const state = stateOf(res);
    if (!x.batchStatements && (yield* step(x.run(fixed(x, 'outcome', () => x.k.updateTable(DELIVERIES_TABLE).set({
      state: slot('state'), attempts: sql`attempts + 1`, next_ms: slot('next'), lease_ms: null,
      last_ms: slot('at'), last_status: slot('status'), last_error: slot('error'), duration_ms: slot('duration'), response: slot('response'),
    // By its row, and its id: SQLite may give a row number again once the row is gone (a webhook deleted during the attempt).
    }).where('n', '=', slot('row')).where('id', '=', slot('id')).where(sql<boolean>`(state = 'pending' OR ${slot('state')} = 'delivered')`), {
      state, next: state === 'pending' ? res.retryAtMs : null, at: res.atMs, status: res.status, error: res.error, duration: res.durationMs, response: res.response, row: res.row, id: res.id,
    })))) > 0) recorded.add(res.row);
    let t = tallies.get(res.webhookId);
    if (!t) tallies.set(res.webhookId, (t = { succeeded: false, failures: 0, since: null, lastMs: res.atMs }));
    if (res.ok) Object.assign(t, { succeeded: true, failures: 0, since: null });
    else Object.assign(t, { failures: t.failures + 1, since: t.since ?? res.atMs, lastMs: res.atMs });
  }
  const disabled: Webhook[] = [];
  for (const [id, t] of tallies) {
    // A disabled webhook's count stays as its disabling left it (docs/webhooks.md § Disabling): an
    // attempt that ends after, of this process or another, neither clears nor adds to it.
    const hook = x.k.updateTable(WEBHOOKS_TABLE).where('id', '=', id).where('disabled_at', 'is', null);
    if (t.succeeded && t.failures === 0) {
      // The common case: nothing to write unless it was failing.
      yield* step(x.run(fixed(x, 'hook:ok', () => x.k.updateTable(WEBHOOKS_TABLE).set({ failures: 0, failing_since: null })
        .where('id', '=', slot('id')).where('failures', '<>', 0).where('disabled_at', 'is', null), { id })));
      continue;
    }
    yield* step(x.run((t.succeeded
      ? hook.set({ failures: t.failures, failing_since: t.since })
      : hook.set({ failures: sql`failures + ${t.failures}`, failing_since: sql`COALESCE(failing_since, ${t.since})` })).compile()));
    const rows = yield* step(x.rows(x.k.updateTable(WEBHOOKS_TABLE).set({ disabled_at: t.lastMs })
      .where('id', '=', id).where('disabled_at', 'is', null).where('failures', '>=', policy.failures)
      .where('failing_since', '<=', t.lastMs - Math.floor(policy.hours * 3_600_000)).returning(WEBHOOK_COLUMNS).compile()));
    if (rows.length === 0) continue;
    // The attempts that disabled it end failed with their own error; its other deliveries say why they end.
    const attempted = results.filter((res) => res.webhookId === id).map((res) => res.row);
    yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({ state: 'failed', next_ms: null, lease_ms: null })
      .where('webhook_id', '=', id).where('state', '=', 'pending').where('n', 'in', attempted).compile()));
    yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({ state: 'failed', next_ms: null, lease_ms: null, last_error: 'WEBHOOK_DISABLED: the webhook was disabled for failing too long' })
      .where('webhook_id', '=', id).where('state', '=', 'pending').compile()));
    disabled.push(webhookOf(rows[0]!));
  }
  // A last attempt's failure whose webhook is still active and has failed all along since the
  // delivery's first attempt: kept pending, so that the webhook's disabling, not the count of
  // attempts, gives it up (docs/webhooks.md § Retries). Only a delivery this call failed: one that
  // another process ended meanwhile (its own last attempt, a claim after this one's lease) stays as it left it.
  for (const res of results) {
    if (res.ok || res.retryAtMs !== null || !res.hold || !recorded.has(res.row)) continue;
    yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({ state: 'pending', next_ms: res.hold.retryAtMs })
      .where('n', '=', res.row).where('id', '=', res.id).where('state', '=', 'failed')
      .where('webhook_id', 'in', (eb: ExpressionBuilder<any, any>) => eb.selectFrom(WEBHOOKS_TABLE).select('id').where('id', '=', res.webhookId).where('disabled_at', 'is', null)
        .where('failing_since', '<=', res.hold!.failingSince))
      .compile()));
  }
  if (disabled.length > 0) yield* bumpVersion(x);
  return disabled;
}

export function* nextDue(x: OutboxExec): Steps<number | null> {
  const [row] = yield* step(x.rows(fixed(x, 'next', () => x.k.selectFrom(`${DELIVERIES_TABLE} as d`).innerJoin(`${WEBHOOKS_TABLE} as h`, 'h.id', 'd.webhook_id')
    .select((eb) => eb.fn.min('d.next_ms').as('due')).where('d.state', '=', 'pending').where('h.disabled_at', 'is', null), {})));
  return num(row?.due);
}

/**
 * Delivered and failed deliveries made before `beforeMs`, webhook by webhook (each by its index);
 * and deliveries of webhooks that no longer exist. Those are made when, on PostgreSQL, a write that
 * read its webhooks commits after a delete of one of them: never claimed (a claim joins the
 * webhook), they would stay pending for ever at the head of the due index. Always pending, so found
 * by the pending ones' index.
 */
export function* pruneDeliveries(x: OutboxExec, beforeMs: number): Steps<number> {
  let removed = yield* step(x.run(x.k.deleteFrom(`${DELIVERIES_TABLE} as d`).where('d.state', '=', 'pending')
    .where((eb) => eb.not(eb.exists(eb.selectFrom(`${WEBHOOKS_TABLE} as h`).select(sql.lit(1).as('one')).whereRef('h.id', '=', 'd.webhook_id'))))
    .compile()));
  const hooks = yield* step(x.rows(x.k.selectFrom(WEBHOOKS_TABLE).select('id').compile()));
  for (const { id } of hooks) {
    removed += yield* step(x.run(x.k.deleteFrom(DELIVERIES_TABLE).where('webhook_id', '=', String(id)).where('created_ms', '<', beforeMs)
      .where('state', '!=', 'pending').compile()));
  }
  return removed;
}

/** Disabled webhooks whose notice no worker sent or holds a claim on, claimed until `realMs + leaseMs`. */
export function* claimNotices(x: OutboxExec, realMs: number, leaseMs: number): Steps<Webhook[]> {
  const rows = yield* step(x.rows(x.k.updateTable(WEBHOOKS_TABLE).set({ notice_lease: realMs + leaseMs })
    .where('disabled_at', 'is not', null).where('notice_sent_at', 'is', null)
    .where((eb) => eb.or([eb('notice_lease', 'is', null), eb('notice_lease', '<=', realMs)]))
    .returning(WEBHOOK_COLUMNS).compile()));
  return rows.map(webhookOf);
}

export function* markNoticeSent(x: OutboxExec, id: string, at: string): Steps<void> {
  yield* step(x.run(x.k.updateTable(WEBHOOKS_TABLE).set({ notice_sent_at: at }).where('id', '=', id).compile()));
}

/**
 * Kept when an organization's records are replaced (a restore, a reset): the writes that made
 * pending deliveries were acknowledged, so they are still owed; the restored webhooks' own come
 * back with them, and those of webhooks the restore removed go (ORPHAN_DELIVERIES).
 */
export const KEPT_ON_REPLACE = DELIVERIES_TABLE;

/** Removes the deliveries of webhooks that no longer exist (after a restore); `s` qualifies the tables ('' or `schema.`). */
export const orphanDeliveriesSql = (s: string): string => `DELETE FROM ${s}${DELIVERIES_TABLE} WHERE webhook_id NOT IN (SELECT id FROM ${s}${WEBHOOKS_TABLE})`;

/** How a store runs the outbox's steps. */
export interface OutboxRunners {
  /** One read, in its own snapshot. */
  read<T>(steps: (x: OutboxExec) => Steps<T>): Promise<T>;
  /** Steps in one write transaction whose commit is durable before it returns (a webhook made or deleted). */
  change<T>(steps: (x: OutboxExec) => Steps<T>): Promise<T>;
  /**
   * Steps in one write transaction whose commit need not wait for the disk: the worker's
   * bookkeeping (claims, the outcomes of attempts, notices). A crash may lose the last of them, which
   * only has a delivery attempted (or a notice sent) again: at least once still holds, and the
   * writes' own transactions, which make the deliveries, keep waiting for the disk.
   */
  keep<T>(steps: (x: OutboxExec) => Steps<T>): Promise<T>;
  /**
   * As keep, for steps that run one statement where the store batches statements (a claim; a
   * batch's outcomes when finishesInOne), which carries its own setting (lazyCommit): PostgreSQL runs
   * it alone, one round trip where BEGIN and COMMIT made three. Without it, keep.
   */
  keepOne?<T>(steps: (x: OutboxExec) => Steps<T>): Promise<T>;
  /**
   * After a commit outside a write that made a delivery due (a test event, a retry, a webhook
   * enabled): what the store does after a write's (RecordStore.watchDeliveries), so this process's
   * worker attempts it at once rather than at its next sweep.
   */
  made?(): void;
}

/** One organization's WebhookOutbox from the outbox's steps, run as the store runs them. */
export function outboxOf({ read, change, keep, keepOne = keep, made }: OutboxRunners): WebhookOutbox {
  /** `change`, then the worker told when `madeDue` says its result made a delivery due. */
  const changeMaking = async <T>(steps: (x: OutboxExec) => Steps<T>, madeDue: (result: T) => boolean): Promise<T> => {
    const result = await change(steps);
    if (madeDue(result)) made?.();
    return result;
  };
  return {
    list: () => read(listWebhooks),
    get: (id) => read((x) => getWebhook(x, id)),
    add: (spec, max, previous) => change((x) => addWebhook(x, spec, max, previous)),
    remove: (id) => change((x) => removeWebhook(x, id)),
    // Its deliveries retried while it was disabled are due now: the worker is told, as after a write.
    enable: (id) => changeMaking((x) => enableWebhook(x, id), (enabled) => enabled !== null),
    rotateSecret: (id, secret, previousUntilMs) => change((x) => rotateSecret(x, id, secret, previousUntilMs)),
    forgetExpiredSecrets: (nowMs) => change((x) => forgetExpiredSecrets(x, nowMs)),
    deliveries: (webhookId, page) => read((x) => listDeliveries(x, webhookId, page)),
    redeliver: (webhookId, deliveryId, nowMs) => changeMaking((x) => redeliver(x, webhookId, deliveryId, nowMs), (sent) => sent?.redelivered === true),
    addTest: (webhookId, delivery) => changeMaking((x) => addTestDelivery(x, webhookId, delivery), (added) => added !== null && 'delivery' in added),
    claim: (request) => keepOne((x) => claimDeliveries(x, request)),
    finish: (results, policy) => (finishesInOne(results) ? keepOne : keep)((x) => finishDeliveries(x, results, policy)),
    postpone: (deliveries, untilMs) => keep((x) => postponeDeliveries(x, deliveries, untilMs)),
    resume: (webhookId, nowMs) => keep((x) => resumeDeliveries(x, webhookId, nowMs)),
    nextDue: () => read(nextDue),
    prune: (beforeMs) => keep((x) => pruneDeliveries(x, beforeMs)),
    claimNotices: (realMs, leaseMs) => keep((x) => claimNotices(x, realMs, leaseMs)),
    noticeSent: (id, at) => keep((x) => markNoticeSent(x, id, at)),
  };
}

/** The listeners of RecordStore.watchDeliveries, told after a commit that made deliveries. */
export class DeliveryWatchers {
  private readonly listeners = new Set<(orgId: string) => void>();

  watch(listener: (orgId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener; a listener's failure is not the write's. */
  told(orgId: string): void {
    for (const listener of this.listeners) {
      try {
        listener(orgId);
      } catch {
        // The worker's sweep finds the deliveries anyway.
      }
    }
  }
}
