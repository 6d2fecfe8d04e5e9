// What every view is given: the current organization and the two ways to call the server for it.
// Signed in with a token, data and usage go through the public API; signed in with the admin key,
// usage and the tools go through the control API and data through a token the console creates for
// the organization's primary user (shown in the Data view, revoked when signing out, made again when
// it is revoked meanwhile).

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { adminKeyEnded, controlApi, publicApi, tokenRefused, type ApiError, type Organization, type TokenInfo, type Usage } from './api.js';
import type { DataToken, Session } from './session.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A call of the control API with an admin session's key. */
export type ControlCall = <T>(method: Method, path: string, body?: unknown, signal?: AbortSignal) => Promise<T>;

export interface Console {
  readonly session: Session;
  readonly admin: boolean;
  /** The organization the views show. */
  readonly org: { readonly id: string; readonly name: string; readonly plan: string; readonly minuteLimit: number };
  /** The role the data views act with. */
  readonly role: string;
  /** Whose token the data views use, for an admin session (null for a token session). */
  readonly dataUser: string | null;
  /** The public API for this organization. */
  data<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T>;
  /** The control API (admin sessions only). */
  control<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T>;
  usage(signal?: AbortSignal): Promise<Usage>;
  /** Re-reads the organizations (after a change of plan or limit). */
  refresh(): void;
}

export const ConsoleContext = createContext<Console | null>(null);

export function useConsole(): Console {
  const c = useContext(ConsoleContext);
  if (!c) throw new Error('useConsole outside the console');
  return c;
}

/**
 * Passes a refusal of the session's own token or key (`isRefusal`) on to `refused`, which ends the
 * session, and throws it too.
 */
export function passingRefusal(isRefusal: (err: unknown) => err is ApiError, refused: (err: ApiError) => void) {
  return <T>(call: Promise<T>): Promise<T> => call.catch((err: unknown) => {
    if (isRefusal(err)) refused(err);
    throw err;
  });
}

/**
 * The control API with an admin session's key: a refusal of the key (ADMIN_KEY_INVALID), or a server
 * left without a control API (CONTROL_API_OFF), is passed on to `refused`.
 */
export function controlWith(key: string, refused: (err: ApiError) => void): ControlCall {
  const told = passingRefusal(adminKeyEnded, refused);
  return (method, path, body, signal) => told(controlApi(key, method, path, body, signal));
}

/** An admin session's token for an organization's data: made once per tab and organization. */
export async function dataTokenFor(key: string, org: Organization): Promise<DataToken> {
  if (!org.primaryUserId) throw new Error(`Organization ${org.name} has no primary user whose token the console could use.`);
  const users = await controlApi<{ items: Array<{ id: string; email: string }> }>(key, 'GET', `/organizations/${org.id}/users`);
  const user = users.items.find((u) => u.id === org.primaryUserId);
  const made = await controlApi<{ token: string; created: { id: string } }>(key, 'POST', `/users/${org.primaryUserId}/tokens`);
  return { token: made.token, tokenId: made.created.id, userEmail: user?.email ?? org.primaryUserId };
}

/**
 * Whether an admin session's data token was revoked (under Admin, say) or its user is no longer the
 * primary user: then a new one is worth making. A disabled user's token is not: a new one would be
 * refused too.
 */
export async function dataTokenRevoked(key: string, org: Organization, stale: DataToken): Promise<boolean> {
  if (!org.primaryUserId) return false;
  const tokens = await controlApi<{ items: TokenInfo[] }>(key, 'GET', `/users/${org.primaryUserId}/tokens`);
  const listed = tokens.items.find((t) => t.id === stale.tokenId);
  return !listed || listed.revokedAt !== null;
}

/** An admin session's data tokens: the one in use, and a new one for a token found revoked (null when it was not). */
export interface DataTokens {
  current(): Promise<DataToken>;
  renew(stale: DataToken): Promise<DataToken | null>;
}

/**
 * `refused`: told when the session's token is refused (TOKEN_INVALID), or its admin key
 * (ADMIN_KEY_INVALID, or CONTROL_API_OFF: the server no longer has the control API), which ends the session.
 * `primaryRole`: for an admin session, the role of the organization's primary user, once read.
 */
export function consoleFor(session: Session, org: Organization | null, tokens: DataTokens, refresh: () => void, refused: (err: ApiError) => void, primaryRole: string | null = null): Console | null {
  if (session.kind === 'token') {
    const { token, me } = session;
    // No other token to fall back on, unlike an admin session's: the refusal is passed on, and thrown too.
    const told = passingRefusal(tokenRefused, refused);
    return {
      session, admin: false, refresh,
      org: { id: me.organization.id, name: me.organization.name, plan: me.organization.plan, minuteLimit: me.organization.minuteLimit },
      role: me.user.role,
      dataUser: null,
      data: (method, path, body, signal) => told(publicApi(token, method, path, body, signal)),
      control: () => Promise.reject(new Error('The control API needs the admin key.')),
      usage: (signal) => told(publicApi<Usage>(token, 'GET', '/api/usage', undefined, signal)),
    };
  }
  if (!org) return null;
  const { key } = session;
  const made = session.dataTokens[org.id];
  // A data token refused is replaced (below); the key refused ends the session, as no call can replace it.
  const control = controlWith(key, refused);
  const told = passingRefusal(adminKeyEnded, refused);
  return {
    session, admin: true, refresh,
    org: { id: org.id, name: org.name, plan: org.plan, minuteLimit: org.minuteLimit },
    // The token the data views use is the primary user's: their role, not the admin key's (admin until read).
    role: primaryRole ?? 'admin',
    dataUser: made?.userEmail ?? null,
    // Making or replacing the data token calls the control API with the key.
    data: (method, path, body, signal) => told((async () => {
      const token = await tokens.current();
      try {
        return await publicApi(token.token, method, path, body, signal);
      } catch (err) {
        if (!tokenRefused(err)) throw err;
        // Revoked since it was made: once more with a new one.
        const renewed = await tokens.renew(token);
        if (!renewed) throw err;
        return publicApi(renewed.token, method, path, body, signal);
      }
    })()),
    control,
    usage: (signal) => control<Usage>('GET', `/organizations/${org.id}/usage`, undefined, signal),
  };
}
