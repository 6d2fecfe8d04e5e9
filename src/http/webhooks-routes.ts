// Webhooks (docs/webhooks.md) as a plugin: an organization's webhooks listed, made, read, deleted,
// enabled again and given a new secret, and each one's delivery log; admin role only. Replies in the {success, data,
// message} envelope, errors as {Message}.

import type { FastifyPluginAsync } from 'fastify';
import type { WebhookService } from '../service/webhook-service.js';
import { DELIVERY_STATES, TEST_EVENT, WEBHOOK_EVENTS, WEBHOOK_METHODS, type DeliveryState } from '../webhooks/webhook-types.js';
import { DELIVERY_PAGE, HEADER_MASK, ROTATION_HOURS } from '../webhooks/webhook-admin.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { commonErrors, envelopeOf, errorReply, tokenQuery, tokenSecurity } from './schemas.js';

const str = { type: 'string' } as const;
const nullableStr = { type: 'string', nullable: true } as const;

export const webhookSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The webhook\'s id, a UUID.' },
    event: { type: 'string', enum: [...WEBHOOK_EVENTS] },
    object: { type: 'string', nullable: true, description: 'The object\'s system name; null: every object.' },
    objectType: { type: 'integer', nullable: true },
    url: str,
    method: { type: 'string', enum: [...WEBHOOK_METHODS] },
    filter: { type: 'string', nullable: true, description: 'The filter the record must match (filter language of /api/query); null: every record.' },
    headers: {
      type: 'object', additionalProperties: { type: 'string' },
      description: `Header fields sent with each delivery, their values masked: ${HEADER_MASK.mark}, followed by the last four characters of a value of ${HEADER_MASK.showLastFrom} or more (deliveries send them whole).`,
    },
    createdAt: { type: 'string', format: 'date-time' },
    status: { type: 'string', enum: ['active', 'disabled'], description: 'disabled: it failed for too long (docs/webhooks.md); POST …/enable makes it active again.' },
    disabledAt: { type: 'string', format: 'date-time', nullable: true },
    failures: { type: 'integer', description: 'Failed attempts in a row since the last success.' },
    failingSince: { type: 'string', format: 'date-time', nullable: true },
    previousSecretExpiresAt: {
      type: 'string', format: 'date-time', nullable: true,
      description: 'Until when the secret the last rotation replaced signs each delivery beside the current one; null when none does.',
    },
  },
  required: ['id', 'event', 'object', 'objectType', 'url', 'method', 'filter', 'headers', 'createdAt', 'status', 'disabledAt', 'failures', 'failingSince', 'previousSecretExpiresAt'],
} as const;

export const createdSchema = {
  ...webhookSchema,
  properties: { ...webhookSchema.properties, secret: { type: 'string', description: 'The signing secret (Standard Webhooks, `whsec_…`): shown only in this reply.' } },
  required: [...webhookSchema.required, 'secret'],
} as const;

/** Nullable: a rotation may come without a body (every member has a default). */
export const rotateBody = {
  type: 'object',
  nullable: true,
  additionalProperties: false,
  description: 'How long the secret replaced keeps signing beside the new one; optional (no body: the defaults).',
  properties: {
    expiresInHours: {
      type: 'integer', minimum: 0, maximum: ROTATION_HOURS.max,
      description: `Hours the secret replaced signs each delivery beside the new one (default ${ROTATION_HOURS.default}); 0: only the new one, from now on.`,
    },
  },
  // No example: "Try it out" would send it for the example id, which names no webhook here.
} as const;

export const deliverySchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The delivery\'s id: the webhook-id header of each of its attempts.' },
    webhookId: str,
    event: { type: 'string', enum: [...WEBHOOK_EVENTS, TEST_EVENT], description: `The record's event; ${TEST_EVENT}: a test event (POST /api/webhooks/{id}/test), of no record.` },
    objectType: { type: 'integer', nullable: true, description: 'The record\'s object; null for a test event.' },
    recordId: { type: 'string', nullable: true, description: 'The record\'s id; null for a test event.' },
    sequence: { type: 'integer', nullable: true, description: 'The change log\'s number of the write (data.sequence of the body); null for a test event.' },
    state: { type: 'string', enum: [...DELIVERY_STATES], description: 'pending: waiting for its first attempt or a retry; failed: given up.' },
    attempts: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time', description: 'When the write was made.' },
    lastAttemptAt: { type: 'string', format: 'date-time', nullable: true },
    nextAttemptAt: { type: 'string', format: 'date-time', nullable: true },
    lastStatus: { type: 'integer', nullable: true, description: 'The HTTP status of the last attempt; null when it got no reply.' },
    lastError: nullableStr,
    durationMs: { type: 'number', nullable: true, description: 'How long the last attempt took.' },
    response: { type: 'string', nullable: true, description: 'The start of the last reply\'s body (1,000 characters at most).' },
  },
  required: ['id', 'webhookId', 'event', 'objectType', 'recordId', 'sequence', 'state', 'attempts', 'createdAt', 'lastAttemptAt', 'nextAttemptAt', 'lastStatus', 'lastError', 'durationMs', 'response'],
} as const;

const webhookExample = {
  event: 'created', object: 'account', url: 'https://hooks.example.com/orchard', filter: 'statecode = 1', headers: { 'X-Api-Key': 'k-1234' },
} as const;

export const createBody = {
  type: 'object',
  additionalProperties: false,
  description: 'A webhook: which event of which object, the record\'s filter, and where and how it is sent.',
  properties: {
    event: { type: 'string', enum: [...WEBHOOK_EVENTS], description: 'created, updated or deleted.' },
    object: { description: 'An object\'s system name or number; absent, null or \'*\': every object.' },
    url: { type: 'string', description: 'An absolute http(s) URL; its host must be a public address (unless WEBHOOK_ALLOW_PRIVATE=true).' },
    method: { type: 'string', description: 'POST (default), PUT or PATCH.' },
    filter: { type: 'string', description: 'A filter in the language of /api/query the record must match (needs an object; its own stored fields only).' },
    headers: { description: 'Header fields sent with each delivery: {"Name": "value"} or ["Name: value"].' },
  },
  required: ['event', 'url'],
  examples: [webhookExample],
} as const;

const idExample = '0f8fad5b-d9cb-469f-a165-70867728950e';
const idParams = { type: 'object', properties: { id: { type: 'string', description: 'The webhook\'s id.', examples: [idExample] } }, required: ['id'] } as const;
const deliveryParams = {
  type: 'object', required: ['id', 'deliveryId'],
  properties: { ...idParams.properties, deliveryId: { type: 'string', description: 'The delivery\'s id (its webhook-id header).', examples: [idExample] } },
} as const;
const query = { type: 'object', properties: tokenQuery } as const;
const pageQuery = {
  type: 'object',
  properties: {
    ...tokenQuery,
    pagesize: { type: 'integer', minimum: 1, description: `Deliveries per page (default ${DELIVERY_PAGE.default}; larger than ${DELIVERY_PAGE.max} is served as ${DELIVERY_PAGE.max}).` },
    // As the records' pages: a larger number is not counted exactly (and Infinity, its digits too many, no row offset).
    pagenumber: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The page, from 1 (default 1).' },
    state: { type: 'string', enum: [...DELIVERY_STATES], description: 'Only the deliveries in this state (default: all); pages count those only.' },
  },
} as const;

const errors = {
  ...commonErrors,
  403: errorReply('The role of the token\'s user is not admin: only the admin role manages webhooks.'),
  404: errorReply('The organization has no webhook with that id (or, on create, the object is unknown).'),
};

interface IdParams { id: string }

/**
 * What the journal masks of the routes that show a secret (docs/control-api.md § Journal): the
 * signing secret in the reply, and a `secret` the body tried to give (refused here); a create's
 * header values (often the receiver's credentials), which its reply shows masked already.
 */
const SECRET_REPLY: readonly string[][] = [['data', 'secret']];
const createSecrets = { journalSecrets: { body: [['headers'], ['secret']], reply: SECRET_REPLY } };
const rotateSecrets = { journalSecrets: { body: [['secret']], reply: SECRET_REPLY } };

/** The Location of a 201 that made a webhook (RFC 9110 § 15.3.2), as a record's create names the record. */
const webhookLocation = {
  Location: { type: 'string', description: 'The new webhook\'s API URL: {BASE_URL}/api/webhooks/{id}.' },
} as const;

export const webhooksRoutes: FastifyPluginAsync<{ webhooks: WebhookService; baseUrl: string | undefined }> = async (app, { webhooks, baseUrl }) => {
  errorReplies(app, v1ErrorBody);

  app.get('/api/webhooks', {
    schema: {
      operationId: 'listWebhooks', summary: 'The organization\'s webhooks, oldest first (admin role)',
      tags: ['webhooks'], security: tokenSecurity, querystring: query,
      response: { 200: envelopeOf({ type: 'array', items: webhookSchema }), ...errors },
    },
  }, async (request) => ok(await webhooks.list(request.identity)));

  app.post('/api/webhooks', {
    schema: {
      operationId: 'createWebhook', summary: 'Make a webhook; the reply shows its signing secret, this once (admin role)',
      tags: ['webhooks'], security: tokenSecurity, querystring: query,
      // Checked by the service, whose messages say what to fix; the document shows the members typed.
      body: { type: 'object', additionalProperties: true }, documentedBody: createBody,
      response: { 201: { ...envelopeOf(createdSchema, 'Made: the webhook with its secret; Location names it.'), headers: webhookLocation }, ...errors },
    },
    config: createSecrets,
  }, async (request, reply) => {
    const { webhook, secret } = await webhooks.create(request.identity, request.body);
    const base = baseUrl ?? `${request.protocol}://${request.host}`;
    return reply.code(201).header('location', `${base}/api/webhooks/${webhook.id}`).send(ok({ ...webhook, secret }));
  });

  app.get<{ Params: IdParams }>('/api/webhooks/:id', {
    schema: {
      operationId: 'getWebhook', summary: 'One webhook (admin role)',
      tags: ['webhooks'], security: tokenSecurity, params: idParams, querystring: query,
      response: { 200: envelopeOf(webhookSchema), ...errors },
    },
  }, async (request) => ok(await webhooks.get(request.identity, request.params.id)));

  app.delete<{ Params: IdParams }>('/api/webhooks/:id', {
    schema: {
      operationId: 'deleteWebhook', summary: 'Delete a webhook with its delivery log; its pending deliveries are not made (admin role)',
      tags: ['webhooks'], security: tokenSecurity, params: idParams, querystring: query,
      response: { 200: envelopeOf({ type: 'null' }), ...errors },
    },
  }, async (request) => {
    await webhooks.delete(request.identity, request.params.id);
    return ok(null);
  });

  app.post<{ Params: IdParams }>('/api/webhooks/:id/enable', {
    schema: {
      operationId: 'enableWebhook', summary: 'Make a webhook disabled for failing active again (admin role)',
      tags: ['webhooks'], security: tokenSecurity, params: idParams, querystring: query,
      response: { 200: envelopeOf(webhookSchema), ...errors },
    },
  }, async (request) => ok(await webhooks.enable(request.identity, request.params.id)));

  app.post<{ Params: IdParams }>('/api/webhooks/:id/rotate-secret', {
    schema: {
      operationId: 'rotateWebhookSecret',
      summary: 'Give a webhook a new signing secret, shown this once; the one replaced signs beside it for `expiresInHours` (admin role)',
      tags: ['webhooks'], security: tokenSecurity, params: idParams, querystring: query,
      // Checked by the service, whose messages say what to fix (no body: the defaults); the document shows the members typed.
      documentedBody: rotateBody,
      response: { 200: envelopeOf(createdSchema, 'The webhook with its new secret.'), ...errors },
    },
    config: rotateSecrets,
  }, async (request) => {
    const { webhook, secret } = await webhooks.rotateSecret(request.identity, request.params.id, request.body);
    return ok({ ...webhook, secret });
  });

  app.get<{ Params: IdParams; Querystring: { pagesize?: number; pagenumber?: number; state?: DeliveryState } }>('/api/webhooks/:id/deliveries', {
    schema: {
      operationId: 'listWebhookDeliveries', summary: 'A webhook\'s delivery log, newest first, of every state or of one: state, attempts, last status and error, duration (admin role)',
      tags: ['webhooks'], security: tokenSecurity, params: idParams, querystring: pageQuery,
      response: {
        200: envelopeOf({
          type: 'object',
          properties: { deliveries: { type: 'array', items: deliverySchema }, pageSize: { type: 'integer' }, pageNumber: { type: 'integer' }, isLastPage: { type: 'boolean' } },
          required: ['deliveries', 'pageSize', 'pageNumber', 'isLastPage'],
        }),
        ...errors,
      },
    },
  }, async (request) => ok(await webhooks.deliveries(request.identity, request.params.id, request.query)));

  app.post<{ Params: IdParams }>('/api/webhooks/:id/test', {
    schema: {
      operationId: 'testWebhook',
      summary: 'Send the webhook a test event (type webhook.test, of no record) through its outbox: signed, retried and logged as any delivery (admin role); 202 with it, pending; 409 WEBHOOK_DISABLED',
      tags: ['webhooks'], security: tokenSecurity, params: idParams, querystring: query,
      response: { 202: envelopeOf(deliverySchema, 'Made: the test event\'s delivery, pending.'), ...errors, 409: errorReply('The webhook is disabled for failing (WEBHOOK_DISABLED): enable it first.') },
    },
  }, async (request, reply) => reply.code(202).send(ok(await webhooks.test(request.identity, request.params.id))));

  app.post<{ Params: IdParams & { deliveryId: string } }>('/api/webhooks/:id/deliveries/:deliveryId/retry', {
    schema: {
      operationId: 'retryWebhookDelivery',
      summary: 'Send a failed delivery again: pending, due now, its attempts counted from 0 (admin role); 404 DELIVERY_NOT_FOUND, 409 DELIVERY_NOT_FAILED',
      tags: ['webhooks'], security: tokenSecurity, params: deliveryParams, querystring: query,
      response: { 200: envelopeOf(deliverySchema), ...errors, 409: errorReply('The delivery has not failed (DELIVERY_NOT_FAILED): it is pending, and will be attempted, or delivered.') },
    },
  }, async (request) => ok(await webhooks.retry(request.identity, request.params.id, request.params.deliveryId)));
};
