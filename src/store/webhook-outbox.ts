// The webhooks of an organization and their outbox (docs/webhooks.md), in its own database (SQLite
// file, PostgreSQL schema) beside its records: `orchard_webhooks` holds the definitions and their
// failure counts, `orchard_deliveries` one row per event and webhook, written in the transaction of
// the write that made it (appendDeliveries) and then claimed, attempted and finished by a worker.
// Written once for both stores as generators of statements (record-writes.ts): SQLite runs them in
// an IMMEDIATE transaction, PostgreSQL in a transaction that claims with FOR UPDATE SKIP LOCKED.

import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { OrgSchema } from '../schema/org-schema.js';
import type { RecordRow } from '../schema/types.js';
import { matchesFilter, planWebhookFilter } from '../webhooks/filter-match.js';
import { payloadOf, type WrittenRecord } from '../webhooks/payload.js';
import {
  EVENT_OF, type ActiveHook, type AttemptResult, type ClaimedDelivery, type Delivery, type DeliveryState, type DisablePolicy, type Webhook, type WebhookEvent,
  type WebhookMethod, type WebhookOutbox, type WebhookSpec,
} from '../webhooks/webhook-types.js';
import type { CompiledSql } from './record-sql.js';
import { step, type ChangeBuffer, type RecordWriter, type Steps } from './record-writes.js';

export const WEBHOOKS_TABLE = 'orchard_webhooks';
export const DELIVERIES_TABLE = 'orchard_deliveries';

/** A hook's result: the value itself (SQLite) or its promise (PostgreSQL). */
type Maybe<T> = T | Promise<T>;

/** What the outbox's statements run on: a transaction's connection. */
export interface OutboxExec {
  readonly k: Kysely<any>;
  /** Claimed rows are locked FOR UPDATE SKIP LOCKED (PostgreSQL); SQLite's write lock already keeps other claimers out. */
  readonly lockRows: boolean;
  rows(statement: CompiledSql): Maybe<RecordRow[]>;
  run(statement: CompiledSql): Maybe<number>;
}

/** The active webhooks of an organization as the write path uses them, for one schema version. */
export interface ActiveHooks {
  readonly version: number;
  readonly hooks: readonly ActiveHook[];
}

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
    createdAt: String(r.created_at),
    failures: Number(r.failures),
    failingSince: iso(num(r.failing_since)),
    disabledAt: iso(num(r.disabled_at)),
  };
}

function deliveryOf(r: RecordRow): Delivery {
  return {
    id: String(r.id),
    webhookId: String(r.webhook_id),
    event: r.event as WebhookEvent,
    objectType: Number(r.object_type),
    recordId: String(r.record_id),
    sequence: Number(r.sequence),
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

/**
 * In the write's transaction, after its change-log entries (whose numbers the payloads carry): a
 * delivery for each record written and each active webhook of its event and object whose filter the
 * record matches (as the write left it; as it was, for a delete). Returns how many were made.
 */
export function* appendDeliveries(x: Pick<OutboxExec, 'k' | 'run'>, hooks: readonly ActiveHook[], log: ChangeBuffer, writtenMs: number): Steps<number> {
  if (hooks.length === 0 || log.written.length === 0) return 0;
  const createdMs = Date.parse(`${log.author.at}Z`);
  const at = new Date(createdMs).toISOString();
  const rows: Record<string, unknown>[] = [];
  for (const [i, w] of log.written.entries()) {
    const event = EVENT_OF[w.operation];
    let written: WrittenRecord | undefined;
    for (const hook of hooks) {
      if (hook.event !== event || (hook.objectType !== null && hook.objectType !== w.obj.objectType)) continue;
      if (!matchesFilter(hook.filter, w.record)) continue;
      written ??= { obj: w.obj, recordId: w.recordId, event, record: w.record, changes: w.fields, sequence: log.first + i, userId: log.author.userId, at };
      rows.push({
        id: randomUUID(), webhook_id: hook.id, event, object_type: w.obj.objectType, record_id: w.recordId, sequence: log.first + i,
        payload: payloadOf(hook.id, written), state: 'pending', attempts: 0, created_ms: createdMs, written_ms: writtenMs, next_ms: createdMs,
      });
    }
  }
  for (let start = 0; start < rows.length; start += INSERT_ROWS) {
    yield* step(x.run(x.k.insertInto(DELIVERIES_TABLE).values(rows.slice(start, start + INSERT_ROWS)).compile()));
  }
  return rows.length;
}

const WEBHOOK_COLUMNS = ['id', 'event', 'object_type', 'url', 'method', 'filter', 'headers', 'secret', 'created_at', 'failures', 'failing_since', 'disabled_at'] as const;

export function* listWebhooks(x: OutboxExec): Steps<Webhook[]> {
  const rows = yield* step(x.rows(x.k.selectFrom(WEBHOOKS_TABLE).select(WEBHOOK_COLUMNS).orderBy('created_at').orderBy('id').compile()));
  return rows.map(webhookOf);
}

export function* getWebhook(x: OutboxExec, id: string): Steps<Webhook | null> {
  const [row] = yield* step(x.rows(x.k.selectFrom(WEBHOOKS_TABLE).select(WEBHOOK_COLUMNS).where('id', '=', id).compile()));
  return row ? webhookOf(row) : null;
}

export function* addWebhook(x: OutboxExec, spec: WebhookSpec): Steps<Webhook> {
  yield* step(x.run(x.k.insertInto(WEBHOOKS_TABLE).values({
    id: spec.id, event: spec.event, object_type: spec.objectType, url: spec.url, method: spec.method, filter: spec.filter,
    headers: JSON.stringify(spec.headers), secret: spec.secret, created_at: spec.createdAt, failures: 0,
  }).compile()));
  yield* bumpVersion(x);
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

export function* listDeliveries(x: OutboxExec, webhookId: string, page: { limit: number; offset: number }): Steps<Delivery[]> {
  const rows = yield* step(x.rows(x.k.selectFrom(DELIVERIES_TABLE)
    .select(['id', 'webhook_id', 'event', 'object_type', 'record_id', 'sequence', 'state', 'attempts', 'created_ms', 'next_ms', 'last_ms', 'last_status', 'last_error', 'duration_ms', 'response'])
    .where('webhook_id', '=', webhookId).orderBy('created_ms', 'desc').orderBy('sequence', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).compile()));
  return rows.map(deliveryOf);
}

/** Due, unclaimed (or whose claim lapsed) deliveries of active webhooks, oldest first, then claimed until `realMs + leaseMs`. */
export function* claimDeliveries(x: OutboxExec, r: { dueMs: number; realMs: number; leaseMs: number; limit: number }): Steps<ClaimedDelivery[]> {
  let q = x.k.selectFrom(`${DELIVERIES_TABLE} as d`).innerJoin(`${WEBHOOKS_TABLE} as h`, 'h.id', 'd.webhook_id')
    .select(['d.id', 'd.event', 'd.payload', 'd.attempts', 'd.written_ms', 'h.id as hook_id', 'h.url', 'h.method', 'h.headers', 'h.secret'])
    .where('d.state', '=', 'pending').where('d.next_ms', '<=', r.dueMs)
    .where((eb) => eb.or([eb('d.lease_ms', 'is', null), eb('d.lease_ms', '<=', r.realMs)]))
    .where('h.disabled_at', 'is', null)
    .orderBy('d.next_ms').orderBy('d.sequence').orderBy('d.id').limit(r.limit);
  if (x.lockRows) q = q.forUpdate('d').skipLocked();
  const rows = yield* step(x.rows(q.compile()));
  if (rows.length === 0) return [];
  yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({ lease_ms: r.realMs + r.leaseMs }).where('id', 'in', rows.map((row) => String(row.id))).compile()));
  return rows.map((row) => ({
    id: String(row.id), event: row.event as WebhookEvent, payload: String(row.payload), attempts: Number(row.attempts), writtenMs: Number(row.written_ms),
    webhook: { id: String(row.hook_id), url: String(row.url), method: row.method as WebhookMethod, headers: JSON.parse(String(row.headers)) as Record<string, string>, secret: String(row.secret) },
  }));
}

/** Records attempts, counts failures against their webhooks, and disables those `policy` says failed for long (returned). */
export function* finishDeliveries(x: OutboxExec, results: readonly AttemptResult[], policy: DisablePolicy): Steps<Webhook[]> {
  const failed = new Map<string, number>();
  for (const res of results) {
    const state: DeliveryState = res.ok ? 'delivered' : res.retryAtMs === null ? 'failed' : 'pending';
    yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({
      state, attempts: sql`attempts + 1`, next_ms: state === 'pending' ? res.retryAtMs : null, lease_ms: null,
      last_ms: res.atMs, last_status: res.status, last_error: res.error, duration_ms: res.durationMs, response: res.response,
    }).where('id', '=', res.id).compile()));
    const hook = x.k.updateTable(WEBHOOKS_TABLE).where('id', '=', res.webhookId);
    if (res.ok) {
      yield* step(x.run(hook.set({ failures: 0, failing_since: null }).compile()));
      failed.delete(res.webhookId);
    } else {
      yield* step(x.run(hook.set({ failures: sql`failures + 1`, failing_since: sql`COALESCE(failing_since, ${res.atMs})` }).compile()));
      failed.set(res.webhookId, res.atMs);
    }
  }
  const disabled: Webhook[] = [];
  for (const [id, atMs] of failed) {
    const rows = yield* step(x.rows(x.k.updateTable(WEBHOOKS_TABLE).set({ disabled_at: atMs })
      .where('id', '=', id).where('disabled_at', 'is', null).where('failures', '>=', policy.failures)
      .where('failing_since', '<=', atMs - policy.hours * 3_600_000).returning(WEBHOOK_COLUMNS).compile()));
    if (rows.length === 0) continue;
    yield* step(x.run(x.k.updateTable(DELIVERIES_TABLE).set({ state: 'failed', next_ms: null, lease_ms: null, last_error: 'WEBHOOK_DISABLED: the webhook was disabled for failing too long' })
      .where('webhook_id', '=', id).where('state', '=', 'pending').compile()));
    disabled.push(webhookOf(rows[0]!));
  }
  if (disabled.length > 0) yield* bumpVersion(x);
  return disabled;
}

export function* nextDue(x: OutboxExec): Steps<number | null> {
  const [row] = yield* step(x.rows(x.k.selectFrom(`${DELIVERIES_TABLE} as d`).innerJoin(`${WEBHOOKS_TABLE} as h`, 'h.id', 'd.webhook_id')
    .select((eb) => eb.fn.min('d.next_ms').as('due')).where('d.state', '=', 'pending').where('h.disabled_at', 'is', null).compile()));
  return num(row?.due);
}

/** Delivered and failed deliveries made before `beforeMs`, webhook by webhook (each by its index). */
export function* pruneDeliveries(x: OutboxExec, beforeMs: number): Steps<number> {
  const ids = yield* step(x.rows(x.k.selectFrom(WEBHOOKS_TABLE).select('id').compile()));
  let removed = 0;
  for (const { id } of ids) {
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

/**
 * One organization's WebhookOutbox from the outbox's steps, given how a store runs them: `read` for
 * one read (its own snapshot), `change` for steps in one write transaction.
 */
export function outboxOf(read: <T>(steps: (x: OutboxExec) => Steps<T>) => Promise<T>, change: <T>(steps: (x: OutboxExec) => Steps<T>) => Promise<T>): WebhookOutbox {
  return {
    list: () => read(listWebhooks),
    get: (id) => read((x) => getWebhook(x, id)),
    add: (spec) => change((x) => addWebhook(x, spec)),
    remove: (id) => change((x) => removeWebhook(x, id)),
    enable: (id) => change((x) => enableWebhook(x, id)),
    deliveries: (webhookId, page) => read((x) => listDeliveries(x, webhookId, page)),
    claim: (request) => change((x) => claimDeliveries(x, request)),
    finish: (results, policy) => change((x) => finishDeliveries(x, results, policy)),
    nextDue: () => read(nextDue),
    prune: (beforeMs) => change((x) => pruneDeliveries(x, beforeMs)),
    claimNotices: (realMs, leaseMs) => change((x) => claimNotices(x, realMs, leaseMs)),
    noticeSent: (id, at) => change((x) => markNoticeSent(x, id, at)),
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

/** appendDeliveries with the writer's active webhooks, now: the `after` of withChangeLog. Adds how many it made to `made`. */
export function* writeDeliveries(w: RecordWriter, log: ChangeBuffer, made: { count: number }): Steps<void> {
  if (log.written.length === 0) return;
  made.count += yield* appendDeliveries(w, yield* step(w.activeHooks()), log, Date.now());
}
