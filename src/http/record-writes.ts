// The record operations every route family shares (v1 /api/record, v2, v3 batch): resolve the
// object against the plan and role, check and prepare the body, write, and shape what the caller
// may see. Route files only add their own reply shapes.

import type { FastifyRequest } from 'fastify';
import type { AppDeps } from './app-deps.js';
import { accessOf, type Access, type Permission } from '../auth/permissions.js';
import type { Action } from '../auth/plans.js';
import { AppError, errorOf } from '../errors.js';
import { prepareCreate, prepareUpdate } from '../schema/record-input.js';
import type { ObjectDef, RecordRow } from '../schema/types.js';
import { isUuid } from '../schema/values.js';
import type { OrgRecords } from '../store/types.js';

export interface Target {
  readonly records: OrgRecords;
  readonly obj: ObjectDef;
  readonly access: Access;
}

/** The object named by `ref`, once the plan (402) and the role (403) allow `permission` on it. */
export async function resolveTarget(deps: AppDeps, request: FastifyRequest, ref: string, permission: Permission, batch = false): Promise<Target> {
  const records = await deps.records.org(request.identity.org.id);
  const obj = (await records.schema()).resolve(ref);
  const access = accessOf(request.identity);
  // The plan before the role (DESIGN §4): a batch on the free plan is 402 whatever the role.
  if (batch) access.requirePlan(obj, 'batch' satisfies Action);
  access.require(obj, permission);
  return { records, obj, access };
}

/** Like resolveTarget for a batch: the plan must also include batch requests (402 on free). */
export function resolveBatchTarget(deps: AppDeps, request: FastifyRequest, ref: string, permission: Permission): Promise<Target> {
  return resolveTarget(deps, request, ref, permission, true);
}

/** The lowercase id, or 400 RECORD_ID_MALFORMED. */
export function checkId(obj: ObjectDef, id: unknown): string {
  if (typeof id !== 'string' || !isUuid(id)) {
    const shown = typeof id === 'string' ? `'${id}'` : JSON.stringify(id);
    throw errorOf('RECORD_ID_MALFORMED', shown, obj.systemName);
  }
  return id.toLowerCase();
}

export function notFound(obj: ObjectDef, id: string): AppError {
  return errorOf('RECORD_NOT_FOUND', obj.systemName, id);
}

const writeContext = (deps: AppDeps, request: FastifyRequest) => ({ userId: request.identity.user.id, now: new Date(deps.clock()) });

/** The row a create body makes, after the field rules of the role (403) and the body checks (400). */
export function rowToCreate(deps: AppDeps, request: FastifyRequest, { obj, access }: Target, body: unknown): RecordRow {
  access.checkWrite(obj, body);
  return prepareCreate(obj, body, writeContext(deps, request));
}

/** The changes an update body makes, checked like rowToCreate. */
export function changesOf(deps: AppDeps, request: FastifyRequest, { obj, access }: Target, body: unknown): RecordRow {
  access.checkWrite(obj, body);
  return prepareUpdate(obj, body, writeContext(deps, request));
}

/** Creates one record; returns it as the caller may see it. */
export async function createOne(deps: AppDeps, request: FastifyRequest, target: Target, body: unknown): Promise<RecordRow> {
  const record = await target.records.create(target.obj, rowToCreate(deps, request, target, body));
  return target.access.shown(target.obj, record);
}

/** Updates one record (partial); 404 when no record has the id. */
export async function updateOne(deps: AppDeps, request: FastifyRequest, target: Target, rawId: string, body: unknown): Promise<RecordRow> {
  const id = checkId(target.obj, rawId);
  const record = await target.records.update(target.obj, id, changesOf(deps, request, target, body));
  if (!record) throw notFound(target.obj, id);
  return target.access.shown(target.obj, record);
}
