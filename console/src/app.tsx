// The console's frame: sign-in, then a header (organization, role, sign-out), the views' links and
// the view the route names. Views reach the server through the context (context.ts).

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { controlApi, publicApi, tokenRefused, type ApiError, type Me, type Organization, type User } from './api.js';
import { ConsoleContext, consoleFor, controlWith, dataTokenFor, dataTokenRevoked } from './context.js';
import { focusNextHeading, href, navigate, takeHeadingFocus, useRoute } from './router.js';
import { loadSession, saveSession, type DataToken, type Session } from './session.js';
import { ErrorBox, Loading, useLoad, useStackedLabels } from './ui.js';
import { mayDropEdits } from './unsaved.js';
import { SignIn, type Ended } from './views/sign-in.js';
import { ObjectsView } from './views/objects.js';
import { RecordsView } from './views/records.js';
import { RecordView } from './views/record.js';
import { UsageView } from './views/usage.js';
import { RequestsView } from './views/requests.js';
import { ToolkitView } from './views/toolkit.js';
import { AdminView } from './views/admin.js';
import { OrganizationsView } from './views/organizations.js';
import { WebhooksView } from './views/webhooks.js';

interface NavItem {
  readonly route: string;
  readonly label: string;
  /** Only for the admin key. */
  readonly admin?: boolean;
  /** Only when the data views act with the admin role (webhooks are the admin role's). */
  readonly adminRole?: boolean;
}

const NAV: readonly NavItem[] = [
  { route: 'orgs', label: 'Organizations', admin: true },
  { route: 'data', label: 'Data' },
  { route: 'usage', label: 'Usage' },
  { route: 'webhooks', label: 'Webhooks', adminRole: true },
  { route: 'requests', label: 'Requests', admin: true },
  { route: 'toolkit', label: 'Toolkit', admin: true },
  { route: 'admin', label: 'Admin', admin: true },
];

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const sessionRef = useRef(session);
  const update = (next: Session | null) => {
    sessionRef.current = next;
    saveSession(next);
    setSession(next);
  };
  // Why the last session ended, when it was not signed out: shown by the sign-in form.
  const [ended, setEnded] = useState<Ended | null>(null);
  // Signed in, the first view's heading takes the focus (ui.tsx, PageTitle).
  const signIn = (next: Session) => {
    focusNextHeading();
    setEnded(null);
    update(next);
  };
  // A token refused (revoked, rotated, its user disabled) ends its session: nothing more can be done
  // with it. So does an admin key refused (the server restarted with another ADMIN_KEY), or a
  // server left without a control API (restarted without ADMIN_KEY): the data tokens the session
  // made cannot be revoked without it, and stay listed under Admin. The route
  // stays, so signing in again goes back to the view. A late refusal of a session already left
  // changes nothing.
  const refused = (ending: Session) => (err: ApiError) => {
    const now = sessionRef.current;
    if (!now || secretOf(now) !== secretOf(ending)) return;
    setEnded({ error: err, kind: now.kind, tokensLeft: now.kind === 'admin' ? Object.keys(now.dataTokens).length : 0 });
    update(null);
  };
  if (!session) return <SignIn onSignIn={signIn} ended={ended} />;
  return <SignedIn session={session} update={update} refused={refused(session)} />;
}

/** What a session signed in with: its token or the admin key. */
const secretOf = (s: Session): string => (s.kind === 'token' ? s.token : s.key);

function SignedIn({ session, update, refused }: { session: Session; update: (s: Session | null) => void; refused: (err: ApiError) => void }) {
  const route = useRoute();
  // An admin session's calls of its own (the organizations, the primary user's role, a new organization).
  const control = useMemo(() => (session.kind === 'admin' ? controlWith(session.key, refused) : null), [session.kind === 'admin' ? session.key : null]);
  const orgs = useLoad(
    (signal) => (control ? control<{ items: Organization[] }>('GET', '/organizations', undefined, signal).then((r) => r.items) : Promise.resolve([])),
    [session.kind === 'admin' ? session.key : null],
  );
  const orgId = session.kind === 'admin' ? session.orgId ?? orgs.value?.[0]?.id ?? null : null;
  const org = orgs.value?.find((o) => o.id === orgId) ?? null;
  // The data views of an admin session act with the primary user's role (its token is theirs): read
  // with the organization and again at each move to another view, as it may change under Admin.
  const primaryRole = useLoad(
    (signal) => (control && org?.primaryUserId
      ? control<{ items: User[] }>('GET', `/organizations/${org.id}/users`, undefined, signal).then((r) => r.items.find((u) => u.id === org.primaryUserId)?.role ?? null)
      : Promise.resolve(null)),
    [session.kind === 'admin' ? session.key : null, org?.id ?? null, org?.primaryUserId ?? null, route[0]],
  );

  // One token per organization and tab, made when its data is first opened, and again when it is
  // found revoked (context.ts).
  const pending = useRef(new Map<string, Promise<DataToken>>());
  const renewing = useRef(new Map<string, Promise<DataToken | null>>());
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const keep = (next: Session) => {
    sessionRef.current = next;
    update(next);
  };
  const current = (): Promise<DataToken> => {
    const s = sessionRef.current;
    if (s.kind !== 'admin' || !org) return Promise.reject(new Error('no organization'));
    const made = s.dataTokens[org.id];
    if (made) return Promise.resolve(made);
    let p = pending.current.get(org.id);
    if (!p) {
      p = dataTokenFor(s.key, org).then((t) => {
        const now = sessionRef.current;
        if (now.kind === 'admin') keep({ ...now, dataTokens: { ...now.dataTokens, [org.id]: t } });
        pending.current.delete(org.id);
        return t;
      });
      p.catch(() => pending.current.delete(org.id));
      pending.current.set(org.id, p);
    }
    return p;
  };
  // Calls failing together with one revoked token make one new token between them.
  const renew = (stale: DataToken): Promise<DataToken | null> => {
    const s = sessionRef.current;
    if (s.kind !== 'admin' || !org) return Promise.resolve(null);
    let p = renewing.current.get(stale.tokenId);
    if (!p) {
      p = dataTokenRevoked(s.key, org, stale).then((revoked) => {
        if (!revoked) return null;
        const now = sessionRef.current;
        if (now.kind === 'admin' && now.dataTokens[org.id]?.tokenId === stale.tokenId) {
          const { [org.id]: _, ...rest } = now.dataTokens;
          keep({ ...now, dataTokens: rest });
        }
        return current();
      });
      renewing.current.set(stale.tokenId, p);
    }
    return p;
  };
  // A token's role and plan may change after sign-in (under Admin, say): read again on load and at
  // each move to another view, so the views and the header follow.
  useEffect(() => {
    if (session.kind !== 'token') return undefined;
    const controller = new AbortController();
    publicApi<Me>(session.token, 'GET', '/api/me', undefined, controller.signal).then((me) => {
      const now = sessionRef.current;
      if (now.kind === 'token' && JSON.stringify(now.me) !== JSON.stringify(me)) keep({ ...now, me });
    }, (err: unknown) => {
      if (tokenRefused(err)) refused(err);
    });
    return () => controller.abort();
  }, [route[0]]);
  const ctx = useMemo(() => consoleFor(session, org, { current, renew }, orgs.reload, refused, primaryRole.latest ?? null), [session, org, orgs.reload, primaryRole.latest]);

  // Keyboard and screen-reader users land on the new view's heading (ui.tsx, PageTitle), or on what
  // the route opened within a view when it marks its own heading so (a request's detail: on a phone
  // it stands below the whole list, out of sight).
  const main = useRef<HTMLElement>(null);
  useStackedLabels(main);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    focusNextHeading();
    const heading = main.current?.querySelector<HTMLElement>('[data-opened]') ?? main.current?.querySelector<HTMLElement>('h1');
    if (heading && takeHeadingFocus()) heading.focus();
  }, [route.join('/')]);

  const signOut = async () => {
    // Unsaved edits of a record would be lost: a no keeps the session, and them.
    if (!mayDropEdits((what) => `Sign out? The unsaved changes to ${what} will be lost.`)) return;
    if (session.kind === 'admin') {
      // The tokens made for data views are revoked; a failure leaves them listed under Admin.
      await Promise.allSettled(Object.values(session.dataTokens).map((t) => controlApi(session.key, 'POST', `/tokens/${t.tokenId}/revoke`)));
    }
    update(null);
    navigate('');
  };

  // Another organization's views replace the one shown: unsaved edits of a record ask first.
  const chooseOrg = (id: string): boolean => {
    if (session.kind !== 'admin' || id === orgId) return true;
    if (!mayDropEdits((what) => `Show another organization? The unsaved changes to ${what} will be lost.`)) return false;
    update({ ...session, orgId: id });
    return true;
  };

  const section = route[0] ?? (session.kind === 'admin' && !org ? 'orgs' : 'data');
  const nav = NAV.filter((n) => (!n.admin || session.kind === 'admin') && (!n.adminRole || (ctx?.role ?? 'admin') === 'admin'));

  return (
    <ConsoleContext.Provider value={ctx}>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); main.current?.focus(); }}>Skip to content</a>
      <header class="top">
        <a class="brand" href={href('data')}>Orchard</a>
        {session.kind === 'admin' ? (
          <label class="org-pick">
            <span class="sr-only">Organization</span>
            <select value={orgId ?? ''} onChange={(e) => {
              const select = e.target as HTMLSelectElement;
              // Kept (a no to the question): the select shows again the organization still shown.
              if (!chooseOrg(select.value)) select.value = orgId ?? '';
            }} aria-label="Organization">
              {(orgs.value ?? []).map((o) => <option key={o.id} value={o.id} dir="auto">{o.name}</option>)}
            </select>
          </label>
        ) : (
          <span class="org-name" dir="auto">{session.me.organization.name}</span>
        )}
        <span class="badge" title="The role the console acts with">{session.kind === 'admin' ? 'admin key' : `role: ${session.me.user.role}`}</span>
        <button type="button" class="link-button" onClick={signOut}>Sign out</button>
      </header>
      <nav class="tabs" aria-label="Views">
        {nav.map((n) => (
          <a key={n.route} href={href(n.route)} aria-current={section === n.route ? 'page' : undefined}>{n.label}</a>
        ))}
      </nav>
      <main id="main" ref={main} tabIndex={-1}>
        <ErrorBox error={orgs.error} />
        {section === 'orgs' && control ? (
          <OrganizationsView orgs={orgs.value ?? null} control={control} current={orgId} onChoose={chooseOrg} reload={orgs.reload} />
        ) : !ctx ? (
          orgs.loading ? <Loading what="organizations" /> : <p>No organization yet: create one under <a href={href('orgs')}>Organizations</a>.</p>
        ) : (
          // One organization's view never shows another's: what it said or was given (a notice, a
          // form's text, a secret shown once) goes with it when another organization is chosen.
          <View key={ctx.org.id} route={route} section={section} />
        )}
      </main>
    </ConsoleContext.Provider>
  );
}

function View({ route, section }: { route: string[]; section: string }) {
  const [, object, id] = route;
  switch (section) {
    case 'data':
      if (!object) return <ObjectsView />;
      if (!id) return <RecordsView object={object} />;
      return <RecordView object={object} id={id === 'new' ? null : id} />;
    case 'usage':
      return <UsageView />;
    case 'webhooks':
      return <WebhooksView id={route[1] ?? null} />;
    case 'requests':
      return <RequestsView requestId={route[1] ?? null} />;
    case 'toolkit':
      return <ToolkitView />;
    case 'admin':
      return <AdminView />;
    default:
      return <p>Nothing here. Go to <a href={href('data')}>Data</a>.</p>;
  }
}
