// Control API: an organization's webhooks (docs/webhooks.md, docs/control-api.md § Webhooks) made,
// listed, deleted and given a new secret by a test suite with the admin key (a fixed secret may be
// given, as in a fixtures file), their delivery logs read, and the server's delivery worker run now.

import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { DELIVERY_STATES, type DeliveryState } from '../../webhooks/webhook-types.js';
import { createBody, createdSchema, deliverySchema, rotateBody, webhookSchema } from '../webhooks-routes.js';
import type { ControlRouteOptions } from './control-options.js';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The organization id.' } } } as const;
const hookParams = {
  type: 'object', required: ['id', 'webhookId'],
  properties: { id: { type: 'string', description: 'The organization id.' }, webhookId: { type: 'string', description: 'The webhook id.' } },
} as const;

/** A body of the API's webhook routes, with the `secret` the control API lets its caller choose. */
const withChosenSecret = <B extends { properties: object }>(body: B, what: string) =>
  ({ ...body, properties: { ...body.properties, secret: { type: 'string', description: `${what}: whsec_ and the base64 of 24 to 64 bytes; made when absent.` } } }) as const;

export const webhookRoutes: FastifyPluginAsync<ControlRouteOptions> = async (scope, { admin, webhooks, toolkit }) => {
  scope.get('/organizations/:id/webhooks', {
    schema: {
      operationId: 'listWebhooks', tags: ['webhooks'], summary: 'The organization\'s webhooks, oldest first (never their secrets).',
      params: idParams, response: { 200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: webhookSchema } } } },
    },
  }, async (request) => {
    const orgId = (request.params as { id: string }).id;
    return { items: await admin.listWebhooks(orgId, new Date(toolkit.clocks.now(orgId))) };
  });

  scope.post('/organizations/:id/webhooks', {
    schema: {
      operationId: 'createWebhook', tags: ['webhooks'],
      summary: 'Makes a webhook as POST /api/webhooks does; `secret` may fix its signing secret (whsec_…), as a fixtures file may.',
      params: idParams,
      body: withChosenSecret(createBody, 'The signing secret'),
      response: { 201: createdSchema },
    },
  }, async (request, reply) => {
    const orgId = (request.params as { id: string }).id;
    // Made at the organization's time, as through /api/webhooks.
    const { webhook, secret } = await admin.createWebhook({ orgId, definition: request.body, allowPrivate: webhooks.allowPrivate, allowSecret: true, now: new Date(toolkit.clocks.now(orgId)) });
    return reply.code(201).send({ ...webhook, secret });
  });

  scope.delete('/organizations/:id/webhooks/:webhookId', {
    schema: { operationId: 'deleteWebhook', tags: ['webhooks'], summary: 'Deletes a webhook with its delivery log.', params: hookParams, response: { 204: { type: 'null', description: 'Deleted.' } } },
  }, async (request, reply) => {
    const { id, webhookId } = request.params as { id: string; webhookId: string };
    await admin.deleteWebhook(id, webhookId);
    return reply.code(204).send();
  });

  scope.post('/organizations/:id/webhooks/:webhookId/enable', {
    schema: { operationId: 'enableWebhook', tags: ['webhooks'], summary: 'Makes a webhook disabled for failing active again (its failures forgotten); one that is active stays so.', params: hookParams, response: { 200: webhookSchema } },
  }, async (request) => {
    const { id, webhookId } = request.params as { id: string; webhookId: string };
    return admin.enableWebhook(id, webhookId, new Date(toolkit.clocks.now(id)));
  });

  scope.post('/organizations/:id/webhooks/:webhookId/rotate-secret', {
    schema: {
      operationId: 'rotateWebhookSecret', tags: ['webhooks'],
      summary: 'Gives a webhook a new signing secret as POST /api/webhooks/{id}/rotate-secret does, on the organization\'s clock; `secret` may choose it (whsec_…), as at creation.',
      params: hookParams,
      body: withChosenSecret(rotateBody, 'The new signing secret'),
      response: { 200: createdSchema },
    },
  }, async (request) => {
    const { id, webhookId } = request.params as { id: string; webhookId: string };
    const { webhook, secret } = await admin.rotateWebhookSecret({ orgId: id, id: webhookId, body: request.body, allowSecret: true, now: new Date(toolkit.clocks.now(id)) });
    return { ...webhook, secret };
  });

  scope.get('/organizations/:id/webhooks/:webhookId/deliveries', {
    schema: {
      operationId: 'listWebhookDeliveries', tags: ['webhooks'], summary: 'A webhook\'s delivery log, newest first.',
      params: hookParams,
      querystring: {
        type: 'object', additionalProperties: false,
        properties: {
          limit: { type: 'integer', minimum: 1, maximum: 1000, description: 'At most this many (default 50).' },
          state: { type: 'string', enum: [...DELIVERY_STATES], description: 'Only the deliveries in this state (default: all).' },
        },
      },
      response: { 200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: deliverySchema } } } },
    },
  }, async (request) => {
    const { id, webhookId } = request.params as { id: string; webhookId: string };
    const { limit, state } = request.query as { limit?: number; state?: DeliveryState };
    return { items: await admin.webhookDeliveries(id, webhookId, { limit: limit ?? 50, offset: 0, ...(state ? { state } : {}) }) };
  });

  scope.post('/organizations/:id/webhooks/:webhookId/test', {
    schema: {
      operationId: 'testWebhook', tags: ['webhooks'],
      summary: 'Sends the webhook a test event, as POST /api/webhooks/{id}/test does: 202 with its delivery, pending, made on the organization\'s clock (409 WEBHOOK_DISABLED for a disabled webhook).',
      params: hookParams, response: { 202: deliverySchema },
    },
  }, async (request, reply) => {
    const { id, webhookId } = request.params as { id: string; webhookId: string };
    return reply.code(202).send(await admin.testWebhook(id, webhookId, new Date(toolkit.clocks.now(id))));
  });

  scope.post('/organizations/:id/webhooks/:webhookId/deliveries/:deliveryId/retry', {
    schema: {
      operationId: 'retryWebhookDelivery', tags: ['webhooks'],
      summary: 'Sends a failed delivery again, as POST /api/webhooks/{id}/deliveries/{deliveryId}/retry does: pending, due now on the organization\'s clock, its attempts from 0.',
      params: { ...hookParams, required: [...hookParams.required, 'deliveryId'], properties: { ...hookParams.properties, deliveryId: { type: 'string', description: 'The delivery id.' } } },
      response: { 200: deliverySchema },
    },
  }, async (request) => {
    const { id, webhookId, deliveryId } = request.params as { id: string; webhookId: string; deliveryId: string };
    return admin.retryDelivery(id, webhookId, deliveryId, new Date(toolkit.clocks.now(id)));
  });

  scope.post('/webhooks/flush', {
    schema: {
      operationId: 'flushWebhooks', tags: ['webhooks'],
      summary: 'Attempts every delivery that is due now (on each organization\'s clock: move it to bring retries forward) and answers once they are recorded.',
      description: 'A server started with WEBHOOK_DELIVER=false attempts no deliveries: it answers 409 WEBHOOKS_NOT_DELIVERED_HERE.',
      response: { 204: { type: 'null', description: 'Done.' } },
    },
  }, async (_request, reply) => {
    if (!webhooks.worker) throw new AppError('WEBHOOKS_NOT_DELIVERED_HERE', 'This server was started with WEBHOOK_DELIVER=false: it writes deliveries but attempts none. Flush on a server that delivers them (WEBHOOK_DELIVER=true, the default) on the same database.');
    await webhooks.worker.idle();
    return reply.code(204).send();
  });
};
