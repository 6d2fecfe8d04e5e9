// A client of the control API (docs/control-api.md), for the CLI commands that act on a running
// server and for test suites. Failures are ControlError values carrying the server's code.

/** A control call that failed: the server's error code and message, or UNREACHABLE when no server answered. */
export class ControlError extends Error {
  constructor(readonly code: string, message: string, readonly status: number | null) {
    super(message);
    this.name = 'ControlError';
  }
}

export interface ControlClientOptions {
  /** The server's base URL, e.g. http://127.0.0.1:8080. */
  readonly url: string;
  readonly adminKey: string;
  readonly fetch?: typeof fetch;
}

import type {
  ClockState, FaultRule, FaultRuleInput, JournalEntry, JournalFilter, JournalPage, LoadedOrganizationSummary, OrganizationSummary, OrganizationUsage,
  OutboxMessage, RoleSummary, SnapshotSummary, TokenSummary, UserSummary, WebhookSummary,
} from './control-types.js';

export type * from './control-types.js';

const segment = (s: string): string => encodeURIComponent(s);

/** `?name=value&…` of the members given (not undefined), or nothing. */
const queryOf = (params: object): string => {
  const given = Object.entries(params).filter(([, v]) => v !== undefined).map(([k, v]): [string, string] => [k, String(v)]);
  return given.length === 0 ? '' : `?${new URLSearchParams(given).toString()}`;
};

/** The path of a clock: the server's (null) or an organization's. */
const clockPath = (orgId: string | null): string => (orgId === null ? 'clock' : `organizations/${segment(orgId)}/clock`);

export class ControlClient {
  readonly url: string;
  readonly #adminKey: string;
  readonly #fetch: typeof fetch;

  constructor(options: ControlClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.#adminKey = options.adminKey;
    this.#fetch = options.fetch ?? fetch;
  }

  /** Calls `method` on `/_orchard/<path>` and resolves to the parsed reply (null for 204). */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const target = `${this.url}/_orchard/${path.replace(/^\/+/, '')}`;
    let res: Response;
    try {
      res = await this.#fetch(target, {
        method,
        headers: { authorization: `Bearer ${this.#adminKey}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (err) {
      throw new ControlError('UNREACHABLE', `No Orchard server answers at ${this.url} (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}). Start one, or give its address with --url or ORCHARD_URL.`, null);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON: reported below.
    }
    if (res.ok && (parsed !== null || text === '')) return parsed as T;
    const error = (parsed as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (typeof error?.code === 'string' && typeof error.message === 'string') throw new ControlError(error.code, error.message, res.status);
    if (res.status === 404) {
      throw new ControlError('CONTROL_API_OFF', `${this.url} has no control API: start the server with ADMIN_KEY set (docs/control-api.md).`, 404);
    }
    throw new ControlError('BAD_REPLY', `${method} ${target} answered ${res.status} with a body that is not the control API's JSON.`, res.status);
  }

  // Organizations (docs/control-api.md § Calls).

  /** Every organization of the server. */
  async listOrganizations(): Promise<OrganizationSummary[]> {
    return (await this.call<{ items: OrganizationSummary[] }>('GET', 'organizations')).items;
  }

  /** Makes an organization with its primary user (role admin) and a token for that user, shown only in this reply. */
  createOrganization(input: { name: string; email: string; plan?: OrganizationSummary['plan']; minuteLimit?: number }): Promise<{ organization: OrganizationSummary; userId: string; token: string }> {
    return this.call('POST', 'organizations', input);
  }

  /** Changes its plan and/or minute limit (at least one), from its next request. */
  updateOrganization(orgId: string, changes: { plan?: OrganizationSummary['plan']; minuteLimit?: number }): Promise<OrganizationSummary> {
    return this.call('PATCH', `organizations/${segment(orgId)}`, changes);
  }

  /** Deletes it for good: users, tokens, roles, records, files and snapshots; its tokens are refused at once. */
  deleteOrganization(orgId: string): Promise<{ id: string; name: string; deleted: true }> {
    return this.call('DELETE', `organizations/${segment(orgId)}`);
  }

  /** Its use of its limits: the minute and day windows, the last 30 days, the usage notices. */
  getOrganizationUsage(orgId: string): Promise<OrganizationUsage> {
    return this.call('GET', `organizations/${segment(orgId)}/usage`);
  }

  // Roles, users and tokens.

  /** The organization's roles: the built-in admin first, then those defined, by name. */
  async listRoles(orgId: string): Promise<RoleSummary[]> {
    return (await this.call<{ items: RoleSummary[] }>('GET', `organizations/${segment(orgId)}/roles`)).items;
  }

  /** Defines a role or replaces its whole definition, in the terms of `orchard role set` (`grant: 'account:read,create;contact:read'`). */
  setRole(orgId: string, name: string, definition: { grant: string; hide?: string; readonly?: string }): Promise<RoleSummary> {
    return this.call('PUT', `organizations/${segment(orgId)}/roles/${segment(name)}`, definition);
  }

  /** Deletes a role no user holds (409 ROLE_IN_USE naming those who do). */
  deleteRole(orgId: string, name: string): Promise<{ orgId: string; name: string; deleted: true }> {
    return this.call('DELETE', `organizations/${segment(orgId)}/roles/${segment(name)}`);
  }

  /** The organization's users, oldest first. */
  async listUsers(orgId: string): Promise<UserSummary[]> {
    return (await this.call<{ items: UserSummary[] }>('GET', `organizations/${segment(orgId)}/users`)).items;
  }

  /** Makes a user (role admin when none is given) and a token for them, shown only in this reply. */
  createUser(orgId: string, input: { email: string; role?: string; fullname?: string }): Promise<{ user: UserSummary; token: string }> {
    return this.call('POST', `organizations/${segment(orgId)}/users`, input);
  }

  /** Gives a user another role, or disables (their tokens refused at once) or enables them. */
  updateUser(userId: string, changes: { role?: string; disabled?: boolean }): Promise<UserSummary> {
    return this.call('PATCH', `users/${segment(userId)}`, changes);
  }

  /** Deletes a user and their tokens (not the organization's primary user); their records keep them as owner. */
  deleteUser(userId: string): Promise<{ id: string; orgId: string; email: string; deleted: true }> {
    return this.call('DELETE', `users/${segment(userId)}`);
  }

  /** A user's tokens, live and revoked (never the tokens themselves). */
  async listTokens(userId: string): Promise<TokenSummary[]> {
    return (await this.call<{ items: TokenSummary[] }>('GET', `users/${segment(userId)}/tokens`)).items;
  }

  /** A new token for the user, shown only in this reply. */
  createToken(userId: string): Promise<{ token: string; created: TokenSummary }> {
    return this.call('POST', `users/${segment(userId)}/tokens`);
  }

  /** Revokes a token by its id: refused from the next request (one already revoked keeps its time). */
  revokeToken(tokenId: string): Promise<TokenSummary> {
    return this.call('POST', `tokens/${segment(tokenId)}/revoke`);
  }

  /** Replaces a live token: a new one for the same user (shown only in this reply), the old one revoked. */
  rotateToken(tokenId: string): Promise<{ token: string; created: TokenSummary; revoked: TokenSummary }> {
    return this.call('POST', `tokens/${segment(tokenId)}/rotate`);
  }

  // Organizations as fixtures (docs/control-api.md).

  /** Back to its fixture, or emptied when it was not loaded from one. */
  reset(orgId: string): Promise<{ id: string; fixture: boolean }> {
    return this.call('POST', `organizations/${segment(orgId)}/reset`);
  }

  /** Saves the organization's objects and records under `name` (replacing a snapshot of that name). */
  snapshot(orgId: string, name: string): Promise<SnapshotSummary> {
    return this.call('POST', `organizations/${segment(orgId)}/snapshots`, { name });
  }

  async listSnapshots(orgId: string): Promise<SnapshotSummary[]> {
    return (await this.call<{ items: SnapshotSummary[] }>('GET', `organizations/${segment(orgId)}/snapshots`)).items;
  }

  async restore(orgId: string, name: string): Promise<void> {
    await this.call('POST', `organizations/${segment(orgId)}/snapshots/${segment(name)}/restore`);
  }

  async deleteSnapshot(orgId: string, name: string): Promise<void> {
    await this.call('DELETE', `organizations/${segment(orgId)}/snapshots/${segment(name)}`);
  }

  /** The organization as a fixtures value (docs/fixtures.md). */
  exportOrganization(orgId: string): Promise<{ version: number; organizations: unknown[] }> {
    return this.call('GET', `organizations/${segment(orgId)}/fixture`);
  }

  /** A new organization made from this one (docs/control-api.md): new user ids, one token for its primary user, no webhooks. */
  copyOrganization(orgId: string, name?: string): Promise<{ organization: LoadedOrganizationSummary; token: string }> {
    return this.call('POST', `organizations/${segment(orgId)}/copy`, name === undefined ? {} : { name });
  }

  // Webhooks (docs/webhooks.md).

  /** Makes a webhook of the organization (`definition` as POST /api/webhooks takes it, `secret` allowed); returns it with its secret. */
  createWebhook(orgId: string, definition: Record<string, unknown>): Promise<WebhookSummary & { secret: string }> {
    return this.call('POST', `organizations/${segment(orgId)}/webhooks`, definition);
  }

  /**
   * Gives a webhook a new signing secret, returned with it; the one replaced keeps signing beside it
   * for `expiresInHours` (default 24, 0 to 168); `secret` may choose the new one.
   */
  rotateWebhookSecret(orgId: string, webhookId: string, body: { expiresInHours?: number; secret?: string } = {}): Promise<WebhookSummary & { secret: string }> {
    return this.call('POST', `organizations/${segment(orgId)}/webhooks/${segment(webhookId)}/rotate-secret`, body);
  }

  async listWebhooks(orgId: string): Promise<WebhookSummary[]> {
    return (await this.call<{ items: WebhookSummary[] }>('GET', `organizations/${segment(orgId)}/webhooks`)).items;
  }

  async deleteWebhook(orgId: string, webhookId: string): Promise<void> {
    await this.call('DELETE', `organizations/${segment(orgId)}/webhooks/${segment(webhookId)}`);
  }

  /** A webhook's delivery log, newest first (at most `limit`, 1 to 1,000, default 50); with `state`, the deliveries in that state only. */
  async webhookDeliveries(orgId: string, webhookId: string, options: { state?: 'pending' | 'delivered' | 'failed'; limit?: number } = {}): Promise<Array<Record<string, unknown>>> {
    const query = queryOf({ state: options.state || undefined, limit: options.limit });
    return (await this.call<{ items: Array<Record<string, unknown>> }>('GET', `organizations/${segment(orgId)}/webhooks/${segment(webhookId)}/deliveries${query}`)).items;
  }

  /** Makes a webhook disabled for failing active again, its failures forgotten (one that is active stays so). */
  enableWebhook(orgId: string, webhookId: string): Promise<WebhookSummary> {
    return this.call('POST', `organizations/${segment(orgId)}/webhooks/${segment(webhookId)}/enable`);
  }

  /** Sends a failed delivery again: pending, due now on the organization's clock, its attempts from 0 (409 DELIVERY_NOT_FAILED for another). */
  retryWebhookDelivery(orgId: string, webhookId: string, deliveryId: string): Promise<Record<string, unknown>> {
    return this.call('POST', `organizations/${segment(orgId)}/webhooks/${segment(webhookId)}/deliveries/${segment(deliveryId)}/retry`);
  }

  /** Sends the webhook a test event (type webhook.test): returns its delivery, pending; flushWebhooks attempts it. */
  testWebhook(orgId: string, webhookId: string): Promise<Record<string, unknown>> {
    return this.call('POST', `organizations/${segment(orgId)}/webhooks/${segment(webhookId)}/test`);
  }

  /** Attempts every delivery that is due now and resolves once they are recorded. */
  async flushWebhooks(): Promise<void> {
    await this.call('POST', 'webhooks/flush');
  }

  /** Loads a fixtures value; organizations that exist are left as they are. */
  async loadFixtures(fixtures: unknown): Promise<LoadedOrganizationSummary[]> {
    return (await this.call<{ organizations: LoadedOrganizationSummary[] }>('POST', 'fixtures', fixtures)).organizations;
  }

  // Clocks (docs/control-api.md § Clock): the server's, and each organization's own. Each call takes
  // `orgId`, null for the server's clock (as the CLI's --org chooses), or is named for one of the two.

  /** The server's clock and every organization's own clock. */
  async listClocks(): Promise<ClockState[]> {
    return (await this.call<{ items: ClockState[] }>('GET', 'clocks')).items;
  }

  /** An organization's clock, or the server's (null); as getOrganizationClock and getServerClock. */
  getClock(orgId: string | null): Promise<ClockState> {
    return this.call('GET', clockPath(orgId));
  }

  /** As freezeOrganizationClock, or freezeServerClock with null. */
  freezeClock(orgId: string | null, at?: string): Promise<ClockState> {
    return this.call('POST', `${clockPath(orgId)}/freeze`, at === undefined ? undefined : { at });
  }

  /** As setOrganizationClock, or setServerClock with null. */
  setClock(orgId: string | null, at: string, options: { frozen?: boolean } = {}): Promise<ClockState> {
    return this.call('POST', `${clockPath(orgId)}/set`, { at, ...options });
  }

  /** As advanceOrganizationClock, or advanceServerClock with null. */
  advanceClock(orgId: string | null, by: string | number): Promise<ClockState> {
    return this.call('POST', `${clockPath(orgId)}/advance`, typeof by === 'number' ? { ms: by } : { by });
  }

  /** As resetOrganizationClock, or resetServerClock with null. */
  resetClock(orgId: string | null): Promise<ClockState> {
    return this.call('DELETE', clockPath(orgId));
  }

  /** The server's clock. */
  getServerClock(): Promise<ClockState> {
    return this.getClock(null);
  }

  /** Stops the server's clock at `at` (ISO 8601; UTC without a zone), or where it stands. */
  freezeServerClock(at?: string): Promise<ClockState> {
    return this.freezeClock(null, at);
  }

  /** Sets the server's clock to `at`; it runs on from there unless it is frozen or `frozen` is true. */
  setServerClock(at: string, options: { frozen?: boolean } = {}): Promise<ClockState> {
    return this.setClock(null, at, options);
  }

  /** Moves the server's clock by `by`: a duration such as '90s', '25h', '1d2h' or '-1h', or milliseconds. */
  advanceServerClock(by: string | number): Promise<ClockState> {
    return this.advanceClock(null, by);
  }

  /** Puts the server's clock back to real time (organizations' own clocks stay). */
  resetServerClock(): Promise<ClockState> {
    return this.resetClock(null);
  }

  /** The organization's clock: its own, or the server's it follows (`inherited`). */
  getOrganizationClock(orgId: string): Promise<ClockState> {
    return this.getClock(orgId);
  }

  /** Stops the organization's own clock at `at`, or where it stands; its requests follow it rather than the server's. */
  freezeOrganizationClock(orgId: string, at?: string): Promise<ClockState> {
    return this.freezeClock(orgId, at);
  }

  /** Sets the organization's own clock to `at`; it runs on from there unless it is frozen or `frozen` is true. */
  setOrganizationClock(orgId: string, at: string, options: { frozen?: boolean } = {}): Promise<ClockState> {
    return this.setClock(orgId, at, options);
  }

  /** Moves the organization's own clock by `by`: a duration such as '90s', '25h', '1d2h' or '-1h', or milliseconds. */
  advanceOrganizationClock(orgId: string, by: string | number): Promise<ClockState> {
    return this.advanceClock(orgId, by);
  }

  /** Removes the organization's own clock: it follows the server's again. */
  resetOrganizationClock(orgId: string): Promise<ClockState> {
    return this.resetClock(orgId);
  }

  // Fault rules (docs/control-api.md § Faults).

  /** The fault rules in the order they are tried; with `orgId`, that organization's only. */
  async listFaultRules(options: { orgId?: string } = {}): Promise<FaultRule[]> {
    return (await this.call<{ items: FaultRule[] }>('GET', `faults${queryOf(options)}`)).items;
  }

  /** Adds a fault rule (it needs a `status`, a `latencyMs` or both); resolves to it with its id and seed. */
  addFaultRule(rule: FaultRuleInput): Promise<FaultRule> {
    return this.call('POST', 'faults', rule);
  }

  /** Removes a fault rule (404 FAULT_RULE_NOT_FOUND when none has that id). */
  async removeFaultRule(ruleId: string): Promise<void> {
    await this.call('DELETE', `faults/${segment(ruleId)}`);
  }

  /** Removes every fault rule (with `orgId`, that organization's); resolves to how many were removed. */
  async clearFaultRules(options: { orgId?: string } = {}): Promise<number> {
    return (await this.call<{ removed: number }>('DELETE', `faults${queryOf(options)}`)).removed;
  }

  // The request journal and the outbox (docs/control-api.md § Journal).

  /** The organization's last requests, newest first, those `filter` names only (none while JOURNAL_SIZE is 0). */
  async listJournal(orgId: string, filter: JournalFilter = {}): Promise<JournalEntry[]> {
    return (await this.getJournal(orgId, filter)).items;
  }

  /** The whole reply of listJournal: the entries, and the server's JOURNAL_SIZE (`size`, 0 when it keeps none) and body limit. */
  getJournal(orgId: string, filter: JournalFilter = {}): Promise<JournalPage> {
    return this.call('GET', `organizations/${segment(orgId)}/journal${queryOf(filter)}`);
  }

  /** Forgets the organization's journal. */
  async clearJournal(orgId: string): Promise<void> {
    await this.call('DELETE', `organizations/${segment(orgId)}/journal`);
  }

  /** The messages sent about the organization, newest first; waits for the usage notices its requests so far decided on. */
  async listOutbox(orgId: string): Promise<OutboxMessage[]> {
    return (await this.call<{ items: OutboxMessage[] }>('GET', `organizations/${segment(orgId)}/outbox`)).items;
  }

  /** Forgets the organization's outbox (the messages stay sent). */
  async clearOutbox(orgId: string): Promise<void> {
    await this.call('DELETE', `organizations/${segment(orgId)}/outbox`);
  }
}

/**
 * The client the CLI uses: the address from `url` or ORCHARD_URL, else `localServer()` (the CLI's:
 * the HOST and PORT the server reads, cli.ts), the key from ADMIN_KEY.
 */
export function controlClientFrom(env: NodeJS.ProcessEnv, url: string | undefined, localServer: () => string): ControlClient {
  const base = url ?? env.ORCHARD_URL ?? localServer();
  // A mistyped address is the user's to fix, not a server that does not answer (UNREACHABLE).
  if (!URL.canParse(base) || !['http:', 'https:'].includes(new URL(base).protocol)) {
    throw new ControlError('PARAM_INVALID', `'${base}' is not a server's address (--url or ORCHARD_URL): give an http(s) URL such as http://127.0.0.1:8080.`, null);
  }
  const adminKey = env.ADMIN_KEY;
  if (!adminKey) throw new ControlError('ADMIN_KEY_MISSING', 'Set ADMIN_KEY to the running server\'s admin key to use this command.', null);
  return new ControlClient({ url: base, adminKey });
}
