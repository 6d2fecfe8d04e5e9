// Control API: organizations — list, create (with its primary user and a token), change plan and limit, delete.

import type { FastifyPluginAsync } from 'fastify';
import { organizationSummary } from '../../admin/admin-service.js';
import { PLAN_NAMES } from '../../auth/plans.js';
import { usageReply, usageSchema } from '../account-routes.js';
import type { ControlRouteOptions } from './control-options.js';

const organizationSchema = {
  type: 'object',
  required: ['id', 'name', 'plan', 'minuteLimit', 'primaryUserId', 'createdAt'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    plan: { type: 'string', enum: [...PLAN_NAMES] },
    minuteLimit: { type: 'integer', description: 'Requests per rolling minute (the default when not set for the organization).' },
    primaryUserId: { type: 'string', nullable: true },
    createdAt: { type: 'string', format: 'date-time' },
  },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The organization id.' } } } as const;

export const organizationRoutes: FastifyPluginAsync<ControlRouteOptions> = async (scope, { admin, state, limits, toolkit }) => {
  scope.get('/organizations', {
    schema: {
      operationId: 'listOrganizations', tags: ['organizations'], summary: 'Every organization of the server.',
      response: { 200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: organizationSchema } } } },
    },
  }, async () => ({ items: (await admin.listOrganizations()).map(organizationSummary) }));

  scope.post('/organizations', {
    schema: {
      operationId: 'createOrganization', tags: ['organizations'],
      summary: 'Create an organization with its primary user (role admin) and a token for that user; the token is shown only in this reply.',
      body: {
        type: 'object', required: ['name', 'email'], additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1 },
          email: { type: 'string', description: 'The primary user\'s e-mail; usage notices go there.' },
          plan: { type: 'string', enum: [...PLAN_NAMES], default: 'free' },
          minuteLimit: { type: 'integer', minimum: 1 },
        },
        examples: [{ name: 'Acme', email: 'ops@acme.example', plan: 'standard' }],
      },
      response: {
        201: {
          type: 'object', required: ['organization', 'userId', 'token'],
          properties: { organization: organizationSchema, userId: { type: 'string' }, token: { type: 'string', description: 'Shown once.' } },
        },
      },
    },
  }, async (request, reply) => {
    const body = request.body as { name: string; email: string; plan?: string; minuteLimit?: number };
    const r = await admin.createOrganization({ name: body.name, email: body.email, plan: body.plan ?? 'free', minuteLimit: body.minuteLimit ?? null });
    return reply.code(201).send({ organization: organizationSummary(r.org), userId: r.user.id, token: r.token });
  });

  scope.patch('/organizations/:id', {
    schema: {
      operationId: 'updateOrganization', tags: ['organizations'], summary: 'Change an organization\'s plan and/or minute limit; applied from its next request.',
      params: idParams,
      body: {
        type: 'object', additionalProperties: false, minProperties: 1,
        properties: { plan: { type: 'string', enum: [...PLAN_NAMES] }, minuteLimit: { type: 'integer', minimum: 1 } },
      },
      response: { 200: organizationSchema },
    },
  }, async (request) => {
    const { id } = request.params as { id: string };
    const body = request.body as { plan?: string; minuteLimit?: number };
    return organizationSummary(await admin.updateOrganization({ id, ...body }));
  });

  scope.get('/organizations/:id/usage', {
    schema: {
      operationId: 'getOrganizationUsage', tags: ['organizations'],
      summary: 'The organization\'s use of its limits (as GET /api/usage answers its token): the minute and day windows, the requests of the last 30 days, the usage notices.',
      params: idParams,
      response: { 200: usageSchema },
    },
  }, async (request) => {
    const org = await admin.requireOrganization((request.params as { id: string }).id);
    return usageReply(limits, org, toolkit.clocks.movedNow(org.id));
  });

  scope.delete('/organizations/:id', {
    schema: {
      operationId: 'deleteOrganization', tags: ['organizations'],
      summary: 'Delete an organization for good: its users, tokens, roles and records, and its clock, fault rules, journal and outbox. Its tokens are refused from the next request; its requests under way are waited for, and those not yet begun (held by a fault rule\'s latency) fail 401 TOKEN_INVALID.',
      params: idParams,
      response: { 200: { type: 'object', required: ['id', 'name', 'deleted'], properties: { id: { type: 'string' }, name: { type: 'string' }, deleted: { type: 'boolean' } } } },
    },
  }, async (request) => {
    const org = await state.delete((request.params as { id: string }).id);
    // What this process holds of it goes too: a fixture loaded again makes an organization of the
    // same id, which would otherwise start on the old clock, under the old rules (a count half used).
    toolkit.clocks.real(org.id);
    toolkit.faults.clear(org.id);
    toolkit.journal.forget(org.id);
    toolkit.outbox.forget(org.id);
    return { id: org.id, name: org.name, deleted: true };
  });
};
