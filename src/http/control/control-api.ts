// The control API under /_orchard/ (docs/control-api.md): administration and test tools, opened
// only by `Authorization: Bearer <ADMIN_KEY>`; without ADMIN_KEY the app does not register it,
// so every /_orchard/ path is a plain 404. Its errors are `{error: {code, message}}`, as the CLI
// prints them with --json, and it is described by its own OpenAPI document.

import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import type { AppError } from '../../errors.js';
import { errorReplies } from '../error-handler.js';
import { installStrictBodyScalars } from '../query-numbers.js';
import { schemaErrorFormatter } from '../schema-errors.js';
import { adminKeyHook } from './admin-key.js';
import { controlDocument } from './control-document.js';
import type { ControlRouteOptions } from './control-options.js';
import { organizationRoutes } from './organization-routes.js';
import { fixtureRoutes } from './fixture-routes.js';
import { clockRoutes } from './clock-routes.js';
import { faultRoutes } from './fault-routes.js';
import { journalRoutes } from './journal-routes.js';
import { peopleRoutes } from './people-routes.js';
import { webhookRoutes } from './webhook-routes.js';

export const CONTROL_PREFIX = '/_orchard';

export interface ControlOptions extends ControlRouteOptions {
  readonly adminKey: string;
  /** The version and license the document states (package.json's). */
  readonly version: string;
  readonly license: { name: string; url: string };
  /** BASE_URL, the document's server; else the server it is read from. */
  readonly baseUrl: string | undefined;
}

/** The query string of a control route that names no parameter: none taken. */
const CLOSED = { type: 'object', additionalProperties: false, properties: {} } as const;
/** The body of a control route that names no member: none, or an empty object (or null). */
const CLOSED_BODY = { type: ['object', 'null'], additionalProperties: false, properties: {} } as const;

export const controlErrorBody = (err: AppError): object => ({ error: { code: err.code, message: err.message } });

export const controlApi: FastifyPluginAsync<ControlOptions> = async (scope: FastifyInstance, options) => {
  errorReplies(scope, controlErrorBody, { notFound: true, routesHint: `The control API's routes are listed in ${CONTROL_PREFIX}/openapi.json and docs/control-api.md.` });
  scope.addHook('onRequest', adminKeyHook(options.adminKey));
  // A body refused as a whole (none, not an object, a member it needs missing) is answered with
  // what the call takes, from its schema; before the families register, so that each route has it.
  scope.setSchemaErrorFormatter(schemaErrorFormatter({ saysWhatBodyTakes: true }));
  // Query strings' whole numbers are decimal on every route (app.ts); this API's bodies' numbers
  // too, and their booleans are JSON true or false.
  installStrictBodyScalars(scope);
  const routes: RouteOptions[] = [];
  scope.addHook('onRoute', (route) => {
    // Out of the service's document (/openapi.json), into this one. A call takes only the query
    // parameters and body members it names: a route that names none refuses any (a typo such as
    // ?org= for ?orgId= would otherwise act on everything, unseen).
    const methods = [route.method].flat();
    route.schema = {
      querystring: CLOSED,
      ...(methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH' || m === 'DELETE') ? { body: CLOSED_BODY } : {}),
      ...route.schema,
      hide: true,
    };
    routes.push(route);
  });
  let document: object | undefined;
  scope.get('/openapi.json', async () => (document ??= controlDocument(routes, options.version, options.license, options.baseUrl)));
  // Each family gets only what it needs (not the prefix, which it would apply again).
  const families: ControlRouteOptions = { admin: options.admin, state: options.state, toolkit: options.toolkit, webhooks: options.webhooks, limits: options.limits };
  await scope.register(organizationRoutes, families);
  await scope.register(fixtureRoutes, families);
  await scope.register(clockRoutes, families);
  await scope.register(faultRoutes, families);
  await scope.register(journalRoutes, families);
  await scope.register(peopleRoutes, families);
  await scope.register(webhookRoutes, families);
};
