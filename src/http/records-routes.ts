// The record routes (docs/api.md) as a plugin: list, get, create, update and delete
// records of any object, named by system name or number, with ETags on one record (GET, PUT and
// DELETE conditional), and a record's history (docs/history.md). The service runs them; this file
// holds their schemas and reply shapes.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ObjectDef, RecordRow } from '../schema/types.js';
import { GET_PAGE_SIZE, type HistoryQuery, type Page, type PageQuery } from '../service/service.js';
import { etagOfText, ifNoneMatchMatches } from '../service/etags.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { JSON_TYPE, ok, okRecordPageText } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import {
  changedError, conditionsOf, writeConditionError, changeEntrySchema, changesBody, commonErrors, envelopeOf, etagHeader, forbiddenError, locationHeader, preconditionHeaders, newRecordBody, objParam, recordParams, recordSchema,
  tokenQuery, tokenSecurity,
} from './schemas.js';

const pageQuery = {
  type: 'object',
  properties: {
    pagesize: { type: 'integer', minimum: 1, description: `Records per page; default ${GET_PAGE_SIZE}; larger values are served as ${GET_PAGE_SIZE}.` },
    // The maximum keeps the row offset an exact integer the database accepts (1e20 made SQLite fail with a 500).
    pagenumber: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Page to return; 1 is the first.' },
    ...tokenQuery,
  },
} as const;

const historyQuery = {
  type: 'object',
  properties: {
    ...pageQuery.properties,
    before: {
      type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER,
      description: 'Only the entries numbered below this `sequence`: send the last entry\'s `sequence` of a page (with pagenumber 1) for the next one, which writes made meanwhile do not shift.',
    },
  },
} as const;

const listPayload = {
  type: 'object',
  properties: {
    PrimaryKey: { type: 'string' },
    PrimaryField: { type: 'string' },
    Total_Records: { type: 'integer' },
    Page_Size: { type: 'integer' },
    Page_Number: { type: 'integer' },
    Records: { type: 'array', items: recordSchema },
    Record: recordSchema,
  },
  required: ['PrimaryKey', 'PrimaryField', 'Total_Records', 'Page_Size', 'Page_Number', 'Records'],
} as const;

const recordPayload = { type: 'object', properties: { Record: recordSchema }, required: ['Record'] } as const;

const historyPayload = {
  type: 'object',
  properties: {
    ObjectType: { type: 'integer' },
    SystemName: { type: 'string' },
    RecordId: { type: 'string' },
    Page_Size: { type: 'integer' },
    Page_Number: { type: 'integer' },
    IsLastPage: { type: 'boolean', description: 'true when no older entries follow.' },
    Entries: { type: 'array', items: changeEntrySchema },
  },
  required: ['ObjectType', 'SystemName', 'RecordId', 'Page_Size', 'Page_Number', 'IsLastPage', 'Entries'],
} as const;

interface ObjParams { obj: string }
interface IdParams { obj: string; id: string }

const listData = (obj: ObjectDef, total: number, page: Page, records: RecordRow[]) => ({
  PrimaryKey: obj.keyField,
  PrimaryField: obj.primaryField,
  Total_Records: total,
  Page_Size: page.size,
  Page_Number: page.number,
  Records: records,
});

export const recordsRoutes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service, baseUrl }) => {
  errorReplies(app, v1ErrorBody);

  app.get<{ Params: ObjParams; Querystring: PageQuery }>('/api/record/:obj', {
    schema: {
      operationId: 'listRecords',
      summary: 'List records of an object, newest first',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam }, required: ['obj'] },
      querystring: pageQuery,
      response: { 200: envelopeOf(listPayload, 'One page of records.'), ...commonErrors },
    },
  }, async (request) => {
    const { obj, total, page, records } = await service.list(request.identity, request.params.obj, request.query, request.work);
    return ok(listData(obj, total, page, records));
  });

  const getRecordSchema = {
    operationId: 'getRecord',
    summary: 'Get one record (as a one-record page, plus Record)',
    tags: ['records'],
    security: tokenSecurity,
    description: 'The reply carries the record\'s ETag; with If-None-Match naming it, 304 and no body; with If-Match not naming it, 412.',
    params: recordParams,
    querystring: pageQuery,
    headers: {
      type: 'object',
      properties: {
        'if-none-match': { type: 'string', description: 'The ETag of the version the client holds (or *): 304 when the record is still that version.', examples: ['"q7yJd2WZ4m1fQm3lB0xk9A"'] },
        'if-match': { type: 'string', description: 'Read only this version (its ETag, or *): 412 RECORD_CHANGED when the record is no longer that version. Evaluated before If-None-Match.' },
      },
    },
    response: {
      200: { ...envelopeOf(listPayload, 'The record, as a one-record page and as Record.'), headers: etagHeader },
      304: { type: 'null', description: 'Not modified: the record is still the version If-None-Match names.', headers: etagHeader },
      ...commonErrors,
      412: changedError,
    },
  };
  const getRecord = async (request: FastifyRequest<{ Params: IdParams; Querystring: PageQuery }>, reply: FastifyReply) => {
    const { obj, page, record } = await service.get(request.identity, request.params.obj, request.params.id, request.query, request.headers['if-match']);
    const text = JSON.stringify(record);
    const etag = etagOfText(text);
    reply.header('etag', etag);
    const held = request.headers['if-none-match'];
    if (held !== undefined && ifNoneMatchMatches(held, etag)) return reply.code(304).send();
    const { Records: _, ...head } = listData(obj, 1, page, []);
    reply.type(JSON_TYPE);
    const body = okRecordPageText(head, page.number === 1, text);
    if (request.method !== 'HEAD') return body;
    return reply.header('content-length', Buffer.byteLength(body)).send();
  };
  app.get<{ Params: IdParams; Querystring: PageQuery }>('/api/record/:obj/:id', { schema: getRecordSchema, exposeHeadRoute: false }, getRecord);
  // HEAD on its own route, not the one Fastify derives from the GET: that one sets Content-Length
  // from the payload, 0 for the 304's none, and a 304 may carry only the 200's (RFC 9110 § 8.6).
  // Its 200 says the GET's length and sends nothing. Not in the OpenAPI (as no HEAD is).
  app.head<{ Params: IdParams; Querystring: PageQuery }>('/api/record/:obj/:id', { schema: getRecordSchema }, getRecord);

  app.get<{ Params: IdParams; Querystring: HistoryQuery }>('/api/record/:obj/:id/history', {
    schema: {
      operationId: 'getRecordHistory',
      summary: 'A record\'s history: its change-log entries, newest first',
      description: 'Each create, update and delete of the record, with the fields it changed (old and new values; those hidden from your role left out), who and when. A deleted record keeps its history. Entries older than the retention (CHANGELOG_RETENTION_DAYS) are pruned.',
      tags: ['records'],
      security: tokenSecurity,
      params: recordParams,
      querystring: historyQuery,
      response: { 200: envelopeOf(historyPayload, 'One page of the record\'s entries, newest first.'), ...commonErrors },
    },
  }, async (request) => {
    const { obj, id, page, entries, isLastPage } = await service.history(request.identity, request.params.obj, request.params.id, request.query);
    return ok({ ObjectType: obj.objectType, SystemName: obj.systemName, RecordId: id, Page_Size: page.size, Page_Number: page.number, IsLastPage: isLastPage, Entries: entries });
  });

  app.post<{ Params: ObjParams }>('/api/record/:obj', {
    schema: {
      operationId: 'createRecord',
      summary: 'Create a record',
      description: 'Body: a flat map of field names to values. The key may be sent to choose the id. 201 with Location.',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam }, required: ['obj'] },
      querystring: { type: 'object', properties: tokenQuery },
      body: newRecordBody,
      response: { 201: { ...envelopeOf(recordPayload, 'Created; Location names the new record, ETag its version.'), headers: { ...locationHeader, ...etagHeader } }, ...commonErrors, 403: forbiddenError },
    },
  }, async (request, reply) => {
    const { obj, record, etag } = await service.create(request.identity, request.params.obj, request.body);
    const base = baseUrl ?? `${request.protocol}://${request.host}`;
    reply.code(201).header('location', `${base}/api/record/${obj.systemName}/${record[obj.keyField] as string}`);
    if (etag !== undefined) reply.header('etag', etag);
    return ok({ Record: record });
  });

  app.put<{ Params: IdParams }>('/api/record/:obj/:id', {
    schema: {
      operationId: 'updateRecord',
      summary: 'Update a record (partial: only the fields sent change)',
      tags: ['records'],
      security: tokenSecurity,
      description: 'With If-Match, only if the record is still the version its ETag names (else 412). The reply carries the new ETag.',
      params: recordParams,
      querystring: { type: 'object', properties: tokenQuery },
      headers: preconditionHeaders,
      body: changesBody,
      response: {
        200: { ...envelopeOf(recordPayload, 'Updated; the whole record as it now is.'), headers: etagHeader },
        ...commonErrors, 403: forbiddenError, 412: writeConditionError,
      },
    },
  }, async (request, reply) => {
    const { record, etag } = await service.update(request.identity, request.params.obj, request.params.id, request.body, conditionsOf(request.headers));
    if (etag !== undefined) reply.header('etag', etag);
    return ok({ Record: record });
  });

  app.delete<{ Params: IdParams }>('/api/record/:obj/:id', {
    schema: {
      operationId: 'deleteRecord',
      summary: 'Delete a record',
      tags: ['records'],
      security: tokenSecurity,
      description: 'With If-Match, only if the record is still the version its ETag names (else 412).',
      params: recordParams,
      querystring: { type: 'object', properties: tokenQuery },
      headers: preconditionHeaders,
      response: { 200: envelopeOf({ type: 'null' }, 'Deleted; data is null.'), ...commonErrors, 403: forbiddenError, 412: writeConditionError },
    },
  }, async (request) => {
    await service.delete(request.identity, request.params.obj, request.params.id, conditionsOf(request.headers));
    return ok(null);
  });
};
