// JSON schemas shared by the route families: they validate requests and are the source of the
// OpenAPI document at /openapi.json, so the documentation is the behaviour.

export const errorBody = {
  type: 'object',
  description: 'Every error reply: one human-readable Message saying what was wrong and how to fix it.',
  properties: { Message: { type: 'string' } },
  required: ['Message'],
} as const;

export const recordSchema = {
  type: 'object',
  description: 'A record: field system name → value (string, number or null). Every field of the object is present.',
  additionalProperties: true,
} as const;

export const objParam = {
  type: 'string',
  description: 'Object system name in any case (account) or number (1).',
} as const;

export const idParam = {
  type: 'string',
  description: 'Record id: an RFC 4122 UUID.',
} as const;

export const tokenQuery = {
  tokenid: { type: 'string', description: 'The API token, for clients that cannot send the tokenid header.' },
} as const;

/** Error replies every authenticated route can give. */
export const commonErrors = {
  400: errorBody,
  401: errorBody,
  404: errorBody,
  413: errorBody,
  500: errorBody,
} as const;

export function envelopeOf(data: object) {
  return {
    type: 'object',
    properties: { success: { type: 'boolean' }, data, message: { type: 'string' } },
    required: ['success', 'data', 'message'],
  } as const;
}

export const tokenSecurity = [{ tokenid: [] as string[] }];
