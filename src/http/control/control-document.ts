// The control API's own OpenAPI document, built from the schemas of the routes registered in its
// scope; the service's document (/openapi.json) leaves these routes out.

import type { RouteOptions } from 'fastify';
import { bodyIsOptional } from '../schemas.js';

interface RouteSchema {
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  readonly params?: JsonObjectSchema;
  readonly querystring?: JsonObjectSchema;
  readonly body?: object;
  readonly response?: Readonly<Record<string, object>>;
}

interface JsonObjectSchema {
  readonly properties?: Readonly<Record<string, { description?: string }>>;
  readonly required?: readonly string[];
}

/** The control API's error body: `{error: {code, message}}`, as the CLI prints with --json. */
export const controlErrorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string', description: 'A stable code of docs/errors.md.' }, message: { type: 'string' } },
    },
  },
} as const;

function parameters(where: 'path' | 'query', schema: JsonObjectSchema | undefined): object[] {
  return Object.entries(schema?.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (schema?.required ?? []).includes(name),
    ...(s.description ? { description: s.description } : {}),
    schema: openApiSchema(s),
  }));
}

/**
 * A route's JSON Schema (what Ajv checks) as an OpenAPI 3.0 schema: `examples` becomes `example`,
 * a numeric exclusive bound becomes the inclusive bound and a word in the description (OpenAPI
 * 3.0's boolean form is refused by the example checkers of tools that read the document), and a
 * type list with 'null' becomes the type with `nullable`.
 */
export function openApiSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(openApiSchema);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'examples' && Array.isArray(v)) {
      if (v.length > 0) out.example = v[0];
    } else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof v === 'number') {
      out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'] = v;
      const said = (value as { description?: string }).description;
      out.description = `${said ? `${said} ` : ''}(${key === 'exclusiveMinimum' ? 'above' : 'below'} ${v}, not equal to it)`;
    } else if (key === 'type' && Array.isArray(v)) {
      const types = v.filter((t) => t !== 'null');
      if (types.length === 1) out.type = types[0];
      if (types.length < v.length) out.nullable = true;
    } else if (key === 'description' && key in out) {
      // Already said with an exclusive bound.
    } else if (key === 'properties' && v && typeof v === 'object') {
      out[key] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, openApiSchema(s)]));
    } else {
      out[key] = typeof v === 'object' ? openApiSchema(v) : v;
    }
  }
  return out;
}

/** A body's schema and its first example, as OpenAPI 3.0 puts them in a media type. */
function mediaType(schema: object): { schema: unknown; example?: unknown } {
  const { examples, ...rest } = schema as { examples?: unknown[] };
  return { schema: openApiSchema(rest), ...(examples?.length ? { example: examples[0] } : {}) };
}

/** A route's body as the document's requestBody: not required when its schema takes null and requires no member (bodyIsOptional). */
function requestBodyOf(body: object): object {
  const media = mediaType(body);
  return { required: !bodyIsOptional(media.schema), content: { 'application/json': media } };
}

function operationIdOf(method: string, url: string): string {
  const words = url.split('/').filter((w) => w && w !== '_orchard').map((w) => w.replace(/^:/, 'by-'));
  return [method.toLowerCase(), ...words].join('-').replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

export function controlDocument(routes: readonly RouteOptions[], version: string, license: { name: string; url: string }, serverUrl = '/'): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    const schema = (route.schema ?? {}) as RouteSchema;
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || path.endsWith('/openapi.json')) continue;
      const responses: Record<string, object> = {};
      for (const [status, body] of Object.entries(schema.response ?? {})) {
        const description = (body as { description?: string }).description ?? 'Success';
        // A reply without a body (204: `type: 'null'`) has no content.
        responses[status] = (body as { type?: unknown }).type === 'null' ? { description } : { description, content: { 'application/json': { schema: openApiSchema(body) } } };
      }
      responses['401'] = { $ref: '#/components/responses/Unauthorized' };
      responses.default = { $ref: '#/components/responses/Error' };
      (paths[path] ??= {})[method.toLowerCase()] = {
        operationId: schema.operationId ?? operationIdOf(method, route.url),
        ...(schema.summary ? { summary: schema.summary } : {}),
        ...(schema.description ? { description: schema.description } : {}),
        ...(schema.tags ? { tags: schema.tags } : {}),
        parameters: [...parameters('path', schema.params), ...parameters('query', schema.querystring)],
        ...(schema.body ? { requestBody: requestBodyOf(schema.body) } : {}),
        responses,
      };
    }
  }
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  return {
    openapi: '3.0.3',
    info: {
      title: 'Orchard control API',
      description: 'Administration and test tools of an Orchard server (docs/control-api.md). Every call needs Authorization: Bearer <ADMIN_KEY>.',
      version,
      license,
    },
    servers: [{ url: serverUrl, description: 'This Orchard server' }],
    security: [{ adminKey: [] }],
    paths,
    components: {
      securitySchemes: { adminKey: { type: 'http', scheme: 'bearer', description: 'The server\'s ADMIN_KEY setting.' } },
      schemas: { Error: controlErrorSchema },
      responses: {
        Unauthorized: { description: 'No admin key was sent (ADMIN_KEY_MISSING) or it is wrong (ADMIN_KEY_INVALID).', content: errorContent },
        Error: { description: 'An error with its code.', content: errorContent },
      },
    },
  };
}
