// Control API: fault rules (docs/control-api.md § Faults) — listed, added, removed one by one or all.

import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../errors.js';
import { checkAnyOrganizationObject } from '../../schema/standard-objects.js';
import { FAMILY_LIST, FAULT_STATUSES, MAX_LATENCY_MS, ROUTE_FAMILIES, parseFaultRule } from '../../toolkit/fault-rules.js';
import type { ControlRouteOptions } from './control-options.js';

const ruleProperties = {
  orgId: { type: 'string', description: 'Only this organization\'s requests; any organization\'s when absent.' },
  methods: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'HTTP methods; any when absent.' },
  families: { type: 'array', minItems: 1, items: { type: 'string', enum: [...ROUTE_FAMILIES] }, description: `Route families: ${FAMILY_LIST} (docs/control-api.md § Faults); any when absent, but for GET /api/usage, matched only when organization is named.` },
  object: { type: 'string', description: 'The object, by system name or number, as the path or a query body names it; a request without an object never matches.' },
  probability: { type: 'number', exclusiveMinimum: 0, maximum: 1, description: 'Fires on each match with this probability (1 when absent).' },
  seed: { type: 'integer', minimum: 0, maximum: 4294967295, description: 'Seed of the probability\'s draws: the same seed gives the same decisions. Random when absent.' },
  count: { type: 'integer', minimum: 1, description: 'Fires for the next N matches, then the rule is removed.' },
  status: { type: 'integer', enum: [...FAULT_STATUSES], description: 'The forced reply: 429 (a refusal of the minute or day window), 500, 503 or 408.' },
  window: { type: 'string', enum: ['minute', 'day'], description: 'For 429: the window refused (default minute).' },
  retryAfter: { type: 'integer', minimum: 0, maximum: 86400, description: 'For 429 and 503: Retry-After in seconds (default for 429: 60 for the minute, until 00:00 UTC for the day; for 503: 5, as a real STORE_UNAVAILABLE).' },
  latencyMs: { type: 'integer', minimum: 0, maximum: MAX_LATENCY_MS, description: 'Milliseconds added before the request goes on (or before the forced reply).' },
} as const;

export const faultRuleSchema = {
  type: 'object',
  required: ['id', 'seed', 'remaining', 'matched', 'fired'],
  properties: {
    id: { type: 'string' },
    ...ruleProperties,
    seed: { type: 'integer' },
    remaining: { type: 'integer', nullable: true, description: 'Fires left for a rule with a count.' },
    matched: { type: 'integer', description: 'Requests the rule matched.' },
    fired: { type: 'integer', description: 'Times it fired.' },
  },
} as const;

const listSchema = { type: 'object', required: ['items'], properties: { items: { type: 'array', items: faultRuleSchema } } } as const;
const orgQuery = { type: 'object', additionalProperties: false, properties: { orgId: { type: 'string', description: 'Only the rules of this organization.' } } } as const;

export const faultRoutes: FastifyPluginAsync<ControlRouteOptions> = async (scope, { admin, toolkit }) => {
  const { faults } = toolkit;
  /** `orgId` when it names an organization (404 ORGANIZATION_NOT_FOUND when not), as POST /faults checks it. */
  const knownOrganization = async (orgId: string | undefined) => (orgId === undefined ? undefined : (await admin.requireOrganization(orgId)).id);

  scope.get('/faults', {
    schema: { operationId: 'listFaultRules', tags: ['faults'], summary: 'The fault rules, in the order they are tried.', querystring: orgQuery, response: { 200: listSchema } },
  }, async (request) => ({ items: faults.list(await knownOrganization((request.query as { orgId?: string }).orgId)) }));

  scope.post('/faults', {
    schema: {
      operationId: 'addFaultRule', tags: ['faults'],
      summary: 'Adds a fault rule: matching requests of the service\'s routes get a forced reply in their route family\'s shape, and/or wait.',
      body: { type: 'object', additionalProperties: false, properties: ruleProperties, examples: [{ orgId: 'ORG_ID', families: ['records'], methods: ['GET'], status: 503, count: 2 }] },
      response: { 201: faultRuleSchema },
    },
  }, async (request, reply) => {
    let input = parseFaultRule(request.body, 'body');
    // A rule that no request could match would never fire: refused as a webhook's is. An
    // organization's rule holds the object's system name, however the body named it (" 001").
    if (input.orgId !== undefined && input.object !== undefined) input = { ...input, object: await admin.requireObject(input.orgId, input.object) };
    else if (input.orgId !== undefined) await admin.requireOrganization(input.orgId);
    else if (input.object !== undefined) checkAnyOrganizationObject(input.object);
    return reply.code(201).send(faults.add(input));
  });

  scope.delete('/faults/:id', {
    schema: {
      operationId: 'removeFaultRule', tags: ['faults'], summary: 'Removes a fault rule.',
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', description: 'The rule id.' } } },
      response: { 204: { type: 'null', description: 'Removed.' } },
    },
  }, async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!faults.remove(id)) throw new AppError('FAULT_RULE_NOT_FOUND', `No fault rule has id '${id}'. List them with GET /_orchard/faults or orchard fault list.`);
    return reply.code(204).send();
  });

  scope.delete('/faults', {
    schema: {
      operationId: 'clearFaultRules', tags: ['faults'], summary: 'Removes every fault rule (of one organization with orgId).', querystring: orgQuery,
      response: { 200: { type: 'object', required: ['removed'], properties: { removed: { type: 'integer' } } } },
    },
  }, async (request) => ({ removed: faults.clear(await knownOrganization((request.query as { orgId?: string }).orgId)) }));
};
