// Organizations (admin key): every organization of the server with its plan and minute limit, the
// one the views show, and a form that creates one (its primary user's token shown once).

import { useState } from 'preact/hooks';
import type { Organization } from '../api.js';
import type { ControlCall } from '../context.js';
import { ErrorBox, formatInstant, Loading, PageTitle, useAction } from '../ui.js';
import { ShownOnce } from './admin.js';

const PLANS = ['free', 'standard', 'professional', 'enterprise'];

export function OrganizationsView({ orgs, control, current, onChoose, reload }: {
  orgs: Organization[] | null; control: ControlCall; current: string | null; onChoose: (id: string) => void; reload: () => void;
}) {
  const act = useAction();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [plan, setPlan] = useState('standard');
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const create = (e: Event) => {
    e.preventDefault();
    void act.run(async () => {
      const r = await control<{ organization: Organization; token: string }>('POST', '/organizations', { name, email, plan });
      setMade({ name: r.organization.name, token: r.token });
      setName('');
      setEmail('');
      reload();
      onChoose(r.organization.id);
    });
  };
  return (
    <section>
      <PageTitle>Organizations</PageTitle>
      {!orgs ? <Loading what="organizations" /> : (
        <div class="table-wrap">
          <table class="grid stackable" aria-label="Organizations">
            <thead><tr><th scope="col">Organization</th><th scope="col">Plan</th><th scope="col" class="num">Per minute</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {orgs.map((o) => (
                <tr key={o.id} class={o.id === current ? 'selected' : undefined}>
                  <th scope="row"><bdi>{o.name}</bdi> <code class="muted small">{o.id}</code></th>
                  <td>{o.plan}</td>
                  <td class="num">{o.minuteLimit}</td>
                  <td>{formatInstant(o.createdAt)}</td>
                  <td>{o.id === current ? <span class="badge">shown</span> : <button type="button" aria-label={`Show ${o.name}`} onClick={() => onChoose(o.id)}>Show</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>New organization</h2>
      <form class="inline wrap" onSubmit={create} aria-label="Create an organization">
        <label>Name <input type="text" dir="auto" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} /></label>
        <label>Primary user's e-mail <input type="email" required value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} /></label>
        <label>Plan <select value={plan} onChange={(e) => setPlan((e.target as HTMLSelectElement).value)}>{PLANS.map((p) => <option key={p} value={p}>{p}</option>)}</select></label>
        <button type="submit" class="primary" disabled={act.busy}>Create</button>
      </form>
      <ErrorBox error={act.error} />
      {made && <ShownOnce token={made.token} what={`the token of ${made.name}'s primary user`} />}
    </section>
  );
}
