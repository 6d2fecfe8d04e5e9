// Who is signed in, kept in sessionStorage: the tab's own, gone when it closes, never sent anywhere
// but to this server. A token session is one organization's view with the token's role; an admin
// session (the ADMIN_KEY) sees every organization through the control API.

import type { Me } from './api.js';

/** A token the console made for an organization's primary user, so the admin key can open its data. */
export interface DataToken {
  readonly token: string;
  readonly tokenId: string;
  readonly userEmail: string;
}

export type Session =
  | { readonly kind: 'token'; readonly token: string; readonly me: Me }
  | { readonly kind: 'admin'; readonly key: string; readonly orgId: string | null; readonly dataTokens: Readonly<Record<string, DataToken>> };

const KEY = 'orchard-console-session';

export function loadSession(): Session | null {
  try {
    const text = sessionStorage.getItem(KEY);
    return text ? (JSON.parse(text) as Session) : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}

/** Per-tab preferences (chosen columns and the like), beside the session. */
export function loadPreference<T>(name: string, fallback: T): T {
  try {
    const text = sessionStorage.getItem(`orchard-console-${name}`);
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function savePreference(name: string, value: unknown): void {
  sessionStorage.setItem(`orchard-console-${name}`, JSON.stringify(value));
}
