// POST /api/query (docs/api.md) as a plugin: chosen fields, a filter, a
// stable sort and a page; IsLastPage is exact without counting.

import type { FastifyPluginAsync } from 'fastify';
import { QUERY_PAGE, type QueryInput, type QueryPlan } from '../query/plan.js';
import { FIELD_TYPE_IDS, type FieldDef, type ObjectDef, type RecordRow } from '../schema/types.js';
import { accessOf } from '../auth/permissions.js';
import type { TokenIdentity } from '../auth/identity.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { commonErrors, envelopeOf, recordSchema, tokenQuery, tokenSecurity } from './schemas.js';

// String first: with coerceTypes an integer branch would turn `true` into 1 and `null` into 0, so
// `objecttype: true` read the account object and `page_size: null` was refused as 0. As a string,
// every scalar reaches the plan stage, which accepts digit strings and treats '' (null) as absent.
const numberLike = { anyOf: [{ type: 'string' }, { type: 'integer' }] } as const;

const queryBody = {
  type: 'object',
  properties: {
    objecttype: { ...numberLike, description: "Object number (1), digit string ('1') or system name ('account')." },
    fields: { type: 'string', description: "Comma-separated field names (related fields such as primarycontactid_fullname too), in the order wanted, or '*' (default)." },
    query: { type: 'string', description: "Filter, e.g. (statecode = 1 AND accountname start-with 'Ac') OR (createdon >= '2025-01-01')." },
    sort_by: { type: 'string', description: 'Field to sort by; default createdon. Ties are broken by the key.' },
    sort_type: { type: 'string', description: "'asc' (default) or 'desc', any case." },
    page_size: { ...numberLike, description: `Rows per page, 1–${QUERY_PAGE.max}; default ${QUERY_PAGE.default}; larger values are served as ${QUERY_PAGE.max}.` },
    page_number: { ...numberLike, description: 'Page to return; 1 is the first.' },
    show_real_value: {
      anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'boolean' }],
      description: "1 (or true): picklist fields come back as their labels ('Active') instead of their codes; 0, false or absent: codes.",
    },
  },
} as const;

const column = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    fieldname: { type: 'string' },
    systemfieldtypeid: { type: 'string' },
    fieldobjecttype: { type: 'integer', nullable: true },
    isprimaryfield: { type: 'boolean' },
    isrequired: { type: 'boolean' },
    isreadonly: { type: 'boolean' },
    maxlength: { type: 'integer', nullable: true },
  },
  required: ['name', 'fieldname', 'systemfieldtypeid', 'fieldobjecttype', 'isprimaryfield', 'isrequired', 'isreadonly', 'maxlength'],
} as const;

export const queryPayload = {
  type: 'object',
  properties: {
    ObjectName: { type: 'string' },
    SystemName: { type: 'string' },
    PrimaryKey: { type: 'string' },
    PrimaryField: { type: 'string' },
    ObjectType: { type: 'integer' },
    PageNum: { type: 'integer' },
    SortBy: { type: 'string' },
    SortBy_Desc: { type: 'boolean' },
    IsLastPage: { type: 'boolean' },
    Columns: { type: 'array', items: column },
    Data: { type: 'array', items: recordSchema },
  },
  required: ['ObjectName', 'SystemName', 'PrimaryKey', 'PrimaryField', 'ObjectType', 'PageNum', 'SortBy', 'SortBy_Desc', 'IsLastPage', 'Columns', 'Data'],
} as const;

/** The §2.5 description of one returned field; `readOnly`: the fields the caller's role may not write. */
export function columnOf(obj: ObjectDef, f: FieldDef, readOnly: ReadonlySet<string>) {
  return {
    name: f.label,
    fieldname: f.name,
    systemfieldtypeid: FIELD_TYPE_IDS[f.type],
    fieldobjecttype: f.type === 'lookup' ? (f.target ?? null) : null,
    isprimaryfield: f.name === obj.primaryField,
    isrequired: f.required,
    isreadonly: f.role !== 'data' || readOnly.has(f.name),
    maxlength: f.maxLength,
  };
}

const NO_FIELDS: ReadonlySet<string> = new Set();

/**
 * The query payload (docs/query.md, Reply) of a plan's page for the caller: `isreadonly` also marks
 * the fields their role may not write, as /api/objects does.
 */
export function queryPayloadOf(plan: QueryPlan, rows: RecordRow[], isLastPage: boolean, identity?: TokenIdentity) {
  const { obj } = plan;
  const readOnly = identity ? accessOf(identity).fields(obj).readOnly : NO_FIELDS;
  return {
    ObjectName: obj.displayName,
    SystemName: obj.systemName,
    PrimaryKey: obj.keyField,
    PrimaryField: obj.primaryField,
    ObjectType: obj.objectType,
    PageNum: plan.pageNumber,
    SortBy: plan.sort.field.name,
    SortBy_Desc: plan.sort.desc,
    IsLastPage: isLastPage,
    Columns: plan.fields.map((f) => columnOf(obj, f, readOnly)),
    Data: rows,
  };
}

export const queryRoutes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service }) => {
  errorReplies(app, v1ErrorBody);

  app.post<{ Body: QueryInput | undefined }>('/api/query', {
    schema: {
      operationId: 'queryRecords',
      summary: 'Query records of an object: fields, filter, sort and page',
      tags: ['query'],
      security: tokenSecurity,
      querystring: { type: 'object', properties: tokenQuery },
      body: { ...queryBody, examples: [{ objecttype: 1, fields: 'accountid,accountname,billingcity', query: "accountname start-with 'A'", sort_by: 'accountname', sort_type: 'asc', page_size: 10, page_number: 1 }] },
      response: { 200: envelopeOf(queryPayload), ...commonErrors },
    },
  }, async (request) => {
    const { plan, rows, isLastPage } = await service.query(request.identity, request.body ?? {}, request.work);
    return ok(queryPayloadOf(plan, rows, isLastPage, request.identity));
  });
};
