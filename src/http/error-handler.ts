// Where errors become replies. Each route family's plugin scope answers its errors in its own
// shape (errorReplies): `{Message}` for the v1, v2 and metadata routes (docs/api.md), `{status, error,
// message}` for the v3 family (docs/compat.md). AppError codes map to their status; Fastify's own errors are
// translated to catalogue codes; anything else is a 500 that reveals nothing but the request id.
// Every error reply carries its catalogue code in X-Error-Code. A request whose client went away gets
// no reply and is no failure (client-closed.ts).

import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError, retryAfterOf } from '../errors.js';
import { clientClosed, logClosedWork } from './client-closed.js';
import { closeAfterReply } from './lingering-close.js';

/** The body of an error reply in a route family's shape. */
export type ErrorShape = (err: AppError) => object;

/** `{Message}`: every route but the v3 family (docs/api.md). */
export const v1ErrorBody: ErrorShape = (err) => ({ Message: err.message });

/** An error as v3 clients read it: `{status, error, message}` (also each failed item of a v3 batch). */
export function v3ErrorBody(err: AppError): { status: number; error: string; message: string } {
  return { status: err.status, error: STATUS_CODES[err.status] ?? 'Error', message: err.message };
}

/** Fastify error codes that are the client's fault, and the catalogue code each becomes. */
function fromFastify(err: FastifyError): AppError | undefined {
  if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
    return new AppError('BODY_TOO_LARGE', 'The request body is over the 20 MB limit. Send fewer records per request.');
  }
  if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || err instanceof SyntaxError) {
    return new AppError('BODY_INVALID', 'The request body is not valid JSON. Check your data.');
  }
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError('BODY_INVALID', `The request could not be read: ${err.message}`);
  }
  return undefined;
}

/** On an AppError a fault rule forced (toolkit-hooks.ts): the rule's id. Its reply is the real one's; its log line says it was forced. */
export const FORCED_BY = Symbol('forced by a fault rule');

/** The one 500 reply: it names the request id to report and nothing of the failure. */
export function internalError(requestId: string): AppError {
  return new AppError('INTERNAL', `The server failed to handle this request. Check your data and try again; if it keeps failing, report request id ${requestId}.`);
}

export function sendError(reply: FastifyReply, err: AppError, shape: ErrorShape): FastifyReply {
  // A request answered 408 at the time limit may still fail afterwards as its work is stopped.
  if (reply.sent) return reply;
  // Refused after its body began to be read but before it ended (an upload or import past the
  // size limit), or refused for its size: the rest is never parsed, so the connection closes after
  // the reply (lingering-close.ts); kept alive, a client still sending would wait on a server that no
  // longer reads. A body not read at all (a 401 or 429 before it) Node reads and drops itself,
  // keeping the connection.
  const raw = reply.request.raw;
  if (!raw.readableEnded && (raw.readableDidRead || err.code === 'BODY_TOO_LARGE')) closeAfterReply(reply);
  // A failure that passes by itself says when to retry, unless the reply already does (a fault rule's retryAfter).
  const retryAfter = retryAfterOf(err.code);
  if (retryAfter !== undefined && !reply.hasHeader('retry-after')) reply.header('retry-after', String(retryAfter));
  return reply.code(err.status).header('x-error-code', err.code).type('application/json; charset=utf-8').send(shape(err));
}

/**
 * The database's outages as the log tells them: one error line when a request first finds it
 * unreachable, a warning without a stack for each request refused during it, and one info line
 * when a request is served again. Per server (the http.Server every scope of an app shares).
 */
const outages = new WeakMap<object, { readonly since: number; refused: number }>();
let outagesOpen = 0;

function logStoreUnavailable(request: FastifyRequest, error: AppError): void {
  const key = request.server.server;
  const outage = outages.get(key);
  if (outage) {
    outage.refused++;
    request.log.warn({ code: error.code }, 'request refused: the database cannot be reached');
    return;
  }
  outages.set(key, { since: Date.now(), refused: 1 });
  outagesOpen++;
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  request.log.error({ code: error.code, cause }, 'the database cannot be reached: requests that need it are answered 503 until it answers again');
}

/** The onResponse hook that tells the end of an outage: the first reply under 500 after it began. */
export function storeOutageEnd(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (outagesOpen > 0 && reply.statusCode < 500) {
    const key = request.server.server;
    const outage = outages.get(key);
    if (outage) {
      outages.delete(key);
      outagesOpen--;
      request.log.info({ outageMs: Date.now() - outage.since, refused: outage.refused }, 'the database answers again');
    }
  }
  done();
}

/** What a 404 of an unknown path points to: the routes of the family it was asked of. */
const DEFAULT_ROUTES_HINT = 'The record routes are /api/record/{object} and /api/record/{object}/{id}; see /docs for all routes.';

function notFoundError(request: FastifyRequest, hint: string): AppError {
  const path = request.url.split('?')[0];
  return new AppError('ROUTE_NOT_FOUND', `No route matches ${request.method} ${path}. ${hint}`);
}

function methodNotAllowed(request: FastifyRequest, allowed: readonly string[]): AppError {
  const path = request.url.split('?')[0];
  return new AppError('METHOD_NOT_ALLOWED', `${path} does not take ${request.method}; it takes ${allowed.join(', ')} (listed in the Allow header).`);
}

/** v3 paths, doubled slashes and all: their errors are v3's wherever they are answered. */
const V3_PATH = /^\/+api\/+v3(?:[/?]|$)/i;

/**
 * The error shape of a request no route family has taken: v3's under /api/v3, else `{Message}`.
 * Fastify's not-found scopes, unlike its routes, do not collapse doubled slashes, so
 * `//api/v3/nothing` (a base URL with a trailing slash) reaches the root's handler.
 */
export function errorBodyOfPath(path: string): ErrorShape {
  return V3_PATH.test(path) ? v3ErrorBody : v1ErrorBody;
}

/**
 * Makes `scope` (a route family's plugin, or the root) answer its errors, and requests for routes
 * it does not have under its prefix, in `shape`, or in the shape `shapeOf` picks for the request.
 */
export function errorReplies(
  scope: FastifyInstance,
  shape: ErrorShape,
  options: { notFound?: boolean; routesHint?: string; shapeOf?: (request: FastifyRequest) => ErrorShape } = {},
): void {
  const shapeOf = options.shapeOf ?? (() => shape);
  scope.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const shape = shapeOf(request);
    // Nothing can be answered, and the failure is the work stopping: the request is logged as closed.
    if (clientClosed(reply)) {
      logClosedWork(request, error);
      return;
    }
    const known = isAppError(error) ? error : fromFastify(error);
    const fault = (error as { [FORCED_BY]?: string })[FORCED_BY];
    if (known && fault !== undefined) {
      // Asked for by a test, not a failure of the server: no error line, no stack.
      request.log.info({ fault, code: known.code, res: { statusCode: known.status } }, 'forced failure sent');
      return sendError(reply, known, shape);
    }
    if (known) {
      if (known.code === 'STORE_UNAVAILABLE') logStoreUnavailable(request, known);
      else if (known.status >= 500) request.log.error({ err: error }, 'request failed');
      // The client's request took too long (or its work did): a warning, without a stack; logged
      // once, not again when the work stopped at the limit fails after the reply.
      else if (known.code === 'REQUEST_TIMEOUT' && !reply.sent) request.log.warn({ code: known.code }, 'request stopped at the time limit');
      return sendError(reply, known, shape);
    }
    request.log.error({ err: error }, 'unexpected failure');
    return sendError(reply, internalError(request.id), shape);
  });
  if (options.notFound) {
    scope.setNotFoundHandler((request, reply) => {
      const shape = shapeOf(request);
      // A path that exists with other methods: 405 with Allow, in the scope's shape.
      const allowed = request.server.allowedMethods?.(request.url) ?? [];
      if (allowed.length === 0) return sendError(reply, notFoundError(request, options.routesHint ?? DEFAULT_ROUTES_HINT), shape);
      reply.header('allow', allowed.join(', '));
      return sendError(reply, methodNotAllowed(request, allowed), shape);
    });
  }
}

/**
 * Errors Fastify raises before routing (a path with malformed percent-encoding, a path segment over
 * the router's length limit): without this they get Fastify's own body and no X-Request-Id. No
 * scope is known yet, so the shape is the path's.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  const shape = errorBodyOfPath(request.url);
  if (error.code === 'FST_ERR_BAD_URL') {
    sendError(reply, new AppError('PARAM_INVALID', 'The request path is not a valid URL: it has a malformed percent-encoding. Encode path segments with encodeURIComponent.'), shape);
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendError(reply, new AppError('PARAM_INVALID', 'A path segment is too long to be an object name or a record id. Check the path.'), shape);
  } else {
    request.log.error({ err: error }, 'router failure');
    sendError(reply, internalError(request.id), shape);
  }
}
