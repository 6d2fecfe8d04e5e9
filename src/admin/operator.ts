// Who the CLI acts as when it runs a request kind of the service (import, export): the
// organization's primary user with the built-in admin role, as the operator has every right.

import type { TokenIdentity } from '../auth/identity.js';
import { ADMIN_ROLE } from '../auth/permissions.js';
import { AppError } from '../errors.js';
import { noOrganization } from '../store/control-errors.js';
import type { ControlStore } from '../store/types.js';

export async function operatorIdentity(control: ControlStore, orgId: string): Promise<TokenIdentity> {
  const org = await control.getOrganization(orgId);
  if (!org) throw noOrganization(orgId);
  const user = org.primaryUserId ? await control.getUser(org.primaryUserId) : null;
  if (!user) throw new AppError('PARAM_INVALID', `Organization ${org.id} has no primary user to act as; create one with orchard user create.`);
  return { tokenHash: '', user: { ...user, role: ADMIN_ROLE }, org, role: null, lastUsedAt: null };
}
