// buildApp(deps) → a Fastify instance with every route, hook and error mapping; it never
// listens (server.ts does), so tests drive it with inject().

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import { trackAllowedMethods } from './http/allowed-methods.js';
import { installDecimalQueryNumbers } from './http/query-numbers.js';
import { schemaErrorFormatter } from './http/schema-errors.js';
import { Authenticator } from './auth/authenticator.js';
import type { Config } from './config.js';
import { AppError } from './errors.js';
import { authHook } from './http/auth-hook.js';
import { errorBodyOfPath, errorReplies, frameworkErrorHandler, storeOutageEnd, v1ErrorBody } from './http/error-handler.js';
import { deferredLimitsHook, installLimits, limitedAuthHook } from './http/limits-hook.js';
import { queryRoutes } from './http/query-routes.js';
import { metadataRoutes } from './http/metadata-routes.js';
import { recordsRoutes } from './http/records-routes.js';
import { changesRoutes } from './http/changes-routes.js';
import { transferRoutes } from './http/transfer-routes.js';
import { v2Routes } from './http/v2-routes.js';
import { filesRoutes } from './http/files-routes.js';
import { v3Routes } from './http/v3-routes.js';
import { viewsRoutes } from './http/views-routes.js';
import { accountRoutes } from './http/account-routes.js';
import { DEFAULT_CONSOLE_DIR, installConsole } from './http/console-routes.js';
import { clientErrorHandler } from './http/client-errors.js';
import { installClientClosed } from './http/client-closed.js';
import { closeAfterReply, serveInTurn } from './http/lingering-close.js';
import { installJsonBodies } from './http/json-body.js';
import { withOptionalBodies } from './http/schemas.js';
import { installHealthRoutes, type ReadinessCheck } from './http/health-routes.js';
import { installMetrics, type AppMetrics } from './http/metrics.js';
import { installRequestLimit } from './http/request-limit.js';
import { loggerOptions } from './http/log-options.js';
import type { AppDeps, RouteFamilyOptions } from './http/app-deps.js';
import { Service } from './service/service.js';
import { gatedService, OrgGate } from './service/org-gate.js';
import { OrganizationState } from './fixtures/organization-state.js';
import { AdminService } from './admin/admin-service.js';
import { CONTROL_PREFIX, controlApi } from './http/control/control-api.js';
import { LICENSE, VERSION } from './version.js';
import { Clocks } from './toolkit/clocks.js';
import { FaultRules } from './toolkit/fault-rules.js';
import { Outbox, RequestJournal } from './toolkit/request-journal.js';
import { faultHook, installJournal } from './http/toolkit-hooks.js';

import type { Toolkit } from './toolkit/toolkit.js';
import { webhooksRoutes } from './http/webhooks-routes.js';
import { WebhookService } from './service/webhook-service.js';
import { DeliveryWorker } from './webhooks/delivery-worker.js';
import { ThreadedSender } from './webhooks/sender-thread.js';
import { composeDisabledNotice } from './webhooks/disabled-notice.js';
import { typeOf } from './webhooks/payload.js';
import { maskedUrl, maskedValue } from './webhooks/webhook-admin.js';
import { createMailer } from './limits/mailer.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The clocks, fault rules, request journal and outbox the control API works on. */
    toolkit: Toolkit;
    /** The delivery worker of the webhooks (docs/webhooks.md): started when the app is ready, stopped when it closes. */
    webhooks: DeliveryWorker;
  }
}

/**
 * The webhooks' delivery worker of the app (docs/webhooks.md § Delivery): it starts with the app,
 * is woken by every write that made deliveries, and stops, its attempts recorded, when the app closes.
 */
function installWebhookWorker(app: FastifyInstance, deps: AppDeps, clocks: Clocks, toolkit: Toolkit, metrics: AppMetrics | null): DeliveryWorker {
  const settings = deps.config.webhooks;
  const mailer = createMailer({ smtpUrl: deps.config.smtpUrl, outboxDir: path.join(deps.config.dataDir, 'outbox'), from: deps.config.mailFrom, clock: () => clocks.now() });
  const worker = new DeliveryWorker({
    outbox: async (orgId) => (await deps.records.org(orgId)).webhooks,
    organizations: () => deps.control.webhookOrganizations(),
    clock: (orgId) => clocks.now(orgId),
    realNow: Date.now,
    sender: new ThreadedSender({ timeoutMs: settings.timeoutMs, allowPrivate: settings.allowPrivate, userAgent: `Orchard/${VERSION} (webhooks)` }),
    settings,
    async notifyDisabled(orgId, hook) {
      const org = await deps.control.getOrganization(orgId);
      const user = org?.primaryUserId ? await deps.control.getUser(org.primaryUserId) : null;
      if (!org || !user) throw new Error(`organization ${orgId} has no primary user to notify`);
      const objectName = hook.objectType === null ? undefined : (await (await deps.records.org(orgId)).schema()).find(hook.objectType)?.systemName;
      const message = composeDisabledNotice(orgId, hook, { email: user.email, orgName: org.name }, objectName);
      await mailer.send({ ...message, date: new Date(clocks.now(orgId)) });
      toolkit.outbox.record(orgId, { kind: 'webhook-disabled', at: new Date(clocks.now(orgId)).toISOString(), ...message, webhookId: hook.id });
    },
    onAttempt(orgId, d, outcome, atMs, startedMs) {
      metrics?.webhookAttempt(outcome, Date.now() - d.writtenMs);
      toolkit.outbox.record(orgId, {
        kind: 'webhook-delivery', at: new Date(atMs).toISOString(), to: maskedUrl(d.webhook.url), subject: typeOf(d.payload), text: d.payload,
        webhookId: d.webhook.id, deliveryId: d.id, attempt: d.attempts + 1, ok: outcome.ok, status: outcome.status, error: outcome.error, durationMs: outcome.durationMs,
      }, startedMs);
    },
    onDisabled: () => metrics?.webhookDisabled(),
    log: app.log,
  });
  // WEBHOOK_DELIVER=false: the writes still make their deliveries; another process attempts them.
  const unwatch = settings.deliver ? deps.records.watchDeliveries((orgId) => worker.nudge(orgId)) : () => {};
  if (settings.deliver) app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => {
    unwatch();
    await worker.close();
    mailer.close();
  });
  return worker;
}

/** The spec's request size limit (§8): 20 MB, counted as 20 MiB. */
export const BODY_LIMIT = 20 * 1024 * 1024;

/** How much longer than the request time limit a socket may take to deliver its request: 5 s, less for a shorter limit. */
const socketMarginMs = (limitMs: number): number => Math.min(5_000, limitMs);

/** A client-sent X-Request-Id is kept when it is short and plain, so callers can trace their own ids. */
const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * A route whose body is checked loosely (each v3 batch item on its own, a v3 query by the service)
 * may name a `documentedBody`: the document shows it, typed as clients must send it, instead of
 * the body Fastify validates. Only the document reads it.
 */
function documentedBody({ schema, url }: { schema: object; url: string }): { schema: object; url: string } {
  const { documentedBody: shown, ...rest } = (schema ?? {}) as { documentedBody?: object; body?: object };
  return { schema: shown ? { ...rest, body: shown } : rest, url };
}

const ROUTER_OPTIONS = { ignoreDuplicateSlashes: true, ignoreTrailingSlash: true };

/** The header fields a browser may send across origins, and those its script may read from a reply. */
const CORS_ALLOWED_HEADERS = ['tokenid', 'content-type', 'x-request-id', 'if-match', 'if-none-match'];
const CORS_EXPOSED_HEADERS = ['x-error-code', 'x-request-id', 'location', 'retry-after', 'ratelimit', 'ratelimit-policy', 'allow', 'etag'];

/**
 * CORS for CORS_ORIGINS (docs/operations.md § Browsers): the service's routes (error replies
 * included) answer those origins and their preflights; the control API under /_orchard/ answers
 * none, so no page of another origin can use the admin key.
 */
const CONTROL_PATH = new RegExp(`^/+${CONTROL_PREFIX.slice(1)}(?:[/?]|$)`);

/** Whether a request's URL reaches the control API: its path read as the router reads it, percent-decoded (/%5Forchard/ is /_orchard/). */
function reachesControl(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not decodable: the path as it is.
  }
  return CONTROL_PATH.test(path) || CONTROL_PATH.test(decoded);
}

function corsOptions(origins: readonly string[]): FastifyCorsOptions {
  const options: FastifyCorsOptions = {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    // Checked below instead: an OPTIONS that is not a preflight gets the API's 404 or 405, not a text/plain 400.
    strictPreflight: false,
  };
  // Without strictPreflight the plugin would answer every OPTIONS 204; one lacking Origin or
  // Access-Control-Request-Method is no preflight, so it goes on to the routes (their 405 or 404).
  const notPreflight: FastifyCorsOptions = { ...options, preflight: false };
  return {
    delegator: (request, callback) => {
      if (reachesControl(request.url ?? '')) return callback(null, { origin: false });
      const bareOptions = request.method === 'OPTIONS' && (request.headers.origin === undefined || request.headers['access-control-request-method'] === undefined);
      callback(null, bareOptions ? notPreflight : options);
    },
  };
}

/**
 * Once the server begins to close, every connection ends with the reply under way on it, so the
 * close waits for no keep-alive timeout: Node closes only the idle connections at close, and one
 * kept alive after its reply would hold the close until its keep-alive timeout (72 s). A reply not
 * yet begun says Connection: close (a hijacked one, a streamed export, included), and Node ends
 * the connection after it; one whose header fields went out before (keep-alive) has its connection
 * ended once it is written.
 */
function closeConnectionsOnClosing(app: FastifyInstance, limitMs: number): void {
  let closing = false;
  // The server's connections, each with the reply under way on it (Node's own `_httpMessage`: a
  // request pipelined behind it is not served before it has the connection, serveInTurn).
  const open = new Set<Socket & { _httpMessage?: ServerResponse | null }>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (closing) reply.raw.setHeader('connection', 'close');
    done();
  });
  app.addHook('preClose', (done) => {
    closing = true;
    for (const socket of open) {
      const res = socket._httpMessage;
      if (!res) continue;
      if (!res.headersSent) res.setHeader('connection', 'close');
      else if (!res.writableFinished) res.once('finish', () => socket.destroySoon());
    }
    // Node stops checking its connections' time limits once the close begins, so a request begun
    // and never finished (its header fields cut short) would hold the close for good: past the
    // limit that applies while running, a connection with no reply under way is cut.
    setTimeout(() => {
      for (const socket of open) if (!socket._httpMessage) socket.destroy();
    }, limitMs).unref();
    done();
  });
}

/** TRUST_PROXY as Fastify takes it: a number of hops trusts that many addresses, nearest first. */
function trustProxyOption(setting: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return typeof setting === 'boolean' ? setting : [...setting];
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? loggerOptions({ level: deps.config.logLevel, format: deps.config.logFormat }),
    // Behind a proxy, request.ip (the per-address limit, the log) is the client's, from X-Forwarded-For.
    trustProxy: trustProxyOption(deps.config.trustProxy),
    bodyLimit: BODY_LIMIT,
    routerOptions: ROUTER_OPTIONS,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID_RE.test(given) ? given : randomUUID();
    },
    schemaErrorFormatter: schemaErrorFormatter(),
    // verbose: an error carries its schema, so a message can name the members and values accepted.
    // A member a schema does not take (a typo, hidden for hide) is refused, not dropped unseen
    // (Fastify's default removes it): a role or rule would otherwise be made without it.
    ajv: { customOptions: { coerceTypes: true, allErrors: false, verbose: true, removeAdditional: false } },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // A request that arrives on a kept-alive connection while the server closes is served, with
    // Connection: close (Fastify adds it), rather than Fastify's bare 503 (docs/operations.md).
    return503OnClosing: false,
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
  serveInTurn(app.server);
  closeConnectionsOnClosing(app, deps.config.requestTimeoutMs + socketMarginMs(deps.config.requestTimeoutMs));

  // Before any route: every route registered is known to the 405 of a path asked with another method,
  // and its integer query parameters are read as decimal digits only.
  trackAllowedMethods(app, ROUTER_OPTIONS);
  installDecimalQueryNumbers(app);
  if (deps.config.corsOrigins.length > 0) await app.register(cors, corsOptions(deps.config.corsOrigins));

  // Hooks that never wait take `done` rather than return a promise: each promise is a hop through
  // the microtask queue on every request (bench/get-record).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // A reply is one caller's view (its role's fields), told apart by a tokenid header no shared cache
    // knows: none may store it, whatever its status (a 404 is cacheable by default), and a client's
    // own cache revalidates it with its ETag each time (docs/decisions.md). The console sets its own.
    reply.header('cache-control', 'private, no-cache');
    // HTTP/1.1 requires Host (RFC 9112 §3.2); HTTP/1.0 clients may leave it out.
    if (request.raw.httpVersionMinor === 1 && request.headers.host === undefined) {
      closeAfterReply(reply);
      done(new AppError('REQUEST_MALFORMED', 'The request is not valid HTTP/1.1: it has no Host header field. Send Host with the server\'s name.'));
      return;
    }
    done();
  });
  // The log's line for the end of a database outage (error-handler.ts): a counter's test a reply otherwise.
  app.addHook('onResponse', storeOutageEnd);
  installRequestLimit(app, deps.config.requestTimeoutMs);
  const metrics = installMetrics(app, deps.config, deps.records);
  const unfinished = installClientClosed(app);
  if (metrics) unfinished.add(metrics.unfinished);

  installJsonBodies(app);

  // Outside every route family (unknown routes, /docs): `{Message}`, v3's under /api/v3.
  errorReplies(app, v1ErrorBody, { notFound: true, shapeOf: (request) => errorBodyOfPath(request.url) });
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
        version: VERSION,
        license: LICENSE,
      },
      // Without BASE_URL, the server the document is read from ("Try it out" on /docs calls it).
      servers: [{ url: deps.config.baseUrl ?? '/', description: 'This Orchard server' }],
      components: { securitySchemes: { tokenid: { type: 'apiKey', in: 'header', name: 'tokenid', description: 'An API token (orchard token create).' } } },
    },
    transform: documentedBody,
    transformObject: (document) => withOptionalBodies('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await installConsole(app, deps.consoleDir ?? DEFAULT_CONSOLE_DIR);

  // Every reader of time asks the clocks, which follow deps.clock until a clock is moved.
  const clocks = new Clocks(() => deps.clock());
  const toolkit: Toolkit = { clocks, faults: new FaultRules(), journal: new RequestJournal(deps.config.journalSize, deps.config.journalBodyLimit, maskedValue), outbox: new Outbox() };
  app.decorate('toolkit', toolkit);
  const timed = { ...deps, clock: clocks.now };
  // A token's last use is bookkeeping for its owner, in real time as its other times (control-api.md § Clock).
  const auth = new Authenticator(deps.control, () => deps.clock());
  const limits = installLimits(app, timed, (notice, message, at) => {
    toolkit.outbox.record(notice.orgId, {
      kind: 'usage-notice', at, to: message.to, subject: message.subject, text: message.text,
      day: notice.day, threshold: notice.threshold, used: notice.used, cap: notice.cap,
    });
    metrics?.noticeSent();
  });
  // Outside the route families: no token, no rate limit.
  const checks: ReadinessCheck[] = [
    { name: 'control', check: () => deps.control.ping() },
    { name: 'records', check: () => deps.records.ping() },
  ];
  // Without Redis the limits count in memory (docs/limits.md): the process still serves.
  if (limits) checks.push({ name: deps.config.redisUrl ? 'redis' : 'counters', check: () => limits.store.ping(), optional: deps.config.redisUrl !== undefined });
  installHealthRoutes(app, checks);
  // A reset, restore or delete of an organization (control API) waits for its requests under way,
  // and its requests wait for it: none sees part of the old state and part of the new, and none
  // admitted for a deleted organization reaches one loaded again under its id.
  const gate = new OrgGate((org) => deps.control.isCurrent(org));
  const service = gatedService(new Service(timed), gate, deps.records);
  const families: RouteFamilyOptions = { service, baseUrl: deps.config.baseUrl };
  const worker = installWebhookWorker(app, deps, clocks, toolkit, metrics);
  app.decorate('webhooks', worker);
  // Gated too: a webhook made, deleted or enabled through the API is a write of the organization.
  const webhooks = gatedService(new WebhookService(timed), gate, deps.records);
  // The route families share the token check and the limits; each answers its errors in its shape.
  await app.register(async (api) => {
    api.addHook('onRequest', limits ? limitedAuthHook(authHook(auth), limits, clocks) : authHook(auth));
    if (limits) api.addHook('onSend', deferredLimitsHook(limits));
    api.addHook('preHandler', faultHook(toolkit.faults, service, deps.config, clocks.now));
    if (toolkit.journal.size > 0) installJournal(api, toolkit.journal, clocks.now, unfinished);
    await api.register(recordsRoutes, families);
    await api.register(changesRoutes, families);
    await api.register(transferRoutes, families);
    await api.register(queryRoutes, families);
    await api.register(metadataRoutes, families);
    await api.register(v2Routes, families);
    await api.register(filesRoutes, families);
    await api.register(v3Routes, { ...families, prefix: '/api/v3' });
    await api.register(viewsRoutes, families);
    await api.register(accountRoutes, { ...families, limits, movedNow: clocks.movedNow });
    await api.register(webhooksRoutes, { webhooks, baseUrl: deps.config.baseUrl });
  });
  // Without ADMIN_KEY there is no control API: its paths are unknown routes like any other.
  if (deps.config.adminKey !== undefined) {
    const state = new OrganizationState({
      control: deps.control, records: deps.records, clock: clocks.now, exclusive: (orgId, work) => gate.exclusive(orgId, work),
      allowPrivateWebhooks: deps.config.webhooks.allowPrivate,
    });
    await app.register(controlApi, {
      prefix: CONTROL_PREFIX, adminKey: deps.config.adminKey, admin: new AdminService(deps.control, deps.records), state, toolkit, limits,
      webhooks: { worker: deps.config.webhooks.deliver ? worker : null, allowPrivate: deps.config.webhooks.allowPrivate }, version: VERSION, license: LICENSE, baseUrl: deps.config.baseUrl,
    });
  }

  return app;
}
