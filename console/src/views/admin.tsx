// Admin: the organization's plan and minute limit, its users (role, disable, delete), their tokens
// (create and rotate shown once, revoke) and its roles (define, edit, delete) — the people and tokens
// calls of the control API.

import { Fragment, type ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Role, TokenInfo, User } from '../api.js';
import { useConsole } from '../context.js';
import { Confirm, ErrorBox, formatInstant, Loading, PageTitle, useAction, useLoad } from '../ui.js';

const PLANS = ['free', 'standard', 'professional', 'enterprise'];

export function AdminView() {
  const c = useConsole();
  const roles = useLoad((signal) => c.control<{ items: Role[] }>('GET', `/organizations/${c.org.id}/roles`, undefined, signal), [c.org.id]);
  return (
    <section>
      <PageTitle>Admin</PageTitle>
      <PlanPanel key={c.org.id} />
      <UsersPanel key={c.org.id} roles={roles.value?.items ?? []} />
      <RolesPanel roles={roles.value?.items ?? null} error={roles.error} reload={roles.reload} />
    </section>
  );
}

/**
 * A token shown once, with a button that copies it; `what`, what it is ("the token of sam@…"), names
 * both; `children`, what else to know about it, below.
 */
export function ShownOnce({ token, what, children }: { token: string; what: string; children?: ComponentChildren }) {
  // null until Copy is pressed; false when the browser would not copy.
  const [copied, setCopied] = useState<boolean | null>(null);
  const shown = useRef<HTMLElement>(null);
  // A page reached over plain http at another address than localhost (HOST=0.0.0.0) has no
  // clipboard, and a browser may refuse it: the token is selected for the user to copy instead.
  const copy = () => {
    const refused = () => {
      setCopied(false);
      if (shown.current) getSelection()?.selectAllChildren(shown.current);
    };
    if (!navigator.clipboard) return refused();
    navigator.clipboard.writeText(token).then(() => setCopied(true), refused);
  };
  return (
    <div class="once" role="status">
      <p><strong>{what[0]!.toUpperCase()}{what.slice(1)}.</strong> It is shown only now: copy it.</p>
      <code class="token" data-token ref={shown}>{token}</code>{' '}
      {/* Named after what it copies: two of these can be on screen at once (a new user's token, another user's). */}
      <button type="button" onClick={copy} aria-label={`${copied ? 'Copied' : 'Copy'} ${what}`}>{copied ? 'Copied' : 'Copy'}</button>
      {copied === false && <p class="error-text" role="alert">Not copied: this browser lets a page copy only over https or from localhost. The token is selected: copy it with Ctrl+C (⌘C on a Mac).</p>}
      {children && <p class="after">{children}</p>}
    </div>
  );
}

function PlanPanel() {
  const c = useConsole();
  const [plan, setPlan] = useState(c.org.plan);
  const [limit, setLimit] = useState(String(c.org.minuteLimit));
  const act = useAction();
  const [saved, setSaved] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    setSaved(false);
    void act.run(async () => {
      await c.control('PATCH', `/organizations/${c.org.id}`, { plan, minuteLimit: Number(limit) });
      setSaved(true);
      c.refresh();
    });
  };
  return (
    <section class="panel" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan and minute limit</h2>
      <form class="inline" onSubmit={submit}>
        <label>Plan <select value={plan} onChange={(e) => setPlan((e.target as HTMLSelectElement).value)}>
          {PLANS.map((p) => <option key={p} value={p}>{p}</option>)}
        </select></label>
        <label>Requests a minute <input type="number" min={1} value={limit} onInput={(e) => setLimit((e.target as HTMLInputElement).value)} /></label>
        <button type="submit" class="primary" disabled={act.busy}>Save</button>
        {saved && <span role="status" class="muted">Saved: applied from the next request.</span>}
      </form>
      <ErrorBox error={act.error} />
    </section>
  );
}

function UsersPanel({ roles }: { roles: Role[] }) {
  const c = useConsole();
  const users = useLoad((signal) => c.control<{ items: User[] }>('GET', `/organizations/${c.org.id}/users`, undefined, signal), [c.org.id]);
  const act = useAction();
  // The form's own: a refused user (an e-mail taken) is told by the form, not above the table.
  const adding = useAction();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('admin');
  // A new user's token, shown once until that token is rotated or revoked under Tokens (the reply
  // names no token id: it is the user's token ending as it does).
  const [made, setMade] = useState<{ userId: string; email: string; token: string } | null>(null);
  const gone = (user: User, t: TokenInfo) => setMade((m) => (m?.userId === user.id && t.last4 && m.token.endsWith(t.last4) ? null : m));
  const [open, setOpen] = useState<string | null>(null);
  // The role chosen in a user's select, given only when "Change role" is pressed: the arrow keys
  // move through the choices, and each would otherwise be granted in turn. A choice stays until the
  // list read again shows the user with that role (or without the user), so neither a read under way
  // as it is made drops it nor does the select show the old role while the change is saved.
  const [chosen, setChosen] = useState<Record<string, string>>({});
  useEffect(() => {
    const items = users.value?.items;
    if (items) setChosen((c) => Object.fromEntries(Object.entries(c).filter(([id, r]) => items.some((u) => u.id === id && u.role !== r))));
  }, [users.value]);
  const choose = (id: string, role: string) => setChosen((c) => ({ ...c, [id]: role }));
  const run = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: object) => act.run(async () => {
    await c.control(method, path, body);
    users.reload();
  });
  const create = (e: Event) => {
    e.preventDefault();
    void adding.run(async () => {
      const r = await c.control<{ user: User; token: string }>('POST', `/organizations/${c.org.id}/users`, { email, role });
      setMade({ userId: r.user.id, email: r.user.email, token: r.token });
      setEmail('');
      users.reload();
    });
  };
  const roleNames = roles.length ? roles.map((r) => r.name) : ['admin'];
  return (
    <section class="panel" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <ErrorBox error={users.error ?? act.error} />
      {!users.value ? <Loading what="users" /> : (
        <div class="table-wrap">
          <table class="grid stackable" aria-label="Users">
            <thead><tr><th scope="col">User</th><th scope="col">Role</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {users.value.items.map((u) => (
                <Fragment key={u.id}>
                  <tr data-user={u.email}>
                    <th scope="row"><bdi>{u.fullname}</bdi> <span class="muted small">{u.email}</span></th>
                    <td>
                      <select aria-label={`Role of ${u.email}`} value={chosen[u.id] ?? u.role} onChange={(e) => choose(u.id, (e.target as HTMLSelectElement).value)}>
                        {[...new Set([...roleNames, u.role, chosen[u.id] ?? u.role])].map((r) => <option key={r} value={r}>{r}</option>)}
                      </select>
                      {chosen[u.id] !== undefined && chosen[u.id] !== u.role && (
                        <button type="button" class="change-role" aria-label={`Change the role of ${u.email} to ${chosen[u.id]}`} disabled={act.busy} onClick={() => void run('PATCH', `/users/${u.id}`, { role: chosen[u.id] })}>Change role</button>
                      )}
                    </td>
                    <td>{u.disabled ? `disabled since ${formatInstant(u.disabledAt)}` : 'enabled'}</td>
                    <td class="actions-cell">
                      <button type="button" aria-label={`Tokens of ${u.email}`} aria-expanded={open === u.id} onClick={() => setOpen(open === u.id ? null : u.id)}>Tokens</button>
                      <button type="button" aria-label={`${u.disabled ? 'Enable' : 'Disable'} ${u.email}`} onClick={() => run('PATCH', `/users/${u.id}`, { disabled: !u.disabled })}>{u.disabled ? 'Enable' : 'Disable'}</button>
                      {/* Deleting revokes every token of the user. */}
                      <Confirm label="Delete" labelledAs={`Delete ${u.email}`} ask={`Confirm deleting ${u.email}`} confirm={`Delete ${u.email} for good`} onConfirm={() => void run('DELETE', `/users/${u.id}`)} />
                    </td>
                  </tr>
                  {open === u.id && (
                    <tr><td colSpan={4}><Tokens user={u} onGone={(t) => gone(u, t)} /></td></tr>
                  )}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="inline" onSubmit={create} aria-label="Add a user">
        <label>E-mail <input type="email" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} /></label>
        <label>Role <select value={role} onChange={(e) => setRole((e.target as HTMLSelectElement).value)}>
          {roleNames.map((r) => <option key={r} value={r}>{r}</option>)}
        </select></label>
        <button type="submit" disabled={adding.busy}>Add user</button>
      </form>
      <ErrorBox error={adding.error} />
      {made && <ShownOnce token={made.token} what={`the token of ${made.email}`} />}
    </section>
  );
}

/** `onGone`: told of each token of the user revoked or rotated here. */
function Tokens({ user, onGone }: { user: User; onGone: (t: TokenInfo) => void }) {
  const c = useConsole();
  const tokens = useLoad((signal) => c.control<{ items: TokenInfo[] }>('GET', `/users/${user.id}/tokens`, undefined, signal), [user.id]);
  // The tokens this tab made to open the data: revoking one is allowed (the console makes another).
  const consoles = new Set(c.session.kind === 'admin' ? Object.values(c.session.dataTokens).map((t) => t.tokenId) : []);
  const act = useAction();
  // The token shown once stays until it is itself revoked (or another is made): revoking another one keeps it.
  const [shown, setShown] = useState<{ id: string; token: string; what: string } | null>(null);
  const make = (path: string, what: string, replacing?: TokenInfo) => act.run(async () => {
    const r = await c.control<{ token: string; created: { id: string } }>('POST', path);
    setShown({ id: r.created.id, token: r.token, what });
    if (replacing) onGone(replacing);
    tokens.reload();
  });
  const revoke = (t: TokenInfo) => act.run(async () => {
    await c.control('POST', `/tokens/${t.id}/revoke`);
    setShown((s) => (s?.id === t.id ? null : s));
    onGone(t);
    tokens.reload();
  });
  return (
    <div class="tokens" aria-label={`Tokens of ${user.email}`} role="region">
      <ErrorBox error={tokens.error ?? act.error} />
      {!tokens.value ? <Loading what="tokens" /> : (
        <table class="grid compact stackable" aria-label={`Tokens of ${user.email}`}>
          <thead><tr><th scope="col">Token</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">State</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {tokens.value.items.map((t) => (
              <tr key={t.id} data-token-id={t.id} data-last4={t.last4 ?? ''}>
                <td><code>…{t.last4 ?? '????'}</code></td>
                <td>{formatInstant(t.createdAt)}</td>
                <td>{formatInstant(t.lastUsedAt)}</td>
                <td>{t.revokedAt ? `revoked ${formatInstant(t.revokedAt)}` : 'live'}{!t.revokedAt && consoles.has(t.id) && <span class="muted small"> · used by this console</span>}</td>
                <td class="actions-cell">
                  {!t.revokedAt && (
                    <>
                      <button type="button" aria-label={`Rotate token …${t.last4 ?? ''}`} onClick={() => make(`/tokens/${t.id}/rotate`, `the new token replacing …${t.last4 ?? ''}`, t)}>Rotate</button>
                      <Confirm label="Revoke" labelledAs={`Revoke token …${t.last4 ?? ''}`} ask={`Confirm revoking token …${t.last4 ?? ''}`} confirm={`Revoke …${t.last4 ?? ''} for good`} onConfirm={() => void revoke(t)} busy={act.busy} />
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" onClick={() => make(`/users/${user.id}/tokens`, `a new token for ${user.email}`)}>New token</button>
      {shown && <ShownOnce token={shown.token} what={shown.what} />}
    </div>
  );
}

function RolesPanel({ roles, error, reload }: { roles: Role[] | null; error: unknown; reload: () => void }) {
  const c = useConsole();
  const act = useAction();
  // Its own action: a refused deletion (a user still holds the role) shows above the table, not in the form.
  const removal = useAction();
  const [name, setName] = useState('');
  const [grant, setGrant] = useState('');
  const [hide, setHide] = useState('');
  const [readonly, setReadonly] = useState('');
  const edit = (r: Role) => {
    const entries = Object.entries(r.grants);
    setName(r.name);
    setGrant(entries.map(([o, g]) => `${o}:${g.permissions.join(',')}`).join(';'));
    setHide(entries.flatMap(([o, g]) => g.hidden.map((f) => `${o}:${f}`)).join(','));
    setReadonly(entries.flatMap(([o, g]) => g.readOnly.map((f) => `${o}:${f}`)).join(','));
  };
  const submit = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      await c.control('PUT', `/organizations/${c.org.id}/roles/${encodeURIComponent(name)}`, { grant, ...(hide ? { hide } : {}), ...(readonly ? { readonly } : {}) });
      reload();
    });
  };
  const remove = (r: Role) => void removal.run(async () => {
    await c.control('DELETE', `/organizations/${c.org.id}/roles/${encodeURIComponent(r.name)}`);
    reload();
  });
  return (
    <section class="panel" aria-labelledby="roles-title">
      <h2 id="roles-title">Roles</h2>
      <ErrorBox error={error ?? removal.error} />
      {!roles ? <Loading what="roles" /> : (
        <div class="table-wrap">
          <table class="grid stackable" aria-label="Roles">
            <thead><tr><th scope="col">Role</th><th scope="col">May</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {roles.map((r) => (
                <tr key={r.name}>
                  <th scope="row">{r.name}</th>
                  <td>{r.builtIn ? 'everything, on every object the plan includes' : Object.entries(r.grants).map(([o, g]) => (
                    <div key={o}><code>{o}</code>: {g.permissions.join(', ') || 'nothing'}{g.hidden.length ? `; hidden ${g.hidden.join(', ')}` : ''}{g.readOnly.length ? `; read-only ${g.readOnly.join(', ')}` : ''}</div>
                  ))}</td>
                  <td class="actions-cell">{!r.builtIn && (
                    <>
                      <button type="button" aria-label={`Edit role ${r.name}`} onClick={() => edit(r)}>Edit</button>
                      {/* Refused while a user holds the role: the error names them. */}
                      <Confirm label="Delete" labelledAs={`Delete role ${r.name}`} ask={`Confirm deleting role ${r.name}`} confirm={`Delete role ${r.name} for good`} onConfirm={() => remove(r)} busy={removal.busy} />
                    </>
                  )}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form class="stack" onSubmit={submit} aria-label="Define a role">
        <label>Role name <input type="text" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} placeholder="sales" /></label>
        <label>Grants <input type="text" required value={grant} onInput={(e) => setGrant((e.target as HTMLInputElement).value)} placeholder="account:read,create,update;contact:read" /></label>
        <label>Hidden fields <input type="text" value={hide} onInput={(e) => setHide((e.target as HTMLInputElement).value)} placeholder="account:telephone1" /></label>
        <label>Read-only fields <input type="text" value={readonly} onInput={(e) => setReadonly((e.target as HTMLInputElement).value)} placeholder="account:emailaddress1" /></label>
        <button type="submit">Save role</button>
        <ErrorBox error={act.error} />
      </form>
    </section>
  );
}
