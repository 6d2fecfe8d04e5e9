// The change feed (docs/history.md) as a plugin: GET /api/changes pages through the organization's
// change log after a cursor, in the records routes' reply shapes. The service runs it.

import type { FastifyPluginAsync } from 'fastify';
import { FEED_PAGE_MAX, FEED_PAGE_SIZE, type FeedQuery } from '../service/service.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { changeEntrySchema, commonErrors, envelopeOf, errorReply, objParam, tokenQuery, tokenSecurity } from './schemas.js';

const feedQuery = {
  type: 'object',
  properties: {
    since: {
      type: 'string',
      description: 'Where to start: the Cursor of the previous page; `now` for no entries and a cursor at the end of the log (take it before reading the records to start a sync); absent, from the oldest entry kept.',
      examples: ['now'],
    },
    objecttype: { ...objParam, description: `Only this object's entries (system name or number); every object you may read when absent. Not crmuser, whose records are never logged (400).` },
    pagesize: { type: 'integer', minimum: 1, description: `Entries per page; default ${FEED_PAGE_SIZE}; larger values are served as ${FEED_PAGE_MAX}.` },
    ...tokenQuery,
  },
} as const;

const feedPayload = {
  type: 'object',
  properties: {
    Entries: { type: 'array', items: changeEntrySchema, description: 'Oldest first; of the objects you may read, their hidden fields left out.' },
    Cursor: { type: 'string', description: 'Opaque: send it as `since` for the entries after these. Stable across restarts and processes.' },
    HasMore: { type: 'boolean', description: 'true when more entries follow already: ask again at once; false when the log was read to its end.' },
  },
  required: ['Entries', 'Cursor', 'HasMore'],
} as const;

export const changesRoutes: FastifyPluginAsync<RouteFamilyOptions> = async (app, { service }) => {
  errorReplies(app, v1ErrorBody);

  app.get<{ Querystring: FeedQuery }>('/api/changes', {
    schema: {
      operationId: 'listChanges',
      summary: 'The change feed: the organization\'s writes after a cursor, oldest first',
      description: 'Every create, update and delete of records (API, imports, fixtures, the CLI), each once and in the order the writes committed, with a cursor for the next page. A client that follows the cursor misses nothing and sees nothing twice. A cursor whose entries are no longer kept (older than the retention, or the organization was restored or reset) answers 410 CHANGES_CURSOR_EXPIRED: read the records again.',
      tags: ['records'],
      security: tokenSecurity,
      querystring: feedQuery,
      response: {
        200: envelopeOf(feedPayload, 'One page of the feed and the cursor to follow.'),
        ...commonErrors,
        400: errorReply('Invalid request: `since` is not a cursor of this server (CHANGES_CURSOR_INVALID), pagesize is not a whole number ≥ 1, or objecttype is crmuser, whose records are never logged (PARAM_INVALID).'),
        410: errorReply('The cursor can no longer be followed (CHANGES_CURSOR_EXPIRED): read the records again and follow a new cursor from since=now.'),
      },
    },
  }, async (request) => {
    const { entries, cursor, hasMore } = await service.changes(request.identity, request.query);
    return ok({ Entries: entries, Cursor: cursor, HasMore: hasMore });
  });
};
