// Who is asking: the organization, the user and what their token resolves to. Pure data types;
// the control store persists them, the service layer and the limits read them.

import type { RoleDefinition } from './roles.js';
import type { PlanName } from './plans.js';

export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly plan: PlanName;
  /** Per-organization override of the requests-per-minute limit; null means the default. */
  readonly minuteLimit: number | null;
  readonly primaryUserId: string | null;
  readonly createdAt: string;
}

export interface User {
  readonly id: string;
  readonly orgId: string;
  readonly email: string;
  readonly fullname: string;
  readonly role: string;
  readonly createdAt: string;
  /** When the user was disabled (their tokens refused until enabled again); null while enabled. */
  readonly disabledAt: string | null;
}

/** What is kept of a token besides its digest, and shown by `orchard token list`: never the token itself. */
export interface TokenInfo {
  readonly id: string;
  readonly userId: string;
  /** The token's last 4 characters, to tell tokens apart; null for tokens made before Orchard kept them. */
  readonly last4: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  /** When it was revoked (by revoke or rotate); null while live. */
  readonly revokedAt: string | null;
}

/** What a valid token resolves to; read on every request. */
export interface TokenIdentity {
  readonly tokenHash: string;
  readonly user: User;
  readonly org: Organization;
  /** The definition of the user's role, read with the token; null for the built-in admin or a role not defined. */
  readonly role: RoleDefinition | null;
  readonly lastUsedAt: string | null;
}
