// JSON schemas shared by the route families: they validate requests and are the source of the
// OpenAPI document at /openapi.json, so the documentation is the behaviour.

import type { IncomingHttpHeaders } from 'node:http';
import { retryAfterOf } from '../errors.js';
import type { Preconditions } from '../service/service.js';

export const errorBody = {
  type: 'object',
  description: 'Every error reply: one human-readable Message saying what was wrong and how to fix it.',
  properties: { Message: { type: 'string' } },
  required: ['Message'],
} as const;

/** The header every error reply carries (docs/errors.md): the catalogue code, stable across releases. */
export const errorCodeHeader = {
  'X-Error-Code': { type: 'string', description: 'The error code (docs/errors.md), such as FIELD_UNKNOWN: stable, unlike the message.' },
} as const;

export const recordSchema = {
  type: 'object',
  description: 'A record: field system name → value (string, number or null). Every field of the object is present.',
  additionalProperties: true,
} as const;

export const objParam = {
  type: 'string',
  description: 'Object system name in any case (account) or number (1).',
  examples: ['account'],
} as const;

export const idParam = {
  type: 'string',
  description: 'Record id: an RFC 4122 UUID.',
  examples: ['3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f'],
} as const;

/** A valid account, the example of bodies that create a record (the docs page's "Try it out" posts it). */
export const accountExample = { accountname: 'Acme Ltd', emailaddress1: 'hello@acme.example', telephone1: '+1 555 0100', accounttypecode: 1 } as const;

/** A record body as a create sends it, with a valid account as its example. */
export const newRecordBody = { ...recordSchemaBase(), examples: [accountExample] };
/** A record body as an update sends it: only the fields that change. */
export const changesBody = { ...recordSchemaBase(), examples: [{ telephone1: '+1 555 0199' }] };

function recordSchemaBase() {
  return { type: 'object', description: 'A record: field system name → value (string, number or null).', additionalProperties: true } as const;
}

export const tokenQuery = {
  tokenid: { type: 'string', description: 'The API token, for clients that cannot send the tokenid header.' },
} as const;

/** Retry-After of a 429 (docs/limits.md). */
export const limitRetryHeader = {
  'Retry-After': { type: 'integer', description: 'Seconds until the refused window has room again: until the oldest request of the last 60 s leaves it, or until 00:00 UTC for the daily cap.' },
} as const;

/** Retry-After of a 503 that passes by itself (docs/errors.md § Retry-After). */
export const unavailableRetryHeader = {
  'Retry-After': {
    type: 'integer',
    description: `Seconds to wait before retrying: ${retryAfterOf('STORE_UNAVAILABLE')} when the database cannot be reached (STORE_UNAVAILABLE), ${retryAfterOf('STORE_BUSY')} when another process held the records for writing (STORE_BUSY).`,
  },
} as const;

/** The {Message} body with a description of when it is sent: the OpenAPI document shows it per status. */
export function errorReply<H extends object = Record<never, never>>(description: string, headers?: H) {
  return { ...errorBody, description, headers: { ...errorCodeHeader, ...headers } } as const;
}

/** Error replies every authenticated route can give. */
export const commonErrors = {
  400: errorReply('Invalid request: a malformed id, parameter or body, an unknown field or a value of the wrong type.'),
  401: errorReply('No API token, or the token is unknown or revoked.'),
  402: errorReply('The organization\'s plan does not include this object or action; the Message names the plan to upgrade to.'),
  403: errorReply('The role of the token\'s user lacks the permission on this object, or a field asked for is hidden from it; the Message names what to grant.'),
  404: errorReply('Unknown object, or no record has that id.'),
  408: errorReply('The request did not finish within the time limit (REQUEST_TIMEOUT_MS, 30 s by default) and its work was stopped (REQUEST_TIMEOUT).'),
  413: errorReply('The request body is over 20 MB.'),
  429: errorReply('Over the organization\'s minute limit or daily cap (without a valid token: the client address\'s minute limit); Retry-After says when to retry.', limitRetryHeader),
  500: errorReply('The server failed; the Message names the request id to report.'),
  503: errorReply('The database cannot be reached (PostgreSQL), or another process held the organization\'s records for writing longer than a write waits (SQLite, e.g. orchard seed); retry after Retry-After.', unavailableRetryHeader),
} as const;

/** Replies of the routes that write: the role may not write this object or a field sent, or the object is read-only. */
export const forbiddenError = errorReply('The role of the token\'s user may not do this to this object, or a field sent is hidden or read-only for it, or the object is read-only through the API; the Message names what to grant.');

/** A change-log entry as replies show it (service/change-log.ts ShownEntry). */
export const changeEntrySchema = {
  type: 'object',
  properties: {
    sequence: { type: 'integer', description: 'Orders the organization\'s entries as their writes committed (numbers may skip).' },
    objecttype: { type: 'integer' },
    object: { type: 'string', description: 'The object\'s system name.' },
    recordid: { type: 'string' },
    operation: { type: 'string', enum: ['create', 'update', 'delete'] },
    changedon: { type: 'string', nullable: true, description: 'When, on the organization\'s clock: YYYY-MM-DDThh:mm:ss, UTC; null on a create or update when your role hides the record\'s modifiedon (or a create\'s createdon), whose value it is.' },
    userid: { type: 'string', nullable: true, description: 'Who: a user of the organization; null for a write no user made, and on a create or update when your role hides modifiedby (or a create\'s createdby), whose value it is.' },
    fields: {
      type: 'object',
      description: 'The fields the write changed: name → {old, new} (null: empty). A create lists the fields it set, a delete those the record had. Fields hidden from your role are left out.',
      additionalProperties: {
        type: 'object',
        properties: { old: { description: 'The value before: a string, a number or null.' }, new: { description: 'The value after: a string, a number or null.' } },
      },
    },
  },
  required: ['sequence', 'objecttype', 'object', 'recordid', 'operation', 'changedon', 'userid', 'fields'],
  examples: [{
    sequence: 42, objecttype: 1, object: 'account', recordid: '3f2b8c1e-5d4a-4b6f-9e2d-7a1c0b9d8e6f', operation: 'update',
    changedon: '2026-03-01T12:00:00', userid: '9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d', fields: { telephone1: { old: '+1 555 0100', new: '+1 555 0199' } },
  }],
} as const;

/** The header fields of conditional requests on one record (docs/history.md § ETags). */
export const etagHeader = {
  ETag: { type: 'string', description: 'The record\'s strong entity tag as the caller sees it: send it back in If-Match (PUT, DELETE, GET) or If-None-Match (GET: 304; PUT, DELETE: 412). Absent from a write\'s reply when your role may not read the object.' },
} as const;

/** The Location of a 201 that made a record (spec: the API URL of the new object). */
export const locationHeader = {
  Location: { type: 'string', description: 'The new record\'s API URL: {BASE_URL}/api/record/{system name}/{id}.' },
} as const;

/** The conditional header fields of a write of one record (PUT, DELETE), RFC 9110 § 13.1. */
export const preconditionHeaders = {
  type: 'object',
  properties: {
    'if-match': {
      type: 'string',
      description: 'Write only if the record is still this version: its ETag from a GET (or *: any version). Otherwise 412 RECORD_CHANGED and nothing is written. A role that may not read the object may send only * (else 403).',
      examples: ['"q7yJd2WZ4m1fQm3lB0xk9A"'],
    },
    'if-none-match': {
      type: 'string',
      description: 'Write only if the record is no longer this version (its ETag, weak comparison), or with *: only if no record has the id. Otherwise 412 RECORD_MATCHES and nothing is written. Evaluated after If-Match.',
      examples: ['*'],
    },
  },
} as const;

/** The preconditions a request on one record sends, as the service takes them. */
export const conditionsOf = (headers: IncomingHttpHeaders): Preconditions => ({ ifMatch: headers['if-match'], ifNoneMatch: headers['if-none-match'] });

/** The 412 of a read whose If-Match names a version the record no longer is. */
export const changedError = errorReply('If-Match names an ETag the record no longer has: it changed since it was read. GET it again and retry with its new ETag.');

/** The 412 of a write: If-Match names a version the record no longer is, or If-None-Match the one it is. */
export const writeConditionError = errorReply('If-Match names an ETag the record no longer has: it changed since it was read (RECORD_CHANGED); GET it again and retry with its new ETag. Or If-None-Match names the ETag it has, or is * and the record exists (RECORD_MATCHES).');

/** A record id as part of a path, written once for the routes that take one. */
export const recordParams = { type: 'object', properties: { obj: objParam, id: idParam }, required: ['obj', 'id'] } as const;

export function envelopeOf(data: object, description = 'Success: the envelope {success, data, message}.') {
  return {
    type: 'object',
    description,
    properties: { success: { type: 'boolean' }, data, message: { type: 'string' } },
    required: ['success', 'data', 'message'],
  } as const;
}

export const tokenSecurity = [{ tokenid: [] as string[] }];

/**
 * Whether a request body's OpenAPI schema takes null and requires no member: how a route says its
 * body may be left out (none sent meaning the defaults). Fastify checks an absent body as null, so a
 * route whose checked body is such takes none; a route checking its body itself takes none where its
 * documented body is such. (The file upload's schema takes null only because the multipart parser
 * leaves the body to its handler: it requires its part, so its body stays required.)
 */
export const bodyIsOptional = (schema: unknown): boolean => {
  const s = schema as { nullable?: unknown; required?: readonly unknown[] } | null | undefined;
  return s?.nullable === true && !s.required?.length;
};

type Operations = Record<string, Record<string, { requestBody?: { required?: boolean; content?: Record<string, { schema?: unknown }> } }>>;

/** The document with the bodies that may be left out (bodyIsOptional) marked not required: @fastify/swagger marks every body required. */
export function withOptionalBodies<T extends { paths?: object }>(document: T): T {
  for (const operations of Object.values((document.paths ?? {}) as Operations)) {
    for (const { requestBody } of Object.values(operations)) {
      if (requestBody && Object.values(requestBody.content ?? {}).every((media) => bodyIsOptional(media.schema))) requestBody.required = false;
    }
  }
  return document;
}

declare module 'fastify' {
  interface FastifySchema {
    /** The body the OpenAPI document shows, where the route checks its body more loosely (app.ts, documentedBody). */
    documentedBody?: object;
  }
}
