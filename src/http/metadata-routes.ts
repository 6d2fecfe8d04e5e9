// Metadata routes at the root (docs/compat.md): the objects of the organization and their fields,
// in the exact shapes the public service's clients check (object numbers and picklist values as
// digit strings, every member a string).

import type { FastifyPluginAsync } from 'fastify';
import { FIELD_TYPE_IDS, type FieldDef, type ObjectDef } from '../schema/types.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { commonErrors, envelopeOf, tokenQuery, tokenSecurity } from './schemas.js';

const str = { type: 'string' } as const;
const objectSummary = {
  type: 'object',
  properties: { name: str, systemName: str, objectType: { type: 'string', description: 'The object number as a digit string.' } },
  required: ['name', 'systemName', 'objectType'],
} as const;
/** One object: the summary plus its key and primary field, which clients read before copying a record (docs/compat.md). */
const objectDetail = {
  type: 'object',
  properties: {
    ...objectSummary.properties,
    PrimaryKey: { type: 'string', description: "The key field's name (accountid)." },
    PrimaryField: { type: 'string', description: "The display-name field's name (accountname)." },
  },
  required: [...objectSummary.required, 'PrimaryKey', 'PrimaryField'],
} as const;
const fieldSummary = {
  type: 'object',
  properties: { label: str, fieldName: str, systemName: str, systemFieldTypeId: str },
  required: ['label', 'fieldName', 'systemName', 'systemFieldTypeId'],
} as const;
const fieldDetail = {
  type: 'object',
  properties: { ...fieldSummary.properties, fieldObjectType: { type: 'string', description: "A lookup's target object number; for other fields the field's own object." } },
  required: [...fieldSummary.required, 'fieldObjectType'],
} as const;
const fieldValues = {
  type: 'object',
  properties: {
    ...fieldDetail.properties,
    values: { type: 'array', items: { type: 'object', properties: { name: str, value: { type: 'string', description: 'The picklist code as a digit string.' } }, required: ['name', 'value'] } },
  },
  required: [...fieldDetail.required, 'values'],
} as const;

const otParam = { type: 'string', description: 'Object number (1) or system name (account).', examples: ['1'] } as const;
const params = (withField: boolean) => ({
  type: 'object',
  properties: { ot: otParam, ...(withField ? { field: { type: 'string', description: 'Field system name.' } } : {}) },
  required: withField ? ['ot', 'field'] : ['ot'],
} as const);
const route = (operationId: string, summary: string, data: object, withParams: 0 | 1 | 2) => ({
  schema: {
    operationId,
    summary,
    tags: ['metadata'],
    security: tokenSecurity,
    ...(withParams ? { params: params(withParams === 2) } : {}),
    querystring: { type: 'object', properties: tokenQuery },
    response: { 200: envelopeOf(data), ...commonErrors },
  },
});

const objectOf = (o: ObjectDef) => ({ name: o.displayName, systemName: o.systemName, objectType: String(o.objectType) });
const objectDetailOf = (o: ObjectDef) => ({ ...objectOf(o), PrimaryKey: o.keyField, PrimaryField: o.primaryField });
const fieldOf = (f: FieldDef) => ({ label: f.label, fieldName: f.name, systemName: f.name, systemFieldTypeId: FIELD_TYPE_IDS[f.type] });
const detailOf = (o: ObjectDef, f: FieldDef) => ({ ...fieldOf(f), fieldObjectType: String(f.type === 'lookup' ? (f.target ?? o.objectType) : o.objectType) });

interface OtParams { ot: string }
interface FieldParams { ot: string; field: string }

export const metadataRoutes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service }) => {
  errorReplies(app, v1ErrorBody);

  app.get('/metadata/records', route('listObjects', 'The objects of the organization that its plan includes', { type: 'array', items: objectSummary }, 0), async (request) => {
    return ok((await service.objects(request.identity)).map(objectOf));
  });

  app.get<{ Params: OtParams }>('/metadata/records/:ot', route('getObject', 'One object, with its key and primary field', objectDetail, 1), async (request) => {
    return ok(objectDetailOf((await service.object(request.identity, request.params.ot)).obj));
  });

  app.get<{ Params: OtParams }>('/metadata/records/:ot/fields', route('listFields', "The object's fields (those hidden from the caller's role left out)", { type: 'array', items: fieldSummary }, 1), async (request) => {
    return ok((await service.object(request.identity, request.params.ot)).fields.map(fieldOf));
  });

  app.get<{ Params: FieldParams }>('/metadata/records/:ot/fields/:field', route('getField', 'One field, with the object a lookup refers to', fieldDetail, 2), async (request) => {
    const { obj, field } = await service.field(request.identity, request.params.ot, request.params.field);
    return ok(detailOf(obj, field));
  });

  app.get<{ Params: FieldParams }>('/metadata/records/:ot/fields/:field/values', route('getFieldValues', "One field and its picklist values (empty for other types)", fieldValues, 2), async (request) => {
    const { obj, field } = await service.field(request.identity, request.params.ot, request.params.field);
    return ok({ ...detailOf(obj, field), values: (field.options ?? []).map((o) => ({ name: o.label, value: String(o.value) })) });
  });
};
