// Roles (docs/access.md): what a role may do to each object's records, and which fields it may not see
// or write. Pure data types; the control store persists them, permissions.ts applies them.

/** What a role may do to an object's records. */
export type Permission = 'read' | 'create' | 'update' | 'delete';
export const PERMISSIONS: readonly Permission[] = ['read', 'create', 'update', 'delete'];

/** A role's rights on one object: its permissions and the fields hidden from it or read-only for it (lowercase names). */
export interface ObjectGrant {
  readonly permissions: readonly Permission[];
  readonly hidden: readonly string[];
  readonly readOnly: readonly string[];
}

/** A role of an organization; objects are keyed by lowercase system name. The built-in `admin` is never stored. */
export interface RoleDefinition {
  readonly orgId: string;
  /** Lowercase. */
  readonly name: string;
  readonly grants: Readonly<Record<string, ObjectGrant>>;
  readonly updatedAt: string;
}
