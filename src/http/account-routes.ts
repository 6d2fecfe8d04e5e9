// Orchard's own routes about the caller's organization (docs/api.md § The organization's routes):
// who the token is, the objects it may use with their record counts and fields, and the
// organization's usage of its limits. The console reads them; so can any client. Reading the usage
// is not counted against the limits it shows (nor journaled), so watching it changes nothing.

import type { FastifyPluginAsync } from 'fastify';
import type { Organization } from '../auth/identity.js';
import { planOf } from '../auth/plans.js';
import type { Limits, OrgUsage } from '../limits/limits.js';
import type { FieldDef } from '../schema/types.js';
import type { ObjectAccess, ObjectDetail } from '../service/service.js';
import type { RouteFamilyOptions } from './app-deps.js';
import { ok } from './envelope.js';
import { errorReplies, v1ErrorBody } from './error-handler.js';
import { commonErrors, envelopeOf, objParam, tokenQuery, tokenSecurity } from './schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's requests count against no limit and are not journaled (reading the usage itself). */
    uncounted?: boolean;
  }
}

export interface AccountRouteOptions extends RouteFamilyOptions {
  /** null when RATE_LIMITS is off: the usage route then answers that nothing is counted. */
  readonly limits: Limits | null;
  /** The time of an organization whose clock is moved, else undefined (as the limits count). */
  readonly movedNow: (orgId: string) => number | undefined;
}

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const nullableInt = { type: 'integer', nullable: true } as const;

const permissionsSchema = {
  type: 'array', items: { type: 'string', enum: ['read', 'create', 'update', 'delete'] },
  description: 'What the plan and the token\'s role allow on its records.',
} as const;

const objectSchema = {
  type: 'object',
  required: ['objectType', 'systemName', 'name', 'collectionName', 'primaryKey', 'primaryField', 'readOnly', 'permissions', 'records'],
  properties: {
    objectType: int,
    systemName: str,
    name: str,
    collectionName: str,
    primaryKey: str,
    primaryField: str,
    readOnly: { type: 'boolean', description: 'Its records cannot be written through the API (crmuser).' },
    permissions: permissionsSchema,
    records: { ...nullableInt, description: 'How many records it has; null when the role may not read it.' },
  },
} as const;

const fieldSchema = {
  type: 'object',
  required: ['name', 'label', 'type', 'required', 'readOnly', 'maxLength'],
  properties: {
    name: str,
    label: str,
    type: { type: 'string', enum: ['text', 'number', 'date', 'datetime', 'picklist', 'lookup', 'email', 'telephone', 'url', 'textarea', 'html'] },
    required: { type: 'boolean', description: 'Every record holds a value: an update cannot clear it, and a create must send one unless hasDefault.' },
    hasDefault: { type: 'boolean', description: 'Present when a create may leave the field out: the server fills it (ownerid: the caller; statecode, statuscode: 1).' },
    readOnly: { type: 'boolean', description: 'Not written by clients: the key, a system or derived field, or read-only for the role.' },
    maxLength: { ...nullableInt, description: 'Characters, for text-like types.' },
    precision: { ...int, description: 'Decimal places of a number.' },
    options: { type: 'array', items: { type: 'object', required: ['value', 'label'], properties: { value: int, label: str } }, description: 'A picklist\'s codes.' },
    target: { type: 'object', required: ['objectType', 'systemName', 'primaryKey', 'primaryField'], properties: { objectType: int, systemName: str, primaryKey: str, primaryField: str }, description: 'The object a lookup refers to.' },
    derivedFrom: { ...str, description: 'For the name field of a lookup: the lookup.' },
  },
} as const;

const windowSchema = (extra: Record<string, object>, required: string[]) => ({
  type: 'object',
  required: ['quota', 'used', 'remaining', 'resetSeconds', ...required],
  properties: {
    quota: int,
    used: { ...int, description: 'Requests counted in the window now.' },
    remaining: int,
    resetSeconds: { ...int, description: 'Seconds until the window gives quota back (the t of the RateLimit field).' },
    ...extra,
  },
});

/** The usage as the public route and the control API answer it. */
export const usageSchema = {
  type: 'object',
  required: ['counted', 'minute', 'day', 'days', 'notices'],
  properties: {
    counted: { type: 'boolean', description: 'false when the server counts nothing (RATE_LIMITS off): the rest is then empty.' },
    minute: { ...windowSchema({}, []), nullable: true, description: 'The rolling minute.' },
    day: { ...windowSchema({ day: { ...str, description: 'The UTC day, YYYY-MM-DD.' } }, ['day']), nullable: true, description: 'The UTC day and its cap.' },
    days: {
      type: 'array', description: 'Requests counted on each of the last 30 UTC days, oldest first, the current day last.',
      items: { type: 'object', required: ['day', 'count'], properties: { day: str, count: int } },
    },
    notices: {
      type: 'array', description: 'The usage notices of those days (90 % and 100 % of the cap), newest first.',
      items: {
        type: 'object', required: ['day', 'threshold', 'used', 'cap', 'claimedAt', 'sentAt'],
        properties: { day: str, threshold: int, used: int, cap: int, claimedAt: { type: 'string', format: 'date-time' }, sentAt: { type: 'string', format: 'date-time', nullable: true, description: 'null while not sent.' } },
      },
    },
  },
  examples: [{
    counted: true,
    minute: { quota: 100, used: 12, remaining: 88, resetSeconds: 41 },
    day: { quota: 10000, used: 1520, remaining: 8480, resetSeconds: 30512, day: '2026-03-01' },
    days: [{ day: '2026-02-28', count: 9120 }, { day: '2026-03-01', count: 1520 }],
    notices: [{ day: '2026-02-28', threshold: 90, used: 9000, cap: 10000, claimedAt: '2026-02-28T17:02:11.000Z', sentAt: '2026-02-28T17:02:12.000Z' }],
  }],
} as const;

/** What the usage routes answer: the usage, or nothing counted when the limits are off. */
export type UsageReply = { readonly counted: true } & OrgUsage
  | { readonly counted: false; readonly minute: null; readonly day: null; readonly days: []; readonly notices: [] };

export async function usageReply(limits: Limits | null, org: Organization, now: number | undefined): Promise<UsageReply> {
  if (!limits) return { counted: false, minute: null, day: null, days: [], notices: [] };
  return { counted: true, ...(await limits.usage(org, now)) };
}

const objectOf = ({ obj, permissions, total }: ObjectAccess) => ({
  objectType: obj.objectType, systemName: obj.systemName, name: obj.displayName, collectionName: obj.collectionName,
  primaryKey: obj.keyField, primaryField: obj.primaryField, readOnly: obj.readOnly, permissions, records: total,
});

type Target = { objectType: number; systemName: string; primaryKey: string; primaryField: string };

function fieldOf(f: FieldDef, detail: ObjectDetail, targetOf: (n: number) => Target | undefined) {
  const target = f.type === 'lookup' && f.target !== undefined ? targetOf(f.target) : undefined;
  return {
    name: f.name, label: f.label, type: f.type, required: f.required,
    ...(f.hasDefault ? { hasDefault: true } : {}),
    readOnly: f.role !== 'data' || detail.readOnly.has(f.name) || detail.obj.readOnly,
    maxLength: f.maxLength,
    ...(f.precision !== undefined ? { precision: f.precision } : {}),
    ...(f.options ? { options: f.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
    ...(target ? { target } : {}),
    ...(f.derivedFrom !== undefined ? { derivedFrom: f.derivedFrom } : {}),
  };
}

const route = (operationId: string, summary: string, data: object, extra: object = {}) => ({
  schema: {
    operationId, summary, tags: ['organization'], security: tokenSecurity,
    querystring: { type: 'object', properties: tokenQuery },
    response: { 200: envelopeOf(data), ...commonErrors },
    ...extra,
  },
});

export const accountRoutes: FastifyPluginAsync<AccountRouteOptions> = async (app, { service, limits, movedNow }) => {
  errorReplies(app, v1ErrorBody);

  app.get('/api/me', route('getMe', 'The token\'s organization and user, with the user\'s role', {
    type: 'object', required: ['organization', 'user'],
    properties: {
      organization: {
        type: 'object', required: ['id', 'name', 'plan', 'minuteLimit', 'dailyCap'],
        properties: { id: str, name: str, plan: str, minuteLimit: { ...int, description: 'Requests in any 60 s.' }, dailyCap: { ...int, description: 'Requests per UTC day (the plan\'s).' } },
      },
      user: { type: 'object', required: ['id', 'email', 'fullname', 'role'], properties: { id: str, email: str, fullname: str, role: str } },
    },
  }), async (request) => {
    const { org, user } = request.identity;
    const quotas = limits?.quotasOf(org);
    return ok({
      organization: { id: org.id, name: org.name, plan: org.plan, minuteLimit: quotas?.minute ?? org.minuteLimit, dailyCap: quotas?.day ?? planOf(org.plan).dailyCap },
      user: { id: user.id, email: user.email, fullname: user.fullname, role: user.role },
    });
  });

  app.get('/api/objects', route('listObjectsWithCounts', 'The objects the plan includes, with what the token\'s role may do to each and its record count', { type: 'array', items: objectSchema }),
    async (request) => ok((await service.objectsWithCounts(request.identity, request.work)).map(objectOf)));

  app.get<{ Params: { ot: string } }>('/api/objects/:ot', route('describeObject', 'One object with its record count and its fields as the token\'s role sees them: types, picklist codes, lookup targets, what it may write', {
    ...objectSchema,
    required: [...objectSchema.required, 'fields'],
    properties: { ...objectSchema.properties, fields: { type: 'array', items: fieldSchema, description: 'Fields hidden from the role are left out.' } },
  }, { params: { type: 'object', properties: { ot: objParam }, required: ['ot'] } }), async (request) => {
    const detail = await service.objectWithCount(request.identity, request.params.ot, request.work);
    const targetOf = (n: number) => {
      const t = detail.schema.objects.find((o) => o.objectType === n);
      return t && { objectType: t.objectType, systemName: t.systemName, primaryKey: t.keyField, primaryField: t.primaryField };
    };
    const fields = detail.obj.fields.filter((f) => !detail.hidden.has(f.name)).map((f) => fieldOf(f, detail, targetOf));
    return ok({ ...objectOf(detail), fields });
  });

  app.get('/api/usage', {
    config: { uncounted: true },
    ...route('getUsage', 'The organization\'s use of its limits: the rolling minute and the UTC day against their quotas, the requests of the last 30 days, the usage notices sent. Not counted against the limits.', usageSchema),
  }, async (request) => {
    const { org } = request.identity;
    return ok(await usageReply(limits, org, movedNow(org.id)));
  });
};
