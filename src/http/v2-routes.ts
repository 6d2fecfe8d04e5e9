// The v2 routes clients of the public service call (docs/compat.md), as a plugin: create and update
// replying `{success, record, _id}` without the data envelope, delete replying `{success, _id}`,
// custom objects through object 58, and custom fields through /api/v2/system-field.

import type { FastifyPluginAsync } from 'fastify';
import { FIRST_CUSTOM_OBJECT, type ObjectDef } from '../schema/types.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import {
  conditionsOf, writeConditionError, changesBody, commonErrors, envelopeOf, etagHeader, forbiddenError, idParam, preconditionHeaders, newRecordBody, objParam, recordSchema, tokenQuery, tokenSecurity,
} from './schemas.js';

/** Creating a record of this object number defines a custom object (docs/compat.md). */
export const OBJECT_DEFINITIONS = 58;

const v2Reply = (description: string) => ({
  type: 'object',
  description,
  properties: { success: { type: 'boolean' }, _id: { type: 'string' }, record: recordSchema },
  required: ['success', '_id', 'record'],
} as const);

const errors = { ...commonErrors, 403: forbiddenError };
const query = { type: 'object', properties: tokenQuery } as const;

/** The record of object 58 that describes a custom object. */
function definitionRecord(obj: ObjectDef) {
  return {
    objecttypecode: obj.objectType,
    name: obj.displayName,
    collectionname: obj.collectionName,
    systemname: obj.systemName,
    primarykey: obj.keyField,
    primaryfield: obj.primaryField,
  };
}

/**
 * The body of a field definition, described member by member for the OpenAPI document. Members carry
 * no type: a wrong one is refused by schema/custom-definitions.ts with a message naming what to fix.
 */
/** Nullable: every member has a default, so a field may be added without a body (a text field named pcfsystemfield{N}). */
const fieldDefinitionBody = {
  type: 'object',
  nullable: true,
  additionalProperties: true,
  properties: {
    label: { description: 'The label (at most 200 characters); default: the field name.' },
    fieldName: { description: "The field's name: starts with pcf, letters, digits and _; default pcfsystemfield{N}." },
    precision: { description: 'number: decimal places, 0–10 (default 2).' },
    maxLength: { description: 'text-like types: the maximum length, up to the type\'s default.' },
    options: { description: 'picklist: [{label, value}], value a whole number ≥ 0 (default: position + 1); order and color are ignored.' },
    values: { description: "picklist, as other clients spell it: [{name, value}], value a digit string; send it or 'options', not both." },
    relatedObjectType: { description: 'lookup: the number or system name of the object it refers to.' },
    relatedObjectId: { description: 'lookup, as other clients spell it: the same as relatedObjectType.' },
  },
} as const;

interface OtParams { ot: string }

export const v2Routes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service }) => {
  errorReplies(app, v1ErrorBody);

  app.post<{ Params: OtParams }>('/api/v2/record/:ot', {
    schema: {
      operationId: 'createRecordV2',
      summary: 'Create a record (v2 reply); on object 58, define a custom object',
      description: `Body: a flat map of field names to values. On object ${OBJECT_DEFINITIONS}, {name, collectionname} defines a custom object, numbered from ${FIRST_CUSTOM_OBJECT}; record.objecttypecode is its number.`,
      tags: ['v2'],
      security: tokenSecurity,
      params: { type: 'object', properties: { ot: objParam }, required: ['ot'] },
      querystring: query,
      body: newRecordBody,
      response: { 200: { ...v2Reply('Created: the record as stored, and its id; ETag its version (not for an object defined).'), headers: etagHeader }, ...errors },
    },
  }, async (request, reply) => {
    if (request.params.ot.trim() === String(OBJECT_DEFINITIONS)) {
      const obj = await service.defineObject(request.identity, request.body);
      return { success: true, _id: obj.definitionId, record: definitionRecord(obj) };
    }
    const { obj, record, etag } = await service.create(request.identity, request.params.ot, request.body);
    if (etag !== undefined) reply.header('etag', etag);
    return { success: true, _id: record[obj.keyField], record };
  });

  app.put<{ Params: OtParams & { id: string } }>('/api/v2/record/:ot/:id', {
    schema: {
      operationId: 'updateRecordV2',
      summary: 'Update a record (partial; v2 reply)',
      tags: ['v2'],
      security: tokenSecurity,
      description: 'With If-Match, only if the record is still the version its ETag names (else 412). The reply carries the new ETag.',
      params: { type: 'object', properties: { ot: objParam, id: idParam }, required: ['ot', 'id'] },
      querystring: query,
      headers: preconditionHeaders,
      body: changesBody,
      response: { 200: { ...v2Reply('Updated: the whole record as it now is.'), headers: etagHeader }, ...errors, 412: writeConditionError },
    },
  }, async (request, reply) => {
    const { obj, record, etag } = await service.update(request.identity, request.params.ot, request.params.id, request.body, conditionsOf(request.headers));
    if (etag !== undefined) reply.header('etag', etag);
    return { success: true, _id: record[obj.keyField], record };
  });

  // The service's own JavaScript SDK deletes through this path (docs/compat.md, v2 writes).
  app.delete<{ Params: OtParams & { id: string } }>('/api/v2/record/:ot/:id', {
    schema: {
      operationId: 'deleteRecordV2',
      summary: 'Delete a record (v2 reply)',
      tags: ['v2'],
      security: tokenSecurity,
      description: 'With If-Match, only if the record is still the version its ETag names (else 412).',
      params: { type: 'object', properties: { ot: objParam, id: idParam }, required: ['ot', 'id'] },
      querystring: query,
      headers: preconditionHeaders,
      response: {
        200: {
          type: 'object',
          description: 'Deleted: the id of the record deleted.',
          properties: { success: { type: 'boolean' }, _id: { type: 'string' } },
          required: ['success', '_id'],
        },
        ...errors,
        412: writeConditionError,
      },
    },
  }, async (request) => {
    const id = await service.delete(request.identity, request.params.ot, request.params.id, conditionsOf(request.headers));
    return { success: true, _id: id };
  });

  app.post<{ Params: OtParams & { type: string } }>('/api/v2/system-field/:ot/:type', {
    schema: {
      operationId: 'addField',
      summary: 'Add a custom field to an object',
      description: 'type: text, emailaddress (email), url, phonenumber (telephone), number, textarea, html, date, datetime, lookup, picklist. Body: {label?, fieldName?} plus precision (number), relatedObjectType or relatedObjectId (lookup), or options [{label, value}] or values [{name, value}] (picklist). Without fieldName the field is named pcfsystemfield{N}, without label it is labelled with its name; a type that needs nothing more (text, number, date…) may be added with no body.',
      tags: ['v2'],
      security: tokenSecurity,
      params: { type: 'object', properties: { ot: objParam, type: { type: 'string', examples: ['picklist'] } }, required: ['ot', 'type'] },
      querystring: query,
      body: { ...fieldDefinitionBody, examples: [{ label: 'Severity', options: [{ label: 'Low', value: 1 }, { label: 'High', value: 2 }] }] },
      documentedBody: {
        type: 'object',
        nullable: true,
        properties: {
          label: { type: 'string', description: fieldDefinitionBody.properties.label.description },
          fieldName: { type: 'string', description: fieldDefinitionBody.properties.fieldName.description },
          precision: { type: 'integer', description: fieldDefinitionBody.properties.precision.description },
          maxLength: { type: 'integer', description: fieldDefinitionBody.properties.maxLength.description },
          options: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, value: { type: 'integer' } }, required: ['label'] }, description: fieldDefinitionBody.properties.options.description },
          values: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } }, required: ['name'] }, description: fieldDefinitionBody.properties.values.description },
          relatedObjectType: { oneOf: [{ type: 'integer' }, { type: 'string' }], description: fieldDefinitionBody.properties.relatedObjectType.description },
          relatedObjectId: { oneOf: [{ type: 'integer' }, { type: 'string' }], description: fieldDefinitionBody.properties.relatedObjectId.description },
        },
        examples: [{ label: 'Severity', options: [{ label: 'Low', value: 1 }, { label: 'High', value: 2 }] }],
      },
      response: {
        200: envelopeOf({ type: 'object', properties: { systemField: { type: 'array', items: { type: 'object', properties: { fieldname: { type: 'string' } }, required: ['fieldname'] } } }, required: ['systemField'] }),
        ...errors,
      },
    },
  }, async (request) => {
    const name = await service.defineField(request.identity, request.params.ot, request.params.type, request.body ?? {});
    return ok({ systemField: [{ fieldname: name }] });
  });
};
