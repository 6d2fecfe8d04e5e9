// The replies and inputs of the control API (docs/control-api.md) as its client reads and sends
// them: ControlClient's types, exported with it and by `orchard/testing`. Where the server sends a
// value of the domain as it is (a clock, a fault rule, a journal entry, a token), its type is that one.

import type { PlanName } from './auth/plans.js';
import type { JournalEntry } from './toolkit/request-journal.js';

export type { TokenInfo as TokenSummary } from './auth/identity.js';
export type { ClockState } from './toolkit/clocks.js';
export type { FaultRule, FaultRuleInput } from './toolkit/fault-rules.js';
export type { JournalEntry, JournalFilter, OutboxMessage } from './toolkit/request-journal.js';

/** The journal as the control API answers it: the entries, the requests kept per organization (JOURNAL_SIZE) and the body limit. */
export interface JournalPage {
  readonly items: JournalEntry[];
  readonly size: number;
  readonly bodyLimit: number;
}

/** A snapshot of an organization's records, as the control API lists it. */
export interface SnapshotSummary {
  readonly name: string;
  readonly createdAt: string;
  readonly bytes: number;
}

/** What loading fixtures did for one organization. */
export interface LoadedOrganizationSummary {
  readonly id: string;
  readonly name: string;
  readonly status: 'created' | 'existing' | 'reloaded';
  readonly records: number;
  readonly users: ReadonlyArray<{ readonly id: string; readonly email: string; readonly role: string; readonly tokens: readonly string[] }>;
}

/** A webhook as the API, the control API and the CLI show it (its secret only when made): webhooks/webhook-admin.ts makes it. */
export interface WebhookSummary {
  readonly id: string;
  readonly event: string;
  readonly object: string | null;
  readonly objectType: number | null;
  readonly url: string;
  readonly method: string;
  readonly filter: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly createdAt: string;
  readonly status: 'active' | 'disabled';
  readonly disabledAt: string | null;
  readonly failures: number;
  readonly failingSince: string | null;
  /** When the secret its last rotation replaced stops signing beside the new one (organization's clock); null when none signs. */
  readonly previousSecretExpiresAt: string | null;
}

/** An organization as the control API lists it. */
export interface OrganizationSummary {
  readonly id: string;
  readonly name: string;
  readonly plan: PlanName;
  /** Requests per rolling minute (the default when not set for the organization). */
  readonly minuteLimit: number;
  readonly primaryUserId: string | null;
  readonly createdAt: string;
}

/** A window of the limits: its quota, what was used, what remains and the seconds until it resets. */
export interface UsageWindow {
  readonly quota: number;
  readonly used: number;
  readonly remaining: number;
  readonly resetSeconds: number;
}

/** An organization's use of its limits, as GET /api/usage answers its token (docs/limits.md § Usage); `counted` false when the server counts nothing. */
export interface OrganizationUsage {
  readonly counted: boolean;
  readonly minute: UsageWindow | null;
  readonly day: (UsageWindow & { readonly day: string }) | null;
  readonly days: ReadonlyArray<{ readonly day: string; readonly count: number }>;
  readonly notices: ReadonlyArray<{ readonly day: string; readonly threshold: number; readonly used: number; readonly cap: number; readonly claimedAt: string; readonly sentAt: string | null }>;
}

/** A role: the built-in admin (no grants: everything), or one the organization defined, with its grants per object system name. */
export interface RoleSummary {
  readonly name: string;
  readonly builtIn: boolean;
  readonly grants: Readonly<Record<string, { readonly permissions: ReadonlyArray<'read' | 'create' | 'update' | 'delete'>; readonly hidden: readonly string[]; readonly readOnly: readonly string[] }>>;
  readonly updatedAt: string | null;
}

/** A user of an organization (a disabled user's tokens are refused). */
export interface UserSummary {
  readonly id: string;
  readonly orgId: string;
  readonly email: string;
  readonly fullname: string;
  readonly role: string;
  readonly disabled: boolean;
  readonly disabledAt: string | null;
  readonly createdAt: string;
}
