// The record routes of spec §4 and DESIGN §3: list, get, create, update and delete records of
// any object, named by system name or number.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { ObjectDef, RecordRow } from '../schema/types.js';
import type { Permission } from '../auth/permissions.js';
import { checkId, createOne, notFound, resolveTarget, updateOne } from './record-writes.js';
import { JSON_TYPE, ok, okRecordPageText } from './envelope.js';
import type { AppDeps } from './app-deps.js';
import { commonErrors, envelopeOf, forbiddenError, idParam, objParam, recordSchema, tokenQuery, tokenSecurity } from './schemas.js';

/** GET list: default and largest page (spec §8, DESIGN §3). */
export const GET_PAGE_SIZE = 50;

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
interface PageQuery { pagesize?: number; pagenumber?: number }

export function recordsRoutes(app: FastifyInstance, deps: AppDeps): void {
  const resolve = (request: FastifyRequest<{ Params: ObjParams }>, permission: Permission) =>
    resolveTarget(deps, request, request.params.obj, permission);
  const page = (query: PageQuery) => {
    // Ajv coerces '1e400' to Infinity and skips minimum/maximum on non-finite numbers: refuse it here.
    for (const name of ['pagesize', 'pagenumber'] as const) {
      const v = query[name];
      if (v !== undefined && !Number.isFinite(v)) throw new AppError('PARAM_INVALID', `Invalid query parameter '${name}' must be integer.`);
    }
    return { size: Math.min(query.pagesize ?? GET_PAGE_SIZE, GET_PAGE_SIZE), number: query.pagenumber ?? 1 };
  };
  const listData = (obj: ObjectDef, total: number, size: number, number: number, records: RecordRow[]) => ({
    PrimaryKey: obj.keyField,
    PrimaryField: obj.primaryField,
    Total_Records: total,
    Page_Size: size,
    Page_Number: number,
    Records: records,
  });

  app.get<{ Params: ObjParams; Querystring: PageQuery }>('/api/record/:obj', {
    schema: {
      summary: 'List records of an object, newest first',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam }, required: ['obj'] },
      querystring: pageQuery,
      response: { 200: envelopeOf(listPayload, 'One page of records.'), ...commonErrors },
    },
  }, async (request) => {
    const { records, obj, access } = await resolve(request, 'read');
    const { size, number } = page(request.query);
    const { total, records: rows } = await records.list(obj, { limit: size, offset: (number - 1) * size }, request.work);
    return ok(listData(obj, total, size, number, rows.map((row) => access.shown(obj, row))));
  });

  app.get<{ Params: IdParams; Querystring: PageQuery }>('/api/record/:obj/:id', {
    schema: {
      summary: 'Get one record (as a one-record page, plus Record)',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam, id: idParam }, required: ['obj', 'id'] },
      querystring: pageQuery,
      response: { 200: envelopeOf(listPayload, 'The record, as a one-record page and as Record.'), ...commonErrors },
    },
  }, async (request, reply) => {
    const { records, obj, access } = await resolve(request, 'read');
    const id = checkId(obj, request.params.id);
    const { size, number } = page(request.query);
    const found = await records.get(obj, id);
    if (!found) throw notFound(obj, id);
    const { Records: _, ...head } = listData(obj, 1, size, number, []);
    reply.type(JSON_TYPE);
    return okRecordPageText(head, number === 1, access.shown(obj, found));
  });

  app.post<{ Params: ObjParams }>('/api/record/:obj', {
    schema: {
      summary: 'Create a record',
      description: 'Body: a flat map of field names to values. The key may be sent to choose the id. 201 with Location.',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam }, required: ['obj'] },
      querystring: { type: 'object', properties: tokenQuery },
      body: recordSchema,
      response: { 201: envelopeOf(recordPayload, 'Created; Location names the new record.'), ...commonErrors, 403: forbiddenError },
    },
  }, async (request, reply) => {
    const target = await resolve(request, 'create');
    const record = await createOne(deps, request, target, request.body);
    const { obj } = target;
    const base = deps.config.baseUrl ?? `${request.protocol}://${request.host}`;
    reply.code(201).header('location', `${base}/api/record/${obj.systemName}/${record[obj.keyField] as string}`);
    return ok({ Record: record });
  });

  app.put<{ Params: IdParams }>('/api/record/:obj/:id', {
    schema: {
      summary: 'Update a record (partial: only the fields sent change)',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam, id: idParam }, required: ['obj', 'id'] },
      querystring: { type: 'object', properties: tokenQuery },
      body: recordSchema,
      response: { 200: envelopeOf(recordPayload, 'Updated; the whole record as it now is.'), ...commonErrors, 403: forbiddenError },
    },
  }, async (request) => {
    const target = await resolve(request, 'update');
    return ok({ Record: await updateOne(deps, request, target, request.params.id, request.body) });
  });

  app.delete<{ Params: IdParams }>('/api/record/:obj/:id', {
    schema: {
      summary: 'Delete a record',
      tags: ['records'],
      security: tokenSecurity,
      params: { type: 'object', properties: { obj: objParam, id: idParam }, required: ['obj', 'id'] },
      querystring: { type: 'object', properties: tokenQuery },
      response: { 200: envelopeOf({ type: 'null' }, 'Deleted; data is null.'), ...commonErrors, 403: forbiddenError },
    },
  }, async (request) => {
    const { records, obj } = await resolve(request, 'delete');
    const id = checkId(obj, request.params.id);
    if (!(await records.delete(obj, id))) throw notFound(obj, id);
    return ok(null);
  });
}
