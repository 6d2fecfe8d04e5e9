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
  readonly status: 'created' | 'existing';
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

const segment = (s: string): string => encodeURIComponent(s);

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

  /** A webhook's delivery log, newest first; with `state`, the deliveries in that state only. */
  async webhookDeliveries(orgId: string, webhookId: string, options: { state?: 'pending' | 'delivered' | 'failed' } = {}): Promise<Array<Record<string, unknown>>> {
    const query = options.state ? `?state=${segment(options.state)}` : '';
    return (await this.call<{ items: Array<Record<string, unknown>> }>('GET', `organizations/${segment(orgId)}/webhooks/${segment(webhookId)}/deliveries${query}`)).items;
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
}

/** The client the CLI uses: the address from `url` or ORCHARD_URL (else 127.0.0.1 on PORT or 8080), the key from ADMIN_KEY. */
export function controlClientFrom(env: NodeJS.ProcessEnv, url?: string): ControlClient {
  const adminKey = env.ADMIN_KEY;
  if (!adminKey) throw new ControlError('ADMIN_KEY_MISSING', 'Set ADMIN_KEY to the running server\'s admin key to use this command.', null);
  return new ControlClient({ url: url ?? env.ORCHARD_URL ?? `http://127.0.0.1:${env.PORT || 8080}`, adminKey });
}
