// Keeps a request of an organization and a change of its whole state (reset, restore, a fixture
// loaded over it) apart within this process: requests share the organization, such a change takes
// it alone, after the requests under way end and before those that arrive meanwhile start. So no
// request sees part of the old state and part of the new (docs/control-api.md). A delete of the
// organization takes it alone too; a request admitted for the organization it deleted (its token
// resolved before the delete, by this process or another) that calls the service afterwards fails
// rather than reach one loaded again since under the same id: the control store says so (isCurrent).

import type { Organization, TokenIdentity } from '../auth/identity.js';
import { AppError, isAppError, type ErrorCode } from '../errors.js';
import { DefinitionsChanged, type RecordStore } from '../store/types.js';
import type { Service } from './service.js';

interface OrgState {
  /** Requests under way. */
  active: number;
  /** Settles when the exclusive change under way (or waiting for the requests to end) is done. */
  exclusive: Promise<void> | null;
  /** Wakes the change waiting for the last request to end. */
  drained: (() => void) | null;
}

/** An organization's incarnation: its id, and when this one was made (an id deleted and made again is a new one). */
export type Incarnation = Pick<Organization, 'id' | 'createdAt'>;

/** What a request admitted for an organization deleted since fails with, before it reads or writes anything. */
export function organizationDeleted(org: Incarnation): AppError {
  return new AppError('TOKEN_INVALID', `The organization ${org.id} this token was of was deleted while the request was under way (an organization loaded since under the same id is another one): nothing was read or written. Send the request again with a token of an organization that exists.`);
}

export class OrgGate {
  /**
   * `isCurrent` (ControlStore.isCurrent): whether an incarnation is still its id's, asked as each
   * request is let in; without it (a gate of a test), nothing is asked.
   */
  constructor(private readonly isCurrent?: (org: Incarnation) => Promise<boolean>) {}

  private readonly orgs = new Map<string, OrgState>();

  private state(orgId: string): OrgState {
    let s = this.orgs.get(orgId);
    if (!s) this.orgs.set(orgId, (s = { active: 0, exclusive: null, drained: null }));
    return s;
  }

  /**
   * The change of the organization under way or waiting, if any. Callers check it and, when there
   * is none, take their turn in the same synchronous step, so two callers never both see none.
   */
  private changeOf(orgId: string): Promise<void> | null {
    return this.orgs.get(orgId)?.exclusive ?? null;
  }

  private forgetIfIdle(orgId: string, s: OrgState): void {
    if (s.active === 0 && s.exclusive === null && this.orgs.get(orgId) === s) this.orgs.delete(orgId);
  }

  /**
   * Runs a request of the organization; it waits first while a change of the organization is under
   * way, then fails (TOKEN_INVALID) if the incarnation it was admitted for has been deleted since,
   * by this process or another (isCurrent).
   */
  async shared<T>(org: Incarnation, work: () => Promise<T>): Promise<T> {
    const orgId = org.id;
    for (let change = this.changeOf(orgId); change; change = this.changeOf(orgId)) await change;
    const s = this.state(orgId);
    s.active++;
    try {
      // Asked once the request counts as under way, so that a change (a delete) of this process waits for it.
      if (this.isCurrent && !(await this.isCurrent(org))) throw organizationDeleted(org);
      return await work();
    } finally {
      s.active--;
      if (s.active === 0) {
        if (s.drained) s.drained();
        else this.forgetIfIdle(orgId, s);
      }
    }
  }

  /** Runs a change of the whole organization once no request of it is under way; requests arriving meanwhile wait for it. */
  async exclusive<T>(orgId: string, work: () => Promise<T>): Promise<T> {
    for (let change = this.changeOf(orgId); change; change = this.changeOf(orgId)) await change;
    const s = this.state(orgId);
    let done!: () => void;
    s.exclusive = new Promise((resolve) => (done = resolve));
    try {
      if (s.active > 0) await new Promise<void>((resolve) => (s.drained = resolve));
      s.drained = null;
      return await work();
    } finally {
      s.exclusive = null;
      done();
      this.forgetIfIdle(orgId, s);
    }
  }
}

/** The Service methods that return a value rather than a promise. */
const SYNCHRONOUS: ReadonlySet<PropertyKey> = new Set<keyof Service>(['rowToCreate', 'author']);

/** What a request fails with when the definitions it was checked against lack the object, field or view it names. */
const UNKNOWN_NAME: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['OBJECT_UNKNOWN', 'FIELD_UNKNOWN', 'VIEW_NOT_FOUND']);

type Method = (...a: unknown[]) => unknown;

/**
 * What a proxy of the service gives for `property`: `wrap` of its method bound to `service`, a
 * synchronous step (checking a row of an import: nothing to wait for, and it must stay synchronous)
 * bound as it is, any other member as it is.
 */
function member(service: object, property: PropertyKey, wrap: (method: Method) => Method): unknown {
  const value = Reflect.get(service, property) as unknown;
  if (typeof value !== 'function') return value;
  const method = (value as Method).bind(service);
  return SYNCHRONOUS.has(property) ? method : wrap(method);
}

/** The organization of a Service or WebhookService call: each takes the caller's identity first (service.ts). */
const orgOf = (args: unknown[]): Incarnation | undefined => {
  const org = (args[0] as TokenIdentity | undefined)?.org;
  return typeof org?.id === 'string' ? org : undefined;
};

/**
 * The service with a request method that fails on a name the organization's definitions lack, or
 * on a table or column they name that is gone (DefinitionsChanged), run once more when `records`
 * says the definitions it used were not the latest (a store that keeps them in memory, PostgreSQL
 * with its cache listener, may lag another process's change by its bound): an object or field
 * another process just added is used at once, and a restore made by another process never fails a
 * request. Such failures happen before anything is written, or roll back what was.
 */
function retriedService<S extends object>(service: S, records: Pick<RecordStore, 'org'>): S {
  const again = async (orgId: string, err: unknown, call: () => Promise<unknown>): Promise<unknown> => {
    const stale = err instanceof DefinitionsChanged || (isAppError(err) && UNKNOWN_NAME.has(err.code));
    if (!stale || !(await (await records.org(orgId)).refreshSchema())) throw err;
    return call();
  };
  return new Proxy(service, {
    // `whole` runs many calls and writes between them: each is retried, never the whole.
    get: (target, property) => member(target, property, (method) => (property === 'whole' ? method : (...args: unknown[]) => {
      const org = orgOf(args);
      const call = () => method(...args) as Promise<unknown>;
      return org === undefined ? call() : call().catch((err: unknown) => again(org.id, err, call));
    })),
  });
}

/**
 * The service with every request method run under `gate.shared` for the caller's organization, and
 * retried as retriedService says. `whole` runs its work under one `gate.shared`, giving it the
 * service retried but not gated: a call of the gated one inside would wait for a change that waits
 * for the work to end.
 */
export function gatedService<S extends object>(service: S, gate: OrgGate, records: Pick<RecordStore, 'org'>): S {
  const retried = retriedService(service, records);
  return new Proxy(retried, {
    get: (target, property) => member(target, property, (method) => (...args: unknown[]) => {
      const org = orgOf(args);
      if (org === undefined) return method(...args);
      if (property === 'whole') return gate.shared(org, () => (args[1] as (s: S) => Promise<unknown>)(retried));
      return gate.shared(org, () => method(...args) as Promise<unknown>);
    }),
  });
}
