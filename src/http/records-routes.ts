// The record routes (docs/api.md) as a plugin: list, get, create, update and delete
// records of any object, named by system name or number. The service runs them; this file holds
// their schemas and reply shapes.

import type { FastifyPluginAsync } from 'fastify';
import type { ObjectDef, RecordRow } from '../schema/types.js';
import { GET_PAGE_SIZE, type Page, type PageQuery } from '../service/service.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { JSON_TYPE, ok, okRecordPageText } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { changesBody, commonErrors, envelopeOf, forbiddenError, idParam, newRecordBody, objParam, recordSchema, tokenQuery, tokenSecurity } from './schemas.js';

const pageQuery = {
  type: 'object',
  properties: {
    pagesize: { type: 'integer', minimum: 1, description: `Records per page; default ${GET_PAGE_SIZE}; larger values are served as ${GET_PAGE_SIZE}.` },
    // The maximum keeps the row offset an exact integer the database accepts (1e20 made SQLite fail with a 500).
    pagenumber: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Page to return; 1 is the first.' },
    ...tokenQuery,
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

  app.get<{ Params: IdParams; Querystring: PageQuery }>('/api/record/:obj/:id', {
    schema: {
      operationId: 'getRecord',
      summary: 'Get one record (as a one-record page, plus Record)',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam, id: idParam }, required: ['obj', 'id'] },
      querystring: pageQuery,
      response: { 200: envelopeOf(listPayload, 'The record, as a one-record page and as Record.'), ...commonErrors },
    },
  }, async (request, reply) => {
    const { obj, page, record } = await service.get(request.identity, request.params.obj, request.params.id, request.query);
    const { Records: _, ...head } = listData(obj, 1, page, []);
    reply.type(JSON_TYPE);
    return okRecordPageText(head, page.number === 1, record);
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
      response: { 201: envelopeOf(recordPayload, 'Created; Location names the new record.'), ...commonErrors, 403: forbiddenError },
    },
  }, async (request, reply) => {
    const { obj, record } = await service.create(request.identity, request.params.obj, request.body);
    const base = baseUrl ?? `${request.protocol}://${request.host}`;
    reply.code(201).header('location', `${base}/api/record/${obj.systemName}/${record[obj.keyField] as string}`);
    return ok({ Record: record });
  });

  app.put<{ Params: IdParams }>('/api/record/:obj/:id', {
    schema: {
      operationId: 'updateRecord',
      summary: 'Update a record (partial: only the fields sent change)',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam, id: idParam }, required: ['obj', 'id'] },
      querystring: { type: 'object', properties: tokenQuery },
      body: changesBody,
      response: { 200: envelopeOf(recordPayload, 'Updated; the whole record as it now is.'), ...commonErrors, 403: forbiddenError },
    },
  }, async (request) => {
    const { record } = await service.update(request.identity, request.params.obj, request.params.id, request.body);
    return ok({ Record: record });
  });

  app.delete<{ Params: IdParams }>('/api/record/:obj/:id', {
    schema: {
      operationId: 'deleteRecord',
      summary: 'Delete a record',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam, id: idParam }, required: ['obj', 'id'] },
      querystring: { type: 'object', properties: tokenQuery },
      response: { 200: envelopeOf({ type: 'null' }, 'Deleted; data is null.'), ...commonErrors, 403: forbiddenError },
    },
  }, async (request) => {
    await service.delete(request.identity, request.params.obj, request.params.id);
    return ok(null);
  });
};
