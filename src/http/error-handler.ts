// The one place errors become replies: AppError codes map to their status and a `{Message}`
// body; Fastify's own errors are translated to catalogue codes; anything else is a 500 that
// reveals nothing but the request id.

import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors.js';

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

/** The one 500 reply: it names the request id to report and nothing of the failure. */
function internalError(requestId: string): AppError {
  return new AppError('INTERNAL', `The server failed to handle this request. Check your data and try again; if it keeps failing, report request id ${requestId}.`);
}

/** v3 routes answer errors as `{status, error, message}` (COMPAT: their clients show `message`). */
const V3_PATH = /^\/+api\/+v3(?:[/?]|$)/i;

/** The error body: `{Message}` (DESIGN §3), or on v3 routes `{status, error, message}`. */
export function errorBodyOf(url: string, err: AppError): object {
  return V3_PATH.test(url) ? v3ErrorBody(err) : { Message: err.message };
}

/** An error as v3 clients read it: `{status, error, message}` (also each failed item of a v3 batch). */
export function v3ErrorBody(err: AppError): { status: number; error: string; message: string } {
  return { status: err.status, error: STATUS_CODES[err.status] ?? 'Error', message: err.message };
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  // A request answered 408 at the time limit may still fail afterwards as its work is stopped.
  if (reply.sent) return reply;
  return reply.code(err.status).type('application/json; charset=utf-8').send(errorBodyOf(reply.request.url, err));
}

/**
 * Errors Fastify raises before routing (a path with malformed percent-encoding, a path segment over
 * the router's length limit): without this they get Fastify's own body and no X-Request-Id.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    sendError(reply, new AppError('PARAM_INVALID', 'The request path is not a valid URL: it has a malformed percent-encoding. Encode path segments with encodeURIComponent.'));
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    sendError(reply, new AppError('PARAM_INVALID', 'A path segment is too long to be an object name or a record id. Check the path.'));
  } else {
    request.log.error({ err: error }, 'router failure');
    sendError(reply, internalError(request.id));
  }
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = isAppError(error) ? error : fromFastify(error);
    if (known) {
      if (known.status >= 500) request.log.error({ err: error }, 'request failed');
      return sendError(reply, known);
    }
    request.log.error({ err: error }, 'unexpected failure');
    return sendError(reply, internalError(request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return sendError(reply, new AppError('ROUTE_NOT_FOUND', `No route matches ${request.method} ${path}. The record routes are /api/record/{object} and /api/record/{object}/{id}; see /docs for all routes.`));
  });
}
