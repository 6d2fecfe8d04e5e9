// Control API: an organization's request journal and outbox (docs/control-api.md § Journal) — read
// with filters, and cleared.

import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { parseInstant } from '../../toolkit/clocks.js';
import type { JournalFilter } from '../../toolkit/request-journal.js';
import type { ControlRouteOptions } from './control-options.js';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The organization id.' } } } as const;

const entrySchema = {
  type: 'object',
  required: ['at', 'requestId', 'method', 'path', 'query', 'headers', 'body', 'status', 'reply', 'durationMs', 'truncated'],
  properties: {
    at: { type: 'string', format: 'date-time', description: 'The organization\'s time when the request arrived.' },
    requestId: { type: 'string' },
    method: { type: 'string' },
    path: { type: 'string' },
    query: { type: 'object', additionalProperties: true, description: 'tokenid masked.' },
    headers: { type: 'object', additionalProperties: true, description: 'tokenid and authorization masked.' },
    body: { type: 'string', nullable: true, description: 'The request body as JSON text, cut at JOURNAL_BODY_LIMIT characters.' },
    status: { type: 'integer' },
    reply: { type: 'string', nullable: true, description: 'The reply body, cut at JOURNAL_BODY_LIMIT characters.' },
    durationMs: { type: 'number' },
    truncated: { type: 'boolean' },
  },
} as const;

const messageSchema = {
  type: 'object',
  description: 'A message the server sent: a usage notice or the notice of a disabled webhook (e-mails), or an attempt of a webhook delivery.',
  required: ['kind', 'at', 'to', 'subject', 'text'],
  properties: {
    kind: { type: 'string', enum: ['usage-notice', 'webhook-disabled', 'webhook-delivery'] },
    at: { type: 'string', format: 'date-time', description: 'The organization\'s time when it was sent.' },
    to: { type: 'string', description: 'The e-mail address, or the delivery\'s URL with each query value masked (docs/webhooks.md).' },
    subject: { type: 'string', description: 'The e-mail\'s subject, or the delivery\'s event type (account.created).' },
    text: { type: 'string', description: 'The e-mail\'s text, or the delivery\'s JSON body.' },
    day: { type: 'string', description: 'usage-notice: the UTC day of the notice, YYYY-MM-DD.' },
    threshold: { type: 'integer', description: 'usage-notice: percent of the daily cap, 90 or 100.' },
    used: { type: 'integer', description: 'usage-notice: requests made that day.' },
    cap: { type: 'integer', description: 'usage-notice: the daily cap.' },
    webhookId: { type: 'string', description: 'webhook-disabled, webhook-delivery: the webhook.' },
    deliveryId: { type: 'string', description: 'webhook-delivery: the delivery (its webhook-id header).' },
    attempt: { type: 'integer', description: 'webhook-delivery: 1 for the first attempt.' },
    ok: { type: 'boolean', description: 'webhook-delivery: the receiver answered 2xx.' },
    status: { type: 'integer', nullable: true, description: 'webhook-delivery: the reply\'s status; null without a reply.' },
    error: { type: 'string', nullable: true, description: 'webhook-delivery: why the attempt failed.' },
    durationMs: { type: 'number', description: 'webhook-delivery: how long the attempt took.' },
  },
} as const;

/**
 * `filter` once its instants are read as a clock's `at` is (parseInstant): a date, or a date-time
 * UTC without a zone, is taken; one that names no instant (a 60th second) is refused rather than
 * matching nothing.
 */
function instantsChecked(filter: JournalFilter): JournalFilter {
  for (const name of ['since', 'until'] as const) {
    const text = filter[name];
    if (text !== undefined && parseInstant(text) === undefined) {
      throw new AppError('PARAM_INVALID', `Invalid query parameter '${name}': give an ISO 8601 date or date-time, UTC when it has no zone, such as 2026-03-01T23:59:30Z; got '${text}'.`);
    }
  }
  return filter;
}

export const journalRoutes: FastifyPluginAsync<ControlRouteOptions> = async (scope, { admin, toolkit, limits }) => {
  const { journal, outbox } = toolkit;
  const orgOf = async (params: unknown): Promise<string> => (await admin.requireOrganization((params as { id: string }).id)).id;

  scope.get('/organizations/:id/journal', {
    schema: {
      operationId: 'listJournal', tags: ['journal'], summary: 'The organization\'s last requests, newest first (JOURNAL_SIZE of them; none when it is 0).',
      params: idParams,
      querystring: {
        type: 'object', additionalProperties: false,
        properties: {
          method: { type: 'string', description: 'Only this method.' },
          path: { type: 'string', description: 'Only paths containing this text, in any case and whatever the percent-encoding of either (typed Hebrew or a space finds a path sent with %D7%A9 or %20).' },
          status: { type: 'string', pattern: '^([1-5]\\d\\d|[1-5][xX][xX])$', description: 'A status (404) or a class (4xx, any case).' },
          since: { type: 'string', description: 'Only requests at or after this instant: an ISO 8601 date or date-time, UTC when it has no zone (as a clock\'s `at`).' },
          until: { type: 'string', description: 'Only requests before this instant, written as `since`.' },
          limit: { type: 'integer', minimum: 1, description: 'At most this many.' },
        },
      },
      response: {
        200: {
          type: 'object', required: ['items', 'size', 'bodyLimit'],
          properties: { items: { type: 'array', items: entrySchema }, size: { type: 'integer', description: 'Requests kept per organization (JOURNAL_SIZE).' }, bodyLimit: { type: 'integer' } },
        },
      },
    },
  }, async (request) => ({
    items: journal.query(await orgOf(request.params), instantsChecked(request.query as JournalFilter)),
    size: journal.size,
    bodyLimit: journal.bodyLimit,
  }));

  scope.delete('/organizations/:id/journal', {
    schema: { operationId: 'clearJournal', tags: ['journal'], summary: 'Forgets the organization\'s journal.', params: idParams, response: { 204: { type: 'null', description: 'Cleared.' } } },
  }, async (request, reply) => {
    journal.clear(await orgOf(request.params));
    return reply.code(204).send();
  });

  scope.get('/organizations/:id/outbox', {
    schema: {
      operationId: 'listOutbox', tags: ['journal'], summary: 'The messages sent about the organization (usage notices, webhook deliveries and notices), newest first.',
      params: idParams,
      response: { 200: { type: 'object', required: ['items'], properties: { items: { type: 'array', items: messageSchema } } } },
    },
  }, async (request) => {
    const orgId = await orgOf(request.params);
    // A notice a request has decided on is sent (and recorded) a moment later: a read waits for it,
    // so a test that made the request that crossed 90 % or 100 % finds it here.
    await limits?.notices.idle();
    return { items: outbox.list(orgId) };
  });

  scope.delete('/organizations/:id/outbox', {
    schema: { operationId: 'clearOutbox', tags: ['journal'], summary: 'Forgets the organization\'s outbox (the messages stay sent).', params: idParams, response: { 204: { type: 'null', description: 'Cleared.' } } },
  }, async (request, reply) => {
    outbox.clear(await orgOf(request.params));
    return reply.code(204).send();
  });
};
