// Views (docs/compat.md, views) as a plugin: an object's named saved queries listed, defined,
// deleted, and run for a page of records in the query payload of /api/query.

import type { FastifyPluginAsync } from 'fastify';
import { QUERY_PAGE } from '../query/plan.js';
import { VIEW_LIMITS, type View } from '../query/views.js';
import type { ObjectDef } from '../schema/types.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { queryPayload, queryPayloadOf } from './query-routes.js';
import { commonErrors, envelopeOf, forbiddenError, objParam, tokenQuery, tokenSecurity } from './schemas.js';

const str = { type: 'string' } as const;
const viewSchema = {
  type: 'object',
  properties: {
    viewId: { type: 'string', description: "The view's id, a UUID; an object's default view has 00000000-0000-4000-8000-{object number, 12 digits}." },
    name: str,
    objectType: { type: 'integer' },
    isDefault: { type: 'boolean', description: 'The object\'s view of all its records, which every object has.' },
    fields: { type: 'string', description: "Comma-separated field names, or '*': every field the caller may read." },
    query: { type: 'string', nullable: true, description: 'The filter, in the filter language of /api/query; null for every record.' },
    sortBy: { type: 'object', properties: { fieldName: str, type: { type: 'string', enum: ['asc', 'desc'] } }, required: ['fieldName', 'type'] },
    createdon: { type: 'string', nullable: true, description: 'When it was defined (UTC); null for a default view.' },
  },
  required: ['viewId', 'name', 'objectType', 'isDefault', 'fields', 'query', 'sortBy', 'createdon'],
} as const;

const sortByInput = { description: '{fieldName, type: asc or desc}; type defaults to asc.' } as const;
const defineBody = {
  type: 'object',
  additionalProperties: true,
  properties: {
    name: { description: `The view's name: unique among the object's views (any case), at most ${VIEW_LIMITS.name} characters.` },
    fields: { description: "Comma-separated field names, an array of names or of {name}, or '*' (default)." },
    query: { description: "A filter in the filter language of /api/query, e.g. \"billingcity = 'Lisbon'\"; default: every record." },
    sortBy: { ...sortByInput, description: '{fieldName, type: asc or desc}; default createdon, descending.' },
  },
} as const;
/** Nullable: a run may come without a body (no member is required). */
const runBody = {
  type: 'object',
  nullable: true,
  additionalProperties: true,
  properties: {
    pageNumber: { description: 'The page, from 1 (default 1).' },
    pageSize: { description: `Records per page, 1–${QUERY_PAGE.max} (default ${QUERY_PAGE.default}); larger is served as ${QUERY_PAGE.max}.` },
    sortBy: { ...sortByInput, description: "{fieldName, type: asc or desc}: another order than the view's, for this request." },
    fields: { description: "Fields to show beside the view's, for this request: names, or objects whose logicalName (else name) is read." },
    conditionGroups: { description: 'Taken only empty ([]): conditions are not added to a view when it is run.' },
  },
} as const;

/** The query payload of /api/query, with the view run. */
const viewPage = {
  ...queryPayload,
  properties: { ViewId: str, ViewName: str, ...queryPayload.properties },
  required: ['ViewId', 'ViewName', ...queryPayload.required],
} as const;

const query = { type: 'object', properties: tokenQuery } as const;
const otParams = { type: 'object', properties: { ot: objParam }, required: ['ot'] } as const;
const viewParams = {
  type: 'object',
  properties: { ot: objParam, viewId: { type: 'string', description: "The view's id, or 'default' for the object's default view." } },
  required: ['ot', 'viewId'],
} as const;
const errors = { ...commonErrors, 403: forbiddenError, 404: { ...commonErrors[404], description: 'Unknown object, or no view of the object has that id.' } };

function viewOf(obj: ObjectDef, v: View) {
  return {
    viewId: v.id, name: v.name, objectType: obj.objectType, isDefault: v.createdon === null,
    fields: v.fields, query: v.query, sortBy: { fieldName: v.sortBy, type: v.sortType }, createdon: v.createdon,
  };
}

interface OtParams { ot: string }
interface ViewParams { ot: string; viewId: string }

export const viewsRoutes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service }) => {
  errorReplies(app, v1ErrorBody);

  app.get<{ Params: OtParams }>('/api/v2/views/:ot', {
    schema: {
      operationId: 'listViews',
      summary: "An object's views: its default view of all records, then those defined",
      tags: ['views'], security: tokenSecurity, params: otParams, querystring: query,
      response: { 200: envelopeOf({ type: 'array', items: viewSchema }), ...errors },
    },
  }, async (request) => {
    const { obj, views } = await service.views(request.identity, request.params.ot);
    return ok(views.map((v) => viewOf(obj, v)));
  });

  app.post<{ Params: OtParams }>('/api/v2/views/:ot', {
    schema: {
      operationId: 'defineView',
      summary: 'Define a view of an object: a named saved query (admin role)',
      tags: ['views'], security: tokenSecurity, params: otParams, querystring: query, body: defineBody,
      response: { 200: envelopeOf(viewSchema), ...errors },
    },
  }, async (request) => {
    const { obj, view } = await service.defineView(request.identity, request.params.ot, request.body);
    return ok(viewOf(obj, view));
  });

  app.post<{ Params: ViewParams }>('/api/v2/views/:ot/:viewId', {
    schema: {
      operationId: 'runView',
      summary: "A page of a view's records, in the query payload of /api/query",
      tags: ['views'], security: tokenSecurity, params: viewParams, querystring: query, body: runBody,
      response: { 200: envelopeOf(viewPage), ...errors },
    },
  }, async (request) => {
    const { view, plan, rows, isLastPage } = await service.runView(request.identity, request.params.ot, request.params.viewId, request.body, request.work);
    return ok({ ViewId: view.id, ViewName: view.name, ...queryPayloadOf(plan, rows, isLastPage, request.identity) });
  });

  app.delete<{ Params: ViewParams }>('/api/v2/views/:ot/:viewId', {
    schema: {
      operationId: 'deleteView',
      summary: 'Delete a defined view (admin role); the default view stays',
      tags: ['views'], security: tokenSecurity, params: viewParams, querystring: query,
      response: { 200: envelopeOf({ type: 'null' }), ...errors },
    },
  }, async (request) => {
    await service.deleteView(request.identity, request.params.ot, request.params.viewId);
    return ok(null);
  });
};
