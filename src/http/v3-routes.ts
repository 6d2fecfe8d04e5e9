// The v3 routes (COMPAT §Endpoints): batch create, update and delete of up to 500 records, where
// an invalid item is skipped and reported and the others are written, and the structured query.
// Errors on these routes are `{status, error, message}` (error-handler.ts).

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { accessOf, type Permission } from '../auth/permissions.js';
import { AppError, isAppError } from '../errors.js';
import { planV3Query, V3_OPERATORS } from '../query/v3-plan.js';
import type { RecordRow } from '../schema/types.js';
import { v3ErrorBody } from './error-handler.js';
import { changesOf, checkId, notFound, resolveBatchTarget, rowToCreate, type Target } from './record-writes.js';
import { idParam, objParam, recordSchema, tokenQuery, tokenSecurity } from './schemas.js';

/** Items per batch request (DESIGN §3: at most 500 records per request). */
export const BATCH_MAX = 500;

const v3Error = (description: string) => ({
  type: 'object',
  description,
  properties: { status: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
  required: ['status', 'error', 'message'],
} as const);
const v3Errors = {
  400: v3Error('Invalid request: the body, a field, an operator or a value.'),
  401: v3Error('No API token, or the token is unknown or revoked.'),
  402: v3Error("The organization's plan does not include this object or batch requests."),
  403: v3Error("The role of the token's user may not do this."),
  404: v3Error('Unknown object.'),
  429: v3Error('Over the minute limit or the daily cap.'),
  503: v3Error('The database cannot be reached, or another process held the records for writing too long; retry.'),
} as const;

const itemResult = {
  type: 'object',
  properties: {
    index: { type: 'integer' }, success: { type: 'boolean' }, _id: { type: 'string' }, record: recordSchema,
    status: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' },
  },
  required: ['index', 'success'],
} as const;
const batchReply = {
  type: 'object',
  description: 'One result per item, in the order sent: written ({success: true, _id}) or skipped ({success: false, status, error, message}).',
  properties: {
    success: { type: 'boolean', description: 'true when every item was written.' },
    successCount: { type: 'integer' },
    failureCount: { type: 'integer' },
    data: { type: 'array', items: itemResult },
    message: { type: 'string' },
  },
  required: ['success', 'successCount', 'failureCount', 'data', 'message'],
} as const;

type ItemResult =
  | { index: number; success: true; _id: string; record?: RecordRow }
  | { index: number; success: false; status: number; error: string; message: string };

function failed(index: number, err: AppError): ItemResult {
  return { index, success: false, ...v3ErrorBody(err) };
}

function batchReplyOf(results: ItemResult[]) {
  const failures = results.filter((r) => !r.success).length;
  return {
    success: failures === 0,
    successCount: results.length - failures,
    failureCount: failures,
    data: results,
    message: failures === 0 ? '' : `${failures} of ${results.length} items were not written; see data[].message.`,
  };
}

/**
 * Item schemas carry no type: an item of the wrong shape is skipped and reported like any other
 * invalid item (COMPAT: the others are still written) instead of failing the whole batch.
 */
const createItem = { description: 'A record: field name → value (string, number or null).' } as const;
const updateItem = { description: 'A change: {"id": "<uuid>", "record": {field name → value}}; only the fields sent change.' } as const;
const deleteItem = { description: idParam.description } as const;

const isRecordBody = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function notAnObject(what: string, obj: Target['obj'], got: unknown): AppError {
  return new AppError('BODY_INVALID', `${what} must be a JSON object of field names and values, such as {"${obj.primaryField}": "…"}; got ${JSON.stringify(got)}.`);
}

/** The `data` array of a batch body, 1–500 items. */
function itemsOf(body: unknown, example: string): unknown[] {
  const data = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) throw new AppError('BODY_INVALID', `The request body must be {"data": [...]}, such as ${example}.`);
  if (data.length === 0) throw new AppError('BODY_INVALID', "'data' is empty: send 1 to 500 items.");
  if (data.length > BATCH_MAX) throw new AppError('BODY_INVALID', `'data' has ${data.length} items; a batch holds at most ${BATCH_MAX}. Split it.`);
  return data;
}

/**
 * Prepares every item (an AppError skips that item alone), writes the prepared ones in one store
 * call, and merges both into one result per item, in order.
 */
async function runBatch<P, W>(
  items: readonly unknown[],
  prepare: (item: unknown, index: number) => P,
  write: (prepared: P[]) => Promise<W[]>,
  result: (index: number, written: W, prepared: P) => ItemResult,
): Promise<ItemResult[]> {
  const results: Array<ItemResult | undefined> = new Array(items.length);
  const ready: Array<{ index: number; prepared: P }> = [];
  items.forEach((item, index) => {
    try {
      ready.push({ index, prepared: prepare(item, index) });
    } catch (err) {
      if (!isAppError(err)) throw err;
      results[index] = failed(index, err);
    }
  });
  const written = ready.length === 0 ? [] : await write(ready.map((r) => r.prepared));
  ready.forEach((r, i) => {
    const w = written[i]!;
    results[r.index] = isAppError(w) ? failed(r.index, w) : result(r.index, w, r.prepared);
  });
  return results as ItemResult[];
}

interface ObjParams { obj: string }

export function v3Routes(app: FastifyInstance, deps: AppDeps): void {
  const batchRoute = (summary: string, body: object) => ({
    schema: {
      summary,
      tags: ['v3'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam }, required: ['obj'] },
      querystring: { type: 'object', properties: tokenQuery },
      body,
      response: { 200: batchReply, ...v3Errors },
    },
  });
  const target = (request: FastifyRequest<{ Params: ObjParams }>, permission: Permission): Promise<Target> =>
    resolveBatchTarget(deps, request, request.params.obj, permission);

  app.post<{ Params: ObjParams }>('/api/v3/record/:obj/batch/create', batchRoute(`Create up to ${BATCH_MAX} records; invalid ones are skipped and reported`, {
    type: 'object', properties: { data: { type: 'array', items: createItem } },
  }), async (request) => {
    const t = await target(request, 'create');
    const items = itemsOf(request.body, '{"data": [{"accountname": "Acme"}]}');
    const results = await runBatch(items, (item, i) => {
      if (!isRecordBody(item)) throw notAnObject(`data[${i}]`, t.obj, item);
      return rowToCreate(deps, request, t, item);
    }, (rows) => t.records.createMany(t.obj, rows),
      (index, record) => ({ index, success: true, _id: (record as RecordRow)[t.obj.keyField] as string, record: t.access.shown(t.obj, record as RecordRow) }));
    return batchReplyOf(results);
  });

  app.post<{ Params: ObjParams }>('/api/v3/record/:obj/batch/update', batchRoute(`Update up to ${BATCH_MAX} records (partial); invalid or missing ones are skipped and reported`, {
    type: 'object', properties: { data: { type: 'array', items: updateItem } },
  }), async (request) => {
    const t = await target(request, 'update');
    const items = itemsOf(request.body, '{"data": [{"id": "<uuid>", "record": {"accountname": "Acme"}}]}');
    const results = await runBatch(items, (item, i) => {
      const shape = `{"id": "<uuid>", "record": {"${t.obj.primaryField}": "…"}}`;
      if (!isRecordBody(item)) throw new AppError('BODY_INVALID', `data[${i}] must be ${shape}; got ${JSON.stringify(item)}.`);
      if (item.id === undefined || item.id === null) throw new AppError('RECORD_ID_MALFORMED', `data[${i}].id is missing: each item is ${shape}.`);
      const id = checkId(t.obj, item.id);
      if (!isRecordBody(item.record)) throw notAnObject(`data[${i}].record`, t.obj, item.record);
      return { id, changes: changesOf(deps, request, t, item.record) };
    }, (prepared) => t.records.updateMany(t.obj, prepared), (index, record, prepared) => {
      if (record === null) return failed(index, notFound(t.obj, prepared.id));
      return { index, success: true, _id: prepared.id, record: t.access.shown(t.obj, record as RecordRow) };
    });
    return batchReplyOf(results);
  });

  app.post<{ Params: ObjParams }>('/api/v3/record/:obj/batch/delete', batchRoute(`Delete up to ${BATCH_MAX} records; missing ones are reported`, {
    type: 'object', properties: { data: { type: 'array', items: deleteItem } },
  }), async (request) => {
    const t = await target(request, 'delete');
    const items = itemsOf(request.body, '{"data": ["<uuid>", "<uuid>"]}');
    const results = await runBatch(items, (item) => checkId(t.obj, item), (ids) => t.records.deleteMany(t.obj, ids),
      (index, deleted, id) => (deleted ? { index, success: true, _id: id } : failed(index, notFound(t.obj, id))));
    return batchReplyOf(results);
  });

  app.post('/api/v3/query', {
    schema: {
      summary: 'Query records (v3 body): fields, grouped conditions, order and page',
      description: `Operators: ${V3_OPERATORS.join(', ')}. Filter groups hold together (AND); a group joins its conditions by its type (AND or OR). Every row carries _id.`,
      tags: ['v3'],
      security: tokenSecurity,
      querystring: { type: 'object', properties: tokenQuery },
      body: { type: 'object', additionalProperties: true },
      response: {
        200: {
          type: 'object',
          properties: {
            data: { type: 'array', items: recordSchema },
            isLastPage: { type: 'boolean' }, pageNumber: { type: 'integer' }, pageSize: { type: 'integer' }, message: { type: 'string' },
          },
          required: ['data', 'isLastPage', 'pageNumber', 'pageSize', 'message'],
        },
        ...v3Errors,
        408: v3Error('The query did not finish within the time limit and was stopped.'),
      },
    },
  }, async (request) => {
    const records = await deps.records.org(request.identity.org.id);
    const { plan, keyAsked } = planV3Query(await records.schema(), request.body ?? {}, accessOf(request.identity), { userId: request.identity.user.id, now: deps.clock() });
    const { rows, isLastPage } = await records.query(plan, request.work);
    const key = plan.obj.keyField;
    const data = rows.map((row) => {
      const id = row[key];
      if (!keyAsked) delete row[key];
      row._id = id ?? null;
      return row;
    });
    return { data, isLastPage, pageNumber: plan.pageNumber, pageSize: plan.pageSize, message: '' };
  });
}
