// The body of a delivery (docs/webhooks.md § Payload), in the shape Standard Webhooks recommends
// (`type`, `timestamp`, `data`), made in the write's transaction from the record as the write left it.

import type { ChangedFields } from '../schema/changes.js';
import { storedFields, type ObjectDef, type RecordRow } from '../schema/types.js';
import { TEST_EVENT, type WebhookEvent } from './webhook-types.js';

/** One record written, as the write's transaction knows it. */
export interface WrittenRecord {
  readonly obj: ObjectDef;
  readonly recordId: string;
  readonly event: WebhookEvent;
  /** The record as the write left it (created, updated), or as it was (deleted); its stored fields are sent. */
  readonly record: RecordRow;
  /** The fields the write changed with their old and new values (every field with a value, for a create or a delete). */
  readonly changes: ChangedFields;
  readonly userId: string | null;
  /** When it was written, ISO 8601 UTC (organization's clock). */
  readonly at: string;
}

/** The record's stored fields only: derived names (ownername) are not part of what was written. */
export function storedRecord(obj: ObjectDef, row: RecordRow): RecordRow {
  const out: RecordRow = {};
  for (const f of storedFields(obj)) out[f.name] = row[f.name] ?? null;
  return out;
}

/** Where the change log's number goes in a body: the first `"sequence":` (keys before it are fixed, and a value's quotes are escaped). */
const SEQUENCE_AT = '"sequence":null';

/**
 * The JSON body sent for one written record to one webhook, cut where the write's change-log number
 * goes: the body is `head + sequence + tail`. A store may number the write after its bodies are made
 * (PostgreSQL does it in the statement that numbers the entries: store/webhook-outbox.ts).
 */
export function payloadParts(webhookId: string, w: WrittenRecord): readonly [head: string, tail: string] {
  const body = JSON.stringify({
    type: `${w.obj.systemName}.${w.event}`,
    timestamp: w.at,
    data: {
      webhookId,
      event: w.event,
      object: w.obj.systemName,
      objectType: w.obj.objectType,
      id: w.recordId,
      sequence: null,
      userId: w.userId,
      record: storedRecord(w.obj, w.record),
      changes: w.changes,
    },
  });
  const at = body.indexOf(SEQUENCE_AT) + SEQUENCE_AT.length - 'null'.length;
  return [body.slice(0, at), body.slice(at + 'null'.length)];
}

/** The `type` of a test event's body: no object's event (those are `{object}.{created|updated|deleted}`). */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * The body of a test event (docs/webhooks.md § Test events): an event's members, of no record and no
 * write, so `id`, `sequence`, `record` and `changes` are null; `object` is the webhook's (null: every object).
 */
export function testPayload(webhookId: string, object: { readonly systemName: string; readonly objectType: number } | null, userId: string | null, at: string): string {
  return JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp: at,
    data: {
      webhookId, event: TEST_EVENT, object: object?.systemName ?? null, objectType: object?.objectType ?? null,
      id: null, sequence: null, userId, record: null, changes: null,
    },
  });
}

/** The `type` of a body made from payloadParts, without parsing it (it is the body's first member). */
export function typeOf(payload: string): string {
  const start = '{"type":"'.length;
  return payload.slice(start, payload.indexOf('"', start));
}
