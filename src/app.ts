// buildApp(deps) → a Fastify instance with every route, hook and error mapping; it never
// listens (server.ts does), so tests drive it with inject().

import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Authenticator } from './auth/authenticator.js';
import type { Config } from './config.js';
import { AppError } from './errors.js';
import { authHook } from './http/auth-hook.js';
import { errorReplies, frameworkErrorHandler, v1ErrorBody } from './http/error-handler.js';
import { installLimits, limitedAuthHook } from './http/limits-hook.js';
import { queryRoutes } from './http/query-routes.js';
import { metadataRoutes } from './http/metadata-routes.js';
import { recordsRoutes } from './http/records-routes.js';
import { transferRoutes } from './http/transfer-routes.js';
import { v2Routes } from './http/v2-routes.js';
import { v3Routes } from './http/v3-routes.js';
import { clientErrorHandler } from './http/client-errors.js';
import { installJsonBodies } from './http/json-body.js';
import { installHealthRoutes, type ReadinessCheck } from './http/health-routes.js';
import { installMetrics } from './http/metrics.js';
import { installRequestLimit } from './http/request-limit.js';
import type { AppDeps, RouteFamilyOptions } from './http/app-deps.js';
import { Service } from './service/service.js';

/** The spec's request size limit (§8): 20 MB, counted as 20 MiB. */
export const BODY_LIMIT = 20 * 1024 * 1024;

/** How much longer than the request time limit a socket may take to deliver its request: 5 s, less for a shorter limit. */
const socketMarginMs = (limitMs: number): number => Math.min(5_000, limitMs);

/** A client-sent X-Request-Id is kept when it is short and plain, so callers can trace their own ids. */
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? { level: deps.config.logLevel },
    bodyLimit: BODY_LIMIT,
    routerOptions: { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
    },
    schemaErrorFormatter: (errors, dataVar) => {
      const e = errors[0];
      const where = e?.instancePath ? e.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
      const what = `${where ? `'${where}' ` : ''}${e?.message ?? 'is invalid'}`;
      return dataVar === 'body'
        ? new AppError('BODY_INVALID', `The request body is invalid: ${what}. Check your data.`)
        : new AppError('PARAM_INVALID', `Invalid ${dataVar === 'querystring' ? 'query parameter' : 'path parameter'} ${what}.`);
    },
    ajv: { customOptions: { coerceTypes: true, allErrors: false } },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // No request holds a socket past the time limit plus a margin: a client that sends its header
    // fields or body too slowly is answered 408 and cut. Connections are checked every second
    // (Node's default is every 30 s); idle keep-alive connections are not requests and stay.
    requestTimeout: deps.config.requestTimeoutMs + socketMarginMs(deps.config.requestTimeoutMs),
    http: {
      headersTimeout: deps.config.requestTimeoutMs + socketMarginMs(deps.config.requestTimeoutMs),
      connectionsCheckingInterval: 1000,
      // Checked below, so that the 400 has the API's shape (Node's own has no body).
      requireHostHeader: false,
    },
  });

  // Hooks that never wait take `done` rather than return a promise: each promise is a hop through
  // the microtask queue on every request (bench/get-record).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // HTTP/1.1 requires Host (RFC 9112 §3.2); HTTP/1.0 clients may leave it out.
    if (request.raw.httpVersionMinor === 1 && request.headers.host === undefined) {
      reply.header('connection', 'close');
      done(new AppError('REQUEST_MALFORMED', 'The request is not valid HTTP/1.1: it has no Host header field. Send Host with the server\'s name.'));
      return;
    }
    done();
  });
  installRequestLimit(app, deps.config.requestTimeoutMs);
  const metrics = installMetrics(app, deps.config, deps.records);

  installJsonBodies(app);

  // Outside every route family (unknown routes, /docs): `{Message}`.
  errorReplies(app, v1ErrorBody, { notFound: true });
  // Response schemas document the replies (OpenAPI); the replies are built to those shapes by
  // the handlers. Records have open-ended fields, where Fastify's generated serializers are about
  // four times slower than JSON.stringify, so every reply is plain JSON.stringify.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Orchard — Records and Query API',
        description: 'Records grouped by object type: paginated reads, queries, writes. Every request carries an API token in the tokenid header.',
        version: '0.1.0',
      },
      ...(deps.config.baseUrl ? { servers: [{ url: deps.config.baseUrl }] } : {}),
      components: { securitySchemes: { tokenid: { type: 'apiKey', in: 'header', name: 'tokenid' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  const auth = new Authenticator(deps.control, deps.clock);
  const limits = installLimits(app, deps, metrics?.noticeSent);
  // Outside the route families: no token, no rate limit.
  const checks: ReadinessCheck[] = [
    { name: 'control', check: () => deps.control.ping() },
    { name: 'records', check: () => deps.records.ping() },
  ];
  if (limits) checks.push({ name: deps.config.redisUrl ? 'redis' : 'counters', check: () => limits.store.ping() });
  installHealthRoutes(app, checks);
  const families: RouteFamilyOptions = { service: new Service(deps), baseUrl: deps.config.baseUrl };
  // The route families share the token check and the limits; each answers its errors in its shape.
  await app.register(async (api) => {
    api.addHook('onRequest', limits ? limitedAuthHook(authHook(auth), limits) : authHook(auth));
    await api.register(recordsRoutes, families);
    await api.register(transferRoutes, families);
    await api.register(queryRoutes, families);
    await api.register(metadataRoutes, families);
    await api.register(v2Routes, families);
    await api.register(v3Routes, { ...families, prefix: '/api/v3' });
  });

  return app;
}
