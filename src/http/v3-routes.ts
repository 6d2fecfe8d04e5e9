// The v3 routes (docs/compat.md) as a plugin registered under /api/v3: batch create, update and
// delete of up to 500 records, where an invalid item is skipped and reported and the others are
// written, and the structured query. This scope answers every error as `{status, error, message}`.

import type { FastifyPluginAsync } from 'fastify';
import { AGGREGATE_FUNCTIONS, DATE_PERIODS, GROUP_LIMITS } from '../query/group-plan.js';
import { V3_OPERATORS } from '../query/v3-plan.js';
import type { RecordRow } from '../schema/types.js';
import { BATCH_MAX, type ItemOutcome } from '../service/batch.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { errorReplies, v3ErrorBody } from './error-handler.js';
import { errorCodeHeader, idParam, limitRetryHeader, objParam, recordSchema, tokenQuery, tokenSecurity, unavailableRetryHeader } from './schemas.js';

const v3Error = (description: string, headers: object = {}) => ({
  type: 'object',
  description,
  headers: { ...errorCodeHeader, ...headers },
  properties: { status: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } },
  required: ['status', 'error', 'message'],
} as const);
const v3Errors = {
  400: v3Error('Invalid request: the body, a field, an operator or a value.'),
  401: v3Error('No API token, or the token is unknown or revoked.'),
  402: v3Error("The organization's plan does not include this object or batch requests."),
  403: v3Error("The role of the token's user may not do this."),
  404: v3Error('Unknown object.'),
  408: v3Error('The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT).'),
  413: v3Error('The request body is over 20 MB.'),
  429: v3Error('Over the minute limit or the daily cap; Retry-After says when to retry.', limitRetryHeader),
  500: v3Error('The server failed; the message names the request id to report.'),
  503: v3Error('The database cannot be reached, or another process held the records for writing too long; retry after Retry-After.', unavailableRetryHeader),
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

/** The reply of a batch: one result per item, in order, each written or refused in the v3 error shape. */
function batchReplyOf<W extends { id: string; record?: RecordRow }>(outcomes: ReadonlyArray<ItemOutcome<W>>) {
  const data = outcomes.map((o) => ('error' in o
    ? { index: o.index, success: false, ...v3ErrorBody(o.error) }
    : { index: o.index, success: true, _id: o.written.id, ...(o.written.record ? { record: o.written.record } : {}) }));
  const failures = outcomes.filter((o) => 'error' in o).length;
  return {
    success: failures === 0,
    successCount: outcomes.length - failures,
    failureCount: failures,
    data,
    message: failures === 0 ? '' : `${failures} of ${outcomes.length} items were not written; see data[].message.`,
  };
}

/**
 * Item schemas carry no type: an item of the wrong shape is skipped and reported like any other
 * invalid item (docs/compat.md: the others are still written) instead of failing the whole batch.
 */
const createItem = { description: 'A record: field name → value (string, number or null).' } as const;
const updateItem = { description: 'A change: {"id": "<uuid>", "record": {field name → value}}; only the fields sent change.' } as const;
const deleteItem = { description: idParam.description } as const;

/**
 * The v3 query body, described for the OpenAPI document. Members carry no type: query/v3-plan.ts
 * checks them and names the member at fault in its message.
 */
const v3QueryBody = {
  type: 'object',
  additionalProperties: true,
  properties: {
    objectType: { description: "The object's number (1) or system name (account)." },
    fields: { description: `[{name}]; in a grouped query also [{name, aggrFunc, alias}], aggrFunc one of ${AGGREGATE_FUNCTIONS.map((f) => f.toUpperCase()).join(', ')} (COUNT also takes the name *).` },
    filter: { description: '[{type: AND or OR, conditions: [{fieldName, operator, value}]}].' },
    orderBy: { description: '[{name, order: asc or desc}]: one field; in a grouped query a groupBy field or an alias.' },
    groupBy: { description: `[{name, datePeriod}]: up to ${GROUP_LIMITS.groupBy} fields to group the records by (a date or datetime field by one of ${DATE_PERIODS.join(', ')}); the rows are then groups.` },
    pageNumber: { description: 'The page, from 1.' },
    pageSize: { description: 'Rows (or groups) per page, 1–500.' },
  },
} as const;

/**
 * The bodies as the OpenAPI document shows them (documentedBody, app.ts): the items typed as a
 * client must send them, though the route takes any item and reports a wrong one in its result.
 */
const typedRecord = { type: 'object', additionalProperties: true, description: createItem.description } as const;
const batchBodyOf = (items: object, example: unknown) => ({
  type: 'object', required: ['data'], properties: { data: { type: 'array', maxItems: BATCH_MAX, items } }, examples: [{ data: example }],
});
const documentedBodies = {
  create: batchBodyOf(typedRecord, [{ accountname: 'Acme Ltd', accounttypecode: 1 }, { accountname: 'Globex' }]),
  update: batchBodyOf({
    type: 'object', required: ['id', 'record'], description: updateItem.description,
    properties: { id: { type: 'string', format: 'uuid' }, record: typedRecord },
  }, [{ id: '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f', record: { telephone1: '+1 555 0199' } }]),
  delete: batchBodyOf({ type: 'string', format: 'uuid', description: deleteItem.description }, ['3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f']),
  query: {
    type: 'object',
    required: ['objectType'],
    properties: {
      objectType: { oneOf: [{ type: 'integer' }, { type: 'string' }], description: 'The object\'s number (1) or system name (account).' },
      fields: {
        type: 'array', description: `The fields wanted, in order; all when left out. In a grouped query also {name, aggrFunc, alias}, aggrFunc one of ${AGGREGATE_FUNCTIONS.map((f) => f.toUpperCase()).join(', ')} (COUNT also takes the name *).`,
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, aggrFunc: { type: 'string', enum: AGGREGATE_FUNCTIONS.map((f) => f.toUpperCase()) }, alias: { type: 'string' } } },
      },
      filter: {
        type: 'array',
        description: 'Groups that all hold (AND); each joins its conditions by its type.',
        items: {
          type: 'object', required: ['conditions'],
          properties: {
            type: { type: 'string', enum: ['AND', 'OR'] },
            conditions: {
              type: 'array',
              items: {
                type: 'object', required: ['fieldName', 'operator'],
                properties: { fieldName: { type: 'string' }, operator: { type: 'string', enum: [...V3_OPERATORS] }, value: { description: 'A value, or an array of values for the -in operators.' } },
              },
            },
          },
        },
      },
      orderBy: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, order: { type: 'string', enum: ['asc', 'desc'] } } }, description: 'One field; in a grouped query a groupBy field or an alias.' },
      groupBy: { type: 'array', maxItems: GROUP_LIMITS.groupBy, items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, datePeriod: { type: 'string', enum: [...DATE_PERIODS], description: 'Date and datetime fields only: group by this period of the value (UTC).' } } }, description: 'Fields to group the records by; the rows are then groups.' },
      pageSize: { type: 'integer', minimum: 1 },
      pageNumber: { type: 'integer', minimum: 1 },
    },
    examples: [{ objectType: 1, fields: [{ name: 'accountname' }], filter: [{ type: 'AND', conditions: [{ fieldName: 'accountname', operator: 'start-with', value: 'A' }] }], pageSize: 10 }],
  },
};

interface ObjParams { obj: string }

export const v3Routes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service }) => {
  errorReplies(app, v3ErrorBody, { notFound: true });

  const batchRoute = (operationId: string, summary: string, body: object, documentedBody: object) => ({
    schema: {
      operationId,
      summary,
      documentedBody,
      tags: ['v3'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam }, required: ['obj'] },
      querystring: { type: 'object', properties: tokenQuery },
      body,
      response: { 200: batchReply, ...v3Errors },
    },
  });
  app.post<{ Params: ObjParams }>('/record/:obj/batch/create', batchRoute('batchCreateRecords', `Create up to ${BATCH_MAX} records; invalid ones are skipped and reported`, {
    type: 'object', properties: { data: { type: 'array', items: createItem } },
  }, documentedBodies.create), async (request) => batchReplyOf(await service.createMany(request.identity, request.params.obj, request.body)));

  app.post<{ Params: ObjParams }>('/record/:obj/batch/update', batchRoute('batchUpdateRecords', `Update up to ${BATCH_MAX} records (partial); invalid or missing ones are skipped and reported`, {
    type: 'object', properties: { data: { type: 'array', items: updateItem } },
  }, documentedBodies.update), async (request) => batchReplyOf(await service.updateMany(request.identity, request.params.obj, request.body)));

  app.post<{ Params: ObjParams }>('/record/:obj/batch/delete', batchRoute('batchDeleteRecords', `Delete up to ${BATCH_MAX} records; missing ones are reported`, {
    type: 'object', properties: { data: { type: 'array', items: deleteItem } },
  }, documentedBodies.delete), async (request) => batchReplyOf(await service.deleteMany(request.identity, request.params.obj, request.body)));

  app.post('/query', {
    schema: {
      operationId: 'queryRecordsV3',
      summary: 'Query records (v3 body): fields, grouped conditions, order and page; or groups with SUM, COUNT, MIN, MAX',
      description: `Operators: ${V3_OPERATORS.join(', ')}. Filter groups hold together (AND); a group joins its conditions by its type (AND or OR). Every row carries _id. With groupBy (or a field with aggrFunc), each row is a group: the groupBy fields, then each aggregate under its alias, and no _id.`,
      documentedBody: documentedBodies.query,
      tags: ['v3'],
      security: tokenSecurity,
      querystring: { type: 'object', properties: tokenQuery },
      body: v3QueryBody,
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
      },
    },
  }, async (request) => {
    const result = await service.v3Query(request.identity, request.body ?? {}, request.work);
    const { plan, rows, isLastPage } = result;
    if (result.kind === 'rows') {
      const key = result.plan.obj.keyField;
      for (const row of rows) {
        const id = row[key];
        if (!result.keyAsked) delete row[key];
        row._id = id ?? null;
      }
    }
    return { data: rows, isLastPage, pageNumber: plan.pageNumber, pageSize: plan.pageSize, message: '' };
  });
};
