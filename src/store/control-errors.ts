// The errors every control store throws for the same failures, worded once so that the embedded
// and the PostgreSQL store (and the admin service, checking before it writes) say the same thing.

import { AppError } from '../errors.js';

/** An organization id that names no organization. */
export function noOrganization(id: string): AppError {
  return new AppError('ORGANIZATION_NOT_FOUND', `No organization has id '${id}'. List the organizations and their ids with orchard org list (GET /_orchard/organizations).`);
}

/** A user id that names no user (of the organization, where one is given). */
export function noUser(id: string, orgId?: string): AppError {
  const where = `List an organization's users and their ids with orchard user list --org <organization id> (GET /_orchard/organizations/{id}/users).`;
  return new AppError('USER_NOT_FOUND', `${orgId === undefined ? `No user has id '${id}'.` : `No user of organization '${orgId}' has id '${id}'.`} ${where}`);
}

/** A second user with the same e-mail (compared ignoring the case of A–Z) in one organization. */
export function emailTaken(email: string): AppError {
  return new AppError('PARAM_INVALID', `The organization already has a user with the e-mail '${email}'; give another e-mail, or create a token for that user with \`orchard token create\`.`);
}

/** An id chosen for a new organization or user (a fixture's) that another one already has. */
export function idTaken(kind: 'organization' | 'user', id: string): AppError {
  return new AppError('PARAM_INVALID', `The ${kind} id '${id}' is already taken; choose another id, or leave it out.`);
}

/** A role given to a user that the organization does not define (nor is it the built-in admin). */
export function noRole(orgId: string, role: string): AppError {
  return new AppError('PARAM_INVALID', `The organization has no role '${role}'. Define it first with orchard role set --org ${orgId} --role ${role} --grant … (PUT /_orchard/organizations/${orgId}/roles/${role}), or use the built-in role admin.`);
}

/**
 * A rethrower for a failed write: the AppError `errors` names for the failure's code (a SQLite
 * extended code such as SQLITE_CONSTRAINT_UNIQUE, or a PostgreSQL SQLSTATE), else the failure as it was.
 */
export function rethrowAs(errors: Readonly<Record<string, () => AppError>>): (err: unknown) => never {
  return (err) => {
    const code = (err as { code?: unknown } | null)?.code;
    throw typeof code === 'string' && Object.hasOwn(errors, code) ? errors[code]!() : err;
  };
}
