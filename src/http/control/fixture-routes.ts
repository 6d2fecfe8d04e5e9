// Control API: organizations as test fixtures — reset, snapshots (take, list, restore, delete),
// export to the fixtures format, copy, and load fixtures (docs/control-api.md, docs/fixtures.md).

import type { FastifyPluginAsync } from 'fastify';
import { fixturesYaml } from '../../fixtures/fixtures-file.js';
import type { ControlRouteOptions } from './control-options.js';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The organization id.' } } } as const;

const snapshotParams = {
  type: 'object', required: ['id', 'name'],
  properties: { id: { type: 'string', description: 'The organization id.' }, name: { type: 'string', description: 'The snapshot\'s name.' } },
} as const;

const snapshotSchema = {
  type: 'object',
  required: ['name', 'createdAt', 'bytes'],
  properties: {
    name: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    bytes: { type: 'integer', description: 'Its size on disk.' },
  },
} as const;

const fixturesBody = {
  type: 'object',
  description: 'A fixtures value (docs/fixtures.md), as JSON or, with a YAML Content-Type (application/yaml, text/yaml), as YAML; checked member by member, a bad one is a 400 FIXTURE_INVALID naming its path.',
  examples: [{ organizations: [{ name: 'Acme', plan: 'enterprise', users: [{ email: 'ada@acme.example', tokens: ['0f8a4c52-3c1e-4d8b-9a8e-5b7c2d1e0f3a'] }], records: { account: [{ accountname: 'Globex', createdon: '2026-01-05T09:00:00' }] } }] }],
} as const;

/** An organization as a load of fixtures (or a copy) left it. */
const loadedSchema = {
  type: 'object', required: ['id', 'name', 'status', 'users', 'records'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', enum: ['created', 'existing', 'reloaded'] },
    records: { type: 'integer', description: 'Records loaded (0 for an organization left as it was).' },
    users: {
      type: 'array',
      items: {
        type: 'object', required: ['id', 'email', 'role', 'tokens'],
        properties: { id: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' }, tokens: { type: 'array', items: { type: 'string' }, description: 'The token values the fixture gave (not the digests).' } },
      },
    },
  },
} as const;

export const fixtureRoutes: FastifyPluginAsync<ControlRouteOptions> = async (scope, { state, toolkit }) => {
  // A fixtures value may come as YAML, as a file would (a suite in another language posts its file).
  scope.addContentTypeParser(['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'], { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, fixturesYaml(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  scope.post('/organizations/:id/reset', {
    schema: {
      operationId: 'resetOrganization', tags: ['fixtures'],
      summary: 'Back to the fixture it was loaded from, else to a new organization\'s state (no records, no custom objects or fields); users, roles, tokens and plan stay.',
      description: 'Waits for the organization\'s requests under way; its requests arriving meanwhile wait for the reset.',
      params: idParams,
      response: {
        200: {
          type: 'object', required: ['id', 'fixture'],
          properties: { id: { type: 'string' }, fixture: { type: 'boolean', description: 'true: back to its fixture; false: emptied.' } },
        },
      },
    },
  }, async (request) => state.reset((request.params as { id: string }).id));

  scope.get('/organizations/:id/snapshots', {
    schema: {
      operationId: 'listSnapshots', tags: ['fixtures'], summary: 'The organization\'s snapshots, by name.',
      params: idParams,
      response: { 200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: snapshotSchema } } } },
    },
  }, async (request) => ({ items: await state.listSnapshots((request.params as { id: string }).id) }));

  scope.post('/organizations/:id/snapshots', {
    schema: {
      operationId: 'createSnapshot', tags: ['fixtures'],
      summary: 'Save the organization\'s objects and records under a name (a snapshot of that name is replaced).',
      params: idParams,
      body: {
        type: 'object', required: ['name'], additionalProperties: false,
        properties: { name: { type: 'string', description: '1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.' } },
        examples: [{ name: 'before-import' }],
      },
      response: { 201: snapshotSchema },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    return reply.code(201).send(await state.snapshot(id, (request.body as { name: string }).name));
  });

  scope.post('/organizations/:id/snapshots/:name/restore', {
    schema: {
      operationId: 'restoreSnapshot', tags: ['fixtures'],
      summary: 'Replace the organization\'s objects and records with the snapshot\'s, at once for every request; users, roles, tokens and plan stay.',
      description: 'Waits for the organization\'s requests under way; its requests arriving meanwhile wait for the restore.',
      params: snapshotParams,
      response: { 204: { type: 'null', description: 'Restored.' } },
    },
  }, async (request, reply) => {
    const { id, name } = request.params as { id: string; name: string };
    await state.restore(id, name);
    return reply.code(204).send();
  });

  scope.delete('/organizations/:id/snapshots/:name', {
    schema: {
      operationId: 'deleteSnapshot', tags: ['fixtures'], summary: 'Delete a snapshot.',
      params: snapshotParams,
      response: { 204: { type: 'null', description: 'Deleted.' } },
    },
  }, async (request, reply) => {
    const { id, name } = request.params as { id: string; name: string };
    await state.deleteSnapshot(id, name);
    return reply.code(204).send();
  });

  scope.get('/organizations/:id/fixture', {
    schema: {
      operationId: 'exportOrganization', tags: ['fixtures'],
      summary: 'The organization in the fixtures format: plan, limit, roles, users with the digests of their live tokens, custom objects and fields, every record.',
      params: idParams,
      response: { 200: { type: 'object', description: 'A fixtures value with one organization (docs/fixtures.md).', additionalProperties: true } },
    },
  }, async (request) => state.export((request.params as { id: string }).id));

  scope.post('/organizations/:id/copy', {
    schema: {
      operationId: 'copyOrganization', tags: ['fixtures'],
      summary: 'A new organization made from this one as its export would make it: plan, limit, roles, users (new ids), custom objects and fields, every record (same ids), views; one new token for its primary user; no webhooks.',
      description: 'For a staging copy beside the original. Its users keep their e-mails and roles under new ids, and the records\' lookups to users follow them; the original\'s tokens stay the original\'s, so the copy\'s primary user gets one token, shown once. Webhooks are not copied, so the copy sends nothing to the original\'s receivers. A reset of the copy returns it to the state it was copied in.',
      params: idParams,
      body: {
        type: ['object', 'null'], additionalProperties: false,
        properties: { name: { type: 'string', description: 'The copy\'s name (default: the original\'s, with " (copy)").' } },
        examples: [{ name: 'Acme (staging)' }],
      },
      response: {
        201: {
          type: 'object', required: ['organization', 'token'],
          properties: {
            organization: loadedSchema,
            token: { type: 'string', description: 'The token of the copy\'s primary user, shown once.' },
          },
        },
      },
    },
  }, async (request, reply) => {
    const body = request.body as { name?: string } | null | undefined;
    return reply.code(201).send(await state.copy((request.params as { id: string }).id, body?.name));
  });

  scope.post('/fixtures', {
    schema: {
      operationId: 'loadFixtures', tags: ['fixtures'],
      summary: 'Load a fixtures value: each organization whose id is not taken is created; one that exists is left as it is.',
      body: fixturesBody,
      response: {
        200: {
          type: 'object', required: ['organizations'],
          properties: {
            organizations: {
              type: 'array',
              items: loadedSchema,
            },
          },
        },
      },
    },
  }, async (request) => ({ organizations: await state.load(request.body, (rules) => rules.forEach((rule) => toolkit.faults.addOnce(rule))) }));
};
