// Sign in with an organization's API token (its view, with the token's role) or with the server's
// admin key (every organization, and the tools). Either is checked against the server before it is
// kept, for this tab only.

import { useEffect, useRef, useState } from 'preact/hooks';
import { controlApi, controlApiOff, publicApi, type ApiError, type Me, type Organization } from '../api.js';
import type { Session } from '../session.js';
import { ErrorBox, useAction } from '../ui.js';

/** Why the last session ended: the refusal of its token or admin key, or a server left without the control API. */
export interface Ended {
  readonly error: ApiError;
  readonly kind: Session['kind'];
  /** The data tokens an admin session had made, left live: revoking them needed the key. */
  readonly tokensLeft: number;
}

/** `ended`: the refusal that ended the last session (its token or key no longer works), shown until the next try. */
export function SignIn({ onSignIn, ended = null }: { onSignIn: (session: Session) => void; ended?: Ended | null }) {
  // The kind of secret the ended session had: the one to give again; a token when the server no
  // longer has the control API, as no admin key works there.
  const [kind, setKind] = useState<'token' | 'admin'>(ended && !controlApiOff(ended.error) ? ended.kind : 'token');
  const [secret, setSecret] = useState('');
  const action = useAction();
  const [told, setTold] = useState(ended);
  // autofocus works on a page's load only: after signing out, the field is focused here.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);

  const submit = (e: Event) => {
    e.preventDefault();
    setTold(null);
    const value = secret.trim();
    void action.run(async () => {
      if (kind === 'token') {
        const me = await publicApi<Me>(value, 'GET', '/api/me');
        onSignIn({ kind: 'token', token: value, me });
      } else {
        const orgs = await controlApi<{ items: Organization[] }>(value, 'GET', '/organizations');
        onSignIn({ kind: 'admin', key: value, orgId: orgs.items[0]?.id ?? null, dataTokens: {} });
      }
    });
  };

  return (
    <main class="sign-in" id="main">
      <h1>Orchard console</h1>
      {told?.kind === 'token' && (
        <div class="error" role="alert">
          <code class="code">{told.error.code}</code> The API token this tab was signed in with no longer works: {told.error.message} Sign in again, with another token or the admin key.
        </div>
      )}
      {told?.kind === 'admin' && (
        <div class="error" role="alert">
          {controlApiOff(told.error) ? (
            <><code class="code">{told.error.code}</code> The server no longer runs the control API: it was restarted without ADMIN_KEY, so the admin key this tab was signed in with no longer works. Sign in with an organization's API token, or restart the server with ADMIN_KEY set and sign in with that key.</>
          ) : (
            <><code class="code">{told.error.code}</code> The admin key this tab was signed in with was refused: {told.error.message} Was the server restarted with another ADMIN_KEY? Sign in again with the key it runs with now, or with an organization's API token.</>
          )}
          {told.tokensLeft === 1 && ` The token this tab made to open an organization's data could not be revoked: revoke it under Admin, among its primary user's tokens${controlApiOff(told.error) ? ', once the server runs with ADMIN_KEY again' : ''}.`}
          {told.tokensLeft > 1 && ` The ${told.tokensLeft} tokens this tab made to open organizations' data could not be revoked: revoke them under Admin, among their primary users' tokens${controlApiOff(told.error) ? ', once the server runs with ADMIN_KEY again' : ''}.`}
        </div>
      )}
      <form onSubmit={submit}>
        <fieldset>
          <legend>Sign in with</legend>
          <label class="choice">
            <input type="radio" name="kind" value="token" checked={kind === 'token'} onChange={() => setKind('token')} />
            an organization's API token
          </label>
          <label class="choice">
            <input type="radio" name="kind" value="admin" checked={kind === 'admin'} onChange={() => setKind('admin')} />
            the admin key (ADMIN_KEY)
          </label>
        </fieldset>
        <label class="field">
          <span>{kind === 'token' ? 'API token' : 'Admin key'}</span>
          <input
            type="password" name="secret" autoComplete="off" required autoFocus ref={field}
            value={secret} onInput={(e) => setSecret((e.target as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" class="primary" disabled={action.busy}>{action.busy ? 'Signing in…' : 'Sign in'}</button>
        <ErrorBox error={action.error} />
        <p class="muted small">
          {kind === 'token'
            ? 'The token is kept in this tab only (sessionStorage) and sent only to this server. You see its organization with its role.'
            : 'The key is kept in this tab only. You see every organization, its requests and the test tools; opening an organization\'s data makes a token for its primary user, revoked when you sign out.'}
        </p>
      </form>
    </main>
  );
}
