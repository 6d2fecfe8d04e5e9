// Metadata routes at the root (COMPAT §Endpoints): the objects of the organization and their fields,
// in the exact shapes the public service's clients check (object numbers and picklist values as
// digit strings, every member a string).

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { accessOf } from '../auth/permissions.js';
import { planIncludesObject } from '../auth/plans.js';
import { unknownFieldError } from '../schema/record-input.js';
import { FIELD_TYPE_IDS, type FieldDef, type ObjectDef } from '../schema/types.js';
import { ok } from './envelope.js';
import { commonErrors, envelopeOf, tokenQuery, tokenSecurity } from './schemas.js';

const str = { type: 'string' } as const;
const objectSummary = {
  type: 'object',
  properties: { name: str, systemName: str, objectType: { type: 'string', description: 'The object number as a digit string.' } },
  required: ['name', 'systemName', 'objectType'],
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

const otParam = { type: 'string', description: 'Object number (1) or system name (account).' } as const;
const params = (withField: boolean) => ({
  type: 'object',
  properties: { ot: otParam, ...(withField ? { field: { type: 'string', description: 'Field system name.' } } : {}) },
  required: withField ? ['ot', 'field'] : ['ot'],
} as const);
const route = (summary: string, data: object, withParams: 0 | 1 | 2) => ({
  schema: {
    summary,
    tags: ['metadata'],
    security: tokenSecurity,
    ...(withParams ? { params: params(withParams === 2) } : {}),
    querystring: { type: 'object', properties: tokenQuery },
    response: { 200: envelopeOf(data), ...commonErrors },
  },
});

const objectOf = (o: ObjectDef) => ({ name: o.displayName, systemName: o.systemName, objectType: String(o.objectType) });
const fieldOf = (f: FieldDef) => ({ label: f.label, fieldName: f.name, systemName: f.name, systemFieldTypeId: FIELD_TYPE_IDS[f.type] });
const detailOf = (o: ObjectDef, f: FieldDef) => ({ ...fieldOf(f), fieldObjectType: String(f.type === 'lookup' ? (f.target ?? o.objectType) : o.objectType) });

interface OtParams { ot: string }
interface FieldParams { ot: string; field: string }

export function metadataRoutes(app: FastifyInstance, deps: AppDeps): void {
  /** The object of the path, if the plan includes it (402); metadata needs no record permission. */
  const objectOfPath = async (request: FastifyRequest<{ Params: OtParams }>) => {
    const schema = await (await deps.records.org(request.identity.org.id)).schema();
    const obj = schema.resolve(request.params.ot);
    const access = accessOf(request.identity);
    access.requirePlan(obj, 'read');
    return { obj, hidden: access.fields(obj).hidden };
  };
  const fieldOfPath = async (request: FastifyRequest<{ Params: FieldParams }>) => {
    const { obj, hidden } = await objectOfPath(request);
    const f = obj.fieldsByName.get(request.params.field.toLowerCase());
    if (!f || hidden.has(f.name)) throw unknownFieldError(obj, request.params.field);
    return { obj, f };
  };

  app.get('/metadata/records', route('The objects of the organization that its plan includes', { type: 'array', items: objectSummary }, 0), async (request) => {
    const schema = await (await deps.records.org(request.identity.org.id)).schema();
    const { plan } = accessOf(request.identity);
    return ok(schema.objects.filter((o) => planIncludesObject(plan, o)).map(objectOf));
  });

  app.get<{ Params: OtParams }>('/metadata/records/:ot', route('One object', objectSummary, 1), async (request) => {
    return ok(objectOf((await objectOfPath(request)).obj));
  });

  app.get<{ Params: OtParams }>('/metadata/records/:ot/fields', route("The object's fields (those hidden from the caller's role left out)", { type: 'array', items: fieldSummary }, 1), async (request) => {
    const { obj, hidden } = await objectOfPath(request);
    return ok(obj.fields.filter((f) => !hidden.has(f.name)).map(fieldOf));
  });

  app.get<{ Params: FieldParams }>('/metadata/records/:ot/fields/:field', route('One field, with the object a lookup refers to', fieldDetail, 2), async (request) => {
    const { obj, f } = await fieldOfPath(request);
    return ok(detailOf(obj, f));
  });

  app.get<{ Params: FieldParams }>('/metadata/records/:ot/fields/:field/values', route("One field and its picklist values (empty for other types)", fieldValues, 2), async (request) => {
    const { obj, f } = await fieldOfPath(request);
    return ok({ ...detailOf(obj, f), values: (f.options ?? []).map((o) => ({ name: o.label, value: String(o.value) })) });
  });
}
