// The console's only way to the server: the public API with an organization's token (tokenid) and
// the control API with the admin key (Authorization: Bearer), both on this origin. Errors come back
// as ApiError with the server's stable code (X-Error-Code) and its message.

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
    this.name = 'ApiError';
  }

  /** The 1-based position a QUERY_SYNTAX message names ("… at position 12"), if any. */
  get position(): number | null {
    const m = /at position (\d+)/.exec(this.message);
    return m ? Number(m[1]) : null;
  }
}

/** A refusal of the token itself: unknown, revoked (or rotated), or its user disabled. */
export const tokenRefused = (err: unknown): err is ApiError => err instanceof ApiError && err.code === 'TOKEN_INVALID';

/**
 * A refusal of the admin key itself (401 from the control API): not the server's ADMIN_KEY (the
 * server restarted with another one, say), or none sent.
 */
const adminKeyRefused = (err: ApiError): boolean => err.code === 'ADMIN_KEY_INVALID' || err.code === 'ADMIN_KEY_MISSING';

/**
 * The server has no control API (CONTROL_API_OFF, made by `controlApi` below): it runs without
 * ADMIN_KEY (restarted without it, say), so no admin key can work on it.
 */
export const controlApiOff = (err: ApiError): boolean => err.code === 'CONTROL_API_OFF';

/** What ends an admin-key session: its key refused, or no control API left to take it. */
export const adminKeyEnded = (err: unknown): err is ApiError => err instanceof ApiError && (adminKeyRefused(err) || controlApiOff(err));

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function call(method: Method, url: string, headers: Record<string, string>, body?: unknown, signal?: AbortSignal): Promise<Response> {
  const init: RequestInit = { method, headers: { ...headers, accept: 'application/json' }, cache: 'no-store', ...(signal ? { signal } : {}) };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  return fetch(url, init);
}

/** An error's body: the public API's `{Message}` (v3: `{message}`), the control API's `{error: {code, message}}`. */
interface ErrorBody { Message?: string; error?: { message?: string }; message?: string }

async function errorOf(res: Response, control = false): Promise<ApiError> {
  const code = res.headers.get('x-error-code') ?? `HTTP_${res.status}`;
  let message = `${res.status} ${res.statusText}`;
  let body: ErrorBody | null = null;
  try {
    body = (await res.json()) as ErrorBody | null;
    message = body?.Message ?? body?.error?.message ?? body?.message ?? message;
  } catch {
    // Not JSON: the status line says it.
  }
  // The control API answers each of its errors, an unknown route's 404 included, as {error: {code,
  // message}}. A 404 in another shape is the server's own: it runs without ADMIN_KEY, so no
  // /_orchard/ path is a route (the CLI's ControlClient tells it the same way, src/control-client.ts).
  if (control && res.status === 404 && typeof body?.error?.message !== 'string') {
    return new ApiError(404, 'CONTROL_API_OFF', 'This server has no control API: it runs without ADMIN_KEY. Sign in with an organization\'s API token, or restart the server with ADMIN_KEY set.');
  }
  return new ApiError(res.status, code, message);
}

/** The public API under an organization's token: the `data` of the `{success, data}` envelope. */
export async function publicApi<T>(token: string, method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const res = await call(method, path, { tokenid: token }, body, signal);
  if (!res.ok) throw await errorOf(res);
  const json = (await res.json()) as { data: T };
  return json.data;
}

/** The control API under /_orchard/ with the admin key: the reply as it is (null for 204); CONTROL_API_OFF when the server has none. */
export async function controlApi<T>(key: string, method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const res = await call(method, `/_orchard${path}`, { authorization: `Bearer ${key}` }, body, signal);
  if (!res.ok) throw await errorOf(res, true);
  return (res.status === 204 ? null : await res.json()) as T;
}

// The shapes the console reads (the OpenAPI documents at /openapi.json and /_orchard/openapi.json have them all).

export type Permission = 'read' | 'create' | 'update' | 'delete';
export type FieldType = 'text' | 'number' | 'date' | 'datetime' | 'picklist' | 'lookup' | 'email' | 'telephone' | 'url' | 'textarea' | 'html';

export interface Me {
  organization: { id: string; name: string; plan: string; minuteLimit: number; dailyCap: number };
  user: { id: string; email: string; fullname: string; role: string };
}

export interface ObjectSummary {
  objectType: number;
  systemName: string;
  name: string;
  collectionName: string;
  primaryKey: string;
  primaryField: string;
  readOnly: boolean;
  permissions: Permission[];
  records: number | null;
}

export interface Field {
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  /** A create may leave it out: the server fills it. */
  hasDefault?: boolean;
  readOnly: boolean;
  maxLength: number | null;
  precision?: number;
  options?: Array<{ value: number; label: string }>;
  target?: { objectType: number; systemName: string; primaryKey: string; primaryField: string };
  derivedFrom?: string;
}

export interface ObjectDetail extends ObjectSummary {
  fields: Field[];
}

export type RecordRow = Record<string, string | number | null>;

export interface QueryPage {
  Data: RecordRow[];
  IsLastPage: boolean;
  PageNum: number;
}

export interface Window {
  quota: number;
  used: number;
  remaining: number;
  resetSeconds: number;
}

export interface Usage {
  counted: boolean;
  minute: Window | null;
  day: (Window & { day: string }) | null;
  days: Array<{ day: string; count: number }>;
  notices: Array<{ day: string; threshold: number; used: number; cap: number; claimedAt: string; sentAt: string | null }>;
}

export interface Organization {
  id: string;
  name: string;
  plan: string;
  minuteLimit: number;
  primaryUserId: string | null;
  createdAt: string;
}

export interface User {
  id: string;
  orgId: string;
  email: string;
  fullname: string;
  role: string;
  disabled: boolean;
  disabledAt: string | null;
  createdAt: string;
}

export interface TokenInfo {
  id: string;
  userId: string;
  last4: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Role {
  name: string;
  builtIn: boolean;
  grants: Record<string, { permissions: Permission[]; hidden: string[]; readOnly: string[] }>;
  updatedAt: string | null;
}

export interface JournalEntry {
  at: string;
  requestId: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: string | null;
  status: number;
  reply: string | null;
  durationMs: number;
  truncated: boolean;
}

export interface ClockState {
  orgId: string | null;
  mode: 'real' | 'frozen' | 'moved';
  now: string;
  offsetMs: number;
  inherited: boolean;
}

export interface FaultRule {
  id: string;
  orgId?: string;
  methods?: string[];
  families?: string[];
  object?: string;
  probability?: number;
  count?: number;
  status?: number;
  window?: string;
  latencyMs?: number;
  seed: number;
  remaining: number | null;
  matched: number;
  fired: number;
}

export interface Snapshot {
  name: string;
  createdAt: string;
  bytes: number;
}
